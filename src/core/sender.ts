/**
 * Frames and messages out, as the case asks for them: any frame exactly as specified (invalid ones
 * on purpose), or a message as a well-behaved endpoint sends it (compressed when permessage-deflate
 * is on, fragmented). Each frame is logged (TX FRAME), counted, then handed to the outbox.
 */
import type { PreparedMessage, TxFrame } from '../cases/types.js';
import { Opcode } from '../protocol/constants.js';
import type { DocumentChunks } from '../protocol/deflate/document.js';
import type { PerMessageDeflate } from '../protocol/deflate/codec.js';
import { encodeFrameHeader, encodeMaskedFrame, maskInPlace, repeatPayload } from '../protocol/frame-writer.js';
import { EMPTY, toBuffer } from '../util/bytes.js';
import { STREAM_BLOCK, STREAM_FROM, type Outbox } from './outbox.js';
import { ConnectionState, type ConnectionStateValue } from './state.js';
import type { TrafficCounters } from './traffic.js';
import type { WireLog } from './wire-recorder.js';

/** What the sender reads of its connection (which passes it closures, not itself). */
export interface SenderLink {
  state(): ConnectionStateValue;
  /** permessage-deflate of the connection, once negotiated. */
  deflate(): PerMessageDeflate | null;
  /** A client's fresh masking key per frame; null on a server (its frames go unmasked unless a case masks them). */
  readonly newMask: (() => Uint8Array) | null;
  readonly wire: WireLog;
  readonly traffic: TrafficCounters;
}

/**
 * A frame's octets as buffers to write: its header and payload (the pattern, or it repeated to
 * payloadLen), masked when `mask` is given. The caller's pattern is never masked in place: a masked
 * frame of it is one buffer, its payload masked as it is copied in (one pass, one buffer).
 */
function framed(opcode: number, fin: boolean, rsv: number, pattern: Buffer, payloadLen: number | null, mask: Uint8Array | null): Buffer[] {
  if (mask !== null && pattern.length > 0 && payloadLen === null) return [encodeMaskedFrame(opcode, fin, rsv, pattern, mask)];
  const body = payloadLen === null ? pattern : repeatPayload(pattern, payloadLen);
  // A repeated payload is a buffer of our own: masked in place.
  if (mask !== null && body !== pattern) maskInPlace(body, mask);
  return [encodeFrameHeader(opcode, fin, rsv, body.length, mask), body];
}

/** The send side of one connection. */
export class Sender {
  constructor(
    private readonly outbox: Outbox,
    private readonly link: SenderLink,
  ) {}

  /** Sends one frame exactly as specified, logging it first (TX FRAME), then its octets. */
  sendFrame(frame: TxFrame): void {
    if (this.link.state() === ConnectionState.Closed) return;
    const pattern = frame.payload === undefined ? EMPTY : toBuffer(frame.payload);
    const fin = frame.fin ?? true;
    const rsv = frame.rsv ?? 0;
    // As autobahn-python's sendFrame: a client masks every frame with a fresh key.
    const mask = frame.unmasked === true ? null : (frame.mask ?? this.link.newMask?.() ?? null);
    const payloadLen = frame.payloadLen ?? null;
    const chopSize = frame.chopSize ?? null;
    const sync = frame.sync ?? false;
    if (frame.opcode <= Opcode.Binary) this.link.traffic.outgoingWebSocketFrames += 1;
    if (
      payloadLen !== null &&
      payloadLen >= STREAM_FROM &&
      mask === null &&
      chopSize === null &&
      !sync &&
      pattern.length > 0 &&
      pattern.length <= STREAM_BLOCK
    ) {
      // A 16 MiB frame of a repeated pattern (group 9) costs one block, not 16 MiB held by the socket.
      this.link.wire.txFrame({ opcode: frame.opcode, fin, rsv }, pattern, null, payloadLen, null, false);
      this.outbox.sendRepeated([encodeFrameHeader(frame.opcode, fin, rsv, payloadLen, null)], pattern, payloadLen);
      return;
    }
    const parts = framed(frame.opcode, fin, rsv, pattern, payloadLen, mask);
    this.link.wire.txFrame({ opcode: frame.opcode, fin, rsv }, pattern, mask, payloadLen, chopSize, sync);
    this.outbox.send(parts, sync, chopSize);
  }

  /**
   * Sends a message as a well-behaved endpoint does (Autobahn's sendMessage): compressed when
   * permessage-deflate is on (RSV1 on the first frame only), split into frames of fragmentSize.
   * A length that is a multiple of the fragment size ends with an empty final frame, as there.
   */
  sendMessage(payload: Buffer, binary: boolean, fragmentSize = 0, sync = false): void {
    if (this.link.state() !== ConnectionState.Open) return;
    this.sendPrepared(this.prepareMessage(payload, binary, fragmentSize, sync));
  }

  /**
   * Compresses and frames a message without sending it, so a case can do that work while it waits
   * for the peer (the compression context follows preparation order: send them in that order).
   */
  prepareMessage(payload: Buffer, binary: boolean, fragmentSize = 0, sync = false): PreparedMessage {
    const deflate = this.link.deflate();
    return this.prepared(deflate === null ? payload : deflate.compress(payload), binary, fragmentSize, sync, payload.length);
  }

  /**
   * prepareMessage for bytes [start, start + length) of a document sent as consecutive cuts from
   * byte 0 (groups 12 and 13): compressed mostly from the document's precompressed chunks, or with
   * `fromChunks` false as prepareMessage compresses it (see PerMessageDeflate.compressWhole).
   */
  prepareCut(document: DocumentChunks, start: number, length: number, binary: boolean, fragmentSize = 0, fromChunks = true): PreparedMessage {
    const deflate = this.link.deflate();
    const data =
      deflate === null
        ? document.cut(start, length)
        : fromChunks
          ? deflate.compressCut(document, start, length)
          : deflate.compressWhole(document, start, length);
    return this.prepared(data, binary, fragmentSize, false, length);
  }

  /** A prepared message of wire payload `data` (compressed iff permessage-deflate is on) and appLength bytes. */
  private prepared(data: Buffer, binary: boolean, fragmentSize: number, sync: boolean, appLength: number): PreparedMessage {
    return { opcode: binary ? Opcode.Binary : Opcode.Text, data, compressed: this.link.deflate() !== null, fragmentSize, sync, appLength };
  }

  /** Sends a prepared message (only while open); its frames are made one by one as they go out. */
  sendPrepared(message: PreparedMessage): void {
    if (this.link.state() !== ConnectionState.Open) return;
    const { opcode, data, fragmentSize, sync } = message;
    const rsv = message.compressed ? 4 : 0;
    this.link.traffic.outgoingWebSocketMessages += 1;
    this.link.traffic.outgoingOctetsAppLevel += message.appLength;
    this.link.traffic.outgoingOctetsWebSocketLevel += data.length;
    if (fragmentSize <= 0 || data.length <= fragmentSize) {
      this.sendFrame({ opcode, payload: data, sync, rsv });
      return;
    }
    for (let i = 0; ; i += fragmentSize) {
      const done = i + fragmentSize > data.length;
      this.sendFrame({
        opcode: i === 0 ? opcode : Opcode.Continuation,
        payload: data.subarray(i, Math.min(i + fragmentSize, data.length)),
        fin: done,
        rsv: i === 0 ? rsv : 0,
        sync,
      });
      if (done) break;
    }
  }

  /**
   * Writes raw bytes: directly, or through the queue that writes one piece per turn (chopped writes,
   * sync writes, and anything sent while the queue is not empty).
   */
  sendData(data: Buffer, sync = false, chopSize: number | null = null): void {
    this.outbox.send([data], sync, chopSize);
  }

  /** Writes raw bytes now, in a write of their own (never gathered with later small writes). */
  sendDataNow(data: Buffer): void {
    this.outbox.writeNow([data]);
  }

  /** Bytes written and not yet handed to the kernel (any queued write counts as more than any batch). */
  get unsent(): number {
    return this.outbox.unsent;
  }

  /** Hands the small writes gathered this turn to the socket now (a corked socket then sends them with what follows). */
  flush(): void {
    this.outbox.flushStaging();
  }

  /** True once fewer than `below` bytes wait unwritten in the outbox and the socket; false after `ms` without that, or once the socket is gone. */
  flushed(below: number, ms: number): Promise<boolean> {
    return this.outbox.flushed(below, ms);
  }
}
