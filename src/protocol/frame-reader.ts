/**
 * Incremental reader of the peer's frames (RFC 6455 §5.2). It never throws on bad input and does not
 * care where TCP chunks end. Checks and their order mirror autobahn-python 0.10.9's processDataHybi
 * with failByDrop=False: a violation is reported and parsing of the frame continues (the caller
 * decides whether to fail the connection), except where continuing is impossible (length >= 2^63,
 * or over the payload limit), where the reader stops itself.
 */

import { CloseCode, Opcode, isControlOpcode } from './constants.js';
import { EMPTY } from '../util/bytes.js';
import { maskInPlace } from './frame-writer.js';

/** A frame's header as read off the wire. */
export interface FrameHeader {
  opcode: number;
  fin: boolean;
  /** RSV1-3 as a number 0-7 (4 = RSV1). */
  rsv: number;
  masked: boolean;
  /** The 4-byte masking key (a private copy), or null when unmasked. */
  mask: Buffer | null;
  length: number;
}

/** Receives what the reader finds; any callback may call reader.stop() to end all further callbacks. */
export interface FrameSink {
  /** A rule violation: code 1002 (protocol error) or 1009 (over the payload limit). */
  onViolation(code: number, reason: string): void;
  onFrameBegin(header: FrameHeader): void;
  /** Unmasked payload bytes; several calls per frame, or one with an empty buffer for an empty payload. */
  onFrameData(chunk: Buffer): void;
  onFrameEnd(header: FrameHeader): void;
}

/** How strict the reader is. */
export interface FrameReaderOptions {
  /** A server requires masked client frames (§5.1). */
  requireMask: boolean;
  /** A client refuses masked server frames (§5.1: "A client MUST close a connection if it detects a masked frame"). */
  refuseMask?: boolean;
  /** permessage-deflate negotiated: RSV1 (rsv value 4) allowed on the first frame of a data message. */
  compressionNegotiated: boolean;
  /** A frame announcing more than this many payload bytes is refused with 1009 and the reader stops (0 = no limit). */
  maxFramePayload: number;
  /**
   * Unmask payload bytes where they are, in the pushed chunk, instead of in a copy: for a caller that
   * owns its chunks and is done with their masked bytes once pushed (a socket's reads). Default false.
   */
  unmaskInPlace?: boolean;
}

const PROTOCOL_ERROR = CloseCode.ProtocolError;
const MESSAGE_TOO_BIG = CloseCode.MessageTooBig;
/** The longest header: 2 + 8 (64-bit length) + 4 (mask). */
const MAX_HEADER = 14;
/** RSV1, the permessage-deflate "compressed" bit, as a value of the 3-bit RSV field. */
const RSV1 = 4;
/** Payload pieces shorter than this are unmasked in the copy loop itself. */
const SMALL_UNMASK = 64;

const ReadState = { Header: 0, Payload: 1 } as const;
type ReadState = (typeof ReadState)[keyof typeof ReadState];

/** Incremental frame parser: push() chunks in, callbacks come out. */
export class FrameReader {
  private readonly requireMask: boolean;
  private readonly refuseMask: boolean;
  private readonly compression: boolean;
  private readonly maxFramePayload: number;
  private readonly unmaskInPlace: boolean;

  /** Octets pushed so far: the frame octets a connection received. */
  pushed = 0;
  private state: ReadState = ReadState.Header;
  private isStopped = false;
  private inMessage = false;

  // Header being collected (never more than MAX_HEADER bytes are kept).
  private readonly head = Buffer.alloc(MAX_HEADER);
  private headLen = 0;
  private headNeeded = 2;
  private firstBytesChecked = false;
  private fin = false;
  private rsv = 0;
  private opcode = 0;
  private masked = false;
  private len7 = 0;

  // Frame whose payload is being read.
  private frame: FrameHeader | null = null;
  private remaining = 0;
  private delivered = 0;

  constructor(options: FrameReaderOptions) {
    this.requireMask = options.requireMask;
    this.refuseMask = options.refuseMask ?? false;
    this.compression = options.compressionNegotiated;
    this.maxFramePayload = options.maxFramePayload;
    this.unmaskInPlace = options.unmaskInPlace ?? false;
  }

  /** True once stop() was called (by the caller, a sink callback or the reader itself). */
  get stopped(): boolean {
    return this.isStopped;
  }

  /** True between the first and the final (FIN) data frame of a message. */
  get insideMessage(): boolean {
    return this.inMessage;
  }

  /** Header bytes held back waiting for the rest of the header (0-14). */
  get bufferedBytes(): number {
    return this.state === ReadState.Header ? this.headLen : 0;
  }

  /** Ignore all further input: no callback happens after this, not even for the rest of the current push. */
  stop(): void {
    this.isStopped = true;
  }

  /**
   * Feed the next bytes from the peer. onFrameData gets views into `chunk`; masked payload is
   * unmasked in a fresh buffer, or in `chunk` itself with unmaskInPlace (the chunk is otherwise
   * never modified).
   */
  push(chunk: Buffer, sink: FrameSink): void {
    const n = chunk.length;
    this.pushed += n;
    let pos = 0;
    while (!this.isStopped) {
      if (this.state === ReadState.Header) {
        if (this.headLen < 2) {
          pos = this.collect(chunk, pos, 2);
          if (this.headLen < 2) return;
        }
        if (!this.firstBytesChecked) {
          // Checked once per frame, as soon as the first 2 bytes are there.
          this.firstBytesChecked = true;
          this.checkFirstBytes(sink);
          if (this.isStopped) return;
        }
        if (this.headLen < this.headNeeded) {
          pos = this.collect(chunk, pos, this.headNeeded);
          if (this.headLen < this.headNeeded) return;
        }
        if (!this.beginFrame(sink)) return;
      } else {
        if (pos >= n) return;
        const frame = this.frame!;
        const take = Math.min(this.remaining, n - pos);
        let data = chunk.subarray(pos, pos + take);
        pos += take;
        if (frame.mask !== null && this.unmaskInPlace) {
          maskInPlace(data, frame.mask, this.delivered);
        } else if (frame.mask !== null) {
          // Copy then unmask the copy: the caller's chunk stays intact.
          const copy = Buffer.allocUnsafe(take);
          if (take < SMALL_UNMASK) {
            // Small payloads: unmask while copying, one pass, no view set-up.
            const mask = frame.mask;
            const o = this.delivered & 3;
            for (let k = 0; k < take; k++) copy[k] = data[k]! ^ mask[(o + k) & 3]!;
          } else {
            data.copy(copy);
            maskInPlace(copy, frame.mask, this.delivered);
          }
          data = copy;
        }
        this.delivered += take;
        this.remaining -= take;
        if (this.remaining === 0) this.state = ReadState.Header;
        sink.onFrameData(data);
        if (this.isStopped) return;
        if (this.remaining === 0) this.endFrame(sink);
      }
    }
  }

  /** Copy bytes from chunk into the header buffer until it holds `upTo` bytes; returns the new chunk position. */
  private collect(chunk: Buffer, pos: number, upTo: number): number {
    const take = Math.min(upTo - this.headLen, chunk.length - pos);
    for (let k = 0; k < take; k++) this.head[this.headLen + k] = chunk[pos + k]!;
    this.headLen += take;
    return pos + take;
  }

  /** processDataHybi's checks on byte 0 and byte 1, in its order; stops early only if the sink stops us. */
  private checkFirstBytes(sink: FrameSink): void {
    const b0 = this.head[0]!;
    const b1 = this.head[1]!;
    const fin = (b0 & 0x80) !== 0;
    const rsv = (b0 & 0x70) >> 4;
    const opcode = b0 & 0x0f;
    const masked = (b1 & 0x80) !== 0;
    const len7 = b1 & 0x7f;
    this.fin = fin;
    this.rsv = rsv;
    this.opcode = opcode;
    this.masked = masked;
    this.len7 = len7;
    this.headNeeded = 2 + (len7 === 126 ? 2 : len7 === 127 ? 8 : 0) + (masked ? 4 : 0);

    const compressed = this.compression && rsv === RSV1;
    // "MUST be 0 unless an extension is negotiated that defines meanings for non-zero values" (§5.2)
    if (rsv !== 0 && !compressed) {
      if (this.violation(sink, PROTOCOL_ERROR, `RSV = ${rsv} and no extension negotiated`)) return;
    }
    // "The server MUST close the connection upon receiving a frame that is not masked." (§5.1)
    if (this.requireMask && !masked) {
      if (this.violation(sink, PROTOCOL_ERROR, 'unmasked client-to-server frame')) return;
    }
    if (this.refuseMask && masked) {
      if (this.violation(sink, PROTOCOL_ERROR, 'masked server-to-client frame')) return;
    }
    if (isControlOpcode(opcode)) this.checkControlFrame(sink, opcode, fin, len7, compressed);
    else this.checkDataFrame(sink, opcode, compressed);
  }

  /** §5.4, §5.5 and RFC 7692 §6.1 for a control frame. */
  private checkControlFrame(sink: FrameSink, opcode: number, fin: boolean, len7: number, compressed: boolean): void {
    // "Control frames themselves MUST NOT be fragmented." (§5.4)
    if (!fin && this.violation(sink, PROTOCOL_ERROR, 'fragmented control frame')) return;
    // "All control frames MUST have a payload length of 125 bytes or less" (§5.5)
    if (len7 > 125 && this.violation(sink, PROTOCOL_ERROR, 'control frame with payload length > 125 octets')) {
      return;
    }
    if (opcode !== Opcode.Close && opcode !== Opcode.Ping && opcode !== Opcode.Pong) {
      if (this.violation(sink, PROTOCOL_ERROR, `control frame using reserved opcode ${opcode}`)) return;
    }
    // A Close body, if any, starts with a 2-byte status code (§5.5.1), so 1 byte is malformed.
    if (opcode === Opcode.Close && len7 === 1) {
      if (this.violation(sink, PROTOCOL_ERROR, 'received close control frame with payload len 1')) return;
    }
    // RFC 7692 §6.1: "An endpoint MUST NOT set the 'Per-Message Compressed' bit of control frames"
    if (compressed && this.violation(sink, PROTOCOL_ERROR, 'received compressed control frame')) return;
  }

  /** Reserved opcodes, continuation order and RFC 7692 §6.1 for a data frame. */
  private checkDataFrame(sink: FrameSink, opcode: number, compressed: boolean): void {
    if (opcode !== Opcode.Continuation && opcode !== Opcode.Text && opcode !== Opcode.Binary) {
      if (this.violation(sink, PROTOCOL_ERROR, `data frame using reserved opcode ${opcode}`)) return;
    }
    if (!this.inMessage && opcode === Opcode.Continuation) {
      const reason = 'received continuation data frame outside fragmented message';
      if (this.violation(sink, PROTOCOL_ERROR, reason)) return;
    }
    if (this.inMessage && opcode !== Opcode.Continuation) {
      const reason = 'received non-continuation data frame while inside fragmented message';
      if (this.violation(sink, PROTOCOL_ERROR, reason)) return;
    }
    // RFC 7692 §6.1: the compressed bit is only set on the first frame of a message.
    if (compressed && this.inMessage) {
      this.violation(sink, PROTOCOL_ERROR, 'received continuation data frame with compress bit set');
    }
  }

  /**
   * The payload length of the buffered header (7, 16 or 64 bits, minimal encoding checked) and where
   * the mask starts; null when a violation stopped the reader.
   */
  private payloadLength(sink: FrameSink): { length: number; pos: number; overLimit: boolean } | null {
    const head = this.head;
    if (this.len7 === 126) {
      const length = head.readUInt16BE(2);
      if (length < 126 && this.violation(sink, PROTOCOL_ERROR, 'invalid data frame length (not using minimal length encoding)')) return null;
      return { length, pos: 4, overLimit: false };
    }
    if (this.len7 !== 127) return { length: this.len7, pos: 2, overLimit: false };
    // Two 32-bit halves: exact up to 2^53, and the top bit tells >= 2^63.
    const hi = head.readUInt32BE(2);
    const lo = head.readUInt32BE(6);
    if (hi >= 0x80000000) {
      // "the most significant bit MUST be 0" (§5.2); nothing sensible can follow.
      this.violation(sink, PROTOCOL_ERROR, 'invalid data frame length (>2^63)');
      this.stop();
      return null;
    }
    const length = hi * 0x100000000 + lo;
    if (length < 0x10000 && this.violation(sink, PROTOCOL_ERROR, 'invalid data frame length (not using minimal length encoding)')) return null;
    // Beyond Number.MAX_SAFE_INTEGER: over any limit.
    return { length, pos: 10, overLimit: hi > 0x1fffff };
  }

  /** The whole header is buffered: read length and mask, fire onFrameBegin. Returns false when stopped. */
  private beginFrame(sink: FrameSink): boolean {
    const read = this.payloadLength(sink);
    if (read === null) return false;
    const { length, pos, overLimit } = read;
    const limit = this.maxFramePayload > 0 ? this.maxFramePayload : Number.MAX_SAFE_INTEGER;
    if (overLimit || length > limit) {
      this.violation(sink, MESSAGE_TOO_BIG, `frame exceeds payload limit of ${limit} octets`);
      this.stop();
      return false;
    }
    const mask = this.masked ? Buffer.from(this.head.subarray(pos, pos + 4)) : null;
    const frame: FrameHeader = {
      opcode: this.opcode,
      fin: this.fin,
      rsv: this.rsv,
      masked: this.masked,
      mask,
      length,
    };
    // Ready for the next header whatever the sink does.
    this.headLen = 0;
    this.headNeeded = 2;
    this.firstBytesChecked = false;
    this.frame = frame;
    this.remaining = length;
    this.delivered = 0;
    this.state = ReadState.Payload;
    // Like autobahn's onFrameBegin: any data frame (reserved 3-7 included) opens a message.
    if (frame.opcode <= 7 && !this.inMessage) this.inMessage = true;
    sink.onFrameBegin(frame);
    if (this.isStopped) return false;
    if (length === 0) {
      // Autobahn fires the data hook for empty payloads too (streaming state transitions need it).
      this.state = ReadState.Header;
      sink.onFrameData(EMPTY);
      if (this.isStopped) return false;
      this.endFrame(sink);
    }
    return !this.isStopped;
  }

  private endFrame(sink: FrameSink): void {
    const frame = this.frame!;
    this.frame = null;
    this.state = ReadState.Header;
    sink.onFrameEnd(frame);
    // Cleared after the callback, as autobahn does at the end of onFrameEnd.
    if (frame.opcode <= 7 && frame.fin) this.inMessage = false;
  }

  /** Report a violation; true when the sink stopped the reader. */
  private violation(sink: FrameSink, code: number, reason: string): boolean {
    sink.onViolation(code, reason);
    return this.isStopped;
  }
}
