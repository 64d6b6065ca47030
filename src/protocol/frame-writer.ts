/**
 * Frame encoding (RFC 6455 §5.2). Writes any frame, including invalid ones on purpose:
 * reserved opcodes, RSV bits, fragmented or oversized control frames are all the fuzzer's business.
 */
import { createRequire } from 'node:module';
import { EMPTY, toBuffer } from '../util/bytes.js';

/**
 * The optional native masker of the `bufferutil` package (an optionalDependency, as ws uses it):
 * about 7x the speed of the 32-bit-word JavaScript loop below on large payloads (npm run bench,
 * "hot path" table). Without it, or for small payloads, the JavaScript loop runs.
 */
interface BufferUtil {
  unmask?: (data: Buffer, mask: Buffer) => void;
  /** Writes source[0, length) XOR mask into output at offset (source untouched). */
  mask?: (source: Buffer, mask: Buffer, output: Buffer, offset: number, length: number) => void;
}
const bufferUtil: BufferUtil | null = (() => {
  try {
    return createRequire(import.meta.url)('bufferutil') as BufferUtil;
  } catch {
    return null;
  }
})();
const nativeUnmask = typeof bufferUtil?.unmask === 'function' ? bufferUtil.unmask : null;
const nativeMask = typeof bufferUtil?.mask === 'function' ? bufferUtil.mask : null;
/** Below this many bytes the call into native code costs more than it saves. */
const NATIVE_THRESHOLD = 1024;
/**
 * From this many bytes a frame is masked into its buffer natively (encodeMaskedFrame): the word loop
 * makes three typed arrays per call, garbage for every 256-byte fragment of groups 12 and 13.
 */
const NATIVE_MASK_INTO_THRESHOLD = 32;

/** Below this many bytes the plain byte loop beats setting up a Uint32Array view. */
const WORD_MASK_THRESHOLD = 32;

/** The pattern repeated then cut to `length` bytes (Buffer.fill repeats natively, no per-byte work in JS). */
export function repeatPayload(pattern: Uint8Array, length: number): Buffer {
  checkLength(length);
  if (length === 0) return Buffer.alloc(0);
  if (pattern.length === 0) throw new RangeError('repeatPayload: empty pattern cannot fill a non-empty payload');
  const out = Buffer.allocUnsafe(length);
  out.fill(pattern);
  return out;
}

/** Frame header bytes: FIN/RSV/opcode, MASK bit and minimal 7/16/64-bit length, then the mask key when given. */
export function encodeFrameHeader(opcode: number, fin: boolean, rsv: number, length: number, mask: Uint8Array | null): Buffer {
  checkLength(length);
  checkMask(mask);
  const out = Buffer.allocUnsafe(headerSize(length, mask !== null));
  writeHeader(out, opcode, fin, rsv, length, mask);
  return out;
}

/**
 * A whole masked frame in one buffer: the header (as encodeFrameHeader), then `payload` masked with
 * `mask`. The payload is left as it is: one copy that is also the masking, where masking a copy of
 * it in place would make two passes and a buffer more.
 */
export function encodeMaskedFrame(opcode: number, fin: boolean, rsv: number, payload: Uint8Array, mask: Uint8Array): Buffer {
  checkLength(payload.length);
  checkMask(mask);
  const head = headerSize(payload.length, true);
  const out = Buffer.allocUnsafe(head + payload.length);
  writeHeader(out, opcode, fin, rsv, payload.length, mask);
  if (nativeMask !== null && payload.length >= NATIVE_MASK_INTO_THRESHOLD) {
    nativeMask(toBuffer(payload), toBuffer(mask), out, head, payload.length);
  } else {
    out.set(payload, head);
    maskInPlace(out.subarray(head), mask);
  }
  return out;
}

/**
 * XOR `data` in place with mask[(offset + i) % 4] (RFC 6455 §5.3); masking and unmasking are the same.
 * `offset` is how many payload bytes of the frame came before `data` (chunked unmasking).
 */
export function maskInPlace(data: Uint8Array, mask: Uint8Array, offset = 0): void {
  if (mask.length !== 4) throw new RangeError(`mask must be 4 bytes, got ${mask.length}`);
  const n = data.length;
  if (n === 0) return;
  // `& 3` is exact for any integer offset up to 2^53 (ToInt32 keeps the low 32 bits).
  const o = offset & 3;
  if (nativeUnmask !== null && n >= NATIVE_THRESHOLD) {
    const rotated = o === 0 ? mask : Uint8Array.of(mask[o]!, mask[(o + 1) & 3]!, mask[(o + 2) & 3]!, mask[(o + 3) & 3]!);
    nativeUnmask(toBuffer(data), toBuffer(rotated));
    return;
  }
  let i = 0;
  if (n >= WORD_MASK_THRESHOLD) {
    // Bytes up to a 4-aligned address, then whole 32-bit words, then the tail.
    const head = (4 - (data.byteOffset & 3)) & 3;
    for (; i < head; i++) data[i] = data[i]! ^ mask[(o + i) & 3]!;
    const words = (n - i) >>> 2;
    // The mask rotated to start at this position, read as a word in platform byte order
    // (the same order the data words are read in, so the XOR is bytewise on any endianness).
    const rotated = new Uint8Array(4);
    for (let j = 0; j < 4; j++) rotated[j] = mask[(o + i + j) & 3]!;
    const word = new Uint32Array(rotated.buffer)[0]!;
    const view = new Uint32Array(data.buffer, data.byteOffset + i, words);
    for (let w = 0; w < words; w++) view[w] = view[w]! ^ word;
    i += words << 2;
  }
  for (; i < n; i++) data[i] = data[i]! ^ mask[(o + i) & 3]!;
}

/** A Close frame body: 2-byte big-endian code then the reason bytes; empty when code is null/undefined (§5.5.1). */
export function closePayload(code?: number | null, reason?: Uint8Array | null): Buffer {
  if (code === null || code === undefined) return Buffer.alloc(0);
  if (!Number.isInteger(code) || code < 0 || code > 0xffff) {
    throw new RangeError(`close code must be an integer 0-65535, got ${code}`);
  }
  const r = reason ?? EMPTY;
  const out = Buffer.allocUnsafe(2 + r.length);
  out.writeUInt16BE(code, 0);
  out.set(r, 2);
  return out;
}

/** Autobahn's sendClose reason: with a code, cut to fit a 125-byte close payload (120 bytes and "..."); without one, none. */
export function cutCloseReason(code: number | null, reason: string | null): string | null {
  if (reason === null || code === null) return null;
  const bytes = Buffer.from(reason, 'utf8');
  return (bytes.length + 2 > 125 ? Buffer.concat([bytes.subarray(0, 120), Buffer.from('...')]) : bytes).toString('utf8');
}

function headerSize(length: number, masked: boolean): number {
  const ext = length < 126 ? 0 : length < 0x10000 ? 2 : 8;
  return 2 + ext + (masked ? 4 : 0);
}

function writeHeader(out: Buffer, opcode: number, fin: boolean, rsv: number, length: number, mask: Uint8Array | null): void {
  // byte0 = FIN<<7 | RSV<<4 | opcode; out-of-range values wrap rather than bleed into other bits.
  out[0] = (fin ? 0x80 : 0) | ((rsv & 7) << 4) | (opcode & 0x0f);
  const maskBit = mask !== null ? 0x80 : 0;
  let pos: number;
  // "the minimal number of bytes MUST be used to encode the length" (§5.2)
  if (length < 126) {
    out[1] = maskBit | length;
    pos = 2;
  } else if (length < 0x10000) {
    out[1] = maskBit | 126;
    out.writeUInt16BE(length, 2);
    pos = 4;
  } else {
    out[1] = maskBit | 127;
    // Two 32-bit halves: lengths are < 2^53 so the high half fits in 21 bits.
    out.writeUInt32BE(Math.floor(length / 0x100000000), 2);
    out.writeUInt32BE(length >>> 0, 6);
    pos = 10;
  }
  if (mask !== null) out.set(mask, pos);
}

function checkLength(length: number): void {
  if (!Number.isSafeInteger(length) || length < 0) {
    throw new RangeError(`payload length must be a non-negative safe integer, got ${length}`);
  }
}

function checkMask(mask: Uint8Array | null): void {
  if (mask !== null && mask.length !== 4) throw new RangeError(`mask must be 4 bytes, got ${mask.length}`);
}
