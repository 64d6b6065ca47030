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
import { FrameReader, type FrameHeader, type FrameSink } from '../protocol/frame-reader.js';
import { closePayload, encodeFrame } from '../protocol/frame-writer.js';
import {
  buildHttpError,
  buildSwitchingProtocols,
  computeAccept,
  findHeadEnd,
  parseUpgradeRequest,
  type UpgradeRequest,
} from '../protocol/handshake.js';
import { Utf8Validator, isValidUtf8 } from '../protocol/utf8.js';
import type { TxFrame } from '../cases/types.js';
import { toBuffer } from '../util/bytes.js';
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
  /** Largest upgrade request head; a longer one gets 431. */
  maxHeadBytes: number;
  serverHeader: string;
  poweredBy: string;
}

/** What a connection does once open. */
export interface SessionHandler {
  onOpen(): void;
  onMessage(data: Buffer, binary: boolean): void;
  onPong(data: Buffer): void;
  /** The TCP connection is gone; all bookkeeping on the session is final. */
  onConnectionLost(): void;
}

/** The router's answer to a complete, valid upgrade request. */
export type ConnectDecision =
  | { kind: 'accept'; handler: SessionHandler; extensions?: string | null }
  | { kind: 'reject'; status: number; reason: string };

/** Picks what a connection does from its upgrade request. */
export type Router = (request: UpgradeRequest, session: Session) => ConnectDecision;

/** RFC 6455 connection states, as Autobahn names them. */
export const SessionState = { Connecting: 0, Open: 1, Closing: 2, Closed: 3 } as const;
type SessionStateValue = (typeof SessionState)[keyof typeof SessionState];

interface QueuedWrite {
  data: Buffer;
  sync: boolean;
}

/** A connection's state, frame log and closing bookkeeping. */
export class Session implements FrameSink {
  state: SessionStateValue = SessionState.Connecting;
  readonly wire = new WireLog();

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

  httpRequest = '?';
  httpResponse = '?';
  request: UpgradeRequest | null = null;

  private handler: SessionHandler | null = null;
  private head: Buffer[] = [];
  private headBytes = 0;
  private reader: FrameReader;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closeHandshakeTimer: NodeJS.Timeout | null = null;
  private readonly queue: QueuedWrite[] = [];
  private draining = false;

  // Incoming message assembly (see onFrameBegin/Data/End).
  private insideMessage = false;
  private messageBinary = false;
  private messageChunks: Buffer[] = [];
  private messageLength = 0;
  private validateUtf8 = false;
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
    });
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.onData(chunk);
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
    if (this.state === SessionState.Connecting) {
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
    if (rest.length > 0 && !this.isClosed()) this.reader.push(rest, this);
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
      this.messageBinary = header.opcode === Opcode.Binary;
      this.messageChunks = [];
      this.messageLength = 0;
      this.validateUtf8 = header.opcode === Opcode.Text;
      this.utf8EndsOnCodePoint = true;
      if (this.validateUtf8) this.utf8.reset();
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
    if (this.validateUtf8 && chunk.length > 0) {
      const state = this.utf8.validate(chunk);
      this.utf8EndsOnCodePoint = state.endsOnCodePoint;
      if (!state.valid) {
        this.invalidPayload(`encountered invalid UTF-8 while processing text message at payload octet index ${state.index}`);
        this.validateUtf8 = false;
        this.afterCallback();
        return;
      }
    }
    if (!this.failedByMe) this.messageChunks.push(chunk);
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
    if (!header.fin) return;
    this.insideMessage = false;
    if (this.validateUtf8 && !this.utf8EndsOnCodePoint) {
      this.invalidPayload(
        `UTF-8 text message payload ended within Unicode code point at payload octet index ${this.messageLength}`,
      );
      this.afterCallback();
      return;
    }
    if (!this.failedByMe) {
      const chunks = this.messageChunks;
      this.messageChunks = [];
      const data = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      this.handler?.onMessage(data, this.messageBinary);
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
    if (abort) {
      this.socket.destroy();
    } else {
      this.socket.once('finish', () => this.socket.destroy());
      this.socket.end();
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
    this.queue.length = 0;
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
    const raw = encodeFrame({ opcode: frame.opcode, payload: pattern, fin, rsv, mask, payloadLen });
    const chopSize = frame.chopSize ?? null;
    const sync = frame.sync ?? false;
    this.wire.txFrame({ opcode: frame.opcode, fin, rsv }, pattern, mask, payloadLen, chopSize, sync);
    this.sendData(raw, sync, chopSize);
  }

  /**
   * Writes bytes: directly, or through the queue that writes one piece per turn after the previous
   * one flushed (chopped frames, sync frames, and anything sent while the queue is not empty).
   */
  sendData(data: Buffer, sync = false, chopSize: number | null = null): void {
    if (chopSize !== null && chopSize > 0) {
      for (let i = 0; i < data.length; i += chopSize) {
        this.queue.push({ data: data.subarray(i, Math.min(i + chopSize, data.length)), sync: true });
      }
      if (data.length === 0) this.queue.push({ data, sync: true });
      this.drain();
    } else if (sync || this.queue.length > 0) {
      this.queue.push({ data, sync });
      this.drain();
    } else {
      this.write(data, false);
    }
  }

  private write(data: Buffer, sync: boolean, done?: () => void): void {
    this.wire.txOctets(data, sync);
    if (done) this.socket.write(data, () => done());
    else this.socket.write(data);
  }

  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    const next = (): void => {
      const item = this.queue.shift();
      if (item === undefined || this.socket.destroyed) {
        this.draining = false;
        return;
      }
      // Autobahn writes queued pieces only while the connection is not closed.
      if (this.state === SessionState.Closed) {
        this.queue.length = 0;
        this.draining = false;
        return;
      }
      this.write(item.data, item.sync, () => setImmediate(next));
    };
    next();
  }
}

