/**
 * permessage-deflate (RFC 7692), server side: offer parsing, the response string and a synchronous
 * compressor/decompressor per connection. Negotiation mirrors autobahn-python 0.10.9's
 * compress_deflate.py (PerMessageDeflateOffer.parse, PerMessageDeflateOfferAccept,
 * PerMessageDeflate.createFromOfferAccept); pure, no sockets.
 *
 * Which side uses what (createFromOfferAccept with isServer=True):
 * - our compressor: window = the client's server_max_window_bits (15 when absent), context reset per
 *   message iff the client sent server_no_context_takeover;
 * - our decompressor: window = the client_max_window_bits we sent (15 when absent), context reset per
 *   message iff we sent client_no_context_takeover. Every client that honours the window is
 *   accepted. One that ignores our client_max_window_bits=9 is judged as by Autobahn (and ws, which
 *   inflates with the same window): zlib only refuses a back-reference that reaches past the window
 *   into output of an earlier inflate() call, and Autobahn's fuzzingserver (PyPy's zlib module)
 *   calls inflate() once per 32 KiB of output within each decompress() call, i.e. per frame payload
 *   piece and for the appended tail. push() and endMessage() make the same calls, so a reference into
 *   an earlier message always fails (1007), and one inside a message fails where it crosses those
 *   boundaries, as there (where TCP reads also cut pieces).
 */

import zlib from 'node:zlib';
import { CloseCode } from './constants.js';
import { EMPTY } from '../util/bytes.js';

/** A client's permessage-deflate offer, parsed as autobahn-python 0.10.9 does. */
export interface DeflateOffer {
  /** Autobahn: always true (the client can always be asked for client_no_context_takeover). */
  acceptNoContextTakeover: boolean;
  /** client_max_window_bits present (with or without a value): the server may set it. */
  acceptMaxWindowBits: boolean;
  /** server_no_context_takeover requested by the client. */
  requestNoContextTakeover: boolean;
  /** server_max_window_bits=N requested by the client (8-15), or 0. */
  requestMaxWindowBits: number;
}

/** How the server accepts an offer (Autobahn's PerMessageDeflateOfferAccept). */
export interface DeflateAccept {
  offer: DeflateOffer;
  /** Ask the client not to keep its compression context (client_no_context_takeover in the response). */
  requestNoContextTakeover: boolean;
  /** Ask the client for this compression window (client_max_window_bits=N in the response), or 0. */
  requestMaxWindowBits: number;
}

/** Compression settings of one connection, server side. */
export interface DeflateOptions {
  /** zlib level for wsgate's own messages (verdicts do not depend on it). */
  level: number;
  /** Largest decompressed message accepted; more is a DeflateError with code 1009 (0 = no limit). */
  maxMessageSize: number;
  /**
   * Code wsgate's messages as Huffman literals only (zlib's Z_HUFFMAN_ONLY), no LZ77 back-references:
   * for payloads LZ77 cannot shrink, where searching for matches costs most of the CPU for nothing.
   */
  literalsOnly?: boolean;
}

const EXTENSION_NAME = 'permessage-deflate';

/** The four extension parameters of RFC 7692 §7.1. */
const Param = {
  serverNoContextTakeover: 'server_no_context_takeover',
  clientNoContextTakeover: 'client_no_context_takeover',
  serverMaxWindowBits: 'server_max_window_bits',
  clientMaxWindowBits: 'client_max_window_bits',
} as const;

/** LZ77 window sizes: "a decimal integer value without leading zeroes between 8 to 15, inclusive" (§7.1.2.1). */
const WindowBits = { min: 8, max: 15, default: 15 } as const;

/** Output sizes of the decompressor (bytes). */
const InflateChunk = {
  /** Output room of one inflate() call: PyPy's rzlib OUTPUT_BUFFER_SIZE (see the top of this file). */
  call: 32 * 1024,
  /** Smallest chunk allocated: many small messages share one. */
  min: 64 * 1024,
  /** Largest chunk allocated at once. */
  max: 4 * 1024 * 1024,
  /** First guess of the inflated size per compressed byte (JSON deflates to about 30%). */
  ratioGuess: 4,
} as const;

/** The compressor's reusable output buffer (bytes): allocated at least this big, and kept up to max. */
const CompressScratch = { min: 16 * 1024, max: 1024 * 1024 } as const;

/** §7.2.1: the sync flush's empty stored block ends with these 4 octets, removed by the sender and appended back by the receiver (§7.2.2). */
const TAIL = Buffer.from([0x00, 0x00, 0xff, 0xff]);

/** Python 2's int() on a str: optional whitespace and sign around ASCII digits; int(True) is 1. */
function pythonInt(value: string | true): bigint | null {
  if (value === true) return 1n;
  const m = /^[ \t\n\r\v\f]*([+-]?[0-9]+)[ \t\n\r\v\f]*$/.exec(value);
  return m === null ? null : BigInt(m[1]!);
}

/** A window value Autobahn accepts (WINDOW_SIZE_PERMISSIBLE_VALUES = 8..15). */
function isWindowBits(value: bigint | number): boolean {
  return value >= WindowBits.min && value <= WindowBits.max;
}

/** Python's "%s" of a parameter value: a bare parameter is True. */
function show(value: string | true | bigint): string {
  return value === true ? 'True' : String(value);
}

/** Parses one permessage-deflate offer (PerMessageDeflateOffer.parse): the offer, or Autobahn's reason. */
function parseOffer(params: ReadonlyArray<[string, string | true]>): DeflateOffer | string {
  // Autobahn groups the values by name first (a dict of lists), then checks each name once.
  const byName = new Map<string, Array<string | true>>();
  for (const [rawName, value] of params) {
    const name = rawName.toLowerCase();
    const values = byName.get(name);
    if (values === undefined) byName.set(name, [value]);
    else values.push(value);
  }
  const offer: DeflateOffer = {
    acceptNoContextTakeover: true,
    acceptMaxWindowBits: false,
    requestNoContextTakeover: false,
    requestMaxWindowBits: 0,
  };
  const illegalValue = (value: string | true | bigint, name: string): string =>
    `illegal extension parameter value '${show(value)}' for parameter '${name}' of extension '${EXTENSION_NAME}'`;
  for (const [name, values] of byName) {
    if (values.length > 1) return `multiple occurrence of extension parameter '${name}' for extension '${EXTENSION_NAME}'`;
    const value = values[0]!;
    switch (name) {
      case Param.clientMaxWindowBits: {
        // "This parameter has no value or a decimal integer value ... between 8 to 15" (§7.1.2.2);
        // Autobahn only notes that the server may set it, the value itself is a hint.
        if (value !== true) {
          const bits = pythonInt(value);
          if (bits === null) return illegalValue(value, name);
          if (!isWindowBits(bits)) return illegalValue(bits, name);
        }
        offer.acceptMaxWindowBits = true;
        break;
      }
      case Param.clientNoContextTakeover:
        if (value !== true) return illegalValue(value, name);
        offer.acceptNoContextTakeover = true;
        break;
      case Param.serverMaxWindowBits: {
        // A bare server_max_window_bits is int(True) == 1 for Autobahn: refused as '1'.
        const bits = pythonInt(value);
        if (bits === null) return illegalValue(value, name);
        if (!isWindowBits(bits)) return illegalValue(bits, name);
        offer.requestMaxWindowBits = Number(bits);
        break;
      }
      case Param.serverNoContextTakeover:
        if (value !== true) return illegalValue(value, name);
        offer.requestNoContextTakeover = true;
        break;
      default:
        return `illegal extension parameter '${name}' for extension '${EXTENSION_NAME}'`;
    }
  }
  return offer;
}

/** Parses the permessage-deflate entries of a Sec-WebSocket-Extensions header (others ignored). */
export function parseDeflateOffers(
  extensions: ReadonlyArray<{ name: string; params: ReadonlyArray<[string, string | true]> }>,
): { ok: true; offers: DeflateOffer[] } | { ok: false; reason: string } {
  // Any bad offer fails the whole handshake, as in Autobahn's succeedHandshake. When several
  // parameters are bad, the first in header order is reported (Autobahn's is Python 2 dict order).
  const offers: DeflateOffer[] = [];
  for (const extension of extensions) {
    if (extension.name.toLowerCase() !== EXTENSION_NAME) continue;
    const parsed = parseOffer(extension.params);
    if (typeof parsed === 'string') return { ok: false, reason: parsed };
    offers.push(parsed);
  }
  return { ok: true, offers };
}

/** Throws where Autobahn's PerMessageDeflateOffer / PerMessageDeflateOfferAccept constructors would. */
function checkAccept(accept: DeflateAccept): void {
  const { offer } = accept;
  if (offer.requestMaxWindowBits !== 0 && !isWindowBits(offer.requestMaxWindowBits)) {
    throw new Error(`invalid value ${offer.requestMaxWindowBits} for requestMaxWindowBits - permissible values 8-15`);
  }
  if (accept.requestNoContextTakeover && !offer.acceptNoContextTakeover) {
    throw new Error('invalid value true for requestNoContextTakeover - feature unsupported by client');
  }
  if (accept.requestMaxWindowBits !== 0 && !isWindowBits(accept.requestMaxWindowBits)) {
    throw new Error(`invalid value ${accept.requestMaxWindowBits} for requestMaxWindowBits - permissible values 8-15`);
  }
  if (accept.requestMaxWindowBits !== 0 && !offer.acceptMaxWindowBits) {
    throw new Error(`invalid value ${accept.requestMaxWindowBits} for requestMaxWindowBits - feature unsupported by client`);
  }
}

/** The response's extension string, in Autobahn's parameter order. */
export function acceptExtensionString(accept: DeflateAccept): string {
  checkAccept(accept);
  // PerMessageDeflateOfferAccept.getExtensionString: the client's server_* requests are echoed (a
  // server accepts them by including them in the response, §7.1.1.1 / §7.1.2.1), then what we ask
  // of the client.
  let s = EXTENSION_NAME;
  if (accept.offer.requestNoContextTakeover) s += `; ${Param.serverNoContextTakeover}`;
  if (accept.offer.requestMaxWindowBits !== 0) s += `; ${Param.serverMaxWindowBits}=${accept.offer.requestMaxWindowBits}`;
  if (accept.requestNoContextTakeover) s += `; ${Param.clientNoContextTakeover}`;
  if (accept.requestMaxWindowBits !== 0) s += `; ${Param.clientMaxWindowBits}=${accept.requestMaxWindowBits}`;
  return s;
}

/** A failure of the peer's compressed data: the close code to fail the connection with, and why. */
export class DeflateError extends Error {
  /** 1007 invalid data, 1009 too big. */
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.name = 'DeflateError';
    this.code = code;
  }
}

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
class SyncZlib {
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
interface DeflateSettings {
  level: number;
  windowBits: number;
  strategy: number;
}

/** A raw deflate stream with these parameters (memLevel 8, as zlib's default and Python's). */
function newDeflater(settings: DeflateSettings): SyncZlib {
  return new SyncZlib(zlib.createDeflateRaw({ chunkSize: zlib.constants.Z_MIN_CHUNK, memLevel: 8, ...settings }));
}

/**
 * Deflates input[inOff, inOff + inLen) with Z_SYNC_FLUSH into `out` (a bigger buffer when it fills)
 * and returns the output, which ends with the flush's empty stored block (00 00 ff ff).
 */
function syncFlush(deflater: SyncZlib, input: Buffer, inOff: number, inLen: number, out: Buffer): Buffer {
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

/**
 * A document that connections send as consecutive cuts (groups 12 and 13 send 1000 messages cut in
 * turn from one document, wrapping around at its end), compressed ahead in chunks of `chunkSize`
 * bytes at fixed offsets, once per set of zlib parameters, and shared by every connection.
 *
 * Why this is valid deflate for the peer: a connection that keeps its compression context sends the
 * document's bytes in order from byte 0, so the peer's LZ77 window always ends with the document's
 * bytes just before the ones arriving (after its end, with the document's end, and its start again).
 * The chunks are made by one compressor reading the document once, with a sync flush after each
 * (byte-aligned, nothing pending): a chunk refers back only into the document before it, at most a
 * window's distance away, which the peer then holds at the same distance in every pass. A message's
 * partial chunks at its two ends are coded from an empty window, without references.
 *
 * Why: compressing the same document over and over was most of wsgate's CPU time in groups 12 and
 * 13 (the PDF deflates at about 30 MB/s); a cut of 128 KiB now costs copies and two small pieces.
 */
export class DocumentChunks {
  private readonly built = new Map<string, readonly Buffer[]>();

  constructor(
    readonly bytes: Buffer,
    readonly chunkSize = 8192,
  ) {
    if (bytes.length === 0) throw new RangeError('DocumentChunks: an empty document');
    if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError(`DocumentChunks: chunk size ${chunkSize}`);
  }

  /** Bytes [start, start + length) of the document, wrapping around at its end: one view, or two when it wraps. */
  views(start: number, length: number): Buffer[] {
    const end = start + length;
    if (end <= this.bytes.length) return [this.bytes.subarray(start, end)];
    return [this.bytes.subarray(start), this.bytes.subarray(0, end - this.bytes.length)];
  }

  /** The same bytes in one buffer (a copy only when they wrap). */
  cut(start: number, length: number): Buffer {
    const views = this.views(start, length);
    return views.length === 1 ? (views[0] as Buffer) : Buffer.concat(views, length);
  }

  /** The chunks for these zlib parameters, each ending with its sync flush's 00 00 ff ff; made on first use. */
  chunksFor(settings: DeflateSettings): readonly Buffer[] {
    const key = `${settings.level}/${settings.windowBits}/${settings.strategy}`;
    let chunks = this.built.get(key);
    if (chunks === undefined) {
      const deflater = newDeflater(settings);
      const out = Buffer.allocUnsafe(this.chunkSize + (this.chunkSize >>> 3) + 64);
      const list: Buffer[] = [];
      try {
        for (let at = 0; at < this.bytes.length; at += this.chunkSize) {
          list.push(Buffer.from(syncFlush(deflater, this.bytes, at, Math.min(this.chunkSize, this.bytes.length - at), out)));
        }
      } finally {
        deflater.close();
      }
      this.built.set(key, (chunks = list));
    }
    return chunks;
  }
}

/** permessage-deflate for one connection (server side), synchronous. */
export class PerMessageDeflate {
  private readonly deflater: SyncZlib;
  private readonly inflater: SyncZlib;
  /** The client's server_no_context_takeover: reset our compressor after every message. */
  private readonly compressReset: boolean;
  /** Our client_no_context_takeover: reset our decompressor after every message. */
  private readonly decompressReset: boolean;
  private readonly maxMessageSize: number;
  /** The peer's window as negotiated (client_max_window_bits, 15 when not limited). */
  private readonly inflateWindowBits: number;

  /** zlib parameters of the compressor (a document's chunks are made with the same). */
  private readonly deflateSettings: DeflateSettings;
  /** The compressor's output buffer, reused for messages up to CompressScratch.max. */
  private scratch: Buffer = EMPTY;
  /** The document being sent as consecutive cuts (compressCut), and where its next cut starts. */
  private cutDocument: DocumentChunks | null = null;
  private cutNext = 0;

  // Decompressor output: chunks are filled front to back and handed out as subarrays.
  private chunk: Buffer = EMPTY;
  private chunkUsed = 0;
  private inMessage = false;
  /** The current message is inflated over earlier output (startMessage(true)). */
  private reuseOutput = false;
  private messageSize = 0;
  /** After a DeflateError, every later call throws it again (the connection is being failed). */
  private error: DeflateError | null = null;

  constructor(accept: DeflateAccept, options: DeflateOptions) {
    checkAccept(accept);
    if (!Number.isInteger(options.level) || options.level < -1 || options.level > 9) {
      throw new RangeError(`permessage-deflate: level must be an integer -1..9, not ${options.level}`);
    }
    if (!(options.maxMessageSize >= 0)) {
      throw new RangeError(`permessage-deflate: maxMessageSize must be >= 0, not ${options.maxMessageSize}`);
    }
    this.maxMessageSize = options.maxMessageSize === 0 ? Number.MAX_SAFE_INTEGER : options.maxMessageSize;
    this.compressReset = accept.offer.requestNoContextTakeover;
    this.decompressReset = accept.requestNoContextTakeover;

    const serverWindow = accept.offer.requestMaxWindowBits || WindowBits.default;
    // Window 8: zlib refuses a raw deflate window of 8 and Node's DeflateRaw silently makes it 9,
    // whose back-references could reach past the 256 bytes the client keeps (zlib stops at 512 - 262
    // = 250 today, but that is an implementation detail). Huffman-only coding emits literals only,
    // no back-references at all, so it is valid for any window and still compresses text (to about
    // half for JSON); the LZ77 context is then never used either. Level 0 gives stored blocks.
    this.deflateSettings = {
      level: options.level,
      windowBits: serverWindow === WindowBits.min ? WindowBits.min + 1 : serverWindow,
      strategy: serverWindow === WindowBits.min || options.literalsOnly === true ? zlib.constants.Z_HUFFMAN_ONLY : zlib.constants.Z_DEFAULT_STRATEGY,
    };
    this.deflater = newDeflater(this.deflateSettings);
    // Autobahn's startDecompressMessage: zlib.decompressobj(-client_max_window_bits).
    this.inflateWindowBits = accept.requestMaxWindowBits || WindowBits.default;
    this.inflater = new SyncZlib(zlib.createInflateRaw({ chunkSize: zlib.constants.Z_MIN_CHUNK, windowBits: this.inflateWindowBits }));
  }

  /** Compresses one whole message as RFC 7692 §7.2.1 says (sync flush, the trailing 00 00 ff ff removed). */
  compress(message: Buffer): Buffer {
    // §7.2.3.6 (Generating an Empty Fragment): the octet 0x00, an empty stored block whose LEN/NLEN
    // are the removed tail, decodes to nothing. (zlib emits nothing at all for an empty input after
    // an earlier sync flush; skipping zlib leaves the context unchanged.)
    if (message.length === 0) return Buffer.from([0x00]);
    if (this.cutDocument !== null) {
      // After cuts the compressor's window holds only the last piece it coded, not what the peer
      // has: start from an empty one (valid whatever the peer holds), and go on from there.
      this.cutDocument = null;
      this.deflater.reset();
    }
    const out = this.deflate(message, 0, message.length);
    // §7.2.1: "If the "agreed parameters" contain the "server_no_context_takeover" extension
    // parameter, the server MUST start compressing each new message with an empty LZ77 sliding
    // window." (Autobahn: a new compressobj per message.)
    if (this.compressReset) this.deflater.reset();
    // One copy of the compressed bytes (a fraction of the message, usually): the result holds no
    // oversized buffer alive however long the caller queues it.
    // §7.2.1: "Remove 4 octets (that are 0x00 0x00 0xff 0xff) from the tail end."
    return Buffer.from(out.subarray(0, out.length - TAIL.length));
  }

  /**
   * Compresses the message that is bytes [start, start + length) of `document.bytes`, wrapping
   * around at its end, for a connection that sends the document as consecutive cuts: the first
   * cut starts at byte 0 and each next one where the previous ended. The result is what compress()
   * of the same bytes would give in meaning (the peer inflates the same message), made mostly of the
   * document's chunks compressed once (see DocumentChunks): each whole chunk the message covers is
   * copied, and only the pieces of chunks at its two ends are compressed now, each from an empty
   * window. A compressor that must forget between messages (server_no_context_takeover) compresses
   * the message as compress() does.
   */
  compressCut(document: DocumentChunks, start: number, length: number): Buffer {
    const size = document.bytes.length;
    if (!Number.isInteger(start) || !Number.isInteger(length) || start < 0 || start >= size || length < 0 || length > size) {
      throw new RangeError(`permessage-deflate: cut [${start}, +${length}) outside a document of ${size} bytes`);
    }
    if (this.compressReset) return this.compress(document.cut(start, length));
    if (this.cutDocument !== document) {
      if (start !== 0) throw new RangeError('permessage-deflate: the first cut of a document starts at byte 0');
      this.cutDocument = document;
    } else if (start !== this.cutNext) {
      throw new RangeError(`permessage-deflate: cut at byte ${start}, the previous one ended at ${this.cutNext}`);
    }
    if (length === 0) return Buffer.from([0x00]);
    const chunks = document.chunksFor(this.deflateSettings);
    const parts: Buffer[] = [];
    let total = 0;
    let at = start;
    let left = length;
    while (left > 0) {
      const k = Math.floor(at / document.chunkSize);
      const chunkStart = k * document.chunkSize;
      const chunkEnd = Math.min(chunkStart + document.chunkSize, size);
      const end = Math.min(chunkEnd, at + left);
      let part: Buffer;
      if (at === chunkStart && end === chunkEnd) {
        part = chunks[k] as Buffer;
      } else {
        this.deflater.reset();
        part = Buffer.from(this.deflate(document.bytes, at, end - at));
      }
      parts.push(part);
      total += part.length;
      left -= end - at;
      at = end === size ? 0 : end;
    }
    this.cutNext = at;
    // Every part ends with its sync flush (00 00 ff ff); only the message's last one is removed.
    return Buffer.concat(parts, total).subarray(0, total - TAIL.length);
  }

  /** One Z_SYNC_FLUSH deflate of input[inOff, inOff + inLen): the output, tail included (in `scratch` up to 1 MiB). */
  private deflate(input: Buffer, inOff: number, inLen: number): Buffer {
    // Enough for zlib's worst case (stored blocks) plus the flush; grown by syncFlush if ever too
    // small. Up to 1 MiB the connection's scratch buffer is reused.
    const bound = inLen + (inLen >>> 3) + 64;
    if (bound <= CompressScratch.max && this.scratch.length < bound) this.scratch = Buffer.allocUnsafe(Math.max(bound, CompressScratch.min));
    return syncFlush(this.deflater, input, inOff, inLen, bound <= CompressScratch.max ? this.scratch : Buffer.allocUnsafe(bound));
  }

  /**
   * Starts a compressed message from the peer. With `reuseOutput` the output of earlier messages is
   * no longer read by anyone, and this one is inflated over it.
   */
  startMessage(reuseOutput = false): void {
    if (this.error !== null) throw this.error;
    if (this.inMessage) throw new Error('permessage-deflate: startMessage() inside a message');
    this.inMessage = true;
    this.messageSize = 0;
    this.reuseOutput = reuseOutput;
    if (reuseOutput) this.chunkUsed = 0;
  }

  /** Inflates a piece of the current message; throws DeflateError (1007 on invalid data, 1009 over maxMessageSize counted over the whole message). */
  push(data: Buffer): Buffer {
    if (this.error !== null) throw this.error;
    if (!this.inMessage) throw new Error('permessage-deflate: push() outside a message');
    if (data.length === 0) return EMPTY;
    return this.inflate(data);
  }

  /** Ends the message (§7.2.2: append 00 00 ff ff) and returns what remains; resets the context if no context takeover applies. */
  endMessage(): Buffer {
    if (this.error !== null) throw this.error;
    if (!this.inMessage) throw new Error('permessage-deflate: endMessage() outside a message');
    // §7.2.2: "Append 4 octets of 0x00 0x00 0xff 0xff to the tail end of the payload of the message.
    // Decompress the resulting data using DEFLATE."
    const rest = this.inflate(TAIL);
    this.inMessage = false;
    // §7.2.2: with "client_no_context_takeover" the server "MAY decompress each new message with an
    // empty LZ77 sliding window"; Autobahn does (a new decompressobj per message), so do we.
    if (this.decompressReset) this.inflater.reset();
    return rest;
  }

  /** Frees the zlib streams. */
  close(): void {
    this.deflater.close();
    this.inflater.close();
    this.chunk = EMPTY;
    this.chunkUsed = 0;
    this.scratch = EMPTY;
  }

  /**
   * One decompress() call of Autobahn: runs `data` through the inflater in inflate() calls of 32 KiB
   * output each. Output goes into `chunk`, never more than the message may still grow by plus one
   * byte (to detect the excess), so a bomb costs at most about maxMessageSize. After the end of the
   * deflate stream (a block with BFINAL set) zlib consumes nothing more and the rest is ignored, as
   * Python's decompressobj does, until the context is reset.
   */
  private inflate(data: Buffer): Buffer {
    // Output of consecutive calls is contiguous within a chunk: one piece per chunk used.
    const pieces: Buffer[] = [];
    let pieceStart = this.chunkUsed;
    let produced = 0;
    let inOff = 0;
    let inLen = data.length;
    let wanted = data.length * InflateChunk.ratioGuess;
    for (;;) {
      const allowed = this.maxMessageSize - this.messageSize;
      const room = Math.min(InflateChunk.call, allowed + 1);
      // Each call gets its whole room in one piece: a shorter one would add a call boundary.
      if (this.chunk.length - this.chunkUsed < room) {
        if (this.chunkUsed > pieceStart) pieces.push(this.chunk.subarray(pieceStart, this.chunkUsed));
        let size = Math.max(room, Math.min(Math.max(wanted, InflateChunk.min), InflateChunk.max, allowed + 1));
        // Reused output grows until one chunk holds a whole message: then nothing more is allocated.
        if (this.reuseOutput) size = Math.max(size, Math.min(this.chunk.length * 2, InflateChunk.max));
        this.chunk = Buffer.allocUnsafe(size);
        this.chunkUsed = 0;
        pieceStart = 0;
        wanted = size * 2;
      }
      const failure = this.inflater.write(zlib.constants.Z_SYNC_FLUSH, data, inOff, inLen, this.chunk, this.chunkUsed, room);
      if (failure !== null) return this.fail(CloseCode.InvalidPayload, this.describeInflateFailure(failure));
      const availOut = this.inflater.availOut;
      const availIn = this.inflater.availIn;
      const n = room - availOut;
      this.chunkUsed += n;
      this.messageSize += n;
      produced += n;
      if (this.messageSize > this.maxMessageSize) {
        return this.fail(CloseCode.MessageTooBig, `decompressed message longer than ${this.maxMessageSize} bytes`);
      }
      inOff += inLen - availIn;
      inLen = availIn;
      if (availOut !== 0) break;
    }
    if (this.chunkUsed > pieceStart) pieces.push(this.chunk.subarray(pieceStart, this.chunkUsed));
    if (pieces.length <= 1) return pieces[0] ?? EMPTY;
    return Buffer.concat(pieces, produced);
  }

  /** zlib's message, and what it means where the cause is the peer's window (RFC 7692 §7.1.2.2). */
  private describeInflateFailure(failure: string): string {
    if (!/too far back/.test(failure)) return `invalid compressed data (zlib: ${failure})`;
    const bytes = 1 << this.inflateWindowBits;
    const limit =
      this.inflateWindowBits < WindowBits.default
        ? `the ${bytes}-byte window negotiated with client_max_window_bits=${this.inflateWindowBits}`
        : `the ${bytes}-byte window of permessage-deflate`;
    return `a back-reference reaches further back than ${limit} (zlib: ${failure})`;
  }

  /** Records and throws a DeflateError; the output of the failed message is dropped. */
  private fail(code: number, message: string): never {
    this.error = new DeflateError(code, message);
    this.chunk = EMPTY;
    this.chunkUsed = 0;
    throw this.error;
  }
}
