/**
 * Group 17.5 (`--role server --robustness --http2`): the HTTP/2 floods that took servers down,
 * replayed on one HTTP/2 connection of wsgate's own frames against a server that takes WebSockets
 * over HTTP/2 (RFC 8441). A flood is bounded by a count; a server that bounds it ends the connection
 * (GOAWAY, or TCP) before it has read the whole count, and one that takes it all fails. What the
 * server read is measured, not what wsgate wrote (fuzzing-client/attacks/h2-flood.ts). After each,
 * the liveness check over HTTP/2, as after every case of group 17.
 */
import { MEMORY_GROWTH, scaledMs } from '../cases/data/budgets.js';
import { budgetFigure, statedFigure, type Figure, type Judgement } from '../cases/judgement.js';
import { h2ErrorName } from '../protocol/h2-frames.js';
import { attackCase } from './attack-case.js';
import type { H2Flood, H2FloodAttack, H2FloodFacts } from '../cases/attack-types.js';
import type { Advisory } from './data/attacks.js';
import { H2Advisories, H2Budgets } from './data/attacks-h2.js';
import type { Requirement } from '../model/requirement.js';
import { subgroup } from './subgroup.js';
import type { CatalogueCase } from '../cases/types.js';

const n = (v: number): string => v.toLocaleString('en-US');

/** What a unit of each flood is, in the verdict's words. */
const UNIT: Readonly<Record<H2Flood, string>> = {
  'rapid-reset': 'reset streams',
  continuation: 'CONTINUATION frames',
  ping: 'PINGs',
  requests: 'requests',
  'cut-blocks': 'cut header blocks',
};

/** How the server ended the flood, in words ("with GOAWAY INTERNAL_ERROR (0x2) (last stream 2,001)", "by closing TCP"). */
function endWords(f: H2FloodFacts): string {
  const goaway = f.end?.goaway;
  if (goaway) return `with GOAWAY ${h2ErrorName(goaway.code)}${f.flood === 'rapid-reset' ? ` (last stream ${n(goaway.lastStreamId)})` : ''}`;
  return f.ending === 'reset' ? 'with a TCP reset' : 'by closing TCP';
}

/**
 * The units the server took before its end: for Rapid Reset the streams its GOAWAY says it processed
 * (last stream id), else what its process had read then (kernel queues), else what it had read at
 * wsgate's last look before its end (its socket gone then, or wsgate's: at least that many), else
 * what wsgate had written (an upper bound: the kernel's buffers counted in, the server's socket not
 * on this machine).
 */
function takenAtEnd(f: H2FloodFacts, end: NonNullable<H2FloodFacts['end']>): { units: number; how: string } {
  const last = end.goaway?.lastStreamId;
  if (f.flood === 'rapid-reset' && last !== undefined) return { units: Math.min(f.units, Math.floor((last + 1) / 2)), how: "by its GOAWAY's last stream id" };
  if (end.unitsRead !== null) return { units: end.unitsRead, how: 'read by its process then: wsgate flushed less the kernel queues' };
  if (f.unitsRead !== null)
    return {
      units: f.unitsRead,
      how: "read by its process at wsgate's last look before its end: at least that many, wsgate flushed less the kernel queues",
    };
  return { units: end.unitsWritten, how: "at most what wsgate had written then: the server's socket is not on this machine" };
}

/**
 * A flood's verdict. The server ended the connection (GOAWAY or TCP) before it took the whole count:
 * OK. It took them all (read every unit, and kept the connection past the grace, or ended it only
 * after): FAILED. It stopped reading without ending the connection (a write it did not take, or the
 * flood's end unread, while it read nothing for `stallMs`): NON-STRICT (it holds the connection, but
 * took no more). No HTTP/2 session to flood: FAILED.
 */
export function judgeH2Flood(f: H2FloodFacts, stallMs: number = H2Budgets.graceMs): Judgement {
  const unit = UNIT[f.flood];
  const verdict = (behavior: Judgement['behavior'], result: string, figures: readonly Figure[]): Judgement => ({
    behavior,
    result,
    behaviorClose: 'INFORMATIONAL',
    resultClose: 'An HTTP/2 flood on one connection: no WebSocket closing handshake to judge.',
    figures,
  });
  if (f.refused !== null) return verdict('FAILED', `No HTTP/2 connection to flood: ${f.refused}.`, []);
  if (f.flood === 'cut-blocks') return judgeCutBlocks(f, verdict);
  if (f.flood === 'requests' && f.end === null && f.answers !== null) return judgeHeldAnswers(f, f.answers, verdict);
  const written = statedFigure('units-written', `${unit} wsgate wrote`, f.unitsWritten, 'count');
  const end = f.end;
  if (end !== null) {
    const taken = takenAtEnd(f, end);
    const took = budgetFigure('units-taken', `${unit} the server took before it ended the connection`, taken.units, 'count', f.units - 1);
    const ms = statedFigure('ended-ms', 'the server ended the flood after', end.ms, 'ms');
    const text = `The server ended the connection ${endWords(f)} ${n(Math.round(end.ms))} ms into the flood, having taken ${n(taken.units)} of ${n(f.units)} ${unit} (${taken.how}; ${n(end.unitsWritten)} written then)`;
    if (taken.units < f.units) return verdict('OK', `${text}.`, [took, written, ms]);
    return verdict('FAILED', `${text}: it took the whole flood before ending it.`, [took, written, ms]);
  }
  if (f.unitsWritten >= f.units && (f.unitsRead === null || f.unitsRead >= f.unitsWritten)) {
    const read = f.unitsRead ?? f.unitsWritten;
    const how =
      f.unitsRead === null ? "written by wsgate (the server's socket is not on this machine: the kernel's buffers counted in)" : 'read by its process';
    const took = budgetFigure('units-taken', `${unit} the server took without ending the connection`, read, 'count', f.units - 1);
    return verdict('FAILED', `The server took all ${n(read)} ${unit} (${how}) and kept the connection open: it does not bound the flood.`, [took, written]);
  }
  const taken = f.unitsRead ?? f.unitsWritten;
  const how =
    f.unitsRead === null
      ? `at most: written by wsgate, whose write the socket did not take for ${n(stallMs)} ms (the server's socket is not on this machine)`
      : `read by its process, then nothing more for ${n(stallMs)} ms`;
  const read = statedFigure('units-taken', `${unit} the server read, then stopped reading`, taken, 'count');
  return verdict(
    'NON-STRICT',
    `The server stopped reading after ${n(taken)} of ${n(f.unitsWritten)} ${unit} written (${how}), without ending the connection: it took no more, but holds the connection.`,
    [read, written],
  );
}

/**
 * `requests`, the connection still open: what the server held itself, the requests it read less the
 * answers the kernel held, in bytes at the size of those answers (alike: one request over and over).
 * Within the budget, OK (it stopped reading while they could not leave, holding a buffer's worth);
 * past it, FAILED (it read on, queueing them).
 */
function judgeHeldAnswers(
  f: H2FloodFacts,
  answers: NonNullable<H2FloodFacts['answers']>,
  verdict: (b: Judgement['behavior'], r: string, figures: readonly Figure[]) => Judgement,
): Judgement {
  // The server read at least the requests it answered (the last look may be older than its last read).
  const taken = Math.max(f.unitsRead ?? f.unitsWritten, answers.inKernel);
  const held = taken - answers.inKernel;
  const answerBytes = answers.inKernel === 0 ? 0 : answers.kernelBytes / answers.inKernel;
  const heldBytes = Math.round(held * answerBytes);
  const budget = H2Budgets.answerBytesHeld;
  const figures = [
    budgetFigure('answer-bytes-held', 'bytes of answers the server held itself (at the size of those in the kernel)', heldBytes, 'bytes', budget),
    statedFigure('answers-held', 'answers the server held itself (requests it read, less the answers in the kernel)', held, 'count'),
    statedFigure('units-taken', 'requests the server read', taken, 'count'),
    statedFigure('answers-in-kernel', "answers in the kernel's buffers", answers.inKernel, 'count'),
    statedFigure('units-written', 'requests wsgate wrote', f.unitsWritten, 'count'),
  ];
  const where =
    `${n(answers.inKernel)} of their answers were in the kernel's buffers (${n(answers.kernelBytes)} bytes), ${n(held)} held by the server itself, ` +
    `about ${n(heldBytes)} bytes at that size (budget ${n(budget)}; wsgate then read ${n(answers.read)} answers)`;
  const read = taken >= f.unitsWritten ? `all ${n(taken)} requests written` : `${n(taken)} of ${n(f.unitsWritten)} requests written, then stopped reading`;
  if (heldBytes <= budget) return verdict('OK', `The server read ${read} while their answers could not leave: ${where}.`, figures);
  const all = taken >= f.units ? `all ${n(taken)}` : `${n(taken)} of ${n(f.unitsWritten)}`;
  return verdict('FAILED', `The server read ${all} requests while their answers could not leave, queueing them: ${where}.`, figures);
}

/** `cut-blocks`: every connection taken is OK (the liveness check then asks that the server lives); a connection refused partway is FAILED. */
function judgeCutBlocks(f: H2FloodFacts, verdict: (b: Judgement['behavior'], r: string, figures: readonly Figure[]) => Judgement): Judgement {
  const cut = statedFigure('units-written', 'header blocks cut by a TCP reset', f.unitsWritten, 'count');
  if (f.end === null) return verdict('OK', `The server took all ${n(f.unitsWritten)} connections whose header block wsgate cut with a TCP reset.`, [cut]);
  const failed = budgetFigure('connections-taken', 'connections the server took before it was gone', f.end.unitsWritten, 'count', f.units);
  return verdict(
    'FAILED',
    `The server was gone after ${n(f.end.unitsWritten)} connections whose header block wsgate cut with a TCP reset (the next one was refused ${n(Math.round(f.end.ms))} ms in).`,
    [{ ...failed, over: true }, cut],
  );
}

/** A flood case: the attack, its judge, and the case's words. */
function floodCase(spec: {
  memoryGrowth?: number;
  id: string;
  requirement: Requirement;
  flood: H2Flood;
  advisory: Advisory;
  rfc: string;
  units: number;
  batch: number;
  description: string;
  expectation: string;
}): CatalogueCase {
  const attack: H2FloodAttack = {
    kind: 'h2-flood',
    flood: spec.flood,
    units: spec.units,
    batch: spec.batch,
    graceMs: H2Budgets.graceMs,
    judge: (facts, budgets) => judgeH2Flood(facts, scaledMs(H2Budgets.graceMs, budgets)),
    ...(spec.memoryGrowth === undefined ? {} : { memoryGrowth: spec.memoryGrowth }),
  };
  return attackCase({ ...spec, attack, maxSeconds: 60 });
}

// RFC 9113 §5.1.2: "An endpoint that receives a HEADERS frame that causes its advertised concurrent
// stream limit to be exceeded MUST treat this as a stream error"; §10.5: "An endpoint MAY treat
// activity that is suspicious as a connection error of type ENHANCE_YOUR_CALM." A stream reset at
// once never counts against the limit: only a bound on resets stops the flood.
const rapidReset = floodCase({
  id: '17.5.1',
  requirement: {
    key: 'h2-rapid-reset',
    rfc: 'RFC 9113 §5.1.2, §10.5',
    text: 'a server bounds streams opened and reset at once: it ends the connection (GOAWAY, or TCP) before it has taken 10,000 of them, and keeps serving (CVE-2023-44487: nghttp2 before 1.57, Node.js before 20.8.1, took them all)',
    subject: 'streams opened and reset at once (HTTP/2 Rapid Reset)',
  },
  flood: 'rapid-reset',
  advisory: H2Advisories.rapidReset,
  rfc: 'RFC 9113 §5.1.2, §10.5; RFC 8441 §4',
  units: H2Budgets.rapidResetPairs,
  batch: H2Budgets.rapidResetBatch,
  description: `After the HTTP/2 preface and SETTINGS, on one connection: up to ${n(H2Budgets.rapidResetPairs)} streams (1, 3, 5, ...) each opened by HEADERS with an extended CONNECT (:protocol websocket, END_HEADERS) and reset at once by RST_STREAM (CANCEL), ${H2Budgets.rapidResetBatch} pairs per write, each write once the socket took the one before, until the server sends GOAWAY (read even when a TCP reset follows it) or ends TCP, or stops reading (it reads nothing for ${H2Budgets.graceMs / 1000} s while a write waits or the flood's end is unread). What the server read is measured from the kernel's queues.`,
  expectation: `The server ends the connection (GOAWAY, or TCP) before it has taken all ${n(H2Budgets.rapidResetPairs)} (nghttp2 1.57 and later: GOAWAY after about 1,000); taking them all and serving on is FAILED.`,
});

// RFC 9113 §6.10: "Any number of CONTINUATION frames can be sent, as long as the preceding frame is on
// the same stream and is a HEADERS, PUSH_PROMISE, or CONTINUATION frame without the END_HEADERS flag
// set"; §4.3: the receiver must decode the whole block; §10.5.1: "A server that receives a larger
// header section than it is willing to handle can send an HTTP 431 ... or [treat it] as a connection
// error". No frame of another stream may come until the block ends: an endless block holds the connection.
const continuationFlood = floodCase({
  id: '17.5.2',
  requirement: {
    key: 'h2-continuation-flood',
    rfc: 'RFC 9113 §6.10, §10.5.1',
    text: 'a server bounds a header block that never ends: it ends the connection (GOAWAY, or TCP) before it has read 100,000 CONTINUATION frames, and keeps serving (CVE-2024-28182: nghttp2 before 1.61, Node.js before 20.13.0, decoded them all)',
    subject: 'an endless run of CONTINUATION frames',
  },
  flood: 'continuation',
  advisory: H2Advisories.continuationFlood,
  rfc: 'RFC 9113 §6.10, §4.3, §10.5.1',
  units: H2Budgets.continuationFrames,
  batch: H2Budgets.continuationBatch,
  description: `After the HTTP/2 preface and SETTINGS: HEADERS on stream 1 with an extended CONNECT (:protocol websocket) and without END_HEADERS, then up to ${n(H2Budgets.continuationFrames)} CONTINUATION frames, never END_HEADERS, each a new header field ("x-flood-0000000: a", as an HPACK literal), ${n(H2Budgets.continuationBatch)} per write, each write once the socket took the one before, until the server sends GOAWAY or ends TCP, or stops reading (it reads nothing for ${H2Budgets.graceMs / 1000} s while a write waits or the flood's end is unread). What the server read is measured from the kernel's queues.`,
  expectation: `The server ends the connection (GOAWAY, or TCP) before it has read all ${n(H2Budgets.continuationFrames)} frames (nghttp2 1.61 and later: after 8); stopping reading without ending the connection is NON-STRICT; a server that resets the stream but reads on, decoding the block, takes them all and is FAILED.`,
});

// RFC 9113 §6.7: "Receivers of a PING frame that does not include an ACK flag MUST send a PING frame
// with the ACK flag set in response"; §10.5: "An endpoint MAY treat activity that is suspicious as a
// connection error of type ENHANCE_YOUR_CALM". A peer that never reads the answers makes them pile up.
const pingFlood = floodCase({
  id: '17.5.3',
  requirement: {
    key: 'h2-ping-flood',
    rfc: 'RFC 9113 §6.7, §10.5',
    text: 'a server bounds the PING acknowledgements it queues for a client that reads none: it ends the connection (or stops reading) before it has read the whole flood, and keeps serving (CVE-2019-9512)',
    subject: 'an HTTP/2 PING flood whose acknowledgements are never read',
  },
  flood: 'ping',
  advisory: H2Advisories.pingFlood,
  rfc: 'RFC 9113 §6.7, §10.5',
  units: H2Budgets.pings,
  batch: H2Budgets.pingBatch,
  description: `After the HTTP/2 preface and SETTINGS: up to ${n(H2Budgets.pings)} PING frames (8 bytes each, a counter), ${n(H2Budgets.pingBatch)} per write, each write once the socket took the one before, while wsgate reads nothing (the acknowledgements pile up at the server), until the server ends TCP (wsgate then reads what it wrote, for a GOAWAY) or stops reading (it reads nothing for ${H2Budgets.graceMs / 1000} s while a write waits or the flood's end is unread). What the server read is measured from the kernel's queues.`,
  expectation: `The server ends the connection, or stops reading, before it has read all ${n(H2Budgets.pings)} (nghttp2 1.39.2 and later: once 1,000 frames wait in its queue); stopping reading without ending the connection is NON-STRICT (it holds the connection); reading them all while its acknowledgements wait is FAILED.`,
});

// RFC 9113 §5.4.1: an endpoint may end a connection at any time, here with the block half decoded; the
// server must free what it decoded then (CVE-2024-27983: Node.js asserted its HPACK memory was zero).
const cutBlocks = floodCase({
  id: '17.5.4',
  requirement: {
    key: 'h2-cut-header-block',
    rfc: 'RFC 9113 §5.4.1, §6.10',
    text: 'a server survives connections reset while their header block (HEADERS and CONTINUATION frames) is still being decoded (CVE-2024-27983: Node.js 20.12.0 aborted on an assertion)',
    subject: 'header blocks cut by a TCP reset',
  },
  flood: 'cut-blocks',
  advisory: H2Advisories.cutHeaderBlock,
  rfc: 'RFC 9113 §5.4.1, §6.10',
  units: H2Budgets.cutBlocks,
  batch: 1,
  description: `Up to ${n(H2Budgets.cutBlocks)} connections, one after another, each in one write: the HTTP/2 preface, SETTINGS, HEADERS on stream 1 with an extended CONNECT and without END_HEADERS, and 20 CONTINUATION frames of a 100-byte field; then, on the next turn of wsgate's event loop, a TCP reset, while the server may still be decoding the block.`,
  expectation:
    'The server takes every connection and survives (Node.js 20.12.0 dies of an assertion within a few dozen); a connection refused partway is FAILED.',
});

// RFC 9113 §5.2.2: "A receiver MAY ... [not] read from the TCP receive buffer" when it has no room;
// §10.5: a server limits what a client can make it commit. With every HTTP/2 window open, only TCP holds
// the answers back; a server that reads on holds them itself (CVE-2019-9517).
const internalBuffering = floodCase({
  id: '17.5.5',
  requirement: {
    key: 'h2-internal-buffering',
    rfc: 'RFC 9113 §5.2.2, §10.5',
    text: `a server stops reading requests while their answers cannot leave (the client reads none, every HTTP/2 window open): it holds at most ${n(H2Budgets.answerBytesHeld)} bytes of answers beyond the kernel's buffers, or ends the connection (CVE-2019-9517: Node.js before 10.16.3 and 12.8.1 read on, queueing every answer)`,
    subject: 'requests whose answers are never read (HTTP/2 internal data buffering)',
  },
  flood: 'requests',
  advisory: H2Advisories.internalBuffering,
  rfc: 'RFC 9113 §5.2.2, §6.9, §10.5',
  units: H2Budgets.requests,
  batch: H2Budgets.requestBatch,
  memoryGrowth: MEMORY_GROWTH.answers,
  description: `After the HTTP/2 preface and SETTINGS: SETTINGS_INITIAL_WINDOW_SIZE and the connection's window opened to 2^31-1, then up to ${n(H2Budgets.requests)} requests (HEADERS on streams 1, 3, 5, ..., a GET of the WebSocket's path with END_STREAM), ${n(H2Budgets.requestBatch)} per write, each write once the socket took the one before, while wsgate reads nothing, until the server ends the connection or stops reading (it reads nothing for ${H2Budgets.graceMs / 1000} s while a write waits or the flood's end is unread). What the server read is measured from the kernel's queues; then wsgate measures what the kernel holds of the answers and reads them: the answers within those bytes were in the kernel, the rest the server held itself.`,
  expectation: `The server stops reading (or ends the connection) while its answers cannot leave, holding at most ${n(H2Budgets.answerBytesHeld)} bytes of them itself beyond the kernel's buffers (Node.js 12.8.1 and later: none to a few thousand answers of 44 bytes; HAProxy 2.6: about 470 KB); reading on and queueing them is FAILED.`,
});

/** Group 17.5: the HTTP/2 floods (`--robustness --http2`, a server under test). */
export const h2FloodServerCases: readonly CatalogueCase[] = subgroup(
  '17.5',
  'HTTP/2 floods on one connection: Rapid Reset, CONTINUATION, PING, header blocks cut by a reset, unread answers',
  [rapidReset, continuationFlood, pingFlood, cutBlocks, internalBuffering],
);
