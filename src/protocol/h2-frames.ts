/**
 * Raw HTTP/2 frames (RFC 9113 §4, §6) and the little of HPACK (RFC 7541) needed to write a request
 * as literals and read a response's :status: for what an HTTP/2 library will not do on purpose (send
 * an extended CONNECT without :scheme, answer with :status 101). Pure, no sockets.
 */

/** The client connection preface (RFC 9113 §3.4). */
export const H2_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** Frame types (RFC 9113 §6). */
export const H2Frame = { Data: 0x0, Headers: 0x1, RstStream: 0x3, Settings: 0x4, Ping: 0x6, GoAway: 0x7, WindowUpdate: 0x8, Continuation: 0x9 } as const;

/** Frame flags (RFC 9113 §6): ACK (SETTINGS, PING), END_STREAM, END_HEADERS, PADDED, PRIORITY. */
export const H2Flag = { Ack: 0x1, EndStream: 0x1, EndHeaders: 0x4, Padded: 0x8, Priority: 0x20 } as const;

/** Error codes (RFC 9113 §7) by number, for reports. */
export const H2_ERROR_NAMES: Readonly<Record<number, string>> = {
  0x0: 'NO_ERROR',
  0x1: 'PROTOCOL_ERROR',
  0x2: 'INTERNAL_ERROR',
  0x3: 'FLOW_CONTROL_ERROR',
  0x4: 'SETTINGS_TIMEOUT',
  0x5: 'STREAM_CLOSED',
  0x6: 'FRAME_SIZE_ERROR',
  0x7: 'REFUSED_STREAM',
  0x8: 'CANCEL',
  0x9: 'COMPRESSION_ERROR',
  0xa: 'CONNECT_ERROR',
  0xb: 'ENHANCE_YOUR_CALM',
  0xc: 'INADEQUATE_SECURITY',
  0xd: 'HTTP_1_1_REQUIRED',
};

/** "CANCEL (0x8)". */
export function h2ErrorName(code: number): string {
  return `${H2_ERROR_NAMES[code] ?? 'unknown error'} (0x${code.toString(16)})`;
}

/** One frame: the 9-octet header (length, type, flags, stream id) and the payload. */
export function encodeH2Frame(type: number, flags: number, streamId: number, payload: Uint8Array = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(streamId & 0x7fffffff, 5);
  return Buffer.concat([head, payload]);
}

/** A SETTINGS payload: (identifier, value) pairs of 6 octets each (RFC 9113 §6.5.1). */
export function settingsPayload(settings: ReadonlyArray<readonly [number, number]>): Buffer {
  const out = Buffer.alloc(settings.length * 6);
  settings.forEach(([id, value], i) => {
    out.writeUInt16BE(id, i * 6);
    out.writeUInt32BE(value, i * 6 + 2);
  });
  return out;
}

/** The settings a SETTINGS payload carries, by identifier (a later one wins). */
export function parseSettings(payload: Buffer): Map<number, number> {
  const out = new Map<number, number>();
  for (let i = 0; i + 6 <= payload.length; i += 6) out.set(payload.readUInt16BE(i), payload.readUInt32BE(i + 2));
  return out;
}

/** A parsed frame. */
export interface H2FrameIn {
  type: number;
  flags: number;
  streamId: number;
  payload: Buffer;
}

/** Splits a byte stream into frames, wherever TCP cut it. */
export class H2FrameReader {
  private buffered: Buffer = Buffer.alloc(0);

  /** The frames complete so far. */
  push(chunk: Buffer): H2FrameIn[] {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    const frames: H2FrameIn[] = [];
    while (this.buffered.length >= 9) {
      const length = this.buffered.readUIntBE(0, 3);
      if (this.buffered.length < 9 + length) break;
      frames.push({
        type: this.buffered[3] ?? 0,
        flags: this.buffered[4] ?? 0,
        streamId: this.buffered.readUInt32BE(5) & 0x7fffffff,
        payload: this.buffered.subarray(9, 9 + length),
      });
      this.buffered = this.buffered.subarray(9 + length);
    }
    return frames;
  }
}

/** An HPACK integer with an n-bit prefix (RFC 7541 §5.1), the prefix's other bits given. */
function hpackInt(value: number, prefixBits: number, firstBits: number): Buffer {
  const max = (1 << prefixBits) - 1;
  if (value < max) return Buffer.from([firstBits | value]);
  const out = [firstBits | max];
  let rest = value - max;
  while (rest >= 128) {
    out.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return Buffer.from(out);
}

/** A header field as a "literal header field without indexing — new name" (RFC 7541 §6.2.2), no Huffman coding. */
export function hpackLiteral(name: string, value: string): Buffer {
  const n = Buffer.from(name, 'latin1');
  const v = Buffer.from(value, 'latin1');
  return Buffer.concat([Buffer.from([0x00]), hpackInt(n.length, 7, 0), n, hpackInt(v.length, 7, 0), v]);
}

/** A header block of literals, in order. */
export function hpackBlock(fields: ReadonlyArray<readonly [string, string]>): Buffer {
  return Buffer.concat(fields.map(([n, v]) => hpackLiteral(n, v)));
}

/** RFC 7541 Appendix A: static table entries 8-14 are ":status" with these values. */
const STATIC_STATUS: Readonly<Record<number, number>> = { 8: 200, 9: 204, 10: 206, 11: 304, 12: 400, 13: 404, 14: 500 };

/** RFC 7541 Appendix B: the Huffman codes of the digits '0'-'9' (5 or 6 bits), as [code, length]. */
const DIGIT_CODES: ReadonlyArray<readonly [number, number]> = [
  [0x0, 5],
  [0x1, 5],
  [0x2, 5],
  [0x19, 6],
  [0x1a, 6],
  [0x1b, 6],
  [0x1c, 6],
  [0x1d, 6],
  [0x1e, 6],
  [0x1f, 6],
];

/** Digits coded with RFC 7541's Huffman code (a status is three digits), or null for anything else. */
function huffmanDigits(bytes: Buffer): string | null {
  let bits = '';
  for (const b of bytes) bits += b.toString(2).padStart(8, '0');
  let out = '';
  let i = 0;
  outer: while (i < bits.length) {
    for (const [d, [code, len]] of DIGIT_CODES.entries()) {
      if (i + len <= bits.length && parseInt(bits.slice(i, i + len), 2) === code) {
        out += String(d);
        i += len;
        continue outer;
      }
    }
    // The rest must be padding: at most 7 one-bits (RFC 7541 §5.2).
    return bits.length - i < 8 && /^1*$/.test(bits.slice(i)) ? out : null;
  }
  return out;
}

/**
 * The :status of a response header block, when it is the first field (RFC 9113 §8.3: pseudo-header
 * fields come first) as an encoder writes it: an indexed static entry (8-14), or a literal with the
 * static name ":status" (index 8-14) and a plain or Huffman-coded value. Null otherwise.
 */
export function decodeStatus(block: Buffer): number | null {
  let i = 0;
  // Dynamic table size updates (001xxxxx) may come first (RFC 7541 §4.2).
  while (i < block.length && ((block[i] ?? 0) & 0xe0) === 0x20) {
    i += 1;
    if (((block[i - 1] ?? 0) & 0x1f) === 0x1f) while (i < block.length && ((block[i++] ?? 0) & 0x80) !== 0);
  }
  const first = block[i] ?? 0;
  if ((first & 0x80) !== 0) return STATIC_STATUS[first & 0x7f] ?? null;
  // Literal with incremental indexing (01xxxxxx, 6-bit name index), or without / never indexed (000xxxxx / 0001xxxx, 4-bit).
  const nameIndex = (first & 0xc0) === 0x40 ? first & 0x3f : first & 0x0f;
  if (STATIC_STATUS[nameIndex] === undefined) return null;
  const lengthByte = block[i + 1] ?? 0;
  const length = lengthByte & 0x7f;
  const raw = block.subarray(i + 2, i + 2 + length);
  const text = (lengthByte & 0x80) !== 0 ? huffmanDigits(raw) : raw.toString('latin1');
  return text !== null && /^\d{3}$/.test(text) ? Number(text) : null;
}

/** The header block of a HEADERS frame: padding and priority fields taken off (RFC 9113 §6.2). */
export function headerBlock(frame: H2FrameIn): Buffer {
  let p = frame.payload;
  let pad = 0;
  if ((frame.flags & H2Flag.Padded) !== 0) {
    pad = p[0] ?? 0;
    p = p.subarray(1);
  }
  if ((frame.flags & H2Flag.Priority) !== 0) p = p.subarray(5);
  return p.subarray(0, p.length - pad);
}
