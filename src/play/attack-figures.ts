/**
 * What a robustness case measured, stated beside its budget: the engine's one place for it (a case
 * only declares its AttackBudget). The figures are the connection's: how long after the attack began
 * (the open) the connection ended and who ended it, and how many bytes wsgate wrote while it was
 * open (what the peer was sent before it refused). A figure over its budget fails the outcome. Pure.
 */
import type { AttackBudget, Judgement } from '../cases/types.js';
import { Behavior } from '../model/verdicts.js';
import { DEFAULT_BUDGETS, scaledMs, type RobustnessBudgets } from '../cases/data/budgets.js';

/** The connection's facts the figures come from. */
export interface AttackFacts {
  /** ms from the open to the TCP close. */
  readonly durationMs: number;
  /** Octets wsgate wrote while the connection was open. */
  readonly sentBytes: number;
  /** wsgate started the closing (its timer ran out, or it closed after an echo). */
  readonly closedByMe: boolean;
}

/** A count with thousands separators ("1,045,760"). */
function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** The verdict with the measured figures after its result; over budget, the outcome FAILED. */
export function withAttackFigures(verdict: Judgement, attack: AttackBudget, facts: AttackFacts, budgets: RobustnessBudgets = DEFAULT_BUDGETS): Judgement {
  if (verdict.behavior === Behavior.Unimplemented) return verdict;
  const budget = { ...attack, closeWithinMs: attack.stall === true ? budgets.stallMs : scaledMs(attack.closeWithinMs, budgets) };
  const who = facts.closedByMe ? 'wsgate ended it' : 'the peer ended it';
  const figures =
    `Measured: the connection ended ${count(facts.durationMs)} ms after the attack began (budget ${count(budget.closeWithinMs)} ms; ${who}); ` +
    `wsgate had written ${count(facts.sentBytes)} bytes while it was open.`;
  const over = facts.durationMs > budget.closeWithinMs && (verdict.behavior === Behavior.Ok || verdict.behavior === Behavior.NonStrict);
  if (over) {
    const late = facts.closedByMe ? 'the peer had not ended the connection' : 'the peer ended the connection only after';
    return { ...verdict, behavior: Behavior.Failed, result: `Over budget: ${late} ${count(budget.closeWithinMs)} ms after the attack began. ${figures}` };
  }
  return { ...verdict, result: `${verdict.result} ${figures}` };
}
