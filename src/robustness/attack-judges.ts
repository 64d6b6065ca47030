/**
 * The verdicts of the robustness cases against a server (group 17), as pure functions of what the
 * engine measured: each states its figures beside their budgets, in Autobahn's verdict words.
 */
import { Behavior, CloseBehavior, type OutcomeVerdict } from '../model/verdicts.js';
import type { GrowthFacts, ProbeFacts, SizedTime } from '../cases/attack-types.js';
import { ServerBudgets } from './data/attacks.js';
import { budgetFigure, statedFigure, type Figure, type Judgement } from '../cases/judgement.js';
import { DEFAULT_BUDGETS, scaledMs, type RobustnessBudgets } from '../cases/data/budgets.js';
import { judgedFigure } from './own-figures.js';

/** 12,345 */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** A duration as reports give it: 0.4 ms, 12 ms, 1,234 ms. */
export function millis(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${count(Math.round(ms))} ms`;
}

/** The judgement of an attack: the outcome as judged and its figures, the closing axis not in question. */
export function attackVerdict(behavior: OutcomeVerdict, result: string, figures: readonly Figure[] = []): Judgement {
  return { behavior, result, behaviorClose: CloseBehavior.Ok, resultClose: 'The attack does not judge the closing handshake.', figures };
}

/** A figure's name for one of an attack's probes: as it is for a single probe, numbered from 1 among several. */
export function probeFigureName(name: string, index: number, probes: number): string {
  return probes === 1 ? name : `probe-${index + 1}-${name}`;
}

/** What a probe got back, in words. */
export function answerText(p: ProbeFacts): string {
  if (p.status !== null) return `HTTP ${p.status} after ${millis(p.answerMs ?? 0)}`;
  if (p.ending === 'refused') return 'no connection (refused)';
  if (p.ending === 'timeout') return 'no answer';
  return `a dropped connection (${p.ending === 'reset' ? 'reset' : 'closed'}) with no answer`;
}

/** A probe the server never answered nor ended in time, or could not take at all. */
function unanswered(probes: readonly ProbeFacts[]): ProbeFacts | undefined {
  return probes.find((p) => p.status === null && (p.ending === 'timeout' || p.ending === 'refused'));
}

/**
 * A header of growing size: FAILED when any answer took longer than the budget, when a size went
 * unanswered, or when the time over a small value's grew super-linearly with the size.
 */
export function judgeGrowth(header: string, facts: GrowthFacts, budgets: RobustnessBudgets = DEFAULT_BUDGETS): Judgement {
  const b = { ...ServerBudgets, answerMs: scaledMs(ServerBudgets.answerMs, budgets) };
  const { base, largest, quarter } = facts;
  const hung = unanswered(facts.probes);
  if (hung !== undefined)
    return attackVerdict(Behavior.Failed, `${header} of ${count(hung.size)} bytes: ${answerText(hung)} within ${millis(hung.waitMs)}.`, [
      statedFigure('unanswered-bytes', `the size of ${header} no answer came for`, hung.size, 'bytes'),
      statedFigure('wait-ms', 'wsgate waited for the answer', hung.waitMs, 'ms'),
    ]);
  // A drop with no answer is a refusal that cost the server what it read first: its time is judged as an answer's.
  const slowestDrop = facts.probes.filter(droppedProbe).reduce<ProbeFacts | null>((w, p) => (dropMs(p) > (w === null ? -1 : dropMs(w)) ? p : w), null);
  const dropFigures =
    slowestDrop === null
      ? []
      : [
          budgetFigure('slowest-drop-ms', 'the slowest connection dropped with no answer was dropped after', dropMs(slowestDrop), 'ms', b.answerMs),
          statedFigure('slowest-drop-bytes', `the size of ${header} dropped slowest`, slowestDrop.size, 'bytes'),
        ];
  if (slowestDrop !== null && dropMs(slowestDrop) > b.answerMs)
    return attackVerdict(
      Behavior.Failed,
      `The server dropped the connection with no answer to ${header} of ${count(slowestDrop.size)} bytes only ${millis(dropMs(slowestDrop))} after it began (budget ${millis(b.answerMs)}): refusing it cost that long, answered or not.`,
      dropFigures,
    );
  if (largest === null || base === null)
    return attackVerdict(
      Behavior.Informational,
      slowestDrop === null
        ? `The server's HTTP layer refused every size of ${header} (from ${count(facts.cap ?? 0)} bytes): nothing to measure.`
        : `The server refused every size of ${header} up to ${count(Math.max(...facts.probes.map((p) => p.size)))} bytes, each within ${millis(dropMs(slowestDrop))} (budget ${millis(b.answerMs)}): no answer to time beyond that.`,
      [...(facts.cap === null ? [] : [statedFigure('cap-bytes', `the smallest size of ${header} the HTTP layer refused`, facts.cap, 'bytes')]), ...dropFigures],
    );
  const cap = facts.cap === null ? `it took every size up to ${count(largest.size)} bytes` : `its HTTP layer refused ${count(facts.cap)} bytes`;
  const told = `${sized(largest, header)}${quarter === null ? '' : `, ${count(quarter.size)} bytes in ${millis(quarter.ms)}`}, ${count(base.size)} byte${base.size === 1 ? '' : 's'} in ${millis(base.ms)}; ${cap}`;
  const figures = [...sizedFigures(header, facts)];
  const slowest = facts.probes.reduce<ProbeFacts | null>((w, p) => (p.answerMs !== null && p.answerMs > (w?.answerMs ?? -1) ? p : w), null);
  if (slowest !== null)
    figures.push(
      budgetFigure('slowest-answer-ms', 'the slowest answer came after', slowest.answerMs ?? 0, 'ms', b.answerMs),
      statedFigure('slowest-size-bytes', `the size of ${header} answered slowest`, slowest.size, 'bytes'),
    );
  if (slowest !== null && (slowest.answerMs ?? 0) > b.answerMs) {
    return attackVerdict(
      Behavior.Failed,
      `Answered ${header} of ${count(slowest.size)} bytes after ${millis(slowest.answerMs ?? 0)} (budget ${millis(b.answerMs)}): ${told}.`,
      figures,
    );
  }
  const growth = quarter === null ? null : growthFigure(base, largest, quarter);
  if (growth !== null) figures.push(growth);
  if (growth?.over === true && quarter !== null)
    return attackVerdict(
      Behavior.Failed,
      `The answer time grew super-linearly with ${header}'s size: ${superLinear(base, largest, quarter)}; ${told}.`,
      figures,
    );
  return attackVerdict(Behavior.Ok, `The answer time stayed within ${millis(b.answerMs)} and grew no faster than the size: ${told}.`, figures);
}

function sized(t: SizedTime, header: string): string {
  return `answered ${count(t.size)} bytes of ${header} in ${millis(t.ms)}`;
}

/** The sizes and answer times a growth verdict states, and the size the HTTP layer refused. */
function* sizedFigures(header: string, facts: GrowthFacts): Generator<Figure> {
  const points = [
    ['largest', 'the largest size answered', facts.largest],
    ['quarter', 'the size nearest a quarter of it', facts.quarter],
    ['base', 'a small value', facts.base],
  ] as const;
  for (const [name, what, t] of points) {
    if (t === null) continue;
    yield statedFigure(`${name}-bytes`, `${what}: bytes of ${header}`, t.size, 'bytes');
    yield statedFigure(`${name}-ms`, `${what}: answered in`, t.ms, 'ms');
  }
  if (facts.cap !== null) yield statedFigure('cap-bytes', `the smallest size of ${header} the HTTP layer refused`, facts.cap, 'bytes');
}

/**
 * The largest size's answer time over a small value's, against what growth no faster than the size
 * allows: the quarter's time over the small value's times the ratio of the sizes and the slack, and
 * never less than the floor. Over it: super-linear.
 */
function growthFigure(base: SizedTime, largest: SizedTime, quarter: SizedTime): Figure {
  const b = ServerBudgets;
  const before = Math.max(quarter.ms - base.ms, 1);
  const allowed = Math.max(b.growthFloorMs, b.growthSlack * (largest.size / quarter.size) * before);
  return budgetFigure('growth-ms', "the largest size's answer time over a small value's", largest.ms - base.ms, 'ms', allowed);
}

/** Why the growth from a quarter of the size to the largest is super-linear (growthFigure is over). */
function superLinear(base: SizedTime, largest: SizedTime, quarter: SizedTime): string {
  const b = ServerBudgets;
  const over = largest.ms - base.ms;
  const ratio = largest.size / quarter.size;
  const before = Math.max(quarter.ms - base.ms, 1);
  return `${(over / before).toFixed(1)}× the time over a small value's for ${ratio.toFixed(1)}× the size (linear growth: ${ratio.toFixed(1)}×; failing beyond ${(b.growthSlack * ratio).toFixed(1)}× and ${millis(b.growthFloorMs)})`;
}

/**
 * Requests the server must survive: any answer (an HTTP error, or a 101 that ignores what it cannot
 * use) passes; a dropped connection with no answer is NON-STRICT (RFC 6455 §4.2.1 asks for an HTTP
 * error); no answer within the budget fails. Whether the server is still alive afterwards is the
 * liveness check's (every group-17 case).
 */
export function judgeSurvives(probes: readonly ProbeFacts[], budgets: RobustnessBudgets = DEFAULT_BUDGETS): Judgement {
  const told = probes.map((p) => `${p.label}: ${answerText(p)}`).join('; ');
  const budget = scaledMs(ServerBudgets.survivesMs, budgets);
  const hung = unanswered(probes);
  // Any answer passes, however late within the wait; the one request left unanswered fails on its wait.
  const figures = probes.flatMap((p, i) => {
    const name = (n: string): string => probeFigureName(n, i, probes.length);
    if (p === hung) return [judgedFigure(name('wait-ms'), `${p.label}: wsgate waited for an answer`, p.waitMs, 'ms', budget, true)];
    if (p.status === null) return [];
    return [judgedFigure(name('answer-ms'), `${p.label}: the server answered after`, p.answerMs ?? 0, 'ms', budget, false)];
  });
  if (hung !== undefined) return attackVerdict(Behavior.Failed, `${hung.label}: ${answerText(hung)} within ${millis(hung.waitMs)}. (${told})`, figures);
  if (probes.some((p) => p.status === null))
    return attackVerdict(
      Behavior.NonStrict,
      `The server dropped the connection without an HTTP answer (RFC 6455 §4.2.1 asks for an error status such as 400): ${told}.`,
      figures,
    );
  return attackVerdict(Behavior.Ok, `The server answered: ${told} (budget ${millis(budget)}).`, figures);
}

/** RFC 6455 §7.4.1's codes for a frame the server must refuse: 1002 (protocol error), 1009 (too big). */
const REFUSAL_CODES: ReadonlySet<number> = new Set([1002, 1009]);

/**
 * A frame header the server must refuse at once: it fails the connection (a close frame with 1002 or
 * 1009, or a dropped TCP connection) within the budget, before the trickled payload adds up.
 */
export function judgeRefusedAtHeader(probes: readonly ProbeFacts[], budgets: RobustnessBudgets = DEFAULT_BUDGETS): Judgement {
  const budget = scaledMs(ServerBudgets.refuseAtHeaderMs, budgets);
  const parts: string[] = [];
  const figures: Figure[] = [];
  let worst: OutcomeVerdict = Behavior.Ok;
  probes.forEach((p, i) => {
    const [behavior, text] = refusal(p, budget);
    parts.push(`${p.label}: ${text}`);
    figures.push(...refusalFigures(p, budget, (n) => probeFigureName(n, i, probes.length)));
    if (rank(behavior) > rank(worst)) worst = behavior;
  });
  return attackVerdict(worst, `${parts.join('; ')} (budget ${millis(budget)}).`, figures);
}

function refusal(p: ProbeFacts, budget: number): [OutcomeVerdict, string] {
  if (p.status !== 101) return [Behavior.Informational, `the opening handshake was not accepted (${answerText(p)}): the frame was never sent`];
  const read = p.trickled > 0 ? ` after reading ${count(p.trickled)} payload bytes` : '';
  if (p.closedMs === null) return [Behavior.Failed, `not refused: the server kept the connection open${read} and did not fail it`];
  const how = p.closeCode === null ? 'dropped TCP' : `closed with ${p.closeCode}`;
  if (p.closedMs > budget) return [Behavior.Failed, `${how} only after ${millis(p.closedMs)}${read}: not at the header`];
  if (p.closeCode !== null && !REFUSAL_CODES.has(p.closeCode)) return [Behavior.NonStrict, `${how} after ${millis(p.closedMs)}${read} (1002 or 1009 expected)`];
  return [Behavior.Ok, `${how} after ${millis(p.closedMs)}${read}`];
}

/** What refusal states of a probe: the answer's time when no 101 came, else when the server ended it (late: over) and the payload it read. */
function refusalFigures(p: ProbeFacts, budget: number, name: (n: string) => string): Figure[] {
  if (p.status !== 101) return p.status === null ? [] : [statedFigure(name('answer-ms'), `${p.label}: the server answered after`, p.answerMs ?? 0, 'ms')];
  const figures: Figure[] = [];
  if (p.closedMs !== null)
    figures.push(budgetFigure(name('close-ms'), `${p.label}: the server ended the connection after the header`, p.closedMs, 'ms', budget));
  if (p.trickled > 0) figures.push(statedFigure(name('trickled-bytes'), `${p.label}: payload bytes the server took first`, p.trickled, 'bytes'));
  return figures;
}

function rank(b: OutcomeVerdict): number {
  return [Behavior.Ok, Behavior.Informational, Behavior.NonStrict, Behavior.Failed].indexOf(b as never);
}

/** A probe's connection the server dropped with no answer (closed or reset, not wsgate's wait running out). */
export function droppedProbe(p: ProbeFacts): boolean {
  return p.status === null && (p.ending === 'closed' || p.ending === 'reset');
}

/** How long a dropped connection took to be dropped, from its start: the server's time to decide (ms). */
export function dropMs(p: ProbeFacts): number {
  return p.elapsedMs;
}
