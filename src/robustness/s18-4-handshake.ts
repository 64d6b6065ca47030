/**
 * Group 18.4 (the robustness profile, a client under test): the handshake floods and slow answers
 * that took HTTP stacks down, played by wsgate as a hostile server in its 101 response. 18.4.1 has
 * 10,000 header lines; 18.4.2 a header value of 8 MiB, streamed; 18.4.3 a header value of 1 MiB
 * in small pieces, judged on the client's CPU time; 18.4.4 is trickled one byte per second and never ends; 18.4.5 names extensions after
 * Object.prototype's properties. Advisories and budgets are data (data/floods.ts); the engine writes
 * the slow and huge heads (server/head-delivery.ts) and states the figures (play/attack-figures.ts).
 */
import { CloseCode, Opcode } from '../protocol/constants.js';
import { encodeFrameHeader } from '../protocol/frame-writer.js';
import { Behavior, CloseBehavior, type OutcomeVerdict } from '../model/verdicts.js';
import { ClientFloodBudgets as B, clientFloodBudgets as budget } from './data/floods.js';
import { DEFAULT_BUDGETS, scaledS } from '../cases/data/budgets.js';
import { count } from './attack-judges.js';
import { defineCase } from '../cases/define.js';
import { budgetFigure } from '../cases/judgement.js';
import { echoedFigure, withOwnFigures } from './own-figures.js';
import { head, mustRefuse, PROBE, refused, SWITCHING, upgradeLines } from '../cases/handshake-scripts.js';
import { subgroup } from './subgroup.js';
import type { AdjustFacts, CaseContext, ScriptedCase, HandshakeRequestInfo, Judgement } from '../cases/types.js';

// RFC 6455 §4.1: the client reads the server's handshake response and "If the response lacks ... or
// ... the client MUST _Fail the WebSocket Connection_"; §4.2.2 says what a valid 101 holds. Nothing
// bounds its size or pace: a client's HTTP layer must, as a server's does (RFC 9112 §2.3, §9.5).
const RFC = 'RFC 6455 §4.1, §4.2.2';

const TOOK = 'The client took the response and echoed the message sent after it.';
const REFUSED = 'The client refused the response: it ended the connection without echoing the message sent after it.';

/** The unmasked text frame of PROBE, as the end of a streamed response's tail. */
function probeFrame(): Buffer {
  const payload = Buffer.from(PROBE, 'utf8');
  return Buffer.concat([encodeFrameHeader(Opcode.Text, true, 0, payload.length, null), payload]);
}

/** `took`: the outcome of a client that echoed; a client that did neither within the budget is FAILED. With the figures its outcome stated. */
function judgeSettled(verdict: Judgement, facts: AdjustFacts, waitS: number): Judgement {
  if (verdict.result.startsWith(TOOK))
    return withOwnFigures(facts, {
      ...verdict,
      behaviorClose: CloseBehavior.Ok,
      resultClose: 'Not judged: the client took the response; wsgate closed after the echo.',
    });
  if (verdict.result === REFUSED && verdict.behaviorClose === CloseBehavior.Failed) {
    return withOwnFigures(facts, {
      ...verdict,
      behavior: Behavior.Failed,
      result: `The client neither refused the response nor echoed the message within ${waitS} s.`,
    });
  }
  return withOwnFigures(facts, verdict);
}

/** The echo of PROBE sets the outcome (`took`); anything else fails. */
function onEcho(took: OutcomeVerdict, why: string): (t: CaseContext, data: Buffer, binary: boolean) => void {
  return (t, data, binary) => {
    if (!binary && data.toString('utf8') === PROBE) t.setOutcome(took, `${TOOK}${why}`);
    else
      t.setOutcome(Behavior.Failed, `The client echoed a message other than the one sent (${binary ? 'binary' : 'text'}, ${data.length} bytes).`, [
        echoedFigure(data.length),
      ]);
    t.sendClose(CloseCode.Normal);
  };
}

/** 10,000 short header lines ("a0: b" ...), distinct names so none is folded into another. */
function manyLines(): string[] {
  return Array.from({ length: B.manyLines }, (_, i) => `a${i}: b`);
}

const manyLinesCase = defineCase({
  id: '18.4.1',
  requirement: {
    key: 'client-many-header-lines',
    rfc: 'RFC 6455 §4.1, §4.2.2',
    text: 'a client takes a 101 with thousands of header lines or fails the connection, within the budget, and its process survives (CVE-2024-37890: ws before 8.17.1 crashed on more header lines than Node keeps; CVE-2018-12121)',
    subject: 'a 101 with 10,000 header lines',
  },
  description: `A 101 response with ${B.manyLines.toLocaleString('en-US')} short header lines ("a0: b" ...) ahead of the upgrade fields, then in the same write a text message ("${PROBE}"). (${RFC}; ${budget.manyLines.advisory})`,
  expectation: `The client takes the response and echoes the message, or fails the connection (its HTTP layer keeps fewer header lines: Node's 16 KiB head, Python's 100 lines), within ${B.settleWithinS} s: both are OK. Neither within ${B.settleWithinS} s, or a process that dies, is FAILED.`,
  expect: {},
  close: refused,
  suppressClose: true,
  attackBudget: budget.manyLines,
  schedule: { maxSeconds: B.settleWithinS + 2 },
  handshake: (info) => ({ head: head(SWITCHING, [...manyLines(), ...upgradeLines(info)]), delivery: 'together' }),
  run(t) {
    t.setOutcome(Behavior.Ok, REFUSED);
    t.sendFrame({ opcode: Opcode.Text, payload: PROBE });
    t.killAfter(scaledS(B.settleWithinS, t.budgets));
  },
  onMessage: onEcho(Behavior.Ok, ''),
  adjust: (verdict, facts) => judgeSettled(verdict, facts, B.settleWithinS),
});

const MIB = B.hugeHeader.totalBytes / (1024 * 1024);

/** The 101's head up to the huge value: status line, upgrade fields, the padding header's name. */
function hugeHeaderStart(info: HandshakeRequestInfo): string {
  return `${[SWITCHING, ...upgradeLines(info)].map((l) => `${l}\r\n`).join('')}X-Pad: `;
}

const hugeHeaderCase = defineCase({
  id: '18.4.2',
  requirement: {
    key: 'client-huge-header',
    rfc: 'RFC 6455 §4.1, RFC 9112 §2.3',
    text: 'a client bounds the response head it reads: it fails the connection on a header of megabytes soon after its limit, not after reading it all (CVE-2018-12121: Node.js kept 80 KB of headers per connection until its heap ran out)',
    subject: 'an 8 MiB header in the 101',
  },
  description: `A 101 response whose last header line, X-Pad, has a value of ${MIB} MiB, streamed in pieces of ${B.hugeHeader.pieceBytes / 1024} KiB, one every ${B.hugeHeader.everyMs} ms once the client's socket took the one before; then the empty line and a text message ("${PROBE}"). wsgate stops writing when the client ends the connection. (${RFC}; ${budget.hugeHeader.advisory})`,
  expectation: `The client's HTTP layer bounds the response head (Node's is 16 KiB): it fails the connection within ${B.settleWithinS} s of the first byte, without reading the megabytes. A client that reads the whole head and echoes the message is FAILED (no limit: the memory it holds grows with what the server sends); neither within ${B.settleWithinS} s is FAILED. The figure says how many bytes wsgate had written when the client dropped.`,
  expect: {},
  close: refused,
  suppressClose: true,
  attackBudget: budget.hugeHeader,
  schedule: { maxSeconds: B.settleWithinS + 2 },
  handshake: (info) => ({
    head: hugeHeaderStart(info),
    delivery: 'streamed',
    stream: {
      bytes: B.hugeHeader.totalBytes,
      pieceBytes: B.hugeHeader.pieceBytes,
      everyMs: B.hugeHeader.everyMs,
      tail: Buffer.concat([Buffer.from('\r\n\r\n', 'latin1'), probeFrame()]),
    },
  }),
  async run(t) {
    t.setOutcome(Behavior.Ok, REFUSED);
    t.killAfter(scaledS(B.settleWithinS, t.budgets));
    // What the client's process read of the head (the kernel's buffers taken out), looked at until it
    // ends the connection: past the budget, a refusal came too late to bound what it holds.
    let most = 0;
    while (t.isOpen) {
      const read = t.peerRead();
      if (read !== null && read > most) {
        most = read;
        if (most > B.hugeHeaderReadBytes)
          t.setOutcome(
            Behavior.Failed,
            `The client read ${count(most)} bytes of the response head (budget ${count(B.hugeHeaderReadBytes)}): its limit on a response head, if it has one, lets a server make it hold that much.`,
            [budgetFigure('peer-read-bytes', "of the response head the client's process had read", most, 'bytes', B.hugeHeaderReadBytes)],
          );
      }
      await t.pause(B.readSampleS);
    }
  },
  onMessage: onEcho(Behavior.Failed, ` It read a ${MIB} MiB response head without a limit.`),
  adjust: (verdict, facts) => judgeSettled(verdict, facts, B.settleWithinS),
});

const P = B.pacedHead;

const pacedCase = defineCase({
  id: '18.4.3',
  requirement: {
    key: 'client-paced-response',
    rfc: 'RFC 6455 §4.1, §4.2.2',
    text: 'a client reads a long 101 written in small pieces at a cost that grows with its length, not its square: it takes it and echoes, or refuses it at its own limit, spending little CPU time (CVE-2023-43669: tungstenite before 0.20.1 parsed the head again on every read)',
    subject: 'a 1 MiB response head written in small pieces',
  },
  description: `A 101 response that ends with ${count(P.totalBytes)} bytes of X-Pad header lines of ${count(P.lineBytes)} bytes each (under any limit on a line, as the advisory's exploit sends them), written in ${P.pieceBytes}-byte pieces, one every ${P.everyMs} ms (about ${count(P.totalBytes / P.pieceBytes)} reads for a client that keeps up); then the empty line and a text message ("${PROBE}"). (${RFC}; ${budget.paced.advisory})`,
  expectation: `The client takes the response and echoes the message, or fails the connection at its own limit on a response head (Node's is 16 KiB), within ${B.settleWithinS + P.writeS} s; and its process tree spends at most ${count(B.pacedCpuMs)} ms of CPU time on the case (a parser that reads the head again from its start on every read spends time quadratic in its length: tungstenite took minutes). Neither echo nor refusal in time, or a process that dies, is FAILED.`,
  expect: {},
  close: refused,
  suppressClose: true,
  attackBudget: budget.paced,
  schedule: { maxSeconds: B.settleWithinS + P.writeS + 2 },
  handshake: (info) => ({
    head: hugeHeaderStart(info),
    delivery: 'streamed',
    stream: {
      bytes: P.totalBytes,
      pieceBytes: P.pieceBytes,
      everyMs: P.everyMs,
      tail: Buffer.concat([Buffer.from('\r\n\r\n', 'latin1'), probeFrame()]),
      lines: { lineBytes: P.lineBytes, lineName: 'X-Pad' },
    },
  }),
  run(t) {
    t.setOutcome(Behavior.Ok, REFUSED);
    t.killAfter(scaledS(B.settleWithinS + P.writeS, t.budgets));
  },
  onMessage: onEcho(Behavior.Ok, ''),
  adjust: (verdict, facts) => judgeSettled(verdict, facts, B.settleWithinS + P.writeS),
});

const STALL_S = DEFAULT_BUDGETS.stallMs / 1000;
const DROPPED_STALLED = 'The client dropped the trickled response by a timeout of its own.';

const trickledCase = defineCase({
  id: '18.4.4',
  requirement: {
    key: 'client-handshake-timeout',
    rfc: 'RFC 6455 §4.1, §10.1',
    text: 'a client drops a 101 trickled one byte per second by a handshake timeout of its own, within the stall budget (CVE-2018-12122: Node.js held a trickled head forever; Slowloris)',
    subject: 'a 101 trickled one byte per second',
  },
  description: `A 101 response trickled one byte every ${B.trickleEveryMs} ms that never ends (an X-Pad header of ${B.tricklePadBytes.toLocaleString('en-US')} bytes: an hour). (${RFC}; ${budget.trickled.advisory})`,
  expectation: `The client drops the connection by a handshake timeout of its own within the stall budget (--budget stall, default ${STALL_S} s). wsgate drops it just after the budget: FAILED. This case takes as long as the client's deadline. An idle timeout never fires while the bytes trickle in: ws has no deadline on its opening (its handshakeTimeout is the socket's idle timeout).`,
  expect: {},
  close: refused,
  suppressClose: true,
  attackBudget: budget.trickled,
  schedule: { maxSeconds: STALL_S + 5, idle: true, cost: 30 },
  handshake: (info) => ({
    head: `${[SWITCHING, ...upgradeLines(info)].map((l) => `${l}\r\n`).join('')}X-Pad: ${'a'.repeat(B.tricklePadBytes)}`,
    delivery: 'trickled',
    everyMs: B.trickleEveryMs,
  }),
  run(t) {
    t.setOutcome(Behavior.Ok, DROPPED_STALLED);
    // No close frame can follow a head that never ended: wsgate drops TCP.
    t.continueLater(t.budgets.stallMs / 1000 + 1, () => {
      t.setOutcome(
        Behavior.Failed,
        'The client kept the trickled response open past the stall budget: it has no deadline on its opening (or a later one: an idle timeout never fires while bytes trickle in); wsgate dropped it.',
      );
      t.dropConnection();
    });
  },
});

const PROTOTYPE_EXTENSIONS = 'Sec-WebSocket-Extensions: constructor; __proto__=1, __proto__; constructor=1; toString, hasOwnProperty';

const prototypeNamesCase: ScriptedCase = {
  ...mustRefuse({
    id: '18.4.5',
    description: `A 101 response accepting extensions the client never offered, named after Object.prototype's properties ("${PROTOTYPE_EXTENSIONS.slice(26)}"), then a text message. (${RFC}; ${budget.prototypeNames.advisory})`,
    expectation: `RFC 6455 §4.1: a response that "indicates the use of an extension that was not present in the client's handshake" means the client MUST _Fail the WebSocket Connection_, within ${B.refuseWithinS} s, and its process survives the names.`,
    lines: (info) => [...upgradeLines(info), PROTOTYPE_EXTENSIONS],
  }),
  requirement: {
    key: 'client-prototype-extension-names',
    rfc: 'RFC 6455 §4.1, §9.1',
    text: 'a client fails the connection on a 101 accepting extensions it never offered, named constructor, __proto__, toString, and its process survives (GHSA-5v72-xg48-5rpm: ws before 3.3.1 crashed on such names)',
    subject: 'extension names such as constructor in the 101',
  },
  attackBudget: budget.prototypeNames,
  schedule: { maxSeconds: B.refuseWithinS + 2 },
};

// RFC 6455 §4.1: a Sec-WebSocket-Protocol "that indicates a subprotocol that was not present in the
// client's handshake" makes the client _Fail the WebSocket Connection_; one of bytes above 0x7f can
// never have been offered (tokens are ASCII). RFC 9110 §5.5: such octets are opaque data, not a crash.
const OBS_TEXT_PROTOCOL = 'Sec-WebSocket-Protocol: \u00ff\u00fechat\u00e9';
const obsTextCase: ScriptedCase = {
  ...mustRefuse({
    id: '18.4.6',
    description: `A 101 response with a Sec-WebSocket-Protocol of bytes above 0x7f (obs-text: ff fe "chat" e9, latin1), which the client never offered, then a text message. (${RFC}, RFC 9110 §5.5; ${budget.obsText.advisory})`,
    expectation: `RFC 6455 §4.1: a subprotocol the client did not offer means it MUST _Fail the WebSocket Connection_, within ${B.refuseWithinS} s, and its process survives the bytes.`,
    lines: (info) => [...upgradeLines(info), OBS_TEXT_PROTOCOL],
  }),
  requirement: {
    key: 'client-obs-text-protocol',
    rfc: 'RFC 6455 §4.1, RFC 9110 §5.5',
    text: 'a client fails the connection on a 101 naming a subprotocol it never offered, here of bytes above 0x7f, and its process survives (denoland/deno#32594: Deno panicked on such a value)',
    subject: 'a subprotocol of bytes above 0x7f in the 101',
  },
  attackBudget: budget.obsText,
  schedule: { maxSeconds: B.refuseWithinS + 2 },
};

export const handshakeClientCases: readonly ScriptedCase[] = subgroup(
  '18.4',
  'Opening handshake: a 101 with 10,000 lines, an 8 MiB header, one byte per packet, trickled, prototype extension names',
  [manyLinesCase, hugeHeaderCase, pacedCase, trickledCase, prototypeNamesCase, obsTextCase],
);
