/**
 * The verdict of a robustness case, decided in one place: one pure function (judgeRobustness) turns
 * the case's own verdict (its judge, on what the engine measured of the attack) and the facts the
 * engine and the driver gathered around it (how long the connection lasted and who ended it, what
 * wsgate wrote, whether the attack ran past the case's limit, whether the server still served
 * afterwards, whether the client process died, how much the peer's process tree grew and whether a
 * process of it ended) into the verdict, the result text and the figures beside their budgets. The
 * run skeleton calls it once per case (run/conclude.ts; run/serve.ts where there is no skeleton).
 */
import type { AttackBudget } from '../cases/types.js';
import { budgetFigure, statedFigure, type AttackFacts, type AttackRecord, type Figure } from '../model/figures.js';
import type { ClientCrash, LivenessDown, LivenessNext, PeerFound } from '../model/peer.js';

/** A client's crash as the verdict reads it: how it ended, worded (explain/peer-words.ts), and when. */
export interface CrashSaid {
  readonly how: string;
  readonly when: ClientCrash['when'];
  /** A browser's page that stopped asking for cases, not a process that died. */
  readonly hung?: true;
}
import type { CaseResult } from '../model/report.js';
export type { AttackFacts, AttackRecord } from '../model/figures.js';
import { Behavior, type OutcomeVerdict } from '../model/verdicts.js';
import { DEFAULT_BUDGETS, scaledMs, type RobustnessBudgets } from '../cases/data/budgets.js';

/** The peer's process tree's memory over one case (processes/tree-memory.ts), or why it was not measured. */
export type PeerMemory =
  | {
      readonly measured: true;
      readonly baselineBytes: number;
      readonly peakBytes: number;
      readonly growthBytes: number;
      readonly samples: number;
      /** CPU time the tree spent over the window (user and kernel, 10 ms ticks), in ms. */
      readonly cpuMs?: number;
      /** Processes of the tree (not its root) that ended during the case while the root lived on ("pid 123, node"); watched for servers only. */
      readonly ended?: readonly string[];
      /** Live processes of the tree at the close that it did not have, settled, at the start (those that took the ended ones' places). */
      readonly joined?: number;
      /** How much less the peak is for counting each ended process and a successor living beside it once (tree-memory.ts placesPeak). */
      readonly handoverBytes?: number;
      /**
       * How the ended processes were told apart (peer/pool.ts): `crash`, the peer's output during the
       * case names an error or a fatal signal (its line), or none took their places; `retired`, as many
       * took their places and the output names no error (a pool retiring workers). Absent: none ended.
       */
      readonly endedAs?: { readonly kind: 'crash'; readonly evidence: string } | { readonly kind: 'retired'; readonly output: boolean };
      /** How the tree was found, when not as the command's (by its listening socket); absent: the command's process tree. */
      readonly found?: PeerFound;
    }
  | { readonly measured: false; readonly why: string };

/** What a driver saw of the peer around a robustness case: facts, never verdict text. */
export interface PeerFacts {
  /** The peer's tree's memory over the case; null: wsgate did not start the peer. */
  readonly memory: PeerMemory | null;
  /** The attack of a server was cut at the case's hard limit (its seconds), or absent. */
  readonly cutAtS?: number;
  /**
   * The server after the case (absent for a client): it served a normal case on a fresh connection
   * (`down` null; `processAlive` when wsgate started it and saw it alive), or what it did instead and
   * what happens next (restarted for the next case, or the remaining cases not run).
   */
  readonly liveness?: { readonly down: null; readonly processAlive: boolean } | { readonly down: LivenessDown; readonly next: LivenessNext };
  /** The client did not survive the attack: its process died on its own, or a browser's page stopped asking for cases. */
  readonly crash?: ClientCrash;
}

/**
 * The facts as the verdict reads them: the liveness check worded (by the run skeleton, with
 * explain/peer-words.ts), the rest as told.
 */
export type PeerSaid = Omit<PeerFacts, 'liveness' | 'crash'> & {
  readonly liveness?: { readonly down: null; readonly processAlive: boolean } | { readonly down: string; readonly next: string };
  readonly crash?: CrashSaid;
};

/** A robustness case's verdict: the outcome, its text, its figures. */
export interface RobustnessVerdict {
  readonly behavior: OutcomeVerdict;
  readonly result: string;
  readonly figures: readonly Figure[];
}

/** A count with thousands separators ("1,045,760"). */
function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Bytes in MiB with one decimal ("12.3 MiB"); whole MiB without it ("256 MiB"). */
export function mebibytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${mib.toFixed(1)} MiB`;
}

/** A case of the robustness profile (an attack played raw, or a scripted case with an attack budget). */
export function isRobustness(def: { readonly attack?: unknown; readonly attackBudget?: unknown }): boolean {
  return def.attack !== undefined || def.attackBudget !== undefined;
}

/** What judging accumulates: the outcome, its text, its figures. */
interface Said {
  behavior: OutcomeVerdict;
  text: string;
  figures: Figure[];
}

/** The connection's time beside its budget and who ended it, and what wsgate wrote; over budget, FAILED. */
function connectionFigures(said: Said, attack: AttackBudget, facts: AttackFacts, budgets: RobustnessBudgets): void {
  const budgetMs = attack.stall === true ? budgets.stallMs : scaledMs(attack.closeWithinMs, budgets);
  const who = facts.droppedByMe ? 'wsgate ended it' : 'the peer ended it';
  const figures =
    `Measured: the connection ended ${count(facts.durationMs)} ms after the attack began (budget ${count(budgetMs)} ms; ${who}); ` +
    `wsgate had written ${count(facts.sentBytes)} bytes while it was open.`;
  const over = facts.durationMs > budgetMs && (said.behavior === Behavior.Ok || said.behavior === Behavior.NonStrict);
  said.figures.push(
    { ...budgetFigure('connection-ms', 'the connection ended after the attack began', facts.durationMs, 'ms', budgetMs), over },
    statedFigure('sent-bytes', 'wsgate wrote while the connection was open', facts.sentBytes, 'bytes'),
  );
  if (!over) {
    said.text = `${said.text} ${figures}`;
    return;
  }
  const late =
    facts.droppedByMe || facts.closedByMe
      ? `the peer had not ended the connection ${count(budgetMs)} ms after the attack began`
      : `the peer ended the connection only ${count(facts.durationMs)} ms after the attack began`;
  said.behavior = Behavior.Failed;
  said.text = `Over budget: ${late}. ${figures}`;
}

/** Whether the server served a normal case afterwards, and what happens next when it did not. */
function livenessSaid(said: Said, liveness: NonNullable<PeerSaid['liveness']>): void {
  if (liveness.down === null) {
    said.text = `${said.text} Afterwards a normal case on a fresh connection passed (echoed)${liveness.processAlive ? ', and the server process is alive' : ''}.`;
    return;
  }
  said.behavior = Behavior.Failed;
  said.text = `${said.text} Afterwards ${liveness.down}; ${liveness.next}.`;
}

/** The memory figure, and the processes of the tree that ended; over budget, or a process ended, FAILED. */
function memorySaid(said: Said, memory: PeerMemory | null, budgetBytes: number): void {
  const text = said.text.replace(/\s+$/, '');
  if (memory === null || !memory.measured) {
    said.text = `${text} The peer's memory was not measured (${memory === null ? 'wsgate did not start it' : memory.why}).`;
    return;
  }
  // A case that failed on its own figure keeps it first: the memory figure follows it.
  const failedAlready = said.behavior === Behavior.Failed;
  const retired = memory.endedAs?.kind === 'retired';
  const ended = retired ? [] : (memory.ended ?? []);
  let lead = text;
  if (memory.ended !== undefined)
    said.figures.push(budgetFigure('tree-deaths', "processes of the peer's tree that ended during the case", ended.length, 'count', 0));
  const which = (list: readonly string[]): string =>
    list.length === 1 ? `A process of the peer's tree (${list[0]})` : `${list.length} processes of the peer's tree (${list.join('; ')})`;
  if (ended.length > 0) {
    // A supervisor (Node's cluster, a pre-fork server) replaces a worker the attack killed: the root alone looks alive.
    said.behavior = Behavior.Failed;
    const why = memory.endedAs?.kind === 'crash' ? ` (${memory.endedAs.evidence})` : '';
    lead = `${which(ended)} ended during the case while its root process lived on: a worker died of the attack${why}, whatever replaced it. ${text}`;
  }
  if (retired) {
    const gone = memory.ended ?? [];
    said.figures.push(
      statedFigure('tree-retired', "processes of the peer's tree that ended during the case and were replaced, with no error said", gone.length, 'count'),
    );
    const output =
      memory.endedAs?.kind === 'retired' && memory.endedAs.output
        ? 'its output during the case names no error or fatal signal'
        : 'wsgate does not have its output';
    const replaced = gone.length === 1 ? 'another took its place' : 'as many others took their places';
    lead = `${text} ${which(gone)} ended during the case and ${replaced}, and ${output}: a pool retiring workers, not counted as a death (the exit status of a process wsgate did not start cannot be read).`;
  }
  said.figures.push(budgetFigure('memory-growth-bytes', "the peer's process tree grew by, at its peak", memory.growthBytes, 'bytes', budgetBytes));
  const figure =
    `${treeWords(memory)} grew by ${mebibytes(memory.growthBytes)} at its peak (budget ${mebibytes(budgetBytes)}; ` +
    `resident ${mebibytes(memory.baselineBytes)} at the start, ${mebibytes(memory.peakBytes)} at the peak, ${count(memory.samples)} samples` +
    ((memory.handoverBytes ?? 0) > 0
      ? `; each ended process and its successor counted once while both lived, ${mebibytes(memory.handoverBytes ?? 0)} less`
      : '') +
    ')';
  if (memory.growthBytes <= budgetBytes) {
    said.text = `${lead} Measured: ${figure}.`;
    return;
  }
  said.behavior = Behavior.Failed;
  said.text = failedAlready || ended.length > 0 ? `${lead} Also over budget: ${figure}.` : `Over budget: ${figure}. ${lead}`;
}

/** The tree measured, as the result says it: the command's, or the one found by its listening socket (and why). */
function treeWords(memory: { readonly found?: PeerFound }): string {
  const f = memory.found;
  if (f === undefined) return "the peer's process tree";
  const why = f.why === 'detached' ? "outside the command's process tree, which a launcher left" : 'wsgate did not start it';
  const socket = f.by === 'connection' ? `its connection's socket (from port ${f.port})` : `its socket listening on port ${f.port}`;
  return `the peer's process tree (pid ${f.pid}, ${f.name}, found by ${socket}: ${why})`;
}

/** How the client process died, as the result and the gate's reason say it ("the client process died before its close (CVE-…): it …"). */
export function crashWords(attack: AttackBudget | null, crash: CrashSaid): string {
  return crashWordsFor(attack?.advisory ?? null, crash);
}

/** The same, from the attack's advisory (null: the case has none). */
export function crashWordsFor(advisoryLine: string | null, crash: CrashSaid): string {
  const advisory = advisoryLine?.split(':')[0] ?? '';
  return crash.hung === true
    ? `the client stopped answering, its page hung (${advisory}): ${crash.how}`
    : `the client process died ${crash.when} (${advisory}): it ${crash.how}`;
}

/**
 * The CPU time the peer's tree spent over the case beside the case's CPU budget (a case with one:
 * the cost of parsing what it sent, which neither bytes nor time show on a fast machine); over, FAILED.
 */
function cpuSaid(said: Said, memory: PeerMemory | null, budgetMs: number): void {
  if (memory === null || !memory.measured || memory.cpuMs === undefined) {
    said.text = `${said.text} Its CPU time was not measured either: the case is judged on the answer alone.`;
    return;
  }
  said.figures.push(budgetFigure('cpu-ms', "CPU time the peer's process tree spent over the case", memory.cpuMs, 'ms', budgetMs));
  const figure = `${treeWords(memory)} spent ${count(memory.cpuMs)} ms of CPU time over the case (budget ${count(budgetMs)} ms)`;
  if (memory.cpuMs <= budgetMs) {
    said.text = `${said.text} Measured: ${figure}.`;
    return;
  }
  const failedAlready = said.behavior === Behavior.Failed;
  said.behavior = Behavior.Failed;
  said.text = failedAlready ? `${said.text} Also over budget: ${figure}.` : `Over budget: ${figure}. ${said.text}`;
}

/**
 * The one verdict of a robustness case: its own verdict, then in order the connection's figures (a
 * scripted case), the attack cut at the case's limit, the liveness check, the client's death, the
 * memory figure, the CPU figure (a case with a CPU budget). Each fact that fails the case makes it FAILED and says why first or after, keeping
 * what was said before. An UNIMPLEMENTED case gets no connection figures. Pure.
 */
export function judgeRobustness(
  attack: AttackBudget | null,
  record: AttackRecord,
  peer: PeerSaid,
  budgets: RobustnessBudgets = DEFAULT_BUDGETS,
  memoryBudgetBytes: number = budgets.memoryGrowth,
  cpuBudgetMs: number | null = null,
): RobustnessVerdict {
  const said: Said = { behavior: record.own.behavior, text: record.own.result, figures: [...record.own.figures] };
  if (record.connection !== null && attack !== null && said.behavior !== Behavior.Unimplemented) connectionFigures(said, attack, record.connection, budgets);
  if (peer.cutAtS !== undefined) {
    said.behavior = Behavior.Failed;
    said.text = `The attack did not end within the case's limit of ${peer.cutAtS} s: the server answered too slowly. ${said.text}`;
  }
  if (peer.liveness !== undefined) livenessSaid(said, peer.liveness);
  if (peer.crash !== undefined) {
    said.text = `${crashWords(attack, peer.crash)}. The case's own verdict was ${said.behavior}: ${said.text}`;
    said.behavior = Behavior.Failed;
  }
  memorySaid(said, peer.memory, memoryBudgetBytes);
  if (cpuBudgetMs !== null) cpuSaid(said, peer.memory, cpuBudgetMs);
  return { behavior: said.behavior, result: said.text, figures: said.figures };
}

/** A result's record for judging: the one the engine kept, or (a report without one) the result as it stands. */
export function recordOf(result: CaseResult): AttackRecord {
  return result.attack ?? { own: { behavior: result.behavior, result: result.result, figures: [] }, connection: null };
}
