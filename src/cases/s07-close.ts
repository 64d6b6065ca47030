/**
 * Group 7: close handling. In every case the fuzzer starts the closing handshake, with a close frame
 * that is well-formed or not, and judges the client's answer.
 *
 * RFC 6455 §5.5.1: "If an endpoint receives a Close frame and did not previously send a Close frame,
 * the endpoint MUST send a Close frame in response. (When sending a Close frame in response, the
 * endpoint typically echos the status code it received.)"
 */
import { CloseCode, Opcode } from '../protocol/constants.js';
import type { ExpectedClose } from '../model/report.js';
import { Behavior, CloseBehavior } from '../model/verdicts.js';
import { invalidCloseCodes, undefinedCloseCodes, validCloseCodes } from './data/close-codes.js';
import { closedByMe, defineCase, hex, message, wrongCodeFails } from './define.js';
import type { CaseContext, ScriptedCase, Judgement } from './types.js';

/** Every case of the group fails the connection when it is still not closed a second after opening. */
const FAIL_AFTER = 1;

/** A close the peer should refuse: it may answer with one of these codes, with no code, or drop TCP. */
function refusedClose(codes: number[]): ExpectedClose {
  return { closedByMe: true, closeCode: codes, requireClean: false };
}

/** 7.1.6 and 7.13.x judge nothing: both axes are informational, whatever the peer did. */
function informational(result: (verdict: Judgement) => string): (verdict: Judgement) => Judgement {
  return (verdict) => ({
    ...verdict,
    behavior: Behavior.Informational,
    behaviorClose: CloseBehavior.Informational,
    result: result(verdict),
  });
}

/**
 * Most cases of the group: the fuzzer sends a close (and maybe more) first; the peer must answer it
 * and send nothing else. A wrong close code also fails the outcome (Autobahn's 7.x override).
 */
function closeFirst(def: {
  id: string;
  description: string;
  expectation: string;
  /** Default: the peer answers with 1000 or no code, cleanly. */
  close?: ExpectedClose;
  send(t: CaseContext): void;
}): ScriptedCase {
  return defineCase({
    id: def.id,
    description: def.description,
    expectation: def.expectation,
    expect: { OK: [] },
    close: def.close ?? closedByMe([CloseCode.Normal]),
    suppressClose: true,
    adjust: wrongCodeFails,
    run(t) {
      def.send(t);
      t.killAfter(FAIL_AFTER);
    },
  });
}

// ---- 7.1: the basic closing handshake --------------------------------------------------------------

// RFC 6455 §1.4: "after receiving a control frame indicating the connection should be closed, a peer
// discards any further data received." Frames that follow our close must change nothing: the peer
// answers the close and echoes nothing.

const basicCases: ScriptedCase[] = [
  defineCase({
    id: '7.1.1',
    description: 'A text message "Hello World!"; once it is echoed, a close frame with code 1000.',
    expectation: 'The client echoes the message, then answers the close with code 1000 (or no code).',
    expect: { OK: [message('Hello World!')] },
    close: closedByMe([CloseCode.Normal]),
    adjust: wrongCodeFails,
    run(t) {
      // The close 1000 follows from the engine once the echo is in (suppressClose is off).
      t.sendFrame({ opcode: Opcode.Text, payload: 'Hello World!' });
      t.killAfter(FAIL_AFTER);
    },
  }),
  closeFirst({
    id: '7.1.2',
    description: 'A close frame with code 1000, then a second, empty close frame.',
    expectation: 'The client answers the first close with code 1000 (or no code) and ignores the second.',
    send(t) {
      t.sendClose(CloseCode.Normal);
      t.sendFrame({ opcode: Opcode.Close });
    },
  }),
  closeFirst({
    id: '7.1.3',
    description: 'A close frame with code 1000, then an empty ping.',
    expectation: 'The client answers the close with code 1000 (or no code) and sends no pong.',
    send(t) {
      t.sendClose(CloseCode.Normal);
      t.sendFrame({ opcode: Opcode.Ping });
    },
  }),
  closeFirst({
    id: '7.1.4',
    description: 'A close frame with code 1000, then a text message "Hello World!".',
    expectation: 'The client answers the close with code 1000 (or no code) and does not echo the message.',
    send(t) {
      t.sendClose(CloseCode.Normal);
      t.sendFrame({ opcode: Opcode.Text, payload: 'Hello World!' });
    },
  }),
  closeFirst({
    id: '7.1.5',
    description: 'The first fragment "fragment1" of a text message, a close frame with code 1000, then the last fragment "fragment2".',
    expectation: 'The client answers the close with code 1000 (or no code) and echoes nothing.',
    send(t) {
      t.sendFrame({ opcode: Opcode.Text, payload: 'fragment1', fin: false });
      t.sendClose(CloseCode.Normal);
      t.sendFrame({ opcode: Opcode.Continuation, payload: 'fragment2', fin: true });
    },
  }),
  defineCase({
    id: '7.1.6',
    description:
      'Back to back: a 256 KiB text message (the pattern "BAsd7&jh23" repeated), a text message "Hello World!", ' +
      'a close frame with code 1000 and an empty ping.',
    expectation:
      'Informational only. Whether the client echoes "Hello World!" before it answers the close depends on how ' +
      'it processes its input: a client that handles the close before it has finished writing the large echo ' +
      'may send back part of the messages or none of them.',
    // OK: the close was handled after the small message; NON-STRICT: before it. Only the result text
    // tells them apart, since both axes become INFORMATIONAL.
    expect: { OK: [message('Hello World!')], 'NON-STRICT': [] },
    close: closedByMe([CloseCode.Normal]),
    suppressClose: true,
    adjust: informational((v) =>
      v.behavior === Behavior.Ok
        ? 'Text message was processed before close.'
        : v.behavior === Behavior.NonStrict
          ? 'Close was processed before text message could be returned.'
          : v.result,
    ),
    run(t) {
      t.sendFrame({ opcode: Opcode.Text, payload: 'BAsd7&jh23', payloadLen: 256 * 1024 });
      t.sendFrame({ opcode: Opcode.Text, payload: 'Hello World!' });
      t.sendClose(CloseCode.Normal);
      t.sendFrame({ opcode: Opcode.Ping });
      t.killAfter(FAIL_AFTER);
    },
  }),
];

// ---- 7.3: the length of the close payload -----------------------------------------------------------

// RFC 6455 §5.5.1: "If there is a body, the first two bytes of the body MUST be a 2-byte unsigned
// integer (in network byte order) representing a status code", and §5.5: "All control frames MUST
// have a payload length of 125 bytes or less". A 1-byte body or a 126-byte one is a protocol error.

const lengthCases: ScriptedCase[] = [
  closeFirst({
    id: '7.3.1',
    description: 'A close frame with an empty payload: no code, no reason.',
    expectation: 'The client answers the close with code 1000 or no code.',
    send(t) {
      t.sendCloseFrame(); // 0x88 0x00
    },
  }),
  closeFirst({
    id: '7.3.2',
    description: 'A close frame with a 1-byte payload, "a": too short to hold a close code.',
    expectation: 'The client answers with a close frame with code 1002 (or no code), or drops TCP.',
    close: refusedClose([CloseCode.ProtocolError]),
    send(t) {
      t.sendCloseFrame(null, 'a'); // 0x88 0x01 0x61
    },
  }),
  closeFirst({
    id: '7.3.3',
    description: 'A close frame with a 2-byte payload: code 1000 and no reason.',
    expectation: 'The client answers the close with code 1000 (or no code).',
    send(t) {
      t.sendClose(CloseCode.Normal); // 0x88 0x02 0x03 0xe8
    },
  }),
  closeFirst({
    id: '7.3.4',
    description: 'A close frame with code 1000 and the reason "Hello World!".',
    expectation: 'The client answers the close with code 1000 (or no code).',
    send(t) {
      t.sendClose(CloseCode.Normal, 'Hello World!');
    },
  }),
  closeFirst({
    id: '7.3.5',
    description: 'A close frame with code 1000 and a reason of 123 "*": the largest close payload (125 bytes).',
    expectation: 'The client answers the close with code 1000 (or no code).',
    send(t) {
      t.sendClose(CloseCode.Normal, '*'.repeat(123));
    },
  }),
  closeFirst({
    id: '7.3.6',
    description: 'A close frame with code 1000 and a reason of 124 "*": a 126-byte payload, one byte more than a control frame may carry.',
    expectation: 'The client answers with a close frame with code 1002 (or no code), or drops TCP.',
    close: refusedClose([CloseCode.ProtocolError]),
    send(t) {
      // Unchecked on purpose: sendClose would cut the reason to fit. 0x88 0x7e 0x00 0x7e: length 126.
      t.sendCloseFrame(CloseCode.Normal, '*'.repeat(124));
    },
  }),
];

// ---- 7.5: the close reason must be UTF-8 -------------------------------------------------------------

// RFC 6455 §5.5.1: "Following the 2-byte integer, the body MAY contain UTF-8-encoded data with value
// /reason/", and §8.1: "When an endpoint is to interpret a byte stream as UTF-8 but finds that the byte
// stream is not, in fact, a valid UTF-8 stream, that endpoint MUST _Fail the WebSocket Connection_."

/** κόσμε (ce ba e1 bd b9 cf 83 ce bc ce b5), then ed a0 80 (U+D800, a surrogate), then "edited". */
const INVALID_REASON = hex('cebae1bdb9cf83cebcceb5 eda080 656469746564');

const payloadValueCases: ScriptedCase[] = [
  closeFirst({
    id: '7.5.1',
    description: `A close frame with code 1000 and a reason that is not valid UTF-8.<br><br>Reason: 0x${INVALID_REASON.toString('hex')}`,
    expectation: 'The client answers with a close frame with code 1002 or 1007 (or no code), or drops TCP.',
    close: refusedClose([CloseCode.ProtocolError, CloseCode.InvalidPayload]),
    send(t) {
      // A Buffer reason: the report shows localCloseReason in hex, as Autobahn does for this case.
      t.sendCloseFrame(CloseCode.Normal, INVALID_REASON);
    },
  }),
];

// ---- 7.7, 7.9, 7.13: the close code ----------------------------------------------------------------

// RFC 6455 §7.4.1: "Endpoints MAY use the following pre-defined status codes when sending a Close
// frame", and of 1005 and 1006 it says they "MUST NOT be set as a status code in a Close control frame
// by an endpoint". A peer must accept every code it may be sent and refuse the others (1002).

/** 7.7.x: a close with a code the peer must accept; it may answer with 1000 or echo the code. */
const validCodeCases: ScriptedCase[] = validCloseCodes.map(({ id, code }) =>
  defineCase({
    id,
    description: `A close frame with the valid code ${code} and no reason.`,
    expectation: `The client answers the close with code 1000, code ${code} or no code.`,
    expect: { OK: [] },
    close: closedByMe([CloseCode.Normal, code]),
    adjust: wrongCodeFails,
    run(t) {
      t.sendCloseFrame(code);
      t.killAfter(FAIL_AFTER);
    },
  }),
);

/** 7.9.x: a close with a code no endpoint may send; the peer refuses it with 1002. */
const invalidCodeCases: ScriptedCase[] = invalidCloseCodes.map(({ id, code }) =>
  defineCase({
    id,
    description: `A close frame with the invalid code ${code} and no reason.`,
    expectation: 'The client answers with a close frame with code 1002 (or no code), or drops TCP.',
    expect: { OK: [] },
    close: refusedClose([CloseCode.ProtocolError]),
    adjust: wrongCodeFails,
    run(t) {
      t.sendCloseFrame(code);
      t.killAfter(FAIL_AFTER);
    },
  }),
);

/** 7.13.x: a code beyond 4999 (RFC 6455 defines 0-4999 only); whatever the peer does is reported. */
const undefinedCodeCases: ScriptedCase[] = undefinedCloseCodes.map(({ id, code }) =>
  defineCase({
    id,
    description: `A close frame with the code ${code}, outside the range RFC 6455 defines (0-4999), and no reason.`,
    expectation: 'Informational only: the specification does not say what the client should do.',
    expect: { OK: [] },
    close: refusedClose([CloseCode.Normal, code, CloseCode.ProtocolError]),
    suppressClose: true,
    adjust: informational(() => 'Actual events are undefined by the spec.'),
    run(t) {
      t.sendCloseFrame(code);
      t.killAfter(FAIL_AFTER);
    },
  }),
);

/** Every case of group 7, in Autobahn's order. */
export const closeCases: readonly ScriptedCase[] = [
  ...basicCases,
  ...lengthCases,
  ...payloadValueCases,
  ...validCodeCases,
  ...invalidCodeCases,
  ...undefinedCodeCases,
];
