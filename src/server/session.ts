/**
 * One TCP connection to the fuzzing server, as a WebSocket server endpoint (RFC 6455) with the
 * fuzzer's powers: it may send any frame, in chops, and it keeps the closing bookkeeping Autobahn's
 * engine (autobahn-python 0.10.9) keeps, because the verdicts are computed from it.
 *
 * Life cycle: connecting (reading the upgrade request) → open → closing (a close frame was sent) →
 * closed (TCP dropped by either side). What happens on the connection is decided by a SessionHandler
 * the router picks when the upgrade request is complete.
 */
import type { Socket } from 'node:net';
import { CloseCode, Opcode, isControlOpcode, isValidCloseCode } from '../protocol/constants.js';
import { DeflateError, type DocumentChunks, type PerMessageDeflate } from '../protocol/deflate.js';
import { FrameReader, type FrameHeader, type FrameSink } from '../protocol/frame-reader.js';
import { closePayload, encodeFrameHeader, maskInPlace, repeatPayload } from '../protocol/frame-writer.js';
import {
  buildHttpError,
  buildSwitchingProtocols,
  computeAccept,
  findHeadEnd,
  parseUpgradeRequest,
  type UpgradeRequest,
} from '../protocol/handshake.js';
import { Utf8Validator, isValidUtf8 } from '../protocol/utf8.js';
import { RELEASE_THRESHOLD, releaseMemorySoon } from '../util/memory.js';
import type { HandshakeDelivery, TxFrame } from '../cases/types.js';
import { toBuffer } from '../util/bytes.js';
import { TrafficCounters } from './traffic.js';
import { WireLog } from './wire-log.js';

/** Engine settings (Autobahn's protocol options that matter in server mode). */
export interface SessionOptions {
  /** Drop the connection when the upgrade request is not complete within this time. */
  openHandshakeTimeoutMs: number;
  /** Drop the connection when the peer does not answer our close frame within this time. */
  closeHandshakeTimeoutMs: number;
  /** Fail connections by dropping TCP instead of sending a close frame (Autobahn forces false). */
  failByDrop: boolean;
  /** Largest message (and frame) payload accepted from the peer; more is refused with 1009. */
  maxMessagePayload: number;
  /** zlib level of wsgate's own compressed messages (verdicts do not depend on it). */
  deflateLevel: number;
  /** Largest upgrade request head; a longer one gets 431. */
  maxHeadBytes: number;
  serverHeader: string;
  poweredBy: string;
}

/** What a connection does once open. */
export interface SessionHandler {
  onOpen(): void;
  /** A whole message: its payload, or an empty buffer when messageLengthOnly (`length` is its size either way). */
  onMessage(data: Buffer, binary: boolean, length: number): void;
  /** Messages are delivered as type and length only: their payload is validated but not kept. */
  readonly messageLengthOnly?: boolean;
  /** onMessage keeps nothing of the data it gets: the next message may reuse its memory. */
  readonly transientMessages?: boolean;
  onPong(data: Buffer): void;
  /** The TCP connection is gone; all bookkeeping on the session is final. */
  onConnectionLost(): void;
}

/** A response head a case wrote itself, sent instead of the normal 101 (see CaseDef.handshake). */
export interface ScriptedResponse {
  head: string;
  delivery: HandshakeDelivery;
}

/** The router's answer to a complete, valid upgrade request. */
export type ConnectDecision =
  | {
      kind: 'accept';
      handler: SessionHandler;
      extensions?: string | null;
      deflate?: PerMessageDeflate | null;
      /** Sent instead of the normal 101; the session then counts as open, whatever the head says. */
      script?: ScriptedResponse | null;
    }
  | { kind: 'reject'; status: number; reason: string };

/** Picks what a connection does from its upgrade request. */
export type Router = (request: UpgradeRequest, session: Session) => ConnectDecision;

/** RFC 6455 connection states, as Autobahn names them. */
export const SessionState = { Connecting: 0, Open: 1, Closing: 2, Closed: 3 } as const;
type SessionStateValue = (typeof SessionState)[keyof typeof SessionState];

/** A message compressed ahead of sending (see Session.prepareMessage). */
export interface PreparedMessage {
  readonly opcode: number;
  /** The payload as it goes on the wire (compressed when permessage-deflate is on). */
  readonly data: Buffer;
  readonly compressed: boolean;
  readonly fragmentSize: number;
  readonly sync: boolean;
  /** Payload bytes before compression. */
  readonly appLength: number;
}

/** What a length-only handler gets as a message's data. */
const EMPTY = Buffer.alloc(0);
/** Writes up to this size are gathered into a staging buffer (see write()). */
const SMALL_WRITE = 1024;
const STAGING_SIZE = 16 * 1024;
const FIRST_STAGING_SIZE = 2 * 1024;

/** Single-frame messages from this size on are assembled in a buffer allocated up front. */
const PREALLOCATE_FROM = 64 * 1024;

interface QueuedWrite {
  parts: Buffer[];
  sync: boolean;
  /**
   * The payload after `parts`: `length` bytes of `pattern` repeated, made a block at a time as the
   * socket takes them (the write is logged and counted once, as one write, before it starts).
   */
  repeat?: { pattern: Buffer; length: number };
}

/** A repeated-pattern payload at least this long is streamed from one reused block, not built whole. */
const STREAM_FROM = 1024 * 1024;
/** Size of that block (rounded down to whole patterns, so consecutive blocks continue the pattern). */
const STREAM_BLOCK = 256 * 1024;

/** A connection's state, frame log and closing bookkeeping. */
export class Session implements FrameSink {
  state: SessionStateValue = SessionState.Connecting;
  readonly wire = new WireLog();
  readonly traffic = new TrafficCounters();
  /** Bytes received and sent on this connection, handshake included. */
  bytesIn = 0;
  bytesOut = 0;
  /** permessage-deflate of this connection, when negotiated. */
  deflate: PerMessageDeflate | null = null;

  // Closing bookkeeping (the connection-state table of a case report).
  closedByMe = false;
  failedByMe = false;
  droppedByMe = false;
  wasClean = false;
  wasNotCleanReason: string | null = null;
  wasOpenHandshakeTimeout = false;
  wasCloseHandshakeTimeout = false;
  localCloseCode: number | null = null;
  localCloseReason: string | null = null;
  remoteCloseCode: number | null = null;
  remoteCloseReason: string | null = null;
  connectionWasOpen = false;
  /**
   * Why wsgate dropped the connection without a close frame where autobahn-python raises inside its
   * protocol handler (a compressed message zlib cannot inflate): the case's result names it.
   */
  droppedOnError: string | null = null;

  httpRequest = '?';
  httpResponse = '?';
  request: UpgradeRequest | null = null;
  /** Whether a case's own response head answered the upgrade request (group 14). */
  scriptedHandshake = false;

  private handler: SessionHandler | null = null;
  private head: Buffer[] = [];
  private headBytes = 0;
  private reader: FrameReader;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closeHandshakeTimer: NodeJS.Timeout | null = null;
  /**
   * Writes waiting their turn, from queueHead on. Taken by moving the head, not by shift(): a chopped
   * 1 MiB message is 16384 entries, and shift() on an array that big copies all the rest each time.
   */
  private readonly queue: Array<QueuedWrite | undefined> = [];
  private queueHead = 0;
  private draining = false;
  /** The peer's bytes are being handled (Twisted's doRead): see drain(). */
  private reading = false;

  // Incoming message assembly (see onFrameBegin/Data/End).
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
  private frameHead: Buffer[] = [];
  private frameHeadLength = 0;
  private currentIsControl = false;

  constructor(
    readonly socket: Socket,
    private readonly options: SessionOptions,
    private readonly router: Router,
  ) {
    this.reader = new FrameReader({
      requireMask: true,
      compressionNegotiated: false,
      maxFramePayload: options.maxMessagePayload,
      // Socket reads are ours and logged before they are parsed: no copy per read to unmask.
      unmaskInPlace: true,
    });
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.reading = true;
      this.onData(chunk);
      this.reading = false;
    });
    socket.on('error', () => {
      // ECONNRESET and friends: 'close' follows and does the bookkeeping.
    });
    socket.on('close', () => {
      this.onSocketClosed();
    });
    this.after(options.openHandshakeTimeoutMs, () => {
      if (this.state !== SessionState.Connecting) return;
      this.wasClean = false;
      this.wasNotCleanReason = 'peer did not finish (in time) the opening handshake';
      this.wasOpenHandshakeTimeout = true;
      this.dropConnection(true);
    });
  }

  /** True once TCP is dropped (by either side). A method, so checks after callbacks are not narrowed away. */
  isClosed(): boolean {
    return this.state === SessionState.Closed;
  }

  /** True while open (not closing or closed). */
  get isOpen(): boolean {
    return this.state === SessionState.Open;
  }

  /** Runs fn after ms unless the session is gone; timers die with the connection. */
  after(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  // ---- incoming bytes ----

  private onData(chunk: Buffer): void {
    if (this.state === SessionState.Closed) return;
    this.wire.rxOctets(chunk);
    this.bytesIn += chunk.length;
    if (this.state === SessionState.Open) this.traffic.incomingOctetsWireLevel += chunk.length;
    if (this.state === SessionState.Connecting) {
      this.traffic.preopenIncomingOctetsWireLevel += chunk.length;
      this.readHandshake(chunk);
      return;
    }
    this.reader.push(chunk, this);
  }

  private readHandshake(chunk: Buffer): void {
    this.head.push(chunk);
    this.headBytes += chunk.length;
    const data = this.head.length === 1 ? chunk : Buffer.concat(this.head);
    this.head = [data];
    const end = findHeadEnd(data);
    if (end < 0) {
      if (this.headBytes > this.options.maxHeadBytes) {
        this.failHandshake(431, `request head larger than ${this.options.maxHeadBytes} bytes`);
      }
      return;
    }
    if (end > this.options.maxHeadBytes) {
      this.failHandshake(431, `request head larger than ${this.options.maxHeadBytes} bytes`);
      return;
    }
    const headBytes = data.subarray(0, end);
    const rest = data.subarray(end);
    this.head = [];
    this.httpRequest = headBytes.toString('latin1');
    const verdict = parseUpgradeRequest(headBytes);
    if (!verdict.ok) {
      this.failHandshake(verdict.status, verdict.reason, verdict.headers);
      return;
    }
    this.request = verdict.request;
    const decision = this.router(verdict.request, this);
    if (decision.kind === 'reject') {
      this.failHandshake(decision.status, decision.reason);
      return;
    }
    this.handler = decision.handler;
    this.deflate = decision.deflate ?? null;
    if (this.deflate !== null) {
      this.reader = new FrameReader({
        requireMask: true,
        compressionNegotiated: true,
        maxFramePayload: this.options.maxMessagePayload,
        unmaskInPlace: true,
      });
    }
    const script = decision.script ?? null;
    if (script !== null) {
      this.sendScriptedResponse(script, this.handler);
    } else {
      const response = buildSwitchingProtocols(computeAccept(verdict.request.key), {
        server: this.options.serverHeader,
        poweredBy: this.options.poweredBy,
        extensions: decision.extensions ?? null,
      });
      this.sendData(Buffer.from(response, 'latin1'));
      this.httpResponse = response;
      this.state = SessionState.Open;
      this.connectionWasOpen = true;
      this.handler.onOpen();
    }
    if (rest.length > 0 && !this.isClosed()) this.reader.push(rest, this);
  }

  /**
   * Sends a case's own response head (group 14) and opens the session whatever it says: from here
   * on the case judges what the client does with it, so whatever the client sends is read as frames.
   */
  private sendScriptedResponse(script: ScriptedResponse, handler: SessionHandler): void {
    const head = Buffer.from(script.head, 'latin1');
    this.httpResponse = script.head;
    this.scriptedHandshake = true;
    const open = (): void => {
      this.state = SessionState.Open;
      this.connectionWasOpen = true;
      handler.onOpen();
    };
    switch (script.delivery) {
      case 'together':
        // Corked, the head and the frames onOpen sends leave in one write (one TCP segment when small).
        this.socket.cork();
        this.sendData(head);
        open();
        process.nextTick(() => {
          this.flushStaging();
          this.socket.uncork();
        });
        break;
      case 'separate':
        // A write of its own, now (not a queued burst, whose first pieces leave together).
        this.write([head], true, true);
        open();
        break;
      case 'bytewise':
        this.sendData(head, true, 1);
        open();
        break;
    }
  }

  /** Answers a bad upgrade request with an HTTP error and drops the connection. */
  private failHandshake(status: number, reason: string, headers?: Array<[string, string]>): void {
    this.wasNotCleanReason = reason;
    this.head = [];
    this.sendData(Buffer.from(buildHttpError(status, reason, headers), 'utf8'));
    this.dropConnection(false);
  }

  // ---- FrameSink: the reader's callbacks, mirroring Autobahn's processDataHybi/onFrame* ----

  onViolation(code: number, reason: string): void {
    if (code === CloseCode.MessageTooBig) {
      this.failConnection(code, reason);
    } else {
      this.protocolViolation(reason);
    }
    if (this.state === SessionState.Closed) this.reader.stop();
  }

  onFrameBegin(header: FrameHeader): void {
    this.frameHead = [];
    this.frameHeadLength = 0;
    this.currentIsControl = isControlOpcode(header.opcode);
    if (this.currentIsControl) {
      this.controlChunks = [];
      return;
    }
    if (!this.insideMessage) {
      this.insideMessage = true;
      this.messagesStarted += 1;
      this.messageBinary = header.opcode === Opcode.Binary;
      this.messageChunks = [];
      this.messageLength = 0;
      this.validateUtf8 = header.opcode === Opcode.Text;
      this.utf8EndsOnCodePoint = true;
      if (this.validateUtf8) this.utf8.reset();
      // RFC 7692 §6: RSV1 on the first frame marks a compressed message.
      this.messageCompressed = this.deflate !== null && header.rsv === 4;
      if (this.messageCompressed) this.deflate?.startMessage(this.handler?.transientMessages === true);
      this.messageBuffer = null;
      this.messageFill = 0;
      this.discardMessageData = this.handler?.messageLengthOnly === true;
      const limit = this.options.maxMessagePayload;
      if (!this.discardMessageData && header.fin && !this.messageCompressed && header.length >= PREALLOCATE_FROM && (limit === 0 || header.length <= limit)) {
        this.messageBuffer = Buffer.allocUnsafe(header.length);
      }
    }
    this.messageLength += header.length;
    if (!this.failedByMe && this.options.maxMessagePayload > 0 && this.messageLength > this.options.maxMessagePayload) {
      this.failConnection(
        CloseCode.MessageTooBig,
        `message exceeds payload limit of ${this.options.maxMessagePayload} octets`,
      );
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
    if (this.state === SessionState.Open) this.traffic.incomingOctetsWebSocketLevel += chunk.length;
    let data = chunk;
    if (this.messageCompressed) {
      const inflated = this.inflate(() => this.deflate?.push(chunk) ?? chunk);
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
        this.dropOnError(`the client's compressed ${kind} message ${this.messagesStarted} could not be inflated: ${err.message}`);
      } else {
        this.failConnection(err.code, err.message);
      }
      this.afterCallback();
      return null;
    }
  }

  /** Application-level payload of the current message: UTF-8 checked as it arrives, then kept. */
  private acceptMessageData(data: Buffer): void {
    if (this.state === SessionState.Open) this.traffic.incomingOctetsAppLevel += data.length;
    if (this.validateUtf8 && data.length > 0) {
      const state = this.utf8.validate(data);
      this.utf8EndsOnCodePoint = state.endsOnCodePoint;
      if (!state.valid) {
        this.invalidPayload(`encountered invalid UTF-8 while processing text message at payload octet index ${state.index}`);
        this.validateUtf8 = false;
        this.afterCallback();
        return;
      }
    }
    if (this.failedByMe) return;
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
    const head = this.frameHead.length === 1 ? (this.frameHead[0] as Buffer) : Buffer.concat(this.frameHead);
    this.wire.rxFrame(header, header.length, head, header.mask);
    if (isControlOpcode(header.opcode)) {
      const payload = this.controlChunks.length === 1 ? (this.controlChunks[0] as Buffer) : Buffer.concat(this.controlChunks);
      this.controlChunks = [];
      this.processControlFrame(header.opcode, payload);
      this.afterCallback();
      return;
    }
    if (this.state === SessionState.Open) this.traffic.incomingWebSocketFrames += 1;
    if (!header.fin) return;
    this.insideMessage = false;
    if (this.messageCompressed) {
      this.messageCompressed = false;
      const tail = this.inflate(() => this.deflate?.endMessage() ?? Buffer.alloc(0));
      if (tail === null) return;
      if (tail.length > 0) this.acceptMessageData(tail);
      if (this.isClosed()) return;
    }
    if (this.state === SessionState.Open) this.traffic.incomingWebSocketMessages += 1;
    if (this.validateUtf8 && !this.utf8EndsOnCodePoint) {
      this.invalidPayload(
        `UTF-8 text message payload ended within Unicode code point at payload octet index ${this.messageLength}`,
      );
      this.afterCallback();
      return;
    }
    if (!this.failedByMe) {
      const chunks = this.messageChunks;
      const whole = this.messageBuffer;
      this.messageChunks = [];
      this.messageBuffer = null;
      if (this.discardMessageData) {
        this.handler?.onMessage(EMPTY, this.messageBinary, this.messageFill);
      } else {
        const data = whole !== null ? whole.subarray(0, this.messageFill) : chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
        this.handler?.onMessage(data, this.messageBinary, data.length);
        // A big message is usually garbage once handled; V8 would collect it only after several more
        // (a peer flooding 32 MiB messages then pins hundreds of MiB): collect now.
        if (data.length >= RELEASE_THRESHOLD) releaseMemorySoon();
      }
    }
    this.afterCallback();
  }

  /** Stops reading once the connection is gone (Autobahn: "while processData() and state != CLOSED"). */
  private afterCallback(): void {
    if (this.state === SessionState.Closed) this.reader.stop();
  }

  private processControlFrame(opcode: number, payload: Buffer): void {
    if (opcode === Opcode.Close) {
      const code = payload.length >= 2 ? payload.readUInt16BE(0) : null;
      const reason = payload.length > 2 ? payload.subarray(2) : null;
      this.onCloseFrame(code, reason);
    } else if (opcode === Opcode.Ping) {
      // Autobahn answers pings itself and does not record them as events.
      if (this.state === SessionState.Open) this.sendFrame({ opcode: Opcode.Pong, payload });
    } else if (opcode === Opcode.Pong) {
      this.handler?.onPong(payload);
    }
  }

  /** RFC 6455 §7.1.5, §5.5.1, as autobahn-python 0.10.9 handles a received close frame. */
  private onCloseFrame(code: number | null, reason: Buffer | null): void {
    this.remoteCloseCode = code;
    if (code !== null && !isValidCloseCode(code)) {
      this.protocolViolation(`invalid close code ${code}`);
      if (this.state === SessionState.Closed) return;
    }
    if (reason === null) {
      this.remoteCloseReason = null;
    } else {
      if (!isValidUtf8(reason)) {
        this.invalidPayload('invalid close reason (non-UTF-8 payload)');
        if (this.state === SessionState.Closed) return;
      }
      this.remoteCloseReason = reason.toString('utf8');
    }
    if (this.state === SessionState.Closing) {
      // The peer's answer to our close: the handshake is complete, and a server drops TCP at once.
      this.clearCloseHandshakeTimer();
      this.wasClean = true;
      this.dropConnection(true);
    } else if (this.state === SessionState.Open) {
      // The peer starts the closing handshake: answer with 1000 (Autobahn does not echo the code).
      this.wasClean = true;
      this.sendCloseFrame(CloseCode.Normal, null, true);
      this.dropConnection(false);
    }
  }

  // ---- failing and closing ----

  private protocolViolation(reason: string): void {
    this.failConnection(CloseCode.ProtocolError, reason);
  }

  private invalidPayload(reason: string): void {
    this.failConnection(CloseCode.InvalidPayload, reason);
  }

  /** _Fail the WebSocket Connection_ (RFC 6455 §7.1.7): a close frame, or a TCP drop with failByDrop. */
  failConnection(code: number = CloseCode.GoingAway, reason = 'Going Away'): void {
    if (this.state === SessionState.Closed) return;
    this.failedByMe = true;
    if (this.options.failByDrop) {
      this.wasClean = false;
      this.wasNotCleanReason = 'I failed the WebSocket connection by dropping the TCP connection';
      this.dropConnection(true);
    } else if (this.state !== SessionState.Closing) {
      this.sendCloseFrame(code, Buffer.from(reason, 'utf8').subarray(0, 123).toString('utf8'), false);
    } else {
      // A second violation while closing: give up on the handshake.
      this.dropConnection(false);
    }
  }

  /** Drops TCP at once with no close frame, as Twisted does when the original's handler raises. */
  private dropOnError(reason: string): void {
    if (this.state === SessionState.Closed) return;
    this.failedByMe = true;
    this.wasClean = false;
    this.droppedOnError = reason;
    this.wasNotCleanReason = `I dropped the TCP connection without a close frame: ${reason}`;
    this.dropConnection(true);
  }

  /** Starts (or answers) the closing handshake. Only an open connection sends a close frame. */
  sendCloseFrame(code: number | null, reason: string | Buffer | null, isReply: boolean): void {
    if (this.state !== SessionState.Open) return;
    const reasonBytes = reason === null ? null : typeof reason === 'string' ? Buffer.from(reason, 'utf8') : reason;
    // Like Autobahn, a reason without a code is sent as it is (7.3.2's one-byte close payload).
    const payload = code === null ? (reasonBytes ?? Buffer.alloc(0)) : closePayload(code, reasonBytes);
    this.sendFrame({ opcode: Opcode.Close, payload });
    this.state = SessionState.Closing;
    this.closedByMe = !isReply;
    this.localCloseCode = code;
    this.localCloseReason = reasonBytes === null ? null : typeof reason === 'string' ? reason : reasonBytes.toString('hex');
    if (this.closedByMe && this.options.closeHandshakeTimeoutMs > 0) {
      this.closeHandshakeTimer = setTimeout(() => {
        this.closeHandshakeTimer = null;
        if (this.state === SessionState.Closed) return;
        this.wasClean = false;
        this.wasNotCleanReason = 'peer did not respond (in time) in closing handshake';
        this.wasCloseHandshakeTimeout = true;
        this.dropConnection(true);
      }, this.options.closeHandshakeTimeoutMs);
    }
  }

  /** Autobahn's sendClose: a close frame with an optional code and reason (reason cut to fit 125 bytes). */
  sendClose(code: number | null = null, reason: string | null = null): void {
    let reasonBytes: Buffer | null = null;
    if (reason !== null && code !== null) {
      reasonBytes = Buffer.from(reason, 'utf8');
      if (reasonBytes.length + 2 > 125) reasonBytes = Buffer.concat([reasonBytes.subarray(0, 120), Buffer.from('...')]);
    }
    this.sendCloseFrame(code, reasonBytes === null ? null : reasonBytes.toString('utf8'), false);
  }

  private clearCloseHandshakeTimer(): void {
    if (this.closeHandshakeTimer !== null) clearTimeout(this.closeHandshakeTimer);
    this.closeHandshakeTimer = null;
  }

  /** Drops TCP: at once (abort) or after what was written has been flushed. */
  dropConnection(abort: boolean): void {
    if (this.state === SessionState.Closed) return;
    this.droppedByMe = true;
    this.state = SessionState.Closed;
    this.reader.stop();
    this.flushStaging();
    // Bytes held for a queued burst still leave first (destroy() would discard them).
    while (this.socket.writableCorked > 0) this.socket.uncork();
    if (abort) {
      this.socket.destroy();
    } else {
      this.socket.once('finish', () => this.socket.destroy());
      if (this.streaming) this.endWhenStreamed = true;
      else this.socket.end();
      // A peer that never reads could keep the flush pending forever.
      this.after(this.options.closeHandshakeTimeoutMs + 1000, () => this.socket.destroy());
    }
  }

  private lost = false;

  private onSocketClosed(): void {
    if (this.lost) return;
    this.lost = true;
    this.state = SessionState.Closed;
    this.reader.stop();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.clearCloseHandshakeTimer();
    this.clearQueue();
    this.messageChunks = [];
    this.messageBuffer = null;
    this.deflate?.close();
    if (!this.wasClean && !this.droppedByMe && this.wasNotCleanReason === null) {
      this.wasNotCleanReason = 'peer dropped the TCP connection without previous WebSocket closing handshake';
    }
    this.handler?.onConnectionLost();
  }

  // ---- outgoing bytes ----

  /** Sends one frame exactly as specified, logging it first (TX FRAME), then its octets. */
  sendFrame(frame: TxFrame): void {
    if (this.state === SessionState.Closed) return;
    const pattern = frame.payload === undefined ? Buffer.alloc(0) : toBuffer(frame.payload);
    const fin = frame.fin ?? true;
    const rsv = frame.rsv ?? 0;
    const mask = frame.mask ?? null;
    const payloadLen = frame.payloadLen ?? null;
    const chopSize = frame.chopSize ?? null;
    const sync = frame.sync ?? false;
    if (payloadLen !== null && payloadLen >= STREAM_FROM && mask === null && chopSize === null && !sync && pattern.length > 0 && pattern.length <= STREAM_BLOCK) {
      // A 16 MiB frame of a repeated pattern (group 9) costs one block, not 16 MiB held by the socket.
      const header = encodeFrameHeader(frame.opcode, fin, rsv, payloadLen, null);
      if (frame.opcode <= Opcode.Binary) this.traffic.outgoingWebSocketFrames += 1;
      this.wire.txFrame({ opcode: frame.opcode, fin, rsv }, pattern, null, payloadLen, null, false);
      this.queue.push({ parts: [header], sync: false, repeat: { pattern, length: payloadLen } });
      this.drain();
      return;
    }
    let body = payloadLen === null ? pattern : repeatPayload(pattern, payloadLen);
    if (mask !== null && body.length > 0) {
      // Never mask the caller's buffer in place.
      body = body === pattern ? Buffer.from(body) : body;
      maskInPlace(body, mask);
    }
    const header = encodeFrameHeader(frame.opcode, fin, rsv, body.length, mask);
    if (frame.opcode <= Opcode.Binary) this.traffic.outgoingWebSocketFrames += 1;
    this.wire.txFrame({ opcode: frame.opcode, fin, rsv }, pattern, mask, payloadLen, chopSize, sync);
    this.sendParts([header, body], sync, chopSize);
  }

  /**
   * Sends a message as a well-behaved endpoint does (Autobahn's sendMessage): compressed when
   * permessage-deflate is on (RSV1 on the first frame only), split into frames of fragmentSize.
   * A length that is a multiple of the fragment size ends with an empty final frame, as there.
   */
  sendMessage(payload: Buffer, binary: boolean, fragmentSize = 0, sync = false): void {
    if (this.state !== SessionState.Open) return;
    this.sendPrepared(this.prepareMessage(payload, binary, fragmentSize, sync));
  }

  /**
   * Compresses and frames a message without sending it, so a case can do that work while it waits
   * for the peer (the compression context follows preparation order: send them in that order).
   */
  prepareMessage(payload: Buffer, binary: boolean, fragmentSize = 0, sync = false): PreparedMessage {
    return this.prepared(this.deflate === null ? payload : this.deflate.compress(payload), binary, fragmentSize, sync, payload.length);
  }

  /**
   * prepareMessage for bytes [start, start + length) of a document sent as consecutive cuts from
   * byte 0 (groups 12 and 13): compressed mostly from the document's precompressed chunks.
   */
  prepareCut(document: DocumentChunks, start: number, length: number, binary: boolean, fragmentSize = 0): PreparedMessage {
    const data = this.deflate === null ? document.cut(start, length) : this.deflate.compressCut(document, start, length);
    return this.prepared(data, binary, fragmentSize, false, length);
  }

  /** A prepared message of wire payload `data` (compressed iff permessage-deflate is on) and appLength bytes. */
  private prepared(data: Buffer, binary: boolean, fragmentSize: number, sync: boolean, appLength: number): PreparedMessage {
    return { opcode: binary ? Opcode.Binary : Opcode.Text, data, compressed: this.deflate !== null, fragmentSize, sync, appLength };
  }

  /** Sends a prepared message (only while open); its frames are made one by one as they go out. */
  sendPrepared(message: PreparedMessage): void {
    if (this.state !== SessionState.Open) return;
    const { opcode, data, fragmentSize, sync } = message;
    const rsv = message.compressed ? 4 : 0;
    this.traffic.outgoingWebSocketMessages += 1;
    this.traffic.outgoingOctetsAppLevel += message.appLength;
    this.traffic.outgoingOctetsWebSocketLevel += data.length;
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
   * Writes bytes: directly, or through the queue that writes one piece per turn after the previous
   * one flushed (chopped frames, sync frames, and anything sent while the queue is not empty).
   */
  sendData(data: Buffer, sync = false, chopSize: number | null = null): void {
    this.sendParts([data], sync, chopSize);
  }

  /** sendData for a write made of several buffers (a frame header and its payload, not copied together). */
  private sendParts(parts: Buffer[], sync: boolean, chopSize: number | null): void {
    if (chopSize !== null && chopSize > 0) {
      const data = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
      for (let i = 0; i < data.length; i += chopSize) {
        this.queue.push({ parts: [data.subarray(i, Math.min(i + chopSize, data.length))], sync: true });
      }
      if (data.length === 0) this.queue.push({ parts: [data], sync: true });
      this.drain();
    } else if (sync || this.queue.length > this.queueHead || this.streaming) {
      this.queue.push({ parts, sync });
      this.drain();
    } else {
      this.write(parts, false);
    }
  }

  /**
   * One logical write (one TX OCTETS entry), its buffers handed to the socket without copying. A
   * queued piece (`ownWrite`) is never gathered with later small writes, but leaves in one system
   * call with those gathered before it, as in a reactor's transport buffer (the 101 response and a
   * case's first sync frame reach the peer together, as Autobahn's do).
   */
  private write(parts: Buffer[], sync: boolean, ownWrite = false): void {
    let length = 0;
    for (const p of parts) length += p.length;
    this.bytesOut += length;
    this.wire.txOctets(parts.length === 1 ? (parts[0] as Buffer) : headOf(parts, length), sync, length);
    if (this.state === SessionState.Open) this.traffic.outgoingOctetsWireLevel += length;
    else if (this.state === SessionState.Connecting) this.traffic.preopenOutgoingOctetsWireLevel += length;
    // Small writes made in one turn of the event loop are copied into one buffer and leave together,
    // as a reactor's buffered transport sends them (a message in 65536 fragments is then 64 socket
    // writes, not 131072). Each still counts and is logged as its own write above.
    if (!ownWrite && length <= SMALL_WRITE) {
      if (this.staging === null || this.stagingUsed + length > this.staging.length) {
        // A turn's first buffer is small (a slice of Node's shared pool: most turns write a frame or
        // two); a turn that fills it gets bigger ones.
        const size = this.staging === null ? FIRST_STAGING_SIZE : STAGING_SIZE;
        this.flushStaging();
        this.staging = Buffer.allocUnsafe(size);
      }
      for (const p of parts) this.stagingUsed += p.copy(this.staging, this.stagingUsed);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        process.nextTick(() => {
          this.flushScheduled = false;
          this.flushStaging();
        });
      }
      return;
    }
    // What was gathered before, and a frame's header and payload, leave in one writev.
    const cork = parts.length > 1 || this.stagingUsed > 0;
    if (cork) this.socket.cork();
    this.flushStaging();
    for (const p of parts) this.socket.write(p);
    if (cork) this.socket.uncork();
  }

  /** A repeated-pattern write is under way (writeRepeated); a drop then ends the socket after it. */
  private streaming = false;
  private endWhenStreamed = false;
  private staging: Buffer | null = null;
  private stagingUsed = 0;
  private flushScheduled = false;

  /** Hands the small writes gathered so far to the socket (before anything written after them). */
  private flushStaging(): void {
    if (this.staging === null || this.stagingUsed === 0) return;
    const data = this.staging.subarray(0, this.stagingUsed);
    // The socket owns that memory until it is written: the next small write starts a new buffer.
    this.staging = null;
    this.stagingUsed = 0;
    if (!this.socket.destroyed) this.socket.write(data);
  }

  private clearQueue(): void {
    this.queue.length = 0;
    this.queueHead = 0;
  }

  /**
   * Writes the queued pieces as autobahn-python 0.10.9 on Twisted does. Its transport.write only
   * buffers (bytes leave at the reactor's next poll); _send writes the first queued piece at once and
   * each next one after re-entering the reactor (callLater(_QUEUED_WRITE_DELAY = 10 µs)): at the next
   * iteration's timed calls, which run before that iteration's poll. So a burst started while
   * handling the peer's bytes (a case's onOpen, right after the 101) leaves its first two pieces in
   * one write with everything written before them, and every later piece one reactor turn after the
   * one before, without waiting for it to be flushed. A turn of Node's loop stands for a reactor
   * turn. This decides verdicts: 3.3's second frame must already be there when a client that reads
   * ahead handles the first (NON-STRICT for asyncio clients, as under the original); bench/pacing.ts
   * measures it.
   */
  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    // Held back (corked) until the second piece has joined it.
    let holding = this.reading;
    if (holding) this.socket.cork();
    const release = (): void => {
      if (!holding) return;
      holding = false;
      this.socket.uncork();
    };
    let written = 0;
    const next = (): void => {
      const item = this.queue[this.queueHead];
      if (item !== undefined) this.queue[this.queueHead++] = undefined;
      if (this.queueHead === this.queue.length) this.clearQueue();
      if (item === undefined || this.socket.destroyed || this.state === SessionState.Closed) {
        // Autobahn writes queued pieces only while the connection is not closed.
        this.clearQueue();
        release();
        this.draining = false;
        return;
      }
      if (item.repeat !== undefined) {
        release();
        this.writeRepeated(item.parts, item.repeat, () => setImmediate(next));
        return;
      }
      this.write(item.parts, item.sync, true);
      written += 1;
      if (written > 1) release();
      setImmediate(next);
    };
    next();
  }

  /**
   * One logical write of `parts` then a repeated pattern: logged and counted as one write, handed to
   * the socket a block at a time, each block reused once the socket has flushed the previous one.
   */
  private writeRepeated(parts: Buffer[], repeat: { pattern: Buffer; length: number }, done: () => void): void {
    let headLength = 0;
    for (const p of parts) headLength += p.length;
    const length = headLength + repeat.length;
    this.bytesOut += length;
    const head = Buffer.concat([...parts, repeatPayload(repeat.pattern, Math.min(repeat.length, 64))]);
    this.wire.txOctets(head, false, length);
    if (this.state === SessionState.Open) this.traffic.outgoingOctetsWireLevel += length;
    this.flushStaging();
    for (const p of parts) this.socket.write(p);
    const block = repeatPayload(repeat.pattern, Math.min(repeat.length, STREAM_BLOCK - (STREAM_BLOCK % repeat.pattern.length)));
    let left = repeat.length;
    this.streaming = true;
    // Like bytes already in a reactor's transport buffer, the rest still goes out if the connection
    // is dropped meanwhile (dropConnection ends the socket once it is written), unless it is aborted.
    const more = (err?: Error | null): void => {
      if (err || this.socket.destroyed || left === 0) {
        this.streaming = false;
        if (this.endWhenStreamed) this.socket.end();
        done();
        return;
      }
      const n = Math.min(left, block.length);
      left -= n;
      this.socket.write(n === block.length ? block : block.subarray(0, n), more);
    };
    more();
  }
}


/** The first 64 bytes of a write made of several buffers: all the frame log keeps of it. */
function headOf(parts: Buffer[], length: number): Buffer {
  const head = Buffer.allocUnsafe(Math.min(64, length));
  let at = 0;
  for (const p of parts) {
    if (at >= head.length) break;
    at += p.copy(head, at, 0, Math.min(p.length, head.length - at));
  }
  return head;
}
