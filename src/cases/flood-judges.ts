/**
 * The verdicts of the handshake floods and slow requests against a server (17.1.6-17.1.11), as pure
 * functions of what the engine measured, each figure beside its budget (data/floods.ts).
 */
import { Behavior, CloseBehavior, type OutcomeVerdict } from '../model/verdicts.js';
import { answerText, count, millis } from './attack-judges.js';
import type { CrowdFacts, ProbeFacts } from './attack-types.js';
import { DEFAULT_BUDGETS, scaledMs, type RobustnessBudgets } from './data/budgets.js';
import { FloodBudgets } from './data/floods.js';
import type { Judgement } from './judgement.js';

function verdict(behavior: OutcomeVerdict, result: string): Judgement {
  return { behavior, result, behaviorClose: CloseBehavior.Ok, resultClose: 'The attack does not judge the closing handshake.' };
}

/** The crowd's answers, counted ("32: HTTP 101"). */
function crowdTold(crowd: readonly ProbeFacts[], hold: boolean): string {
  const answers = new Map<string, number>();
  for (const p of crowd) {
    const what =
      p.status !== null
        ? `HTTP ${p.status}`
        : p.ending !== 'timeout'
          ? answerText(p)
          : hold
            ? 'still open when wsgate closed it'
            : `no answer within ${millis(p.waitMs)}`;
    answers.set(what, (answers.get(what) ?? 0) + 1);
  }
  return [...answers].map(([what, n]) => `${count(n)} ${what}`).join(', ');
}

/**
 * A normal client beside a crowd: its 101 within the budget passes; a later 101, an HTTP error or no
 * answer fails. A crowd that is not held must be answered too (one left unanswered fails).
 */
export function judgeCrowd(crowdText: string, facts: CrowdFacts, hold: boolean, budgets: RobustnessBudgets = DEFAULT_BUDGETS): Judgement {
  const budget = scaledMs(FloodBudgets.normalAnswerMs, budgets);
  const n = facts.normal;
  const beside = `beside ${count(facts.crowd.length)} connections ${crowdText} (${count(facts.ready)} written when it connected; the crowd: ${crowdTold(facts.crowd, hold)})`;
  if (n.status === null) return verdict(Behavior.Failed, `The normal client got ${answerText(n)} within ${millis(n.waitMs)}, ${beside}.`);
  if (n.status !== 101) return verdict(Behavior.Failed, `The normal client was answered HTTP ${n.status} instead of 101, ${beside}.`);
  const waited = n.answerMs ?? 0;
  if (waited > budget) return verdict(Behavior.Failed, `The normal client waited ${millis(waited)} for its 101 (budget ${millis(budget)}), ${beside}.`);
  const hung = hold ? undefined : facts.crowd.find((p) => p.status === null && p.ending === 'timeout');
  if (hung !== undefined)
    return verdict(
      Behavior.Failed,
      `A request of the crowd got no answer within ${millis(hung.waitMs)}, ${beside}; the normal client's 101 came after ${millis(waited)}.`,
    );
  return verdict(Behavior.Ok, `The normal client's 101 came ${millis(waited)} after its request (budget ${millis(budget)}), ${beside}.`);
}

/**
 * A header far past any limit, streamed: an HTTP error (or a drop) within the budget, having read at
 * most 1 MiB of it, passes; a 101, reading on, or reading past the byte budget first, fails. What the
 * server read is measured where its socket is on this machine; elsewhere the time alone judges.
 */
export function judgeHugeHeader(probes: readonly ProbeFacts[], budgets: RobustnessBudgets = DEFAULT_BUDGETS): Judgement {
  const budget = scaledMs(FloodBudgets.hugeHeaderMs, budgets);
  const bytesBudget = FloodBudgets.hugeHeaderReadBytes;
  const p = probes[0];
  if (p === undefined) return verdict(Behavior.Failed, 'The attack was not played.');
  const measured = p.peerReadBytes ?? null;
  const took =
    measured === null
      ? `what the server read was not measured (its socket is not on this machine, or was gone at the first look)`
      : `the server had read ${count(measured)} of them (budget ${count(bytesBudget)})`;
  const wrote = `wsgate had written ${count(p.requestBytes)} of the request's bytes`;
  const read = `${wrote}; ${took}`;
  if (p.status === 101)
    return verdict(Behavior.Failed, `The server took ${p.label} and answered 101 after ${millis(p.elapsedMs)} (${read}): it has no limit on a request head.`);
  if (p.ending === 'timeout' && p.status === null)
    return verdict(Behavior.Failed, `The server neither refused ${p.label} nor ended the connection within ${millis(p.waitMs)} (${read}).`);
  if (p.ending === 'refused') return verdict(Behavior.Failed, `No connection: ${answerText(p)}.`);
  const how = p.status === null ? `dropped the connection (${p.ending === 'reset' ? 'reset' : 'closed'}) with no answer` : `answered HTTP ${p.status}`;
  if (p.status !== null && p.status < 400)
    return verdict(Behavior.Failed, `The server ${how} to ${p.label}, not an error status, after ${millis(p.elapsedMs)} (${read}).`);
  // The bytes it read first: a server that reads 16 MiB is slow to refuse because it reads them.
  if (measured !== null && measured > bytesBudget)
    return verdict(
      Behavior.Failed,
      `The server ${how} to ${p.label} only after reading ${count(measured)} bytes of it (budget ${count(bytesBudget)}): its limit on a request head lets each connection hold that much (${wrote}).`,
    );
  if (p.elapsedMs > budget)
    return verdict(Behavior.Failed, `The server ${how} only ${millis(p.elapsedMs)} after the request began (budget ${millis(budget)}; ${read}).`);
  return verdict(
    Behavior.Ok,
    `The server ${how} ${millis(p.elapsedMs)} after the request began (budget ${millis(budget)}): ${read} when it refused ${p.label}.`,
  );
}

/**
 * A long request head written in pieces, each read before the next: a 101 within the budget after the
 * last piece, or a refusal (an HTTP error, a drop) at the server's own limit, passes; no answer, or a
 * late 101, fails. What it cost the server's CPU is the engine's figure (AttackCost.cpuMs).
 */
export function judgePacedHead(probes: readonly ProbeFacts[], budgets: RobustnessBudgets = DEFAULT_BUDGETS): Judgement {
  const budget = scaledMs(FloodBudgets.pacedAnswerMs, budgets);
  const p = probes[0];
  if (p === undefined) return verdict(Behavior.Failed, 'The attack was not played.');
  const read = p.peerReadBytes == null ? `${count(p.requestBytes)} bytes written` : `${count(p.peerReadBytes)} bytes read by the server`;
  const what = `${p.label} (${read})`;
  if (p.ending === 'refused') return verdict(Behavior.Failed, `No connection: ${answerText(p)}.`);
  if (p.status === 101) {
    const ms = p.answerMs ?? 0;
    if (ms > budget) return verdict(Behavior.Failed, `${what}: the 101 came ${millis(ms)} after the last piece (budget ${millis(budget)}).`);
    return verdict(
      Behavior.Ok,
      `${what}: the 101 came ${millis(ms)} after the last piece (budget ${millis(budget)}); the whole request took ${millis(p.elapsedMs)}.`,
    );
  }
  if (p.status === null && p.ending === 'timeout')
    return verdict(Behavior.Failed, `${what}: the server neither answered nor ended the connection within ${millis(p.waitMs)}.`);
  if (p.status !== null && p.status < 400) return verdict(Behavior.Failed, `${what}: answered HTTP ${p.status}, neither 101 nor an error status.`);
  const how = p.status === null ? `dropped the connection (${p.ending === 'reset' ? 'reset' : 'closed'})` : `answered HTTP ${p.status}`;
  return verdict(Behavior.Ok, `${what}: the server ${how} at its own limit on a request head, ${millis(p.elapsedMs)} after the request began.`);
}

/** A request head trickled one byte at a time, never ended: dropped (or answered with an error) within the stall budget passes. */
export function judgeSlowloris(probes: readonly ProbeFacts[], budgets: RobustnessBudgets = DEFAULT_BUDGETS): Judgement {
  const p = probes[0];
  if (p === undefined) return verdict(Behavior.Failed, 'The attack was not played.');
  const budget = `stall budget ${millis(budgets.stallMs)}`;
  if (p.ending === 'refused') return verdict(Behavior.Failed, `No connection: ${answerText(p)}.`);
  if (p.ending === 'timeout' && p.status === null) {
    return verdict(
      Behavior.Failed,
      `The server still held the connection ${millis(p.waitMs)} after the request began (${budget}), ${count(p.requestBytes)} bytes trickled: it never times out a stalled request head.`,
    );
  }
  const how = p.status === null ? `dropped the connection (${p.ending === 'reset' ? 'reset' : 'closed'})` : `answered HTTP ${p.status}`;
  return verdict(Behavior.Ok, `The server ${how} ${millis(p.elapsedMs)} after the request began (${budget}), ${count(p.requestBytes)} bytes trickled.`);
}
