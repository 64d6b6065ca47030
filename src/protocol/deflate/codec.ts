/**
 * permessage-deflate (RFC 7692): a synchronous compressor/decompressor per connection, set up from
 * what the handshake agreed (params.ts: a server's accepted offer, as autobahn-python
 * 0.10.9's PerMessageDeflate.createFromOfferAccept, or a client's accepted response, as its
 * createFromResponseAccept); pure, no sockets.
 *
 * Which side uses what, for a server (a client's is the mirror: its compressor follows the
 * client_* parameters of the response, its decompressor the server_* ones):
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
import { CloseCode } from '../constants.js';
import { EMPTY } from '../../util/bytes.js';
import { WindowBits, type DeflateAgreement } from './params.js';
import type { DocumentChunks } from './document.js';
import { cutMemo } from './memo.js';
import { SyncZlib, TAIL, newDeflater, syncFlush, type DeflateSettings } from './sync-zlib.js';

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

/** permessage-deflate for one connection (either side), synchronous. */
export class PerMessageDeflate {
  private readonly deflater: SyncZlib;
  private readonly inflater: SyncZlib;
  /** Reset our compressor after every message (the peer asked us not to keep context). */
  private readonly compressReset: boolean;
  /** Reset our decompressor after every message (the peer does not keep context). */
  private readonly decompressReset: boolean;
  private readonly maxMessageSize: number;
  /** The peer's window as negotiated (15 when not limited). */
  private readonly inflateWindowBits: number;
  /** The parameter that set the peer's window (client_max_window_bits for a server), for failures. */
  private readonly inflateWindowParam: string;

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

  constructor(agreement: DeflateAgreement, options: DeflateOptions) {
    if (!Number.isInteger(options.level) || options.level < -1 || options.level > 9) {
      throw new RangeError(`permessage-deflate: level must be an integer -1..9, not ${options.level}`);
    }
    if (!(options.maxMessageSize >= 0)) {
      throw new RangeError(`permessage-deflate: maxMessageSize must be >= 0, not ${options.maxMessageSize}`);
    }
    this.maxMessageSize = options.maxMessageSize === 0 ? Number.MAX_SAFE_INTEGER : options.maxMessageSize;
    this.compressReset = agreement.compressNoContextTakeover;
    this.decompressReset = agreement.decompressNoContextTakeover;

    const ownWindow = agreement.compressWindowBits;
    // Window 8: zlib refuses a raw deflate window of 8 and Node's DeflateRaw silently makes it 9,
    // whose back-references could reach past the 256 bytes the client keeps (zlib stops at 512 - 262
    // = 250 today, but that is an implementation detail). Huffman-only coding emits literals only,
    // no back-references at all, so it is valid for any window and still compresses text (to about
    // half for JSON); the LZ77 context is then never used either. Level 0 gives stored blocks.
    this.deflateSettings = {
      level: options.level,
      windowBits: ownWindow === WindowBits.min ? WindowBits.min + 1 : ownWindow,
      strategy: ownWindow === WindowBits.min || options.literalsOnly === true ? zlib.constants.Z_HUFFMAN_ONLY : zlib.constants.Z_DEFAULT_STRATEGY,
    };
    this.deflater = newDeflater(this.deflateSettings);
    // Autobahn's startDecompressMessage: zlib.decompressobj(-client_max_window_bits) for a server.
    this.inflateWindowBits = agreement.decompressWindowBits;
    this.inflateWindowParam = agreement.decompressWindowParam;
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
   * the message as compress() does (compressWhole).
   */
  compressCut(document: DocumentChunks, start: number, length: number): Buffer {
    const size = document.bytes.length;
    if (!Number.isInteger(start) || !Number.isInteger(length) || start < 0 || start >= size || length < 0 || length > size) {
      throw new RangeError(`permessage-deflate: cut [${start}, +${length}) outside a document of ${size} bytes`);
    }
    if (this.compressReset) return this.compressWhole(document, start, length);
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

  /**
   * compress() of the cut [start, start + length) of `document` (wrapping around at its end), as one
   * message. A compressor that starts every message from an empty window codes it as it did for any
   * earlier connection with these parameters: then it comes from the run's memo (see CutMemo).
   */
  compressWhole(document: DocumentChunks, start: number, length: number): Buffer {
    if (!this.compressReset) return this.compress(document.cut(start, length));
    const known = cutMemo.get(document, this.deflateSettings, start, length);
    return known ?? cutMemo.remember(document, this.deflateSettings, start, length, this.compress(document.cut(start, length)));
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
        ? `the ${bytes}-byte window negotiated with ${this.inflateWindowParam}=${this.inflateWindowBits}`
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
