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
import type { Duplex } from 'node:stream';
import { CloseCode, Opcode, isValidCloseCode } from '../protocol/constants.js';
import type { PerMessageDeflate } from '../protocol/deflate/codec.js';
import type { FrameReader } from '../protocol/frame-reader.js';
import { closePayload, cutCloseReason } from '../protocol/frame-writer.js';
import { isValidUtf8 } from '../protocol/utf8.js';
import { EMPTY } from '../util/bytes.js';
import type { TrafficStats } from '../model/report.js';
import {
  frameReaderFor,
  newConnectionRecord,
  type ConnectionHandler,
  type ConnectionOptions,
  type ConnectionRecord,
  type ConnectionSide,
  type OpeningHandshake,
} from './connection-types.js';
import { MessageAssembler, type AssemblerLink } from './message-assembler.js';
import { Outbox, type OutboxLink } from './outbox.js';
import { Sender } from './sender.js';
import { ConnectionState, type ConnectionStateValue } from './state.js';
import { Tape } from './tape.js';
import { ReadRate, TCP, type Transport } from './transport.js';
import { TrafficCounters } from './traffic.js';
import { WireLog } from './wire-recorder.js';

export type { ConnectionHandler, ConnectionOptions, ConnectionRecord, ConnectionSide, OpeningHandshake } from './connection-types.js';

/** A connection's state, frame log and closing bookkeeping. */
export class Connection {
  /** The frame log (frames and octets each way, the wirelog, the case's timers). */
  readonly wire = new WireLog();
  /** Octets each way, and wsgate's side as it went on the wire, for `wsgate repro` (core/tape.ts). */
  readonly tape = new Tape(() => this.reader.pushed);
  /** Frames and messages out (the case's sending API). */
  readonly sender: Sender;
  private phase: ConnectionStateValue = ConnectionState.Connecting;
  private readonly rec: ConnectionRecord = newConnectionRecord();
  private readonly traffic = new TrafficCounters();
  /** permessage-deflate of this connection, when negotiated. */
  private deflate: PerMessageDeflate | null = null;
  private handler: ConnectionHandler | null = null;
  /** The peer's bytes are being handled (Twisted's doRead): see Outbox.drain. */
  private reading = false;
  private readonly outbox: Outbox;
  private readonly assembler: MessageAssembler;
  private reader: FrameReader;
  private opening: OpeningHandshake | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closeHandshakeTimer: NodeJS.Timeout | null = null;
  private lost = false;
  /** How fast wsgate reads (a robustness case's back-pressure). */
  private readonly readRate: ReadRate;
  /** holdClose() was called. */
  private closeHeld = false;

  /** `stream`: the socket (RFC 6455) or an HTTP/2 stream (RFC 8441); `socket`: the TCP (TLS) connection under it. */
  constructor(
    readonly stream: Duplex,
    private readonly options: ConnectionOptions,
    private readonly side: ConnectionSide,
    readonly transport: Transport = TCP,
    readonly socket: Socket = stream as Socket,
  ) {
    this.outbox = new Outbox(stream, this.outboxLink(), side.role === 'client' ? (side.chopGapNs ?? 0) : 0);
    this.sender = new Sender(this.outbox, {
      state: () => this.phase,
      deflate: () => this.deflate,
      newMask: this.newMask,
      wire: this.wire,
      traffic: this.traffic,
    });
    this.assembler = new MessageAssembler(this.assemblerLink());
    this.reader = frameReaderFor(this.side.role, false, options.maxMessagePayload);
    this.readRate = new ReadRate(stream, () => this.phase === ConnectionState.Closed);
    transport.attach(stream);
    stream.on('data', (chunk: Buffer) => {
      this.reading = true;
      this.onData(chunk);
      this.reading = false;
      this.readRate.took(chunk.length);
    });
    // ECONNRESET, a stream reset, and friends: 'close' follows and does the bookkeeping.
    stream.on('error', () => undefined);
    stream.on('close', () => this.onSocketClosed());
    this.after(options.openHandshakeTimeoutMs, () => {
      // A server that has the whole request answers in its own time (/updateReports writes the reports first).
      if (this.phase !== ConnectionState.Connecting || (this.isServer && this.rec.httpRequest !== '?')) return;
      this.rec.wasOpenHandshakeTimeout = true;
      this.dropUncleanly('peer did not finish (in time) the opening handshake');
    });
  }

  /** What the outbox asks of the connection: whether it is closed or reading; and it counts each write here. */
  private outboxLink(): OutboxLink {
    return {
      isClosed: () => this.phase === ConnectionState.Closed,
      isReading: () => this.reading,
      wrote: (head, sync, length, parts, repeat) => {
        this.tape.write(parts, repeat, sync, length, this.phase === ConnectionState.Connecting);
        this.wire.txOctets(head, sync, length);
        if (this.phase === ConnectionState.Open) this.traffic.outgoingOctetsWireLevel += length;
        else if (this.phase === ConnectionState.Connecting) this.traffic.preopenOutgoingOctetsWireLevel += length;
      },
    };
  }

  /** What the assembler reads of the connection, and where it sends control frames and failures. */
  private assemblerLink(): AssemblerLink {
    return {
      state: () => this.phase,
      deflate: () => this.deflate,
      handler: () => this.handler,
      failedByMe: () => this.rec.failedByMe,
      maxMessagePayload: this.options.maxMessagePayload,
      wire: this.wire,
      traffic: this.traffic,
      failConnection: (code, reason) => this.failConnection(code, reason),
      dropOnError: (reason) => this.dropOnError(reason),
      onControlFrame: (opcode, payload) => this.onControlFrame(opcode, payload),
      onViolation: (code, reason) => this.onViolation(code, reason),
      stopReading: () => this.reader.stop(),
    };
  }

  /** Connecting, open, closing (a close frame was sent) or closed (TCP dropped by either side). */
  get state(): ConnectionStateValue {
    return this.phase;
  }

  /** What the case report takes of the connection: its closing bookkeeping and opening handshake. */
  get record(): Readonly<ConnectionRecord> {
    return this.rec;
  }

  /** The report's traffic statistics: the counters as they are now, and their ratios. */
  trafficStats(): TrafficStats {
    return this.traffic.snapshot();
  }

  /** permessage-deflate was negotiated. */
  get deflateActive(): boolean {
    return this.deflate !== null;
  }

  /** True on the server's side of the connection (Autobahn's isServer). */
  get isServer(): boolean {
    return this.side.role === 'server';
  }

  /** A fresh masking key for each frame this side sends (a client), or null (a server). */
  get newMask(): (() => Uint8Array) | null {
    return this.side.role === 'client' ? this.side.newMask : null;
  }

  /**
   * Who reads the bytes while connecting (the role's side of the opening handshake), and the handler
   * when it is known from the start (a client's: it hears of a connection that never opens too).
   */
  startHandshake(opening: OpeningHandshake, handler: ConnectionHandler | null = null): void {
    if (handler !== null) this.handler = handler;
    this.opening = opening;
  }

  /** The opening handshake's request head as it went on the wire (latin1). */
  recordRequest(head: string): void {
    this.rec.httpRequest = head;
  }

  /** The opening handshake's response head as it went on the wire (latin1); `scripted`: a case wrote it. */
  recordResponse(head: string, scripted = false): void {
    this.rec.httpResponse = head;
    if (scripted) this.rec.scriptedHandshake = true;
  }

  /** The handshake chose the handler and permessage-deflate: frames are read from here on. */
  accept(handler: ConnectionHandler, deflate: PerMessageDeflate | null): void {
    this.handler = handler;
    this.deflate = deflate;
    if (deflate !== null) this.reader = frameReaderFor(this.side.role, true, this.options.maxMessagePayload);
  }

  /** The connection is open: the handler's onOpen runs (a case starts). */
  open(): void {
    this.phase = ConnectionState.Open;
    this.rec.connectionWasOpen = true;
    this.handler?.onOpen();
  }

  /** Bytes that followed the handshake in the same read: frames. */
  readFrames(data: Buffer): void {
    if (data.length > 0 && !this.isClosed()) this.reader.push(data, this.assembler);
  }

  /** True once TCP is dropped (by either side). A method, so checks after callbacks are not narrowed away. */
  isClosed(): boolean {
    return this.phase === ConnectionState.Closed;
  }

  /** Runs fn after ms unless the connection is gone; timers die with the connection. */
  after(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  // ---- incoming bytes ----

  /** Reads at most `bytesPerSecond` from now on (0: nothing, null: freely): see ReadRate. */
  setReadRate(bytesPerSecond: number | null): void {
    this.readRate.set(bytesPerSecond);
  }

  /** From now on wsgate neither answers the peer's close frame nor drops TCP after the closing handshake (robustness cases end it by their own timer). */
  holdClose(): void {
    this.closeHeld = true;
  }

  private onData(chunk: Buffer): void {
    if (this.phase === ConnectionState.Closed) return;
    this.wire.rxOctets(chunk);
    this.tape.received(chunk.length);
    if (this.phase === ConnectionState.Open) this.traffic.incomingOctetsWireLevel += chunk.length;
    if (this.phase === ConnectionState.Connecting) {
      this.traffic.preopenIncomingOctetsWireLevel += chunk.length;
      this.opening?.onData(chunk);
      return;
    }
    this.reader.push(chunk, this.assembler);
  }

  private onViolation(code: number, reason: string): void {
    this.failConnection(code === CloseCode.MessageTooBig ? code : CloseCode.ProtocolError, reason);
    if (this.phase === ConnectionState.Closed) this.reader.stop();
  }

  private onControlFrame(opcode: number, payload: Buffer): void {
    if (opcode === Opcode.Close) {
      const code = payload.length >= 2 ? payload.readUInt16BE(0) : null;
      const reason = payload.length > 2 ? payload.subarray(2) : null;
      this.onCloseFrame(code, reason);
    } else if (opcode === Opcode.Ping) {
      // Autobahn answers pings itself and does not record them as events.
      if (this.phase === ConnectionState.Open) this.sender.sendFrame({ opcode: Opcode.Pong, payload });
    } else if (opcode === Opcode.Pong) {
      this.handler?.onPong(payload);
    }
  }

  /** RFC 6455 §7.1.5, §5.5.1, as autobahn-python 0.10.9 handles a received close frame. */
  private onCloseFrame(code: number | null, reason: Buffer | null): void {
    this.rec.remoteCloseCode = code;
    if (code !== null && !isValidCloseCode(code)) {
      this.failConnection(CloseCode.ProtocolError, `invalid close code ${code}`);
      if (this.phase === ConnectionState.Closed) return;
    }
    if (reason === null) {
      this.rec.remoteCloseReason = null;
    } else {
      if (!isValidUtf8(reason)) {
        this.failConnection(CloseCode.InvalidPayload, 'invalid close reason (non-UTF-8 payload)');
        if (this.phase === ConnectionState.Closed) return;
      }
      this.rec.remoteCloseReason = reason.toString('utf8');
    }
    if (this.phase === ConnectionState.Closing) {
      // The peer's answer to our close: the handshake is complete. A server drops TCP at once; a
      // client waits for the server to (RFC 6455 §7.1.1: "the server SHOULD close it first").
      clearTimeout(this.closeHandshakeTimer ?? undefined);
      this.rec.wasClean = true;
      if (this.closeHeld) return;
      if (this.side.role === 'server') this.dropConnection('abort');
      else this.awaitServerDrop(this.side.serverDropTimeoutMs);
    } else if (this.phase === ConnectionState.Open && !this.closeHeld) {
      // The peer starts the closing handshake: answer with 1000 (Autobahn does not echo the code).
      // A server then drops TCP; a client leaves that to the server (autobahn-python sets no timer
      // here: a server that never drops TCP is ended by the case's own time limit).
      this.rec.wasClean = true;
      this.writeClose(CloseCode.Normal, null, true);
      if (this.side.role === 'server') this.dropConnection('after-flush');
    }
  }

  /** A client after the closing handshake: the server should drop TCP; if it does not in time, we do, uncleanly. */
  private awaitServerDrop(timeoutMs: number): void {
    if (timeoutMs <= 0) return;
    this.after(timeoutMs, () => {
      if (this.phase === ConnectionState.Closed) return;
      this.rec.wasServerConnectionDropTimeout = true;
      this.dropUncleanly('server did not drop TCP connection (in time)');
    });
  }

  // ---- failing and closing ----

  /** _Fail the WebSocket Connection_ (RFC 6455 §7.1.7): a close frame, or a TCP drop with failByDrop. */
  failConnection(code: number = CloseCode.GoingAway, reason = 'Going Away'): void {
    if (this.phase === ConnectionState.Closed) return;
    this.rec.failedByMe = true;
    if (this.options.failByDrop) {
      this.dropUncleanly('I failed the WebSocket connection by dropping the TCP connection');
    } else if (this.phase !== ConnectionState.Closing) {
      this.sendCloseFrame(code, Buffer.from(reason, 'utf8').subarray(0, 123).toString('utf8'));
    } else {
      // A second violation while closing: give up on the handshake.
      this.dropConnection('after-flush');
    }
  }

  /** Drops TCP at once with no close frame, as Twisted does when the original's handler raises. */
  private dropOnError(reason: string): void {
    if (this.phase === ConnectionState.Closed) return;
    this.rec.failedByMe = true;
    this.rec.droppedOnError = reason;
    this.dropUncleanly(`I dropped the TCP connection without a close frame: ${reason}`);
  }

  /** Drops TCP at once, the connection unclean for `reason` (a timeout, a failure by drop). Only while not closed. */
  private dropUncleanly(reason: string): void {
    this.rec.wasClean = false;
    this.dropConnection('abort', reason);
  }

  /** Starts the closing handshake with any code and reason (Autobahn's sendCloseFrame). Only while open. */
  sendCloseFrame(code: number | null, reason: string | Buffer | null): void {
    this.writeClose(code, reason, false);
  }

  /** Sends a close frame (`isReply`: the answer to the peer's) and starts closing; only while open. */
  private writeClose(code: number | null, reason: string | Buffer | null, isReply: boolean): void {
    if (this.phase !== ConnectionState.Open) return;
    const reasonBytes = reason === null ? null : typeof reason === 'string' ? Buffer.from(reason, 'utf8') : reason;
    // Like Autobahn, a reason without a code is sent as it is (7.3.2's one-byte close payload).
    const payload = code === null ? (reasonBytes ?? EMPTY) : closePayload(code, reasonBytes);
    this.sender.sendFrame({ opcode: Opcode.Close, payload });
    this.phase = ConnectionState.Closing;
    this.rec.closedByMe = !isReply;
    this.rec.localCloseCode = code;
    this.rec.localCloseReason = reasonBytes === null ? null : typeof reason === 'string' ? reason : reasonBytes.toString('hex');
    if (this.rec.closedByMe && this.options.closeHandshakeTimeoutMs > 0) {
      this.closeHandshakeTimer = setTimeout(() => {
        this.closeHandshakeTimer = null;
        if (this.phase === ConnectionState.Closed) return;
        this.rec.wasCloseHandshakeTimeout = true;
        this.dropUncleanly('peer did not respond (in time) in closing handshake');
      }, this.options.closeHandshakeTimeoutMs);
    }
  }

  /** Autobahn's sendClose: a close frame with an optional code and reason (reason cut to fit 125 bytes). */
  sendClose(code: number | null = null, reason: string | null = null): void {
    this.sendCloseFrame(code, cutCloseReason(code, reason));
  }

  /** Drops TCP now, discarding nothing already written (the frames before it still leave); `reason`: why it is unclean. */
  dropConnection(how: 'abort' | 'after-flush' = 'abort', reason: string | null = null): void {
    if (this.phase === ConnectionState.Closed) return;
    if (reason !== null) this.rec.wasNotCleanReason ??= reason;
    this.rec.droppedByMe = true;
    this.tape.ended(how, reason);
    this.phase = ConnectionState.Closed;
    this.reader.stop();
    // A throttled connection reads again, so that the peer's end of TCP is seen.
    if (this.readRate.limited) this.setReadRate(null);
    this.outbox.flushStaging();
    // Bytes held for a queued burst still leave first (destroy() would discard them).
    const { stream, transport } = this;
    while (stream.writableCorked > 0) stream.uncork();
    // RFC 8441 §5: an unclean drop is an abort (RST_STREAM CANCEL); after the closing handshake it is the orderly end.
    if (how === 'abort' && !this.rec.wasClean) return transport.abort(stream);
    if (how === 'abort') transport.end(stream);
    else {
      stream.once('finish', () => transport.end(stream));
      this.outbox.end();
    }
    // A peer that never reads (or, over HTTP/2, never ends its side) could keep this pending forever.
    this.after(this.options.closeHandshakeTimeoutMs + 1000, () => transport.abort(stream));
  }

  private onSocketClosed(): void {
    if (this.lost) return;
    this.lost = true;
    this.phase = ConnectionState.Closed;
    this.reader.stop();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.readRate.stop();
    clearTimeout(this.closeHandshakeTimer ?? undefined);
    this.outbox.clear();
    this.assembler.release();
    this.deflate?.close();
    if (!this.rec.wasClean && !this.rec.droppedByMe && this.rec.wasNotCleanReason === null) {
      this.rec.wasNotCleanReason = this.transport.peerLostReason(this.stream);
    }
    this.handler?.onConnectionLost();
  }
}
