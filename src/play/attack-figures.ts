/**
 * What a robustness case measured, stated beside its budget: the engine's one place for it (a case
 * only declares its AttackBudget). The figures are the connection's: how long after the attack began
 * (the open) the connection ended and who ended it, and how many bytes wsgate wrote while it was
 * open (what the peer was sent before it refused); and, when wsgate started the peer, how much its
 * process tree's resident memory grew (measured by the driver: processes/tree-memory.ts). A figure
 * over its budget fails the outcome. Pure.
 */
import type { AttackBudget, Judgement } from '../cases/types.js';
import { Behavior, type OutcomeVerdict } from '../model/verdicts.js';
import { DEFAULT_BUDGETS, scaledMs, type RobustnessBudgets } from '../cases/data/budgets.js';

/** The connection's facts the figures come from. */
export interface AttackFacts {
  /** ms from the open to the TCP close. */
  readonly durationMs: number;
  /** Octets wsgate wrote while the connection was open. */
  readonly sentBytes: number;
  /**
   * wsgate ended TCP (its timer ran out, or it dropped the connection after the closing handshake):
   * who ended the connection, not who started the closing handshake.
   */
  readonly droppedByMe: boolean;
  /** wsgate began the closing handshake (its limit ran out, or it closed after an echo). */
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
  const who = facts.droppedByMe ? 'wsgate ended it' : 'the peer ended it';
  const figures =
    `Measured: the connection ended ${count(facts.durationMs)} ms after the attack began (budget ${count(budget.closeWithinMs)} ms; ${who}); ` +
    `wsgate had written ${count(facts.sentBytes)} bytes while it was open.`;
  const over = facts.durationMs > budget.closeWithinMs && (verdict.behavior === Behavior.Ok || verdict.behavior === Behavior.NonStrict);
  if (over) {
    const late =
      facts.droppedByMe || facts.closedByMe
        ? `the peer had not ended the connection ${count(budget.closeWithinMs)} ms after the attack began`
        : `the peer ended the connection only ${count(facts.durationMs)} ms after the attack began`;
    return { ...verdict, behavior: Behavior.Failed, result: `Over budget: ${late}. ${figures}` };
  }
  return { ...verdict, result: `${verdict.result} ${figures}` };
}

/** A case of the robustness profile (an attack played raw, or a scripted case with an attack budget): it gets the memory figure. */
export function isRobustness(def: { readonly attack?: unknown; readonly attackBudget?: unknown }): boolean {
  return def.attack !== undefined || def.attackBudget !== undefined;
}

/** The peer's process tree's memory over one case (processes/tree-memory.ts), or why it was not measured. */
export type PeerMemory =
  | {
      readonly measured: true;
      readonly baselineBytes: number;
      readonly peakBytes: number;
      readonly growthBytes: number;
      readonly samples: number;
      /** Processes of the tree (not its root) that ended during the case while the root lived on ("pid 123, node"); watched for servers only. */
      readonly ended?: readonly string[];
    }
  | { readonly measured: false; readonly why: string };

/** Bytes in MiB with one decimal ("12.3 MiB"); whole MiB without it ("256 MiB"). */
export function mebibytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${mib.toFixed(1)} MiB`;
}

/** The part of a result the memory figure amends (a CaseResult is one). */
export interface AmendableResult {
  behavior: OutcomeVerdict;
  result: string;
}

/**
 * The memory figure after the result (null: wsgate did not start the peer, so nothing was measured);
 * growth over the case's memory budget (`budgetBytes`: data/budgets.ts's memoryBudgetOf) makes the
 * outcome FAILED with the figure first. Amends `result` in place.
 */
export function addMemoryFigure(result: AmendableResult, memory: PeerMemory | null, budgetBytes: number): void {
  const text = result.result.replace(/\s+$/, '');
  if (memory === null || !memory.measured) {
    const why = memory === null ? 'wsgate did not start it' : memory.why;
    result.result = `${text} The peer's memory was not measured (${why}).`;
    return;
  }
  // A case that failed on its own figure keeps it first: the memory figure follows it.
  const failedAlready = result.behavior === Behavior.Failed;
  const ended = memory.ended ?? [];
  let said = text;
  if (ended.length > 0) {
    // A supervisor (Node's cluster, a pre-fork server) replaces a worker the attack killed: the root alone looks alive.
    result.behavior = Behavior.Failed;
    const which = ended.length === 1 ? `A process of the peer's tree (${ended[0]})` : `${ended.length} processes of the peer's tree (${ended.join('; ')})`;
    said = `${which} ended during the case while its root process lived on: a worker died of the attack, whatever replaced it. ${text}`;
  }
  const figure =
    `the peer's process tree grew by ${mebibytes(memory.growthBytes)} at its peak (budget ${mebibytes(budgetBytes)}; ` +
    `resident ${mebibytes(memory.baselineBytes)} at the start, ${mebibytes(memory.peakBytes)} at the peak, ${count(memory.samples)} samples)`;
  if (memory.growthBytes > budgetBytes) {
    result.behavior = Behavior.Failed;
    result.result = failedAlready || ended.length > 0 ? `${said} Also over budget: ${figure}.` : `Over budget: ${figure}. ${said}`;
    return;
  }
  result.result = `${said} Measured: ${figure}.`;
}
