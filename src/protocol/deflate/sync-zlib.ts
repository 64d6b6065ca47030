/** zlib driven synchronously with its context kept between calls, and the sync flush of RFC 7692. */
import zlib from 'node:zlib';

/** §7.2.1: the sync flush's empty stored block ends with these 4 octets, removed by the sender and appended back by the receiver (§7.2.2). */
export const TAIL = Buffer.from([0x00, 0x00, 0xff, 0xff]);

/** The native handle behind a node:zlib stream (internal, not in @types/node). */
interface ZlibHandle {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  reset(): void;
  onerror: (message: string, errno: number, code?: string) => void;
}

/**
 * A raw deflate/inflate stream driven synchronously, keeping its LZ77 window between calls.
 *
 * Node has no public synchronous streaming zlib: zlib.*Sync() build a stream per call, and the
 * stream's `_processChunk(chunk, flush)` (what they use) closes the native handle after one call
 * (processChunkSync ends with _close(self)), which loses the context. So this does
 * what processChunkSync does inside, without the close: `handle.writeSync(flush, in, inOff, inLen,
 * out, outOff, outLen)` runs zlib on the calling thread and leaves avail_out / avail_in in the
 * stream's `_writeState` (a Uint32Array(2)); an error calls `handle.onerror(message, errno, code)`
 * synchronously, replaced here so that it neither destroys the stream nor emits 'error' later.
 * Same internals in Node 20.20 (run) and in lib/zlib.js of Node's main branch, the 24+ line (read:
 * Zlib(), ZlibBase(), processChunkSync()); the constructor refuses to run if they are missing.
 */
export class SyncZlib {
  private readonly stream: zlib.DeflateRaw | zlib.InflateRaw;
  private readonly handle: ZlibHandle;
  private readonly writeState: Uint32Array;
  private failure: string | null = null;
  private closed = false;

  constructor(stream: zlib.DeflateRaw | zlib.InflateRaw) {
    const internals = stream as unknown as { _handle?: ZlibHandle | null; _writeState?: unknown };
    const handle = internals._handle;
    const writeState = internals._writeState;
    if (handle == null || typeof handle.writeSync !== 'function' || !(writeState instanceof Uint32Array) || writeState.length < 2) {
      throw new Error('node:zlib internals (_handle.writeSync, _writeState) not found: this Node.js version is not supported');
    }
    this.stream = stream;
    this.handle = handle;
    this.writeState = writeState;
    handle.onerror = (message: string) => {
      this.failure = message;
    };
  }

  /** avail_out after the last write: 0 means the output space was filled and zlib may have more. */
  get availOut(): number {
    return this.writeState[0]!;
  }

  /** avail_in after the last write: input not consumed (only after the end of a stream, or a full output). */
  get availIn(): number {
    return this.writeState[1]!;
  }

  /** One zlib deflate()/inflate() call; returns zlib's error message, or null. */
  write(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): string | null {
    // A write after close() would hit a native CHECK and abort the process.
    if (this.closed) throw new Error('permessage-deflate: zlib stream used after close()');
    this.handle.writeSync(flush, input, inOff, inLen, out, outOff, outLen);
    const failure = this.failure;
    this.failure = null;
    return failure;
  }

  /** deflateReset() / inflateReset(): a fresh LZ77 window, same parameters. */
  reset(): void {
    if (this.closed) return;
    this.handle.reset();
    this.failure = null;
  }

  /** Frees the native stream; idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stream.close();
  }
}

/** zlib parameters of a compressor. */
export interface DeflateSettings {
  level: number;
  windowBits: number;
  strategy: number;
}

/** A raw deflate stream with these parameters (memLevel 8, as zlib's default and Python's). */
export function newDeflater(settings: DeflateSettings): SyncZlib {
  return new SyncZlib(zlib.createDeflateRaw({ chunkSize: zlib.constants.Z_MIN_CHUNK, memLevel: 8, ...settings }));
}

/**
 * Deflates input[inOff, inOff + inLen) with Z_SYNC_FLUSH into `out` (a bigger buffer when it fills)
 * and returns the output, which ends with the flush's empty stored block (00 00 ff ff).
 */
export function syncFlush(deflater: SyncZlib, input: Buffer, inOff: number, inLen: number, out: Buffer): Buffer {
  let used = 0;
  for (;;) {
    // §7.2.1: "Compress all the octets of the payload of the message using DEFLATE." and
    // "If the resulting data does not end with an empty DEFLATE block with no compression (the
    // "BTYPE" bits are set to 00), append an empty DEFLATE block" — that is what Z_SYNC_FLUSH does.
    const failure = deflater.write(zlib.constants.Z_SYNC_FLUSH, input, inOff, inLen, out, used, out.length - used);
    if (failure !== null) throw new Error(`permessage-deflate: deflate failed: ${failure}`);
    const availOut = deflater.availOut;
    const availIn = deflater.availIn;
    used = out.length - availOut;
    inOff += inLen - availIn;
    inLen = availIn;
    if (availOut !== 0) break;
    const bigger = Buffer.allocUnsafe(out.length * 2);
    out.copy(bigger, 0, 0, used);
    out = bigger;
  }
  if (used < TAIL.length || out.readUInt32BE(used - TAIL.length) !== 0x0000ffff) {
    throw new Error('permessage-deflate: sync flush did not end with 00 00 ff ff');
  }
  return out.subarray(0, used);
}
