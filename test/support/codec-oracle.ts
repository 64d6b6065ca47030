/**
 * Independent reference models for the codec's property tests and the fuzz campaign (bench/fuzz.ts):
 * a whole-buffer RFC 6455 frame parser written straight from §5.2-§5.5 (no shared code with
 * src/protocol/frame-reader.ts), and runners that drive the real incremental decoders the way a
 * strict endpoint does (stop at the first error) and check the invariants every input must keep.
 */
import { serverAgreement, type DeflateAccept } from '../../src/protocol/deflate/params.js';
import { DeflateError, PerMessageDeflate } from '../../src/protocol/deflate/codec.js';
import { FrameReader, type FrameReaderOptions } from '../../src/protocol/frame-reader.js';
import { Utf8Validator } from '../../src/protocol/utf8.js';

/** A frame as the oracle and the reader report it (payload unmasked, hex). */
export interface SeenFrame {
  opcode: number;
  fin: boolean;
  rsv: number;
  payload: string;
}

/** What a byte stream amounts to for a strict endpoint. */
export interface StreamOutcome {
  /** Complete frames, in order. */
  frames: SeenFrame[];
  /** A frame whose header is complete but whose payload is not: its header fields and the payload so far. */
  partial: SeenFrame | null;
  /** The close code of the first error (1002 or 1009), or null when the stream is clean so far. */
  error: number | null;
}

/**
 * RFC 6455 §5.2 applied to a whole buffer, stopping at the first error. Every rule here is 1002
 * (protocol error) except a length over the endpoint's limit, 1009 (§7.4.1 "too big to process").
 */
export function oracle(data: Uint8Array, o: FrameReaderOptions): StreamOutcome {
  const frames: SeenFrame[] = [];
  const limit = o.maxFramePayload > 0 ? BigInt(o.maxFramePayload) : BigInt(Number.MAX_SAFE_INTEGER);
  let inMessage = false;
  let pos = 0;
  const done = (error: number | null, partial: SeenFrame | null = null): StreamOutcome => ({ frames, partial, error });
  for (;;) {
    if (data.length - pos < 2) return done(null);
    const b0 = data[pos]!;
    const b1 = data[pos + 1]!;
    const fin = (b0 & 0x80) !== 0;
    const rsv = (b0 >> 4) & 7;
    const opcode = b0 & 0x0f;
    const masked = (b1 & 0x80) !== 0;
    const len7 = b1 & 0x7f;
    const compressed = o.compressionNegotiated && rsv === 4;
    const control = opcode >= 8;
    // Everything decidable from the first two bytes.
    const bad =
      (rsv !== 0 && !compressed) || // §5.2 RSV MUST be 0 unless an extension defines it
      (o.requireMask && !masked) || // §5.1 client frames MUST be masked
      (control && (!fin || len7 > 125 || compressed || (opcode !== 8 && opcode !== 9 && opcode !== 10) || (opcode === 8 && len7 === 1))) ||
      (!control && (opcode > 2 || (opcode === 0) !== inMessage || (compressed && inMessage)));
    if (bad) return done(1002);
    const extLen = len7 === 126 ? 2 : len7 === 127 ? 8 : 0;
    const headLen = 2 + extLen + (masked ? 4 : 0);
    if (data.length - pos < headLen) return done(null);
    let length: bigint;
    if (len7 === 126) {
      length = BigInt((data[pos + 2]! << 8) | data[pos + 3]!);
      if (length < 126n) return done(1002); // §5.2 "the minimal number of bytes MUST be used"
    } else if (len7 === 127) {
      length = 0n;
      for (let k = 0; k < 8; k++) length = (length << 8n) | BigInt(data[pos + 2 + k]!);
      if (length >= 1n << 63n) return done(1002); // §5.2 "the most significant bit MUST be 0"
      if (length < 65536n) return done(1002);
    } else {
      length = BigInt(len7);
    }
    if (length > limit) return done(1009);
    const n = Number(length);
    const mask = masked ? data.subarray(pos + 2 + extLen, pos + headLen) : null;
    const start = pos + headLen;
    const have = Math.min(n, data.length - start);
    const payload = Buffer.from(data.subarray(start, start + have));
    if (mask !== null) for (let k = 0; k < payload.length; k++) payload[k] = payload[k]! ^ mask[k & 3]!;
    const frame: SeenFrame = { opcode, fin, rsv, payload: payload.toString('hex') };
    if (!control) inMessage = true;
    if (have < n) return done(null, frame);
    frames.push(frame);
    if (!control && fin) inMessage = false;
    pos = start + n;
  }
}

/** Violated invariants of one run, as messages (empty: all held). */
export type Problems = string[];

/**
 * Feeds the chunks to a FrameReader through a sink that fails the connection at the first violation,
 * as a strict endpoint does, and checks the invariants: no throw, at most one error and silence
 * after it, never more than 14 header bytes held back, no frame longer than the limit delivered.
 */
export function readStrict(chunks: readonly Uint8Array[], o: FrameReaderOptions): { outcome: StreamOutcome; problems: Problems } {
  const problems: Problems = [];
  const reader = new FrameReader(o);
  const frames: SeenFrame[] = [];
  interface Open {
    opcode: number;
    fin: boolean;
    rsv: number;
    length: number;
    parts: Buffer[];
    got: number;
  }
  const st: { current: Open | null; error: number | null; errors: number; afterError: number } = { current: null, error: null, errors: 0, afterError: 0 };
  const sink = {
    onViolation(code: number): void {
      if (st.error !== null) st.afterError++;
      st.errors++;
      st.error ??= code;
      reader.stop();
    },
    onFrameBegin(h: { opcode: number; fin: boolean; rsv: number; length: number }): void {
      if (st.error !== null) st.afterError++;
      if (st.current !== null) problems.push('a frame began inside another');
      if (o.maxFramePayload > 0 && h.length > o.maxFramePayload) problems.push(`a frame of ${h.length} bytes passed the limit ${o.maxFramePayload}`);
      st.current = { opcode: h.opcode, fin: h.fin, rsv: h.rsv, length: h.length, parts: [], got: 0 };
    },
    onFrameData(chunk: Buffer): void {
      if (st.error !== null) st.afterError++;
      const c = st.current;
      if (c === null) {
        problems.push('data outside a frame');
        return;
      }
      c.parts.push(Buffer.from(chunk));
      c.got += chunk.length;
      if (c.got > c.length) problems.push('more data than the frame announced');
    },
    onFrameEnd(): void {
      if (st.error !== null) st.afterError++;
      const c = st.current;
      if (c === null) {
        problems.push('a frame ended that never began');
        return;
      }
      frames.push({ opcode: c.opcode, fin: c.fin, rsv: c.rsv, payload: Buffer.concat(c.parts).toString('hex') });
      st.current = null;
    },
  };
  try {
    for (const chunk of chunks) {
      reader.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength), sink);
      if (reader.bufferedBytes > 14) problems.push(`${reader.bufferedBytes} header bytes held back`);
    }
  } catch (err) {
    problems.push(`push() threw: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (st.errors > 1) problems.push(`${st.errors} errors reported`);
  if (st.afterError > 0) problems.push(`${st.afterError} callbacks after the error`);
  const error = st.error;
  if (error !== null && error !== 1002 && error !== 1009) problems.push(`close code ${error}`);
  const c = st.current;
  const partial: SeenFrame | null = c === null ? null : { opcode: c.opcode, fin: c.fin, rsv: c.rsv, payload: Buffer.concat(c.parts).toString('hex') };
  return { outcome: { frames, partial: error === null ? partial : null, error }, problems };
}

/** The reader against the oracle on one stream split into chunks: every difference is a problem. */
export function checkFrameStream(data: Uint8Array, chunks: readonly Uint8Array[], o: FrameReaderOptions): Problems {
  const { outcome, problems } = readStrict(chunks, o);
  const expected = oracle(data, o);
  // On an error the oracle's partial frame does not matter: the connection is failed.
  const want = { ...expected, partial: expected.error === null ? expected.partial : null };
  if (JSON.stringify(outcome) !== JSON.stringify(want)) {
    problems.push(`reader ${JSON.stringify(outcome).slice(0, 300)} != oracle ${JSON.stringify(want).slice(0, 300)}`);
  }
  return problems;
}

/** Validates chunks incrementally; true when the whole is complete valid UTF-8. */
function utf8Chunks(chunks: readonly Uint8Array[]): { ok: boolean; index: number } {
  const v = new Utf8Validator();
  let last = { valid: true, endsOnCodePoint: true, index: 0 };
  for (const c of chunks) {
    last = v.validate(c);
    if (!last.valid) break;
  }
  return { ok: last.valid && last.endsOnCodePoint, index: last.index };
}

const fatal = new TextDecoder('utf-8', { fatal: true });

/** The incremental validator against TextDecoder(fatal) for the given split points of data. */
export function checkUtf8Splits(data: Uint8Array, cuts: readonly number[]): Problems {
  let expected: boolean;
  try {
    fatal.decode(data);
    expected = true;
  } catch {
    expected = false;
  }
  const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let prev = 0;
  for (const p of points) {
    chunks.push(data.subarray(prev, p));
    prev = p;
  }
  chunks.push(data.subarray(prev));
  const got = utf8Chunks(chunks);
  return got.ok === expected ? [] : [`validator says ${got.ok}, TextDecoder says ${expected} (split at ${points.join(',')})`];
}

/** A permessage-deflate accept with the given windows and context rules. */
export function deflateAccept(clientWindow: number, noContextTakeover: boolean): DeflateAccept {
  return {
    offer: { acceptNoContextTakeover: true, acceptMaxWindowBits: true, requestNoContextTakeover: false, requestMaxWindowBits: 0 },
    requestNoContextTakeover: noContextTakeover,
    requestMaxWindowBits: clientWindow === 15 ? 0 : clientWindow,
  };
}

/**
 * Decompresses messages (each a list of pieces) with a limit: every call either returns data or
 * throws a DeflateError with 1007 or 1009; no message yields more than the limit; after an error
 * every call throws the same error (the connection is failed).
 */
export function checkInflate(
  messages: readonly (readonly Uint8Array[])[],
  accept: DeflateAccept,
  limit: number,
): { problems: Problems; produced: number; error: number | null } {
  const problems: Problems = [];
  let pmd: PerMessageDeflate | null = null;
  let produced = 0;
  let error: DeflateError | null = null;
  try {
    pmd = new PerMessageDeflate(serverAgreement(accept), { level: 1, maxMessageSize: limit });
    for (const pieces of messages) {
      let size = 0;
      try {
        pmd.startMessage();
        for (const p of pieces) size += pmd.push(Buffer.from(p.buffer, p.byteOffset, p.byteLength)).length;
        size += pmd.endMessage().length;
      } catch (err) {
        if (!(err instanceof DeflateError)) throw err;
        error = err;
      }
      produced += size;
      if (size > limit) problems.push(`a message inflated to ${size} bytes over the limit ${limit}`);
      if (error !== null) break;
    }
    if (error !== null) {
      if (error.code !== 1007 && error.code !== 1009) problems.push(`DeflateError code ${error.code}`);
      try {
        pmd.push(Buffer.from([0]));
        problems.push('push() after the error did not throw');
      } catch (err) {
        if (err !== error) problems.push('push() after the error threw something else');
      }
    }
  } catch (err) {
    problems.push(`threw ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`);
  } finally {
    pmd?.close();
  }
  return { problems, produced, error: error?.code ?? null };
}

/**
 * A frame header (no mask key) whose length sits in the field the caller picks, 7, 16 or 64 bits,
 * whatever the length: non-minimal and overflowing encodings on purpose (the 7- and 16-bit fields
 * keep only the low bits).
 */
export function lengthFieldHeader(b0: number, masked: boolean, length: bigint, field: 7 | 16 | 64): Buffer {
  const m = masked ? 0x80 : 0;
  if (field === 7) return Buffer.from([b0, m | Number(length & 0x7fn)]);
  if (field === 16) {
    const head = Buffer.from([b0, m | 126, 0, 0]);
    head.writeUInt16BE(Number(length & 0xffffn), 2);
    return head;
  }
  const head = Buffer.from([b0, m | 127, 0, 0, 0, 0, 0, 0, 0, 0]);
  head.writeBigUInt64BE(length, 2);
  return head;
}
