/**
 * Frame-level attacks written once for both roles: each factory makes an ordinary scripted case with
 * an attack budget, registered in group 17 (wsgate the client, a server under test: the liveness
 * check follows) and in group 18 (wsgate the server, a client under test: a client process that dies
 * fails it). The engine masks what a client must mask (beginFrame), measures how long the connection
 * lasted and what wsgate wrote (play/attack-figures.ts), and states both beside the budget.
 * Everything large is generated a batch at a time, each batch awaited with t.flushed({ below: FLUSH_BELOW }), so wsgate
 * never holds more than a batch however slowly the peer reads. Budgets: data/attacks-frames.ts.
 */
import { CloseCode, Opcode } from '../protocol/constants.js';
import { Behavior, CloseBehavior } from '../model/verdicts.js';
import { count } from './attack-judges.js';
import {
  ENDLESS,
  LIMIT_PLUS_ONE,
  RANDOM_BYTES,
  REFUSE_AT_HEADER_S,
  RESERVED_GIB,
  endlessBudget,
  limitPlusOneBudget,
  randomBytesBudget,
  reservedGiBBudget,
} from './data/attacks-frames.js';
import { MEMORY_GROWTH, scaledS } from '../cases/data/budgets.js';
import { mulberry32 } from '../cases/data/deflate-corpus.js';
import { defineCase, failedByPeer } from '../cases/define.js';
import type { Requirement } from '../model/requirement.js';
import { statedFigure, type Figure } from '../cases/judgement.js';
import { echoedFigure, judgedFigure, withOwnFigures } from './own-figures.js';
import type { AttackBudget, CaseContext, CaseDef, ScriptedCase, Judgement } from '../cases/types.js';

/** Whom the case attacks: the words its texts use. */
export type Peer = 'server' | 'client';

/** The close codes RFC 6455 §7.4.1 gives a peer that refuses these attacks; any other code is a wrong one. */
const TOO_BIG = [CloseCode.MessageTooBig, CloseCode.PolicyViolation];
/** A generated stream's next batch waits until fewer bytes than this are unsent in wsgate (back-pressure). */
const FLUSH_BELOW = 256 * 1024;

/** A close the case accepts whatever its code (a drop too): the peer failed the connection, which is what counts. */
function anyCode(verdict: Judgement): Judgement {
  if (verdict.behaviorClose !== CloseBehavior.WrongCode) return verdict;
  return { ...verdict, behaviorClose: CloseBehavior.Ok, resultClose: 'The peer failed the connection (any close code, or a drop, passes this case).' };
}

// What the frame attacks ask of either role (17.2.3-17.2.6, 18.3.4-18.3.7).
const reservedOpcodeRequirement: Requirement = {
  key: 'reserved-opcode-length',
  rfc: 'RFC 6455 §5.2, §10.4',
  text: 'a peer fails the connection at a frame header with a reserved opcode declaring 1 GiB (1002, 1009 or a drop), without reading the payload, and survives (Java-WebSocket#1507 allocated the declared size up front)',
  subject: 'a reserved opcode declaring 1 GiB',
};
const limitPlusOneRequirement: Requirement = {
  key: 'limit-plus-one-fragments',
  rfc: 'RFC 6455 §10.4, §7.4.1',
  text: 'a peer with a message limit fails the connection (1009, 1008 or a drop) once a message in 4 KiB fragments passes it, having taken at most the limit, and survives (ws#2331, ws#2332: per-fragment overhead far above the limit)',
  subject: 'a message one byte past the limit, in small fragments',
};
const endlessRequirement: Requirement = {
  key: 'endless-continuations',
  rfc: 'RFC 6455 §5.4, §10.4',
  text: 'a peer fails the connection on an endless series of one-byte continuation frames, or at least keeps up with them and stays responsive (Netty CVE-2014-0193 grew without bound)',
  subject: 'endless one-byte continuation frames',
};
const randomBytesRequirement: Requirement = {
  key: 'random-bytes',
  rfc: 'RFC 6455 §5.2, §7.1.7',
  text: 'a peer fails the connection on random bytes after the opening handshake (any close code, or a drop) within 10 s, and survives',
  subject: 'random bytes after the 101',
};

/** What every frame attack shares: refused by the peer, run alone (its duration is a figure), its budget. */
function frameCase(
  spec: Pick<CaseDef, 'id' | 'description' | 'expectation' | 'run'> & Partial<CaseDef> & { budget: AttackBudget; codes: number[]; maxSeconds: number },
): ScriptedCase {
  const { budget, codes, maxSeconds, ...rest } = spec;
  return defineCase({
    expect: {},
    close: failedByPeer(codes),
    suppressClose: true,
    attackBudget: budget,
    schedule: { maxSeconds, runsAlone: true, cost: 1 },
    ...rest,
  });
}

// ---- a reserved opcode declaring 1 GiB --------------------------------------------------------------

// RFC 6455 §5.2: opcodes %x3-7 "are reserved for further non-control frames"; "If an unknown opcode
// is received, the receiving endpoint MUST _Fail the WebSocket Connection_." §10.4: a length past the
// limit is refused as well: either reason ends it at the header.
export function reservedOpcodeGiB(id: string, peer: Peer): ScriptedCase {
  return frameCase({
    id,
    requirement: reservedOpcodeRequirement,
    description: `A frame with the reserved opcode 0x3 (FIN set) whose header declares 1 GiB (127, then 00 00 00 00 40 00 00 00), then its payload trickled: ${RESERVED_GIB.pieceBytes} bytes every ${RESERVED_GIB.everyS * 1000} ms while the connection is open. (RFC 6455 §5.2, §10.4; ${reservedGiBBudget.advisory})`,
    expectation: `RFC 6455 §5.2: an unknown opcode MUST fail the connection: the ${peer} refuses the frame at its header (1002, or 1009, or a drop) within ${REFUSE_AT_HEADER_S} s, not after reading the payload; ${peer === 'server' ? 'afterwards it still serves' : 'its process does not die'}.`,
    budget: reservedGiBBudget,
    codes: [CloseCode.ProtocolError, CloseCode.MessageTooBig],
    maxSeconds: REFUSE_AT_HEADER_S + 3,
    async run(t) {
      t.setOutcome(Behavior.Ok, `The ${peer} failed the connection on the frame header.`);
      const write = t.beginFrame(RESERVED_GIB.opcode, true, RESERVED_GIB.declared);
      t.killAfter(scaledS(REFUSE_AT_HEADER_S, t.budgets));
      const piece = Buffer.alloc(RESERVED_GIB.pieceBytes);
      while (t.isOpen) {
        await t.pause(RESERVED_GIB.everyS);
        write(piece);
      }
    },
  });
}

// ---- the message limit plus one byte, in 4 KiB fragments ---------------------------------------------

const ZEROS = Buffer.alloc(LIMIT_PLUS_ONE.fragmentBytes);
const CROSSED = 'its refusal and the last fragments crossed';

// RFC 6455 §10.4: "implementations SHOULD impose a limit on frame sizes and the total message size
// after reassembly from multiple frames"; §7.4.1: 1009 for "a message that is too big for it to process".
export function limitPlusOne(id: string, peer: Peer): ScriptedCase {
  const f = LIMIT_PLUS_ONE;
  return frameCase({
    id,
    requirement: limitPlusOneRequirement,
    description: `A binary message that goes ${count(f.pastBytes)} bytes past the message limit (the run's \`message\` budget, 100 MiB by default: ws's maxPayload) before its last fragment, in fragments of ${count(f.fragmentBytes)} bytes, generated ${f.batch} fragments at a time as the ${peer} reads them (wsgate never holds the message). (RFC 6455 §10.4, §7.4.1; ${limitPlusOneBudget.advisory})`,
    expectation: `RFC 6455 §10.4: a ${peer} with a message limit fails the connection (1009, or 1008 for a limit on fragments, or a drop) once the message passes it, within ${f.withinS} s, its process having read at most its limit and ${count(f.slackBytes)} beside it; a lower limit refuses earlier, which passes. Reading on past the limit (a limit checked only at the last fragment), or taking the whole message (echoing it, or nothing to say against it), is FAILED.`,
    budget: limitPlusOneBudget,
    codes: TOO_BIG,
    maxSeconds: f.withinS + 3,
    messageLengthOnly: true,
    run: (t) => sendLimitPlusOne(t, peer),
    adjust(verdict, facts) {
      // wsgate ended it: the peer neither refused nor echoed within the wait, or echoed past wsgate's own frame limit.
      if (!verdict.result.includes(CROSSED) || verdict.behaviorClose !== CloseBehavior.Failed) return withOwnFigures(facts, verdict);
      return withOwnFigures(facts, {
        ...verdict,
        behavior: Behavior.Failed,
        result: `The ${peer} took the whole message (its limit + ${count(f.pastBytes)} bytes) without failing the connection: it said nothing for ${f.afterS} s after the last fragment, or echoed it past wsgate's own frame limit (wsgate then ended the connection).`,
      });
    },
    onMessage(t, _data, binary, length) {
      t.record({ kind: 'message', data: Buffer.alloc(0), binary });
      const limit = t.budgets.messageLimit;
      const past = length > limit;
      const what = past ? `the whole message (${count(length)} bytes, past the limit of ${count(limit)})` : `a message of ${count(length)} bytes`;
      t.setOutcome(Behavior.Failed, `The ${peer} echoed ${what}: it took a message past the limit instead of failing the connection.`, [
        echoedFigure(length, past ? limit : undefined),
      ]);
      t.sendClose(CloseCode.Normal);
    },
  });
}

async function sendLimitPlusOne(t: CaseContext, peer: Peer): Promise<void> {
  const f = LIMIT_PLUS_ONE;
  t.setWirelog(false, { silent: true });
  const limit = t.budgets.messageLimit;
  // Past the limit by f.pastBytes before the last fragment: a check made only at FIN reads on to it.
  const total = limit + f.pastBytes;
  const fragments = Math.ceil(total / f.fragmentBytes);
  t.killAfter(scaledS(f.withinS, t.budgets));
  const message = statedFigure('message-bytes', `the message: the limit + ${count(f.pastBytes)}`, total, 'bytes');
  // What the peer's process read of the message (wsgate's flushed bytes less the kernel's queues), the most seen; null: not on this machine.
  const before = t.peerRead();
  let read: number | null = null;
  let written = 0;
  for (let i = 0; i < fragments && t.isOpen; ) {
    for (let k = 0; k < f.batch && i < fragments; k++, i++) {
      const length = Math.min(f.fragmentBytes, total - written);
      t.beginFrame(i === 0 ? Opcode.Binary : Opcode.Continuation, i === fragments - 1, length)(length === f.fragmentBytes ? ZEROS : ZEROS.subarray(0, length));
      written += length;
    }
    const now = t.peerRead();
    if (now !== null && before !== null) read = Math.max(read ?? 0, now - before);
    limitOutcome(t, peer, { written, total, fragments: i, read, limit, message });
    await t.flushed({ below: FLUSH_BELOW });
  }
  if (!t.isOpen) return;
  // Sent before the refusal arrived (the peer reads ahead of its limit check, the kernel buffers): the close may still come.
  if (read === null || read <= limit + f.slackBytes)
    t.setOutcome(Behavior.Ok, `The ${peer} failed the connection as wsgate wrote the last of its ${count(total)} bytes (${CROSSED}).`, [message]);
  t.killAfter(scaledS(f.afterS, t.budgets));
}

/**
 * The verdict so far, should the peer refuse now: OK with what was written and read; FAILED once the
 * peer's process had read past its limit by more than the slack (it holds a message past its limit,
 * checking only at the end).
 */
function limitOutcome(
  t: CaseContext,
  peer: Peer,
  m: { written: number; total: number; fragments: number; read: number | null; limit: number; message: Figure },
): void {
  const f = LIMIT_PLUS_ONE;
  const over = m.read !== null && m.read > m.limit + f.slackBytes;
  const figures = [
    statedFigure('message-written-bytes', "of the message wsgate had written when it saw the peer's refusal", m.written, 'bytes'),
    m.message,
    statedFigure('fragment-count', 'fragments of it written', m.fragments, 'count'),
    ...(m.read === null
      ? []
      : [judgedFigure('message-read-bytes', "of the message the peer's process had read", m.read, 'bytes', m.limit + f.slackBytes, over)]),
  ];
  const read =
    m.read === null
      ? "what the peer's process read was not measured (its socket is not on this machine)"
      : `the ${peer}'s process had read ${count(m.read)} (its limit ${count(m.limit)})`;
  if (over)
    t.setOutcome(
      Behavior.Failed,
      `The ${peer} read ${count(m.read ?? 0)} bytes of the message's frames, ${count((m.read ?? 0) - m.limit)} past its limit of ${count(m.limit)}, and had not refused it: it holds a message past its limit (checking it only at the last fragment, say). wsgate had written ${count(m.written)} of its ${count(m.total)} bytes (${count(m.fragments)} fragments).`,
      figures,
    );
  else
    t.setOutcome(
      Behavior.Ok,
      `The ${peer} failed the connection before the message ended: wsgate had written ${count(m.written)} of its ${count(m.total)} bytes (${count(m.fragments)} fragments) when it saw the ${peer}'s refusal; ${read}.`,
      figures,
    );
}

// ---- endless one-byte continuations ------------------------------------------------------------------

const ONE = Buffer.from([0x61]);
const TOOK_ALL = 'took them all';

// RFC 6455 §5.4 lets a message have any number of fragments; §10.4 asks for limits "on frame sizes and
// the total message size after reassembly from multiple frames". Nothing bounds the count: the
// figure is what the peer holds per fragment, and whether it stays responsive.
export function endlessContinuations(id: string, peer: Peer): ScriptedCase {
  const e = ENDLESS;
  return frameCase({
    id,
    requirement: endlessRequirement,
    description: `A binary frame without FIN holding 1 byte, then continuation frames of 1 byte each, never a final one: up to ${count(e.frames)} of them, ${count(e.batch)} at a time as the ${peer} reads them; then, if the ${peer} took them all, a close frame (1000). (RFC 6455 §5.4, §10.4; ${endlessBudget.advisory})`,
    expectation: `The ${peer} fails the connection (any code, 1009 or 1008 expected, or a drop) before the ${count(e.frames)} frames end: OK. Taking them all and answering the close within ${e.withinS} s is NON-STRICT (it kept up, but limits neither the number of fragments nor what each costs it; ws's maxFragments refuses past 16,384), unless its memory grew past ${MEMORY_GROWTH.fragments / 1024 / 1024} MiB for this 1 MiB message (ws 8.20.1: about 150 MiB), which is FAILED, as are falling behind past ${e.withinS} s and dying. Where wsgate did not start the ${peer}, its memory is not measured and the result says so.`,
    budget: endlessBudget,
    codes: [CloseCode.MessageTooBig, CloseCode.PolicyViolation],
    maxSeconds: e.withinS + 3,
    run: (t) => sendEndless(t, peer),
    adjust(verdict, facts) {
      const judged = anyCode(verdict);
      // wsgate closed after the last frame: the close is wsgate's, not the peer's refusal.
      if (judged.result.includes(TOOK_ALL))
        return withOwnFigures(facts, { ...judged, behaviorClose: CloseBehavior.Ok, resultClose: 'Not judged: wsgate closed after the last frame.' });
      return withOwnFigures(facts, judged);
    },
  });
}

async function sendEndless(t: CaseContext, peer: Peer): Promise<void> {
  const e = ENDLESS;
  t.setWirelog(false, { silent: true });
  t.killAfter(scaledS(e.withinS, t.budgets));
  t.beginFrame(Opcode.Binary, false, 1)(ONE);
  let sent = 0;
  while (sent < e.frames && t.isOpen) {
    for (let k = 0; k < e.batch; k++) t.beginFrame(Opcode.Continuation, false, 1)(ONE);
    sent += e.batch;
    t.setOutcome(Behavior.Ok, `The ${peer} failed the connection after wsgate had written ${count(sent)} one-byte continuation frames.`, [
      statedFigure('continuation-count', 'one-byte continuation frames wsgate had written', sent, 'count'),
    ]);
    await t.flushed({ below: FLUSH_BELOW });
  }
  if (!t.isOpen) return;
  t.setOutcome(
    Behavior.NonStrict,
    `The ${peer} ${TOOK_ALL}: ${count(sent + 1)} frames of one message (${count(sent + 1)} bytes) without failing the connection, then answered wsgate's close.`,
    [statedFigure('frame-count', 'frames of one message the peer took', sent + 1, 'count'), statedFigure('message-bytes', 'the message', sent + 1, 'bytes')],
  );
  t.sendClose(CloseCode.Normal);
}

// ---- random bytes after the 101 -------------------------------------------------------------------

/** `length` (a multiple of 4) bytes of the PRNG's stream of 32-bit words. */
function randomPiece(next: () => number, length: number): Buffer {
  const out = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i += 4) out.writeUInt32LE(next(), i);
  return out;
}

/** An integer in [0, n) from the PRNG. */
function below(next: () => number, n: number): number {
  return next() % n;
}

/**
 * One valid binary message of random size and bytes: whole, or in fragments with a ping of random
 * payload after each fragment but the last (RFC 6455 §5.4: control frames may come between
 * fragments). Returns its size.
 */
function randomMessage(t: CaseContext, next: () => number): number {
  const r = RANDOM_BYTES;
  // Sizes spread over the three length encodings: a third each below 126, below 65536, and up to the maximum.
  const band = below(next, 3);
  const size = band === 0 ? below(next, 126) : band === 1 ? 126 + below(next, 65536 - 126) : 65536 - below(next, 1024);
  const payload = randomPiece(next, Math.ceil(size / 4) * 4).subarray(0, Math.min(size, r.maxMessageBytes));
  const parts = below(next, 3) === 0 ? 1 + below(next, r.maxFragments) : 1;
  for (let i = 0; i < parts; i++) {
    const from = Math.floor((payload.length * i) / parts);
    const to = Math.floor((payload.length * (i + 1)) / parts);
    t.sendFrame({ opcode: i === 0 ? Opcode.Binary : Opcode.Continuation, fin: i === parts - 1, payload: payload.subarray(from, to) });
    if (i < parts - 1) t.sendFrame({ opcode: Opcode.Ping, payload: randomPiece(next, 128).subarray(0, below(next, 126)) });
  }
  return payload.length;
}

// RFC 6455 §5.2: the RSV bits MUST be 0 unless an extension says otherwise, an unknown opcode MUST
// fail the connection; §7.1.7: a peer that finds the data invalid fails the connection.
export function randomBytes(id: string, peer: Peer): ScriptedCase {
  const r = RANDOM_BYTES;
  return frameCase({
    id,
    requirement: randomBytesRequirement,
    description: `After the opening handshake, from seeded PRNGs (mulberry32; the random bytes seed 0x${r.seed.toString(16)}, the messages the next seed): first ${r.messages} valid binary messages of random sizes (0 to ${count(r.maxMessageBytes)} bytes, all three length encodings) and random bytes, a third of them in up to ${r.maxFragments} fragments with a ping of random payload between fragments; then random bytes, ${count(r.pieceBytes)} every ${r.everyS * 1000} ms, until ${r.seconds} s from the start or until the ${peer} ends the connection. (RFC 6455 §5.2, §5.4, §7.1.7; ${randomBytesBudget.advisory})`,
    expectation: `The valid frames are taken (echoed or not: not judged) without failing the connection; the random bytes soon break a rule of §5.2 (reserved bits, a reserved opcode, an unmasked or masked frame in the wrong role, a length past any limit): the ${peer} fails the connection (any close code, or a drop) within ${r.seconds} s of the start and ${peer === 'server' ? 'still serves afterwards' : 'its process does not die'}. Failing the connection on the valid frames, or still open after ${r.seconds} s, is FAILED.`,
    budget: randomBytesBudget,
    codes: [CloseCode.ProtocolError],
    maxSeconds: r.seconds + 3,
    messageLengthOnly: true,
    // The peer's echoes of the valid messages and its pongs: not judged, never held.
    onMessage: () => undefined,
    onPong: () => undefined,
    async run(t) {
      t.setWirelog(false, { silent: true });
      t.killAfter(scaledS(r.seconds, t.budgets));
      // Two streams: the random bytes are the seed's own, whatever the valid frames took before them.
      const contents = mulberry32(r.seed + 1);
      const next = mulberry32(r.seed);
      t.setOutcome(Behavior.Failed, `The ${peer} failed the connection on valid frames (random binary messages, fragments and pings), before any random byte.`);
      let bytes = 0;
      for (let i = 0; i < r.messages; i++) {
        bytes += randomMessage(t, contents);
        await t.flushed({ below: FLUSH_BELOW });
        if (!t.isOpen) return;
      }
      t.setOutcome(
        Behavior.Ok,
        `The ${peer} took ${r.messages} valid random messages (${count(bytes)} payload bytes), then failed the connection on the random bytes.`,
        [
          statedFigure('valid-message-count', 'valid messages the peer took', r.messages, 'count'),
          statedFigure('valid-payload-bytes', 'of their payload', bytes, 'bytes'),
        ],
      );
      for (;;) {
        t.sendRaw(randomPiece(next, r.pieceBytes));
        await t.pause(r.everyS);
        await t.flushed({ below: FLUSH_BELOW });
        if (!t.isOpen) return;
      }
    },
    adjust: (verdict, facts) => withOwnFigures(facts, anyCode(verdict)),
  });
}
