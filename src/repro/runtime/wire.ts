/**
 * The repro runtime's wire pieces: an incremental frame reader, a permessage-deflate inflater, and
 * how bytes are shown. Copied into every script as source (see data.ts): self-contained.
 */
import type * as ZlibModule from 'node:zlib';
import type { ReproFrame } from './data.js';

/** The bytes as UTF-8 text, or null when they are not valid UTF-8. */
export function reproUtf8(b: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return null;
  }
}

/** Autobahn's asciiLogData (how reports show a payload): text when the first 64 bytes are UTF-8, else 0x and hex; cut past 60 bytes. */
export function reproLogData(b: Buffer): string {
  const cut = b.length > 60;
  const text = reproUtf8(cut ? b.subarray(0, 64) : b);
  if (text !== null) return text + (cut ? ' ...' : '');
  return `0x${b.subarray(0, 64).toString('hex')}${cut ? ' ...' : ''}`;
}

/** A payload for a printed line: quoted text, or hex. */
export function reproShow(b: Buffer): string {
  const text = reproUtf8(b);
  if (text !== null) return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
  return `0x${b.subarray(0, 24).toString('hex')}${b.length > 24 ? '…' : ''}`;
}

/** A close frame's payload in words. */
export function reproDescribeClose(payload: Buffer): string {
  if (payload.length === 0) return 'close (no code)';
  if (payload.length === 1) return `close with a 1-byte payload 0x${payload.toString('hex')}`;
  const reason = payload.subarray(2);
  return `close ${payload.readUInt16BE(0)}${reason.length > 0 ? ` ${reproShow(reason)}` : ''}`;
}

/** An incremental frame reader: whole frames (unmasked) to onFrame, wherever TCP chunks end. */
export class ReproFrameReader {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly onFrame: (f: ReproFrame) => void) {}

  /** Octets of a frame not yet complete. */
  get pending(): number {
    return this.size;
  }

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    for (;;) {
      if (this.size < 2) return;
      const h = this.peek(Math.min(this.size, 14));
      const b0 = h[0] as number;
      const b1 = h[1] as number;
      let length = b1 & 0x7f;
      let at = 2;
      if (length === 126) {
        if (h.length < 4) return;
        length = h.readUInt16BE(2);
        at = 4;
      } else if (length === 127) {
        if (h.length < 10) return;
        length = Number(h.readBigUInt64BE(2));
        at = 10;
      }
      const masked = (b1 & 0x80) !== 0;
      const headLength = at + (masked ? 4 : 0);
      if (this.size < headLength + length) return;
      const mask = this.take(headLength).subarray(at);
      const payload = this.take(length);
      if (masked) for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] as number) ^ (mask[i & 3] as number);
      this.onFrame({ fin: (b0 & 0x80) !== 0, rsv: (b0 >> 4) & 7, opcode: b0 & 0x0f, masked, payload });
    }
  }

  /** The next n bytes, copied (the caller may unmask them in place). */
  private take(n: number): Buffer {
    const out = Buffer.allocUnsafe(n);
    let at = 0;
    while (at < n) {
      const c = this.chunks[0] as Buffer;
      const k = Math.min(c.length, n - at);
      c.copy(out, at, 0, k);
      at += k;
      if (k === c.length) this.chunks.shift();
      else this.chunks[0] = c.subarray(k);
    }
    this.size -= n;
    return out;
  }

  /** The first n bytes (a frame header: n <= 14), copying only the chunks they span. */
  private peek(n: number): Buffer {
    const first = this.chunks[0] as Buffer;
    if (first.length >= n) return first.subarray(0, n);
    const spanned: Buffer[] = [];
    let got = 0;
    for (const c of this.chunks) {
      spanned.push(c);
      got += c.length;
      if (got >= n) break;
    }
    return Buffer.concat(spanned).subarray(0, n);
  }
}

/**
 * A permessage-deflate inflater with context takeover (it reads no-context-takeover streams too), for
 * a compressor whose window is 2^windowBits bytes: a back-reference further back fails, as in wsgate.
 * Each call resolves with the message, or null once the stream failed.
 */
export function reproInflater(zlib: typeof ZlibModule, windowBits: number): (data: Buffer) => Promise<Buffer | null> {
  const inflate = zlib.createInflateRaw({ windowBits: Math.max(9, windowBits) });
  let broken = false;
  inflate.on('error', () => (broken = true));
  return (data) =>
    new Promise((resolve) => {
      if (broken) {
        resolve(null);
        return;
      }
      const out: Buffer[] = [];
      const onData = (c: Buffer): void => void out.push(c);
      // A stream that fails never calls the flush callback: the error ends the wait.
      const onError = (): void => resolve(null);
      inflate.on('data', onData);
      inflate.once('error', onError);
      inflate.write(Buffer.concat([data, Buffer.from([0x00, 0x00, 0xff, 0xff])]));
      inflate.flush(zlib.constants.Z_SYNC_FLUSH, () => {
        inflate.off('data', onData);
        inflate.off('error', onError);
        resolve(broken ? null : Buffer.concat(out));
      });
    });
}
