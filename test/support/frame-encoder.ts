/** Whole frames for tests: header and payload, masked when a mask is given (the engine writes header and payload apart). */
import { encodeFrameHeader, maskInPlace, repeatPayload } from '../../src/protocol/frame-writer.js';

/** What to put on the wire; only `opcode` is required. */
export interface FrameSpec {
  opcode: number;
  payload?: Uint8Array;
  /** Default true. */
  fin?: boolean;
  /** RSV1-3 as a number 0-7 (4 = RSV1), default 0. */
  rsv?: number;
  /** 4 bytes; when set the frame is masked with it. */
  mask?: Uint8Array | null;
  /** Repeat the payload pattern to exactly this many bytes. */
  payloadLen?: number | null;
}

/** Header + payload (repeated to payloadLen when given), masked when a mask is given; the input payload is never modified. */
export function encodeFrame(spec: FrameSpec): Buffer {
  const pattern = spec.payload ?? new Uint8Array(0);
  const body = spec.payloadLen == null ? Buffer.from(pattern) : repeatPayload(pattern, spec.payloadLen);
  const mask = spec.mask ?? null;
  if (mask !== null) maskInPlace(body, mask);
  return Buffer.concat([encodeFrameHeader(spec.opcode, spec.fin ?? true, spec.rsv ?? 0, body.length, mask), body]);
}
