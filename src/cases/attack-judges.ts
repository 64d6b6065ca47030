/**
 * The verdicts of the robustness cases against a server (group 17), as pure functions of what the
 * engine measured: each states its figures beside their budgets, in Autobahn's verdict words.
 */
import { Behavior, CloseBehavior, type OutcomeVerdict } from '../model/verdicts.js';
import type { GrowthFacts, ProbeFacts, SizedTime } from './attack-types.js';
import { ServerBudgets } from './data/attacks.js';
import type { Judgement } from './judgement.js';
import { DEFAULT_BUDGETS, scaledMs, type RobustnessBudgets } from './data/budgets.js';

/** 12,345 */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** A duration as reports give it: 0.4 ms, 12 ms, 1,234 ms. */
export function millis(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${count(Math.round(ms))} ms`;
}

/** The judgement of an attack: the outcome as judged, the closing axis not in question. */
function verdict(behavior: OutcomeVerdict, result: string): Judgement {
  return { behavior, result, behaviorClose: CloseBehavior.Ok, resultClose: 'The attack does not judge the closing handshake.' };
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
  if (hung !== undefined) return verdict(Behavior.Failed, `${header} of ${count(hung.size)} bytes: ${answerText(hung)} within ${millis(hung.waitMs)}.`);
  if (largest === null || base === null)
    return verdict(
      Behavior.Informational,
      `The server's HTTP layer refused every size of ${header} (from ${count(facts.cap ?? 0)} bytes): nothing to measure.`,
    );
  const cap = facts.cap === null ? `it took every size up to ${count(largest.size)} bytes` : `its HTTP layer refused ${count(facts.cap)} bytes`;
  const figures = `${sized(largest, header)}${quarter === null ? '' : `, ${count(quarter.size)} bytes in ${millis(quarter.ms)}`}, ${count(base.size)} byte${base.size === 1 ? '' : 's'} in ${millis(base.ms)}; ${cap}`;
  const slowest = facts.probes.reduce<ProbeFacts | null>((w, p) => (p.answerMs !== null && p.answerMs > (w?.answerMs ?? -1) ? p : w), null);
  if (slowest !== null && (slowest.answerMs ?? 0) > b.answerMs) {
    return verdict(
      Behavior.Failed,
      `Answered ${header} of ${count(slowest.size)} bytes after ${millis(slowest.answerMs ?? 0)} (budget ${millis(b.answerMs)}): ${figures}.`,
    );
  }
  const growth = superLinear(base, largest, quarter);
  if (growth !== null) return verdict(Behavior.Failed, `The answer time grew super-linearly with ${header}'s size: ${growth}; ${figures}.`);
  return verdict(Behavior.Ok, `The answer time stayed within ${millis(b.answerMs)} and grew no faster than the size: ${figures}.`);
}

function sized(t: SizedTime, header: string): string {
  return `answered ${count(t.size)} bytes of ${header} in ${millis(t.ms)}`;
}

/** Why the growth from a quarter of the size to the largest is super-linear, or null when it is not. */
function superLinear(base: SizedTime, largest: SizedTime, quarter: SizedTime | null): string | null {
  const b = ServerBudgets;
  const over = largest.ms - base.ms;
  if (quarter === null || over <= b.growthFloorMs) return null;
  const ratio = largest.size / quarter.size;
  const before = Math.max(quarter.ms - base.ms, 1);
  if (over <= b.growthSlack * ratio * before) return null;
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
  const hung = unanswered(probes);
  if (hung !== undefined) return verdict(Behavior.Failed, `${hung.label}: ${answerText(hung)} within ${millis(hung.waitMs)}. (${told})`);
  if (probes.some((p) => p.status === null))
    return verdict(
      Behavior.NonStrict,
      `The server dropped the connection without an HTTP answer (RFC 6455 §4.2.1 asks for an error status such as 400): ${told}.`,
    );
  return verdict(Behavior.Ok, `The server answered: ${told} (budget ${millis(scaledMs(ServerBudgets.survivesMs, budgets))}).`);
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
  let worst: OutcomeVerdict = Behavior.Ok;
  for (const p of probes) {
    const [behavior, text] = refusal(p, budget);
    parts.push(`${p.label}: ${text}`);
    if (rank(behavior) > rank(worst)) worst = behavior;
  }
  return verdict(worst, `${parts.join('; ')} (budget ${millis(budget)}).`);
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

function rank(b: OutcomeVerdict): number {
  return [Behavior.Ok, Behavior.Informational, Behavior.NonStrict, Behavior.Failed].indexOf(b as never);
}
