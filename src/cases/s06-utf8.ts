/**
 * Group 6: UTF-8 handling.
 *
 * RFC 6455 §5.6: "The "Payload data" is text data encoded as UTF-8. Note that a particular text frame
 * might include a partial UTF-8 sequence; however, the whole message MUST contain valid UTF-8."
 *
 * RFC 6455 §8.1: "When an endpoint is to interpret a byte stream as UTF-8 but finds that the byte
 * stream is not, in fact, a valid UTF-8 stream, that endpoint MUST _Fail the WebSocket Connection_."
 */
import { CloseCode, Opcode } from '../protocol/constants.js';
import { utf8Vectors } from './data/utf8-vectors.js';
import { closedByMe, defineCase, failedByPeer, hex, message, timeout } from './define.js';
import type { CaseContext, ScriptedCase } from './types.js';

/** The fail timer of the decoder-vector cases: the peer has half a second to react. */
const VECTOR_FAIL_AFTER = 0.5;

/** 6.1 and 6.2 close the connection themselves after a second if the echo never comes. */
const CLOSE_AFTER = 1;

/** 6.3 and 6.4 fail the connection themselves a second after the last part is sent. */
const FAIL_AFTER = 1;

/** 6.4: the pause between the parts of the message. */
const PART_DELAY = 1;

/** 'κόσμε', Kuhn's Greek test word: 0xce 0xba | 0xe1 0xbd 0xb9 | 0xcf 0x83 | 0xce 0xbc | 0xce 0xb5. */
const KOSME = hex('ce ba e1 bd b9 cf 83 ce bc ce b5');

/** Latin-1 letters in UTF-8 (µ, ß, ö, ä, ü, à, á: two bytes each) between ASCII. */
const HELLO = 'Hello-µ@ßöäüàá-UTF-8!!';

/** A text message the peer must echo (it arrives within a second, else we close it ourselves). */
function echoCase(id: string, description: string, echoed: Buffer | string, run: (t: CaseContext) => void): ScriptedCase {
  return defineCase({
    id,
    description,
    expectation: 'The client echoes the message back unchanged.',
    expect: { OK: [message(echoed)] },
    close: closedByMe(),
    run(t) {
      run(t);
      t.closeAfter(CLOSE_AFTER);
    },
  });
}

/** 6.1: empty text messages, whole and in empty fragments. */
const emptyCases: ScriptedCase[] = [
  echoCase('6.1.1', 'A text message with an empty payload, in one frame.', '', (t) => {
    t.sendFrame({ opcode: Opcode.Text, payload: '' });
  }),
  echoCase('6.1.2', 'A text message in three frames, each with an empty payload.', '', (t) => {
    t.sendFrame({ opcode: Opcode.Text, payload: '', fin: false });
    t.sendFrame({ opcode: Opcode.Continuation, payload: '', fin: false });
    t.sendFrame({ opcode: Opcode.Continuation, payload: '', fin: true });
  }),
  echoCase('6.1.3', 'A text message in three frames: the first and the last empty, the middle one "middle frame payload".', 'middle frame payload', (t) => {
    t.sendFrame({ opcode: Opcode.Text, payload: '', fin: false });
    t.sendFrame({ opcode: Opcode.Continuation, payload: 'middle frame payload', fin: false });
    t.sendFrame({ opcode: Opcode.Continuation, payload: '', fin: true });
  }),
];

/** 6.2: valid UTF-8 whole, split between code points, and split inside code points. */
const validCases: ScriptedCase[] = [
  echoCase('6.2.1', `A valid UTF-8 text message in one frame.<br><br>Payload: ${HELLO}<br>0x${Buffer.from(HELLO).toString('hex')}`, HELLO, (t) => {
    t.sendMessage(HELLO);
  }),
  // The split falls after "ä", the 15th byte: a code point boundary.
  echoCase(
    '6.2.2',
    `A valid UTF-8 text message in two frames, split between two code points.<br><br>Frame 1: Hello-µ@ßöä<br>0x${Buffer.from('Hello-µ@ßöä').toString('hex')}<br>Frame 2: üàá-UTF-8!!<br>0x${Buffer.from('üàá-UTF-8!!').toString('hex')}`,
    HELLO,
    (t) => {
      t.sendFrame({ opcode: Opcode.Text, payload: 'Hello-µ@ßöä', fin: false });
      t.sendFrame({ opcode: Opcode.Continuation, payload: 'üàá-UTF-8!!', fin: true });
    },
  ),
  echoCase(
    '6.2.3',
    `A valid UTF-8 text message in frames of one byte each, so that frames end inside code points.<br><br>Payload: ${HELLO}<br>0x${Buffer.from(HELLO).toString('hex')}`,
    HELLO,
    (t) => {
      t.sendMessage(HELLO, { fragmentSize: 1 });
    },
  ),
  echoCase(
    '6.2.4',
    `A valid UTF-8 text message of multi-byte code points only, in frames of one byte each.<br><br>Payload: ${KOSME.toString('utf8')}<br>0x${KOSME.toString('hex')}`,
    KOSME,
    (t) => {
      t.sendMessage(KOSME, { fragmentSize: 1 });
    },
  ),
];

/** 'κόσμε', then 0xed 0xa0 0x80 (U+D800, a surrogate: invalid at its second byte, 0xa0), then 'edited'. */
const WITH_SURROGATE = Buffer.concat([KOSME, hex('ed a0 80'), Buffer.from('edited')]);

/** 6.3: invalid UTF-8, whole and in one-byte frames. */
function invalidCase(id: string, framing: string, fragmentSize: number | null): ScriptedCase {
  return defineCase({
    id,
    description: `A text message that is not valid UTF-8 (it holds U+D800, a surrogate), ${framing}.<br><br>Payload: 0x${WITH_SURROGATE.toString('hex')}`,
    expectation: 'The client fails the connection at once, since the payload is not valid UTF-8, and echoes nothing.',
    expect: { OK: [] },
    close: failedByPeer([CloseCode.InvalidPayload], { fatal: true }),
    run(t) {
      t.sendMessage(WITH_SURROGATE, fragmentSize === null ? {} : { fragmentSize });
      t.killAfter(FAIL_AFTER);
    },
  });
}

const invalidCases: ScriptedCase[] = [invalidCase('6.3.1', 'in one frame', null), invalidCase('6.3.2', 'in frames of one byte each', 1)];

/**
 * 6.4: fail fast. 'κόσμε', then 0xf4 0x90 0x80 0x80 (U+110000, beyond Unicode: invalid at 0x90, the
 * 13th byte), then 'edited', in three parts a second apart. A client that checks UTF-8 as bytes arrive
 * fails after the second part (OK); one that checks only the whole message fails after the third
 * (NON-STRICT: the message is still refused, just late).
 */
const BEYOND_UNICODE = Buffer.concat([KOSME, hex('f4 90 80 80'), Buffer.from('edited')]);

/** Where the parts end: after the valid prefix, and after the invalid sequence (6.4.1/6.4.3) or byte (6.4.2/6.4.4). */
const WHOLE_SEQUENCE: [number, number] = [11, 15];
const UP_TO_INVALID_BYTE: [number, number] = [12, 13];

/** How the three parts travel: as three frames of one message, or as three TCP writes of one frame. */
type Delivery = 'frames' | 'chops';

/** One part of a fail-fast message: a frame of its own, or a piece of the one frame's payload. */
function sendFailFastPart(t: CaseContext, delivery: Delivery, part: Buffer, i: 0 | 1 | 2, piece: ((part: Uint8Array) => void) | null): void {
  if (delivery === 'chops') {
    piece?.(part);
    // Autobahn's endMessage(): the message ends with an empty continuation frame with FIN.
    if (i === 2) t.sendFrame({ opcode: Opcode.Continuation, payload: '', fin: true });
  } else {
    t.sendFrame({ opcode: i === 0 ? Opcode.Text : Opcode.Continuation, payload: part, fin: i === 2 });
  }
}

function failFastCase(id: string, delivery: Delivery, cuts: [number, number]): ScriptedCase {
  const parts = [BEYOND_UNICODE.subarray(0, cuts[0]), BEYOND_UNICODE.subarray(cuts[0], cuts[1]), BEYOND_UNICODE.subarray(cuts[1])] as const;
  const partsText = parts.map((p, i) => `Part ${i + 1}: 0x${p.toString('hex')}`).join('<br>');
  const how =
    delivery === 'frames'
      ? 'in three frames (a text frame and two continuation frames)'
      : 'in one text frame without FIN whose payload is written to TCP in three pieces, then an empty final continuation frame';
  let piece: ((part: Uint8Array) => void) | null = null;
  const sendPart = (t: CaseContext, i: 0 | 1 | 2): void => sendFailFastPart(t, delivery, parts[i], i, piece);
  return defineCase({
    id,
    description:
      `A text message that is not valid UTF-8 (it holds 0xf4 0x90 0x80 0x80, U+110000, beyond Unicode), sent ${how}, ` +
      `with a pause of a second after the first part and after the second. The second part makes the payload invalid.` +
      `<br><br>${partsText}`,
    expectation:
      'The client accepts the first part and fails the connection as soon as the second part arrives (fail fast). ' +
      'Failing it only when the whole message is in is accepted as NON-STRICT.',
    expect: { OK: [timeout('A')], 'NON-STRICT': [timeout('A'), timeout('B')] },
    close: failedByPeer([CloseCode.InvalidPayload], { fatal: true }),
    schedule: { cost: 2 * PART_DELAY + 0.05, idle: true },
    async run(t) {
      if (delivery === 'chops') {
        // Autobahn's beginMessage() + beginMessageFrame(21): a text frame without FIN, 21 bytes.
        piece = t.beginFrame(Opcode.Text, false, BEYOND_UNICODE.length);
      }
      sendPart(t, 0);
      // Each pause records its tag only if the client still keeps the connection open.
      await t.pause(PART_DELAY, 'A');
      if (!t.isOpen) return;
      t.record(timeout('A'));
      sendPart(t, 1);
      await t.pause(PART_DELAY, 'B');
      if (!t.isOpen) return;
      t.record(timeout('B'));
      sendPart(t, 2);
      t.killAfter(FAIL_AFTER);
    },
  });
}

const failFastCases: ScriptedCase[] = [
  failFastCase('6.4.1', 'frames', WHOLE_SEQUENCE),
  failFastCase('6.4.2', 'frames', UP_TO_INVALID_BYTE),
  failFastCase('6.4.3', 'chops', WHOLE_SEQUENCE),
  failFastCase('6.4.4', 'chops', UP_TO_INVALID_BYTE),
];

/** 6.5-6.23: one unfragmented text message per vector, valid ones echoed, invalid ones refused. */
const vectorCases: ScriptedCase[] = utf8Vectors.map((v) => {
  const payload = hex(v.hex);
  return defineCase({
    id: v.id,
    description: `A text message whose payload is ${v.valid ? '' : 'not '}valid UTF-8, in one frame.<br><br>Payload: 0x${v.hex}`,
    expectation: v.valid
      ? 'The client echoes the message back unchanged.'
      : 'The client fails the connection at once, since the payload is not valid UTF-8, and echoes nothing.',
    expect: { OK: v.valid ? [message(payload)] : [] },
    close: v.valid ? closedByMe() : failedByPeer([CloseCode.InvalidPayload], { fatal: true }),
    run(t) {
      t.sendFrame({ opcode: Opcode.Text, payload });
      t.killAfter(VECTOR_FAIL_AFTER);
    },
  });
});

/** Every case of group 6. */
export const utf8Cases: readonly ScriptedCase[] = [...emptyCases, ...validCases, ...invalidCases, ...failFastCases, ...vectorCases];
