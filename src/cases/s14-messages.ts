/**
 * Group 14.5-14.6 (wsgate's own): compressed messages a client must inflate (streams a compressor may
 * legally produce), and close frames with reasons at the edges.
 */
import { CloseCode, Opcode } from '../protocol/constants.js';
import { closedByMe, defineCase, hex, wrongCodeFails } from './define.js';
import type { ScriptedCase } from './types.js';
import { REFUSE_WAIT, mustInflate } from './handshake-scripts.js';

/** RSV1: "the "Per-Message Compressed" bit" (RFC 7692 §6), set on the first frame of a compressed message. */
const RSV1 = 4;

// "Hello" in one fixed-Huffman block (BFINAL 0), then Z_SYNC_FLUSH's empty stored block, whose
// header bits are in the 7th octet: f2 48 cd c9 c9 07 00 | 00 00 ff ff (LEN 0000, NLEN ffff).
const HELLO_SYNC_FLUSHED = hex('f2 48 cd c9 c9 07 00 00 00 ff ff');
/** The same with the 4 tail octets removed, as RFC 7692 §7.2.1 has the sender do. */
const HELLO = hex('f2 48 cd c9 c9 07 00');
// "Hello" in one fixed-Huffman block with BFINAL set (0xf3: BFINAL 1, BTYPE 01), as zlib's Z_FINISH ends it.
const HELLO_BFINAL = hex('f3 48 cd c9 c9 07 00');
/**
 * The single octet 0x00 at a block boundary starts a stored block (BFINAL 0, BTYPE 00, padding); the
 * 00 00 ff ff the receiver appends completes it as an empty one (RFC 7692 §7.2.3.6).
 */
const EMPTY_BLOCK = hex('00');

// ---- 14.5: compressed messages the client must inflate ---------------------------------------------

// RFC 7692 §7.2.2: "An endpoint uses the following algorithm to decompress a message. 1. Append 4
// octets of 0x00 0x00 0xff 0xff to the tail end of the payload of the message. 2. Decompress the
// resulting data using DEFLATE." Every payload below is valid DEFLATE data under that algorithm and
// leaves the decompressor at a block boundary, so a following message inflates as usual.
export const inflateCases: ScriptedCase[] = [
  // RFC 7692 §7.2.3.6 (Generating an Empty Fragment): a sender that has flushed what it compressed
  // (the flush's empty stored block kept, as it is not the end of the message yet) and then meets the
  // end of the message sends a final fragment holding the octet 0x00; with the appended 00 00 ff ff it
  // is one more empty stored block.
  mustInflate({
    id: '14.5.1',
    rfc: 'RFC 7692 §7.2.2, §7.2.3.6',
    description:
      'A compressed text message "Hello" in two frames: the data of a sync flush with its empty stored block kept ' +
      '(f2 48 cd c9 c9 07 00 00 00 ff ff), then a final continuation frame whose payload is the single octet 00; ' +
      'then a second compressed "Hello" (f2 48 cd c9 c9 07 00).',
    expectation: 'RFC 7692 §7.2.3.6: the final octet 00 and the appended 00 00 ff ff make one more empty stored block. The client echoes "Hello" twice.',
    frames: [
      { opcode: Opcode.Text, rsv: RSV1, payload: HELLO_SYNC_FLUSHED, fin: false },
      { opcode: Opcode.Continuation, payload: EMPTY_BLOCK },
      { opcode: Opcode.Text, rsv: RSV1, payload: HELLO },
    ],
    echoes: ['Hello', 'Hello'],
  }),
  // RFC 6455 §5.4: "A fragmented message consists of a single frame with the FIN bit clear and an
  // opcode other than 0, followed by zero or more frames with the FIN bit clear and the opcode set to
  // 0, and terminated by a single frame with the FIN bit set and an opcode of 0." Nothing bounds a
  // fragment's payload from below.
  mustInflate({
    id: '14.5.2',
    rfc: 'RFC 6455 §5.4, RFC 7692 §7.2.2',
    description:
      'A compressed text message "Hello" in two frames: all the compressed data first (f2 48 cd c9 c9 07 00), then a final continuation frame with an empty payload.',
    expectation: 'The 00 00 ff ff appended at the end of the message completes the data. The client echoes "Hello".',
    frames: [
      { opcode: Opcode.Text, rsv: RSV1, payload: HELLO, fin: false },
      { opcode: Opcode.Continuation, payload: '' },
    ],
    echoes: ['Hello'],
  }),
  mustInflate({
    id: '14.5.3',
    rfc: 'RFC 7692 §7.2.2, §7.2.3.6',
    description: 'An empty text message compressed (payload 00: with the appended 00 00 ff ff, an empty stored block), then a compressed "Hello".',
    expectation: 'The first message inflates to nothing. The client echoes an empty text message, then "Hello".',
    frames: [
      { opcode: Opcode.Text, rsv: RSV1, payload: EMPTY_BLOCK },
      { opcode: Opcode.Text, rsv: RSV1, payload: HELLO },
    ],
    echoes: ['', 'Hello'],
  }),
  // RFC 7692 §7.2.3.4: "On platforms on which the flush method using an empty DEFLATE block with no
  // compression is not available, implementors can choose to flush data using DEFLATE blocks with
  // "BFINAL" set to 1."
  mustInflate({
    id: '14.5.4',
    rfc: 'RFC 7692 §7.2.3.4',
    description: 'A compressed text message "Hello" whose only DEFLATE block has BFINAL set (f3 48 cd c9 c9 07 00, as a Z_FINISH flush ends it).',
    expectation:
      'RFC 7692 §7.2.3.4: a sender may flush with a block that has BFINAL set; the client inflates it (the 00 00 ff ff appended after the end of the stream is ignored) and echoes "Hello".',
    frames: [{ opcode: Opcode.Text, rsv: RSV1, payload: HELLO_BFINAL }],
    echoes: ['Hello'],
  }),
];

// ---- 14.6: close reasons at the edges --------------------------------------------------------------

/** 41 euro signs (e2 82 ac each): 123 octets, the longest reason a close frame can carry. */
const REASON_123 = '\u20ac'.repeat(41);
/** "Hello €" with its last octet cut: the reason ends inside a three-octet sequence (e2 82). */
const REASON_CUT = Buffer.from('Hello \u20ac', 'utf8').subarray(0, -1);

export const closeReasonCases: ScriptedCase[] = [
  // RFC 6455 §5.5: "All control frames MUST have a payload length of 125 bytes or less"; §5.5.1: the
  // body is a 2-byte status code followed by UTF-8 data, so a reason has at most 123 octets.
  defineCase({
    id: '14.6.1',
    description:
      'A close frame with code 1000 and a 123-octet reason made of 41 three-octet UTF-8 characters (U+20AC): the longest a close reason can be. (RFC 6455 §5.5, §5.5.1)',
    expectation: 'RFC 6455 §5.5.1: the client answers the close with 1000 (or no code) and closes cleanly.',
    expect: { OK: [] },
    close: closedByMe([CloseCode.Normal]),
    suppressClose: true,
    adjust: wrongCodeFails,
    run(t) {
      t.sendCloseFrame(CloseCode.Normal, REASON_123);
      t.killAfter(REFUSE_WAIT);
    },
  }),
  // RFC 6455 §5.5.1: "the data ... is not guaranteed to be human readable" but "MUST be UTF-8", and §8.1:
  // "When an endpoint is to interpret a byte stream as UTF-8 but finds that the byte stream is not, in
  // fact, a valid UTF-8 stream, that endpoint MUST _Fail the WebSocket Connection_."
  defineCase({
    id: '14.6.2',
    description:
      'A close frame with code 1000 whose reason ends in the middle of a UTF-8 sequence ("Hello " then e2 82, the first two octets of U+20AC). (RFC 6455 §5.5.1, §8.1)',
    expectation: 'RFC 6455 §8.1: the reason is not valid UTF-8, so the client fails the connection: it answers with 1007 (or no code), or drops TCP.',
    expect: { OK: [] },
    close: { closedByMe: true, closeCode: [CloseCode.InvalidPayload], requireClean: false },
    suppressClose: true,
    adjust: wrongCodeFails,
    run(t) {
      t.sendCloseFrame(CloseCode.Normal, REASON_CUT);
      t.killAfter(REFUSE_WAIT);
    },
  }),
];
