/**
 * A robustness case's own figures (the engine adds the connection's, the memory's, the CPU's:
 * play/attack-figures.ts): how a judge builds them, and how a scripted case's figures, given with
 * its outcome (t.setOutcome), reach its verdict. Each figure states a number its result's text
 * states; the text is unchanged by them.
 */
import { budgetFigure, statedFigure, type Figure, type Judgement } from '../cases/judgement.js';
import type { AdjustFacts } from '../cases/types.js';

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

/**
 * A scripted case's verdict as its `adjust` made it (`adjusted`), with the figures the case gave
 * with its outcome (setOutcome: AdjustFacts.outcomeFigures, present when the verdict's text is that
 * outcome's) after any the adjustment set.
 */
export function withOwnFigures(facts: AdjustFacts, adjusted: Judgement): Judgement {
  const own = facts.outcomeFigures ?? [];
  if (own.length === 0) return adjusted;
  return { ...adjusted, figures: [...(adjusted.figures ?? []), ...own] };
}

/** The `adjust` of a case whose only adjustment is its figures: its verdict's words as judged (a repro script applies none). */
export function ownFiguresOnly(verdict: Judgement, facts: AdjustFacts): Judgement {
  return withOwnFigures(facts, verdict);
}
