/**
 * Frames in, messages out: the frame reader's sink. Data frames are gathered into messages
 * (inflated when permessage-deflate is on, UTF-8 checked as text arrives, held in one buffer where
 * the size is known up front); control frames go to the connection whole. Mirrors autobahn-python
 * 0.10.9's onFrameBegin/onFrameData/onFrameEnd and its message assembly.
 */
import { CloseCode, Opcode, isControlOpcode } from '../protocol/constants.js';
import { DeflateError, type PerMessageDeflate } from '../protocol/deflate/codec.js';
import type { FrameHeader, FrameSink } from '../protocol/frame-reader.js';
import { Utf8Validator } from '../protocol/utf8.js';
import { EMPTY } from '../util/bytes.js';
import { RELEASE_THRESHOLD, releaseMemorySoon } from '../util/memory.js';
import { ConnectionState, type ConnectionStateValue } from './state.js';
import type { TrafficCounters } from './traffic.js';
import type { WireLog } from './wire-recorder.js';

/** What gets a connection's messages (the case being played, or an endpoint's own handler). */
export interface MessageHandler {
  /** A whole message: its payload, or an empty buffer when messageLengthOnly (`length` is its size either way). */
  onMessage(data: Buffer, binary: boolean, length: number): void;
  /** Messages are delivered as type and length only: their payload is validated but not kept. */
  readonly messageLengthOnly?: boolean;
  /** onMessage keeps nothing of the data it gets: the next message may reuse its memory. */
  readonly transientMessages?: boolean;
}

/** What the assembler reads of its connection, and how it fails it (the connection passes closures, not itself). */
export interface AssemblerLink {
  state(): ConnectionStateValue;
  deflate(): PerMessageDeflate | null;
  handler(): MessageHandler | null;
  /** The connection was failed by this side (messages after that are not delivered). */
  failedByMe(): boolean;
  readonly maxMessagePayload: number;
  readonly wire: WireLog;
  readonly traffic: TrafficCounters;
  /** _Fail the WebSocket Connection_ with a close code (1002, 1007, 1009). */
  failConnection(code: number, reason: string): void;
  /** Drops TCP without a close frame, as the original does where its handler raises. */
  dropOnError(reason: string): void;
  /** A whole control frame (close, ping, pong). */
  onControlFrame(opcode: number, payload: Buffer): void;
  /** The frame reader found a protocol violation. */
  onViolation(code: number, reason: string): void;
  /** Stops reading frames once the connection is gone. */
  stopReading(): void;
}

/** Single-frame messages from this size on are assembled in a buffer allocated up front. */
const PREALLOCATE_FROM = 64 * 1024;

/** The receive side of one connection. */
export class MessageAssembler implements FrameSink {
  private insideMessage = false;
  /** Data messages the peer has started so far (the current one included). */
  private messagesStarted = 0;
  private messageBinary = false;
  private messageChunks: Buffer[] = [];
  /**
   * A single-frame uncompressed message of known size is assembled in one buffer allocated at its
   * frame header, instead of a list of chunks joined at the end: a 16 MiB echo then costs 16 MiB, not 32.
   */
  private messageBuffer: Buffer | null = null;
  private messageFill = 0;
  private messageLength = 0;
  /** The handler takes type and length only: payload bytes are counted (messageFill), not kept. */
  private discardMessageData = false;
  private validateUtf8 = false;
  private messageCompressed = false;
  private readonly utf8 = new Utf8Validator();
  private utf8EndsOnCodePoint = true;
  private controlChunks: Buffer[] = [];
  /** The first 64 payload bytes of the current frame: all the frame log keeps. */
  private frameHead: Buffer[] = [];
  private frameHeadLength = 0;
  private currentIsControl = false;

  constructor(private readonly link: AssemblerLink) {}

  /** Lets go of a message in progress (the connection is gone). */
  release(): void {
    this.messageChunks = [];
    this.messageBuffer = null;
  }

  onViolation(code: number, reason: string): void {
    this.link.onViolation(code, reason);
  }

  onFrameBegin(header: FrameHeader): void {
    const { link } = this;
    this.frameHead = [];
    this.frameHeadLength = 0;
    this.currentIsControl = isControlOpcode(header.opcode);
    if (this.currentIsControl) {
      this.controlChunks = [];
      return;
    }
    if (!this.insideMessage) this.startMessage(header);
    this.messageLength += header.length;
    if (!link.failedByMe() && link.maxMessagePayload > 0 && this.messageLength > link.maxMessagePayload) {
      link.failConnection(CloseCode.MessageTooBig, `message exceeds payload limit of ${link.maxMessagePayload} octets`);
    }
  }

  private startMessage(header: FrameHeader): void {
    const { link } = this;
    this.insideMessage = true;
    this.messagesStarted += 1;
    this.messageBinary = header.opcode === Opcode.Binary;
    this.messageChunks = [];
    this.messageLength = 0;
    this.validateUtf8 = header.opcode === Opcode.Text;
    this.utf8EndsOnCodePoint = true;
    if (this.validateUtf8) this.utf8.reset();
    // RFC 7692 §6: RSV1 on the first frame marks a compressed message.
    this.messageCompressed = link.deflate() !== null && header.rsv === 4;
    if (this.messageCompressed) link.deflate()?.startMessage(link.handler()?.transientMessages === true);
    this.messageBuffer = null;
    this.messageFill = 0;
    this.discardMessageData = link.handler()?.messageLengthOnly === true;
    const limit = link.maxMessagePayload;
    if (!this.discardMessageData && header.fin && !this.messageCompressed && header.length >= PREALLOCATE_FROM && (limit === 0 || header.length <= limit)) {
      this.messageBuffer = Buffer.allocUnsafe(header.length);
    }
  }

  onFrameData(chunk: Buffer): void {
    if (this.frameHeadLength < 64 && chunk.length > 0) {
      this.frameHead.push(chunk.subarray(0, 64 - this.frameHeadLength));
      this.frameHeadLength += Math.min(chunk.length, 64 - this.frameHeadLength);
    }
    if (this.currentIsControl) {
      this.controlChunks.push(chunk);
      return;
    }
    if (this.link.state() === ConnectionState.Open) this.link.traffic.incomingOctetsWebSocketLevel += chunk.length;
    let data = chunk;
    if (this.messageCompressed) {
      const inflated = this.inflate(() => this.link.deflate()?.push(chunk) ?? chunk);
      if (inflated === null) return;
      data = inflated;
    }
    this.acceptMessageData(data);
  }

  /**
   * Runs a decompression step. Data zlib cannot inflate drops TCP without a close frame, as in
   * autobahn-python 0.10.9, whose zlib.error escapes its frame handler and Twisted closes the socket
   * (the verdicts follow from that: no close code from either side). A message inflating past the
   * payload limit is failed with 1009 (the original has no limit: a difference kept on purpose).
   */
  private inflate(step: () => Buffer): Buffer | null {
    try {
      return step();
    } catch (err) {
      if (!(err instanceof DeflateError)) throw err;
      this.messageCompressed = false;
      if (err.code === CloseCode.InvalidPayload) {
        const kind = this.messageBinary ? 'binary' : 'text';
        this.link.dropOnError(`the client's compressed ${kind} message ${this.messagesStarted} could not be inflated: ${err.message}`);
      } else {
        this.link.failConnection(err.code, err.message);
      }
      this.afterCallback();
      return null;
    }
  }

  /** Application-level payload of the current message: UTF-8 checked as it arrives, then kept. */
  private acceptMessageData(data: Buffer): void {
    const { link } = this;
    if (link.state() === ConnectionState.Open) link.traffic.incomingOctetsAppLevel += data.length;
    if (this.validateUtf8 && data.length > 0) {
      const state = this.utf8.validate(data);
      this.utf8EndsOnCodePoint = state.endsOnCodePoint;
      if (!state.valid) {
        // The validator stays invalid for the rest of the message: as in autobahn-python 0.10.9, the
        // message's next data (or its end, which checks it ended on a code point) fails the connection
        // again, and that second failure, while closing, drops TCP without waiting for the peer's close.
        link.failConnection(CloseCode.InvalidPayload, `encountered invalid UTF-8 while processing text message at payload octet index ${state.index}`);
        this.afterCallback();
        return;
      }
    }
    if (link.failedByMe()) return;
    if (this.discardMessageData) this.messageFill += data.length;
    else if (this.messageBuffer !== null) this.messageFill += data.copy(this.messageBuffer, this.messageFill);
    else {
      // Inflated pieces of one message usually lie back to back in one buffer: keep them as one
      // view, so the whole message needs no copy at its end.
      const last = this.messageChunks.at(-1);
      if (last !== undefined && last.buffer === data.buffer && last.byteOffset + last.length === data.byteOffset) {
        this.messageChunks[this.messageChunks.length - 1] = Buffer.from(last.buffer, last.byteOffset, last.length + data.length);
      } else {
        this.messageChunks.push(data);
      }
    }
  }

  onFrameEnd(header: FrameHeader): void {
    const { link } = this;
    const head = this.frameHead.length === 1 ? (this.frameHead[0] as Buffer) : Buffer.concat(this.frameHead);
    link.wire.rxFrame(header, header.length, head, header.mask);
    if (isControlOpcode(header.opcode)) {
      const payload = this.controlChunks.length === 1 ? (this.controlChunks[0] as Buffer) : Buffer.concat(this.controlChunks);
      this.controlChunks = [];
      link.onControlFrame(header.opcode, payload);
      this.afterCallback();
      return;
    }
    if (link.state() === ConnectionState.Open) link.traffic.incomingWebSocketFrames += 1;
    if (!header.fin) return;
    this.insideMessage = false;
    if (this.messageCompressed) {
      this.messageCompressed = false;
      const tail = this.inflate(() => link.deflate()?.endMessage() ?? EMPTY);
      if (tail === null) return;
      if (tail.length > 0) this.acceptMessageData(tail);
      if (link.state() === ConnectionState.Closed) return;
    }
    if (link.state() === ConnectionState.Open) link.traffic.incomingWebSocketMessages += 1;
    if (this.validateUtf8 && !this.utf8EndsOnCodePoint) {
      link.failConnection(CloseCode.InvalidPayload, `UTF-8 text message payload ended within Unicode code point at payload octet index ${this.messageLength}`);
      this.afterCallback();
      return;
    }
    if (!link.failedByMe()) this.deliver();
    this.afterCallback();
  }

  /** Hands the whole message to the handler. */
  private deliver(): void {
    const handler = this.link.handler();
    const chunks = this.messageChunks;
    const whole = this.messageBuffer;
    this.messageChunks = [];
    this.messageBuffer = null;
    if (this.discardMessageData) {
      handler?.onMessage(EMPTY, this.messageBinary, this.messageFill);
      return;
    }
    const data = whole !== null ? whole.subarray(0, this.messageFill) : chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    handler?.onMessage(data, this.messageBinary, data.length);
    // A big message is usually garbage once handled; V8 would collect it only after several more
    // (a peer flooding 32 MiB messages then pins hundreds of MiB): collect now.
    if (data.length >= RELEASE_THRESHOLD) releaseMemorySoon();
  }

  /** Stops reading once the connection is gone (Autobahn: "while processData() and state != CLOSED"). */
  private afterCallback(): void {
    if (this.link.state() === ConnectionState.Closed) this.link.stopReading();
  }
}
