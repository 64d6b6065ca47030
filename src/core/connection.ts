/**
 * One WebSocket connection (RFC 6455) with the fuzzer's powers, whichever side it is on: it may send
 * any frame, in chops, and it keeps the closing bookkeeping Autobahn's engine (autobahn-python
 * 0.10.9) keeps, because the verdicts are computed from it. What it knows of its role is its
 * ConnectionSide: who masks frames (a client masks its own and refuses masked ones), and who drops
 * TCP when the closing handshake is done (the server at once; a client waits for the server to, and
 * drops it itself only after serverDropTimeoutMs, which makes the close unclean).
 *
 * Life cycle: connecting (the opening handshake, done by a role's OpeningHandshake) → open → closing
 * (a close frame was sent) → closed (TCP dropped by either side). Receiving is the MessageAssembler's
 * job, writing the Outbox's; this class is the state machine between them and the case.
 */
import type { Socket } from 'node:net';
import { CloseCode, Opcode, isValidCloseCode } from '../protocol/constants.js';
import type { PerMessageDeflate } from '../protocol/deflate.js';
import { FrameReader } from '../protocol/frame-reader.js';
import { closePayload } from '../protocol/frame-writer.js';
import { isValidUtf8 } from '../protocol/utf8.js';
import { EMPTY } from '../util/bytes.js';
import type { ConnectionHandler, ConnectionOptions, ConnectionSide, OpeningHandshake } from './connection-types.js';
import { MessageAssembler, type AssemblerOwner } from './message-assembler.js';
import { Outbox, type OutboxOwner } from './outbox.js';
import { Sender } from './sender.js';
import { ConnectionState, type ConnectionStateValue } from './state.js';
import { TrafficCounters } from './traffic.js';
import { WireLog } from './wire-recorder.js';

export type { ConnectionHandler, ConnectionOptions, ConnectionSide, OpeningHandshake } from './connection-types.js';

/** A connection's state, frame log and closing bookkeeping. */
export class Connection implements AssemblerOwner, OutboxOwner {
  state: ConnectionStateValue = ConnectionState.Connecting;
  readonly wire = new WireLog();
  readonly traffic = new TrafficCounters();
  /** Bytes received and sent on this connection, handshake included. */
  bytesIn = 0;
  bytesOut = 0;
  /** permessage-deflate of this connection, when negotiated. */
  deflate: PerMessageDeflate | null = null;
  handler: ConnectionHandler | null = null;
  /** The peer's bytes are being handled (Twisted's doRead): see Outbox.drain. */
  reading = false;

  // Closing bookkeeping (the connection-state table of a case report).
  closedByMe = false;
  failedByMe = false;
  droppedByMe = false;
  wasClean = false;
  wasNotCleanReason: string | null = null;
  wasOpenHandshakeTimeout = false;
  wasCloseHandshakeTimeout = false;
  /** A client's: the server did not drop TCP in time after the closing handshake. */
  wasServerConnectionDropTimeout = false;
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

  // The opening handshake as it went on the wire (latin1), and whether a case wrote the response.
  httpRequest = '?';
  httpResponse = '?';
  scriptedHandshake = false;

  readonly outbox: Outbox;
  /** Frames and messages out (the case's sending API). */
  readonly sender: Sender;
  private readonly assembler: MessageAssembler;
  private reader: FrameReader;
  private opening: OpeningHandshake | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closeHandshakeTimer: NodeJS.Timeout | null = null;
  private lost = false;

  constructor(
    readonly socket: Socket,
    private readonly options: ConnectionOptions,
    private readonly side: ConnectionSide,
  ) {
    this.outbox = new Outbox(this);
    this.sender = new Sender(this);
    this.assembler = new MessageAssembler(this);
    this.reader = this.newReader(false);
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
      if (this.state !== ConnectionState.Connecting) return;
      this.wasClean = false;
      this.wasNotCleanReason = 'peer did not finish (in time) the opening handshake';
      this.wasOpenHandshakeTimeout = true;
      this.dropConnection('abort');
    });
  }

  /** True on the server's side of the connection (Autobahn's isServer). */
  get isServer(): boolean {
    return this.side.role === 'server';
  }

  /** A fresh masking key for each frame this side sends (a client), or null (a server). */
  get newMask(): (() => Uint8Array) | null {
    return this.side.role === 'client' ? this.side.newMask : null;
  }

  get maxMessagePayload(): number {
    return this.options.maxMessagePayload;
  }

  /** Who reads the bytes while connecting (the role's side of the opening handshake). */
  startHandshake(opening: OpeningHandshake): void {
    this.opening = opening;
  }

  /** The handshake chose the handler and permessage-deflate: frames are read from here on. */
  accept(handler: ConnectionHandler, deflate: PerMessageDeflate | null): void {
    this.handler = handler;
    this.deflate = deflate;
    if (deflate !== null) this.reader = this.newReader(true);
  }

  /** The connection is open: the handler's onOpen runs (a case starts). */
  open(): void {
    this.state = ConnectionState.Open;
    this.connectionWasOpen = true;
    this.handler?.onOpen();
  }

  /** Bytes that followed the handshake in the same read: frames. */
  readFrames(data: Buffer): void {
    if (data.length > 0 && !this.isClosed()) this.reader.push(data, this.assembler);
  }

  private newReader(compressionNegotiated: boolean): FrameReader {
    return new FrameReader({
      requireMask: this.side.role === 'server',
      refuseMask: this.side.role === 'client',
      compressionNegotiated,
      maxFramePayload: this.options.maxMessagePayload,
      // Socket reads are ours and logged before they are parsed: no copy per read to unmask.
      unmaskInPlace: true,
    });
  }

  /** True once TCP is dropped (by either side). A method, so checks after callbacks are not narrowed away. */
  isClosed(): boolean {
    return this.state === ConnectionState.Closed;
  }

  /** True while open (not closing or closed). */
  get isOpen(): boolean {
    return this.state === ConnectionState.Open;
  }

  /** Runs fn after ms unless the connection is gone; timers die with the connection. */
  after(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  stopReading(): void {
    this.reader.stop();
  }

  // ---- incoming bytes ----

  private onData(chunk: Buffer): void {
    if (this.state === ConnectionState.Closed) return;
    this.wire.rxOctets(chunk);
    this.bytesIn += chunk.length;
    if (this.state === ConnectionState.Open) this.traffic.incomingOctetsWireLevel += chunk.length;
    if (this.state === ConnectionState.Connecting) {
      this.traffic.preopenIncomingOctetsWireLevel += chunk.length;
      this.opening?.onData(chunk);
      return;
    }
    this.reader.push(chunk, this.assembler);
  }

  onViolation(code: number, reason: string): void {
    this.failConnection(code === CloseCode.MessageTooBig ? code : CloseCode.ProtocolError, reason);
    if (this.state === ConnectionState.Closed) this.reader.stop();
  }

  onControlFrame(opcode: number, payload: Buffer): void {
    if (opcode === Opcode.Close) {
      const code = payload.length >= 2 ? payload.readUInt16BE(0) : null;
      const reason = payload.length > 2 ? payload.subarray(2) : null;
      this.onCloseFrame(code, reason);
    } else if (opcode === Opcode.Ping) {
      // Autobahn answers pings itself and does not record them as events.
      if (this.state === ConnectionState.Open) this.sender.sendFrame({ opcode: Opcode.Pong, payload });
    } else if (opcode === Opcode.Pong) {
      this.handler?.onPong(payload);
    }
  }

  /** RFC 6455 §7.1.5, §5.5.1, as autobahn-python 0.10.9 handles a received close frame. */
  private onCloseFrame(code: number | null, reason: Buffer | null): void {
    this.remoteCloseCode = code;
    if (code !== null && !isValidCloseCode(code)) {
      this.failConnection(CloseCode.ProtocolError, `invalid close code ${code}`);
      if (this.state === ConnectionState.Closed) return;
    }
    if (reason === null) {
      this.remoteCloseReason = null;
    } else {
      if (!isValidUtf8(reason)) {
        this.failConnection(CloseCode.InvalidPayload, 'invalid close reason (non-UTF-8 payload)');
        if (this.state === ConnectionState.Closed) return;
      }
      this.remoteCloseReason = reason.toString('utf8');
    }
    if (this.state === ConnectionState.Closing) {
      // The peer's answer to our close: the handshake is complete. A server drops TCP at once; a
      // client waits for the server to (RFC 6455 §7.1.1: "the server SHOULD close it first").
      this.clearCloseHandshakeTimer();
      this.wasClean = true;
      if (this.side.role === 'server') this.dropConnection('abort');
      else this.awaitServerDrop(this.side.serverDropTimeoutMs);
    } else if (this.state === ConnectionState.Open) {
      // The peer starts the closing handshake: answer with 1000 (Autobahn does not echo the code).
      // A server then drops TCP; a client leaves that to the server (autobahn-python sets no timer
      // here: a server that never drops TCP is ended by the case's own time limit).
      this.wasClean = true;
      this.answerClose();
      if (this.side.role === 'server') this.dropConnection('after-flush');
    }
  }

  /** A client after the closing handshake: the server should drop TCP; if it does not in time, we do, uncleanly. */
  private awaitServerDrop(timeoutMs: number): void {
    if (timeoutMs <= 0) return;
    this.after(timeoutMs, () => {
      if (this.state === ConnectionState.Closed) return;
      this.wasClean = false;
      this.wasNotCleanReason = 'server did not drop TCP connection (in time)';
      this.wasServerConnectionDropTimeout = true;
      this.dropConnection('abort');
    });
  }

  // ---- failing and closing ----

  /** _Fail the WebSocket Connection_ (RFC 6455 §7.1.7): a close frame, or a TCP drop with failByDrop. */
  failConnection(code: number = CloseCode.GoingAway, reason = 'Going Away'): void {
    if (this.state === ConnectionState.Closed) return;
    this.failedByMe = true;
    if (this.options.failByDrop) {
      this.wasClean = false;
      this.wasNotCleanReason = 'I failed the WebSocket connection by dropping the TCP connection';
      this.dropConnection('abort');
    } else if (this.state !== ConnectionState.Closing) {
      this.sendCloseFrame(code, Buffer.from(reason, 'utf8').subarray(0, 123).toString('utf8'));
    } else {
      // A second violation while closing: give up on the handshake.
      this.dropConnection('after-flush');
    }
  }

  /** Drops TCP at once with no close frame, as Twisted does when the original's handler raises. */
  dropOnError(reason: string): void {
    if (this.state === ConnectionState.Closed) return;
    this.failedByMe = true;
    this.wasClean = false;
    this.droppedOnError = reason;
    this.wasNotCleanReason = `I dropped the TCP connection without a close frame: ${reason}`;
    this.dropConnection('abort');
  }

  /** Starts the closing handshake with any code and reason (Autobahn's sendCloseFrame). Only while open. */
  sendCloseFrame(code: number | null, reason: string | Buffer | null): void {
    this.writeClose(code, reason, false);
  }

  /** Answers the peer's close frame with 1000 (the peer started the closing handshake). */
  private answerClose(): void {
    this.writeClose(CloseCode.Normal, null, true);
  }

  private writeClose(code: number | null, reason: string | Buffer | null, isReply: boolean): void {
    if (this.state !== ConnectionState.Open) return;
    const reasonBytes = reason === null ? null : typeof reason === 'string' ? Buffer.from(reason, 'utf8') : reason;
    // Like Autobahn, a reason without a code is sent as it is (7.3.2's one-byte close payload).
    const payload = code === null ? (reasonBytes ?? EMPTY) : closePayload(code, reasonBytes);
    this.sender.sendFrame({ opcode: Opcode.Close, payload });
    this.state = ConnectionState.Closing;
    this.closedByMe = !isReply;
    this.localCloseCode = code;
    this.localCloseReason = reasonBytes === null ? null : typeof reason === 'string' ? reason : reasonBytes.toString('hex');
    if (this.closedByMe && this.options.closeHandshakeTimeoutMs > 0) {
      this.closeHandshakeTimer = setTimeout(() => {
        this.closeHandshakeTimer = null;
        if (this.state === ConnectionState.Closed) return;
        this.wasClean = false;
        this.wasNotCleanReason = 'peer did not respond (in time) in closing handshake';
        this.wasCloseHandshakeTimeout = true;
        this.dropConnection('abort');
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
    this.sendCloseFrame(code, reasonBytes === null ? null : reasonBytes.toString('utf8'));
  }

  private clearCloseHandshakeTimer(): void {
    if (this.closeHandshakeTimer !== null) clearTimeout(this.closeHandshakeTimer);
    this.closeHandshakeTimer = null;
  }

  /** Drops TCP now, discarding nothing already written (the frames before it still leave). */
  dropConnection(how: 'abort' | 'after-flush' = 'abort'): void {
    if (this.state === ConnectionState.Closed) return;
    this.droppedByMe = true;
    this.state = ConnectionState.Closed;
    this.reader.stop();
    this.outbox.flushStaging();
    // Bytes held for a queued burst still leave first (destroy() would discard them).
    while (this.socket.writableCorked > 0) this.socket.uncork();
    if (how === 'abort') {
      this.socket.destroy();
    } else {
      this.socket.once('finish', () => this.socket.destroy());
      this.outbox.end();
      // A peer that never reads could keep the flush pending forever.
      this.after(this.options.closeHandshakeTimeoutMs + 1000, () => this.socket.destroy());
    }
  }

  private onSocketClosed(): void {
    if (this.lost) return;
    this.lost = true;
    this.state = ConnectionState.Closed;
    this.reader.stop();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.clearCloseHandshakeTimer();
    this.outbox.clear();
    this.assembler.release();
    this.deflate?.close();
    if (!this.wasClean && !this.droppedByMe && this.wasNotCleanReason === null) {
      this.wasNotCleanReason = 'peer dropped the TCP connection without previous WebSocket closing handshake';
    }
    this.handler?.onConnectionLost();
  }
}
