/**
 * A robustness case's own figures (the engine adds the connection's, the memory's, the CPU's:
 * play/attack-figures.ts): how a judge builds them, and how a scripted case's figures reach its
 * verdict. Each figure states a number its result's text states; the text is unchanged by them.
 */
import type { OutcomeVerdict } from '../../model/verdicts.js';
import { budgetFigure, statedFigure, type Figure, type Judgement } from '../judgement.js';
import type { CaseContext } from '../types.js';

/**
 * A figure held to a budget whose `over` the judge decides: the verdict failed on it (a wait that ran
 * out at its budget), or did not though the value is past the budget (it failed for another reason).
 */
export function judgedFigure(name: string, label: string, value: number, unit: Figure['unit'], budget: number, over: boolean): Figure {
  return { ...budgetFigure(name, label, value, unit, budget), over };
}

/** The length of a message the peer echoed where it should not have (or not the one sent); beside the limit it was past, if any. */
export function echoedFigure(length: number, limit?: number): Figure {
  const label = 'the peer echoed a message of';
  return limit === undefined ? statedFigure('echoed-bytes', label, length, 'bytes') : budgetFigure('echoed-bytes', label, length, 'bytes', limit);
}

// A scripted case sets its outcome through CaseContext.setOutcome, which takes a text alone, and its
// `adjust` sees the verdict but not the context: the figures it states with an outcome wait here,
// under the outcome's text, until its `adjust` (withOwnFigures) puts them on the verdict. A text
// states its figures, so connections that set the same text state the same figures; each connection
// holds one entry at a time, let go when it sets another outcome or when its verdict takes it (a
// connection sets no outcome after its verdict). setOutcome taking figures would replace this.
interface Held {
  figures: readonly Figure[];
  holders: number;
}
const byText = new Map<string, Held>();
const heldBy = new WeakMap<CaseContext, string>();

function letGo(text: string): void {
  const held = byText.get(text);
  if (held === undefined) return;
  held.holders -= 1;
  if (held.holders <= 0) byText.delete(text);
}

/** t.setOutcome, with the figures the text states (none: an outcome without figures). */
export function stateOutcome(t: CaseContext, behavior: OutcomeVerdict, result: string, figures: readonly Figure[] = []): void {
  const before = heldBy.get(t);
  if (before !== undefined) letGo(before);
  heldBy.delete(t);
  t.setOutcome(behavior, result);
  if (figures.length === 0) return;
  byText.set(result, { figures, holders: (byText.get(result)?.holders ?? 0) + 1 });
  heldBy.set(t, result);
}

/**
 * A scripted case's verdict with the figures its outcome stated (stateOutcome): `verdict` as its
 * `adjust` got it (the outcome's text), `adjusted` what the adjustment made of it.
 */
export function withOwnFigures(verdict: Judgement, adjusted: Judgement = verdict): Judgement {
  const held = byText.get(verdict.result);
  if (held === undefined) return adjusted;
  letGo(verdict.result);
  return { ...adjusted, figures: [...(adjusted.figures ?? []), ...held.figures] };
}

/** The `adjust` of a case whose only adjustment is its figures: its verdict's words as judged (a repro script applies none). */
export function ownFiguresOnly(verdict: Judgement): Judgement {
  return withOwnFigures(verdict);
}
