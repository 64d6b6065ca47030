/**
 * The message sizes of Autobahn's group 1 (case1_1_*.py, case1_2_*.py): each size once as a text
 * message (1.1.x, payload "*" repeated) and once as a binary one (1.2.x, payload 0xfe repeated), in one
 * frame. The sizes sit on both sides of the three payload length encodings of RFC 6455 §5.2.
 */

/** One size, with the ids of its text and its binary case. */
export interface FramingSize {
  /** The 1.1.x case (text). */
  readonly textId: string;
  /** The 1.2.x case (binary). */
  readonly binaryId: string;
  /** Payload length in bytes. */
  readonly length: number;
  /** Write the frame in TCP writes of this many bytes (null: one write). */
  readonly chopSize: number | null;
  /** Seconds the peer has to echo before the fuzzer fails the connection. */
  readonly killAfter: number;
}

export const framingSizes: readonly FramingSize[] = [
  // 7-bit length field: 0 and its largest value, 125.
  { textId: '1.1.1', binaryId: '1.2.1', length: 0, chopSize: null, killAfter: 1 },
  { textId: '1.1.2', binaryId: '1.2.2', length: 125, chopSize: null, killAfter: 1 },
  // 126 switches to the 16-bit extended length (0x7e + 2 bytes).
  { textId: '1.1.3', binaryId: '1.2.3', length: 126, chopSize: null, killAfter: 1 },
  { textId: '1.1.4', binaryId: '1.2.4', length: 127, chopSize: null, killAfter: 1 },
  { textId: '1.1.5', binaryId: '1.2.5', length: 128, chopSize: null, killAfter: 1 },
  // The largest 16-bit length, then the first 64-bit one (0x7f + 8 bytes).
  { textId: '1.1.6', binaryId: '1.2.6', length: 65535, chopSize: null, killAfter: 10 },
  { textId: '1.1.7', binaryId: '1.2.7', length: 65536, chopSize: null, killAfter: 10 },
  // The same 64 KiB frame written 997 bytes at a time: its 65546 bytes (10 of header) go out as 65
  // writes of 997 bytes and one of 741.
  { textId: '1.1.8', binaryId: '1.2.8', length: 65536, chopSize: 997, killAfter: 10 },
];
