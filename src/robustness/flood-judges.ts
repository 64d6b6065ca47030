/**
 * The verdicts of the handshake floods and slow requests against a server (17.1.6-17.1.11), as pure
 * functions of what the engine measured, each figure beside its budget (data/floods.ts).
 */
import { Behavior } from '../model/verdicts.js';
import { answerText, attackVerdict as verdict, count, millis } from './attack-judges.js';
import type { CrowdFacts, ProbeFacts } from '../cases/attack-types.js';
import { DEFAULT_BUDGETS, scaledMs, type RobustnessBudgets } from '../cases/data/budgets.js';
import { FloodBudgets } from './data/floods.js';
import { budgetFigure, statedFigure, type Figure, type Judgement } from '../cases/judgement.js';
import { judgedFigure } from './own-figures.js';

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
  const crowd = [
    statedFigure('crowd-count', 'connections of the crowd', facts.crowd.length, 'count'),
    statedFigure('ready-count', 'of them written when the normal client connected', facts.ready, 'count'),
    statedFigure('crowd-answered-count', 'requests of the crowd answered', facts.crowd.filter((p) => p.status !== null).length, 'count'),
  ];
  if (n.status === null)
    return verdict(Behavior.Failed, `The normal client got ${answerText(n)} within ${millis(n.waitMs)}, ${beside}.`, [
      statedFigure('wait-ms', "wsgate waited for the normal client's answer", n.waitMs, 'ms'),
      ...crowd,
    ]);
  if (n.status !== 101) return verdict(Behavior.Failed, `The normal client was answered HTTP ${n.status} instead of 101, ${beside}.`, crowd);
  const waited = n.answerMs ?? 0;
  const answer = budgetFigure('answer-ms', "the normal client's 101 came after its request", waited, 'ms', budget);
  if (waited > budget)
    return verdict(Behavior.Failed, `The normal client waited ${millis(waited)} for its 101 (budget ${millis(budget)}), ${beside}.`, [answer, ...crowd]);
  const hung = hold ? undefined : facts.crowd.find((p) => p.status === null && p.ending === 'timeout');
  // A crowd that is not held must be answered too: none of it may go unanswered.
  const unanswered = hold
    ? []
    : [
        budgetFigure(
          'crowd-unanswered-count',
          'requests of the crowd never answered',
          facts.crowd.filter((p) => p.status === null && p.ending === 'timeout').length,
          'count',
          0,
        ),
      ];
  if (hung !== undefined)
    return verdict(
      Behavior.Failed,
      `A request of the crowd got no answer within ${millis(hung.waitMs)}, ${beside}; the normal client's 101 came after ${millis(waited)}.`,
      [answer, ...crowd, ...unanswered, statedFigure('crowd-wait-ms', 'wsgate waited for each answer of the crowd', hung.waitMs, 'ms')],
    );
  return verdict(Behavior.Ok, `The normal client's 101 came ${millis(waited)} after its request (budget ${millis(budget)}), ${beside}.`, [
    answer,
    ...crowd,
    ...unanswered,
  ]);
}

/**
 * A header far past any limit, streamed: an HTTP error (or a drop) within the budget, having read at
 * most 1 MiB of it, passes; a 101, reading on, or reading past the byte budget first, fails. What the
 * server read is measured where its socket is on this machine; elsewhere the time alone judges.
 */
export function judgeHugeHeader(probes: readonly ProbeFacts[], budgets: RobustnessBudgets = DEFAULT_BUDGETS): Judgement {
  if (probes.length === 0) return verdict(Behavior.Failed, 'The attack was not played.');
  // Each request judged alone (the second's figures named lines-…); a failing one is told first.
  const each = probes.map((p, i) => renamed(judgeOneHugeHeader(p, budgets), i === 0 ? '' : 'lines-'));
  const failed = each.filter((j) => j.behavior === Behavior.Failed);
  const told = [...failed, ...each.filter((j) => j.behavior !== Behavior.Failed)];
  return verdict(
    failed.length > 0 ? Behavior.Failed : (each[0] as Judgement).behavior,
    told.map((j) => j.result).join(' '),
    each.flatMap((j) => j.figures ?? []),
  );
}

/** A judgement's figures with `prefix` before each name. */
function renamed(j: Judgement, prefix: string): Judgement {
  return prefix === '' ? j : { ...j, figures: (j.figures ?? []).map((f) => ({ ...f, name: `${prefix}${f.name}` })) };
}

function judgeOneHugeHeader(p: ProbeFacts, budgets: RobustnessBudgets): Judgement {
  const budget = scaledMs(FloodBudgets.hugeHeaderMs, budgets);
  const bytesBudget = FloodBudgets.hugeHeaderReadBytes;
  const measured = p.peerReadBytes ?? null;
  const took =
    measured === null
      ? `what the server read was not measured (its socket is not on this machine, or was gone at the first look)`
      : `the server had read ${count(measured)} of them (budget ${count(bytesBudget)})`;
  const wrote = `wsgate had written ${count(p.requestBytes)} of the request's bytes`;
  const read = `${wrote}; ${took}`;
  // What was written and read, the read bytes over only where the verdict fails on them.
  const bytes = (over: boolean): Figure[] => [
    statedFigure('request-bytes', "of the request's bytes wsgate had written", p.requestBytes, 'bytes'),
    ...(measured === null ? [] : [judgedFigure('peer-read-bytes', "of the request's bytes the server had read", measured, 'bytes', bytesBudget, over)]),
  ];
  const elapsed = (over: boolean): Figure =>
    judgedFigure('elapsed-ms', 'the server answered or ended the connection after the request began', p.elapsedMs, 'ms', budget, over);
  if (p.status === 101)
    return verdict(Behavior.Failed, `The server took ${p.label} and answered 101 after ${millis(p.elapsedMs)} (${read}): it has no limit on a request head.`, [
      ...bytes(false),
      elapsed(false),
    ]);
  if (p.ending === 'timeout' && p.status === null)
    return verdict(Behavior.Failed, `The server neither refused ${p.label} nor ended the connection within ${millis(p.waitMs)} (${read}).`, [
      // Reading on past the byte budget is a failure of its own, whenever the wait ran out.
      ...bytes(measured !== null && measured > bytesBudget),
      budgetFigure('wait-ms', 'wsgate waited for an answer or the end after the request began', p.waitMs, 'ms', budget),
    ]);
  if (p.ending === 'refused') return verdict(Behavior.Failed, `No connection: ${answerText(p)}.`);
  const how = p.status === null ? `dropped the connection (${p.ending === 'reset' ? 'reset' : 'closed'}) with no answer` : `answered HTTP ${p.status}`;
  if (p.status !== null && p.status < 400)
    return verdict(Behavior.Failed, `The server ${how} to ${p.label}, not an error status, after ${millis(p.elapsedMs)} (${read}).`, [
      ...bytes(false),
      elapsed(false),
    ]);
  // The bytes it read first: a server that reads 16 MiB is slow to refuse because it reads them.
  if (measured !== null && measured > bytesBudget)
    return verdict(
      Behavior.Failed,
      `The server ${how} to ${p.label} only after reading ${count(measured)} bytes of it (budget ${count(bytesBudget)}): its limit on a request head lets each connection hold that much (${wrote}).`,
      bytes(true),
    );
  if (p.elapsedMs > budget)
    return verdict(Behavior.Failed, `The server ${how} only ${millis(p.elapsedMs)} after the request began (budget ${millis(budget)}; ${read}).`, [
      ...bytes(false),
      elapsed(true),
    ]);
  return verdict(
    Behavior.Ok,
    `The server ${how} ${millis(p.elapsedMs)} after the request began (budget ${millis(budget)}): ${read} when it refused ${p.label}.`,
    [...bytes(false), elapsed(false)],
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
  const bytes =
    p.peerReadBytes == null
      ? statedFigure('request-bytes', "of the request's bytes wsgate had written", p.requestBytes, 'bytes')
      : statedFigure('peer-read-bytes', "of the request's bytes the server had read", p.peerReadBytes, 'bytes');
  const elapsed = statedFigure('elapsed-ms', 'the server answered or ended the connection after the request began', p.elapsedMs, 'ms');
  if (p.ending === 'refused') return verdict(Behavior.Failed, `No connection: ${answerText(p)}.`);
  if (p.status === 101) {
    const ms = p.answerMs ?? 0;
    const answer = budgetFigure('answer-ms', 'the 101 came after the last piece', ms, 'ms', budget);
    if (ms > budget) return verdict(Behavior.Failed, `${what}: the 101 came ${millis(ms)} after the last piece (budget ${millis(budget)}).`, [bytes, answer]);
    return verdict(
      Behavior.Ok,
      `${what}: the 101 came ${millis(ms)} after the last piece (budget ${millis(budget)}); the whole request took ${millis(p.elapsedMs)}.`,
      [bytes, answer, elapsed],
    );
  }
  if (p.status === null && p.ending === 'timeout')
    return verdict(Behavior.Failed, `${what}: the server neither answered nor ended the connection within ${millis(p.waitMs)}.`, [
      bytes,
      statedFigure('wait-ms', 'wsgate waited for an answer or the end after the request began', p.waitMs, 'ms'),
    ]);
  if (p.status !== null && p.status < 400) return verdict(Behavior.Failed, `${what}: answered HTTP ${p.status}, neither 101 nor an error status.`, [bytes]);
  const how = p.status === null ? `dropped the connection (${p.ending === 'reset' ? 'reset' : 'closed'})` : `answered HTTP ${p.status}`;
  return verdict(Behavior.Ok, `${what}: the server ${how} at its own limit on a request head, ${millis(p.elapsedMs)} after the request began.`, [
    bytes,
    elapsed,
  ]);
}

/** A request head trickled one byte at a time, never ended: dropped (or answered with an error) within the stall budget passes. */
export function judgeSlowloris(probes: readonly ProbeFacts[], budgets: RobustnessBudgets = DEFAULT_BUDGETS): Judgement {
  const p = probes[0];
  if (p === undefined) return verdict(Behavior.Failed, 'The attack was not played.');
  const budget = `stall budget ${millis(budgets.stallMs)}`;
  const trickled = statedFigure('request-bytes', 'bytes of the request head trickled', p.requestBytes, 'bytes');
  if (p.ending === 'refused') return verdict(Behavior.Failed, `No connection: ${answerText(p)}.`);
  if (p.ending === 'timeout' && p.status === null) {
    // The wait is the stall budget itself: the server held the connection through all of it.
    const held = judgedFigure('wait-ms', 'the server still held the connection after the request began', p.waitMs, 'ms', budgets.stallMs, true);
    return verdict(
      Behavior.Failed,
      `The server still held the connection ${millis(p.waitMs)} after the request began (${budget}), ${count(p.requestBytes)} bytes trickled: it never times out a stalled request head.`,
      [held, trickled],
    );
  }
  const how = p.status === null ? `dropped the connection (${p.ending === 'reset' ? 'reset' : 'closed'})` : `answered HTTP ${p.status}`;
  return verdict(Behavior.Ok, `The server ${how} ${millis(p.elapsedMs)} after the request began (${budget}), ${count(p.requestBytes)} bytes trickled.`, [
    budgetFigure('elapsed-ms', 'the server answered or ended the connection after the request began', p.elapsedMs, 'ms', budgets.stallMs),
    trickled,
  ]);
}
