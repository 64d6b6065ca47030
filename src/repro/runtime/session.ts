/**
 * The repro runtime's connection. The peer's bytes go through wsgate's own receive path: the frame
 * reader (protocol/frame-reader.ts) into the message assembler (core/message-assembler.ts: masks,
 * RSV bits, fragments, sizes, UTF-8, permessage-deflate); its close frame is checked and wsgate's
 * closing bookkeeping kept as core/connection.ts does (the frames that follow from it are in the
 * recording, which the replay sends). wsgate's own bytes are read by the same reader, for the log,
 * the closing order and the echoes. Each line is printed with its time; play/verdict.ts judges.
 */
import type { Socket } from 'node:net';
import type { PeerEvent } from '../../cases/types.js';
import { MessageAssembler, type AssemblerLink, type MessageHandler } from '../../core/message-assembler.js';
import { ConnectionState, type ConnectionStateValue } from '../../core/state.js';
import { TrafficCounters } from '../../core/traffic.js';
import { WireLog, asciiLogData, reportEvent } from '../../core/wire-recorder.js';
import { AUTOBAHN_DEFAULTS, CloseCode, Opcode, isValidCloseCode } from '../../protocol/constants.js';
import { PerMessageDeflate } from '../../protocol/deflate/codec.js';
import { clientAgreement, isDeflateExtension, parseDeflateResponse, type DeflateAgreement } from '../../protocol/deflate/params.js';
import { FrameReader, type FrameHeader, type FrameSink } from '../../protocol/frame-reader.js';
import { parseExtensionsHeader } from '../../protocol/handshake.js';
import { isValidUtf8 } from '../../protocol/utf8.js';
import type { ReproMessage, ReproPlayer, RuntimeData } from './data.js';
import { reproVerdict } from './outcome.js';

const OPCODES: Record<number, string> = { 0: 'continuation', 1: 'text', 2: 'binary', 8: 'close', 9: 'ping', 10: 'pong' };
const { Open, Closing, Closed } = ConnectionState;

/** A payload for a printed line, as Autobahn's reports show it (text, or 0x and hex), quoted. */
function show(b: Buffer): string {
  return JSON.stringify(asciiLogData(b));
}

/** A close frame's payload in words. */
function describeClose(payload: Buffer): string {
  if (payload.length === 0) return 'close (no code)';
  if (payload.length === 1) return `close with a 1-byte payload 0x${payload.toString('hex')}`;
  const reason = payload.subarray(2);
  return `close ${payload.readUInt16BE(0)}${reason.length > 0 ? ` ${show(reason)}` : ''}`;
}

/** The other side's agreement: what one side compresses with, the other decompresses with. */
function mirrored(a: DeflateAgreement): DeflateAgreement {
  return {
    compressNoContextTakeover: a.decompressNoContextTakeover,
    compressWindowBits: a.decompressWindowBits,
    decompressNoContextTakeover: a.compressNoContextTakeover,
    decompressWindowBits: a.compressWindowBits,
    decompressWindowParam: 'client_max_window_bits',
  };
}

/** One replayed connection and what the peer did on it. */
export class ReproSession {
  /** Lines printed of each side's frames and messages; the rest are counted. */
  private readonly shown = 40;
  /** When the connection started: times are printed and writes scheduled from here. */
  t0 = performance.now();
  socket: Socket | null = null;
  replay: ReproPlayer | null = null;
  /** Called once the connection is gone and judged. */
  onJudged: () => void = () => undefined;
  open = false;
  tcpDone = false;
  /** The replay dropped TCP as wsgate did in the run, or because the peer kept it open. */
  droppedByMe = false;
  uncleanEnd: string | null = null;
  /** Frame octets received from the peer. */
  rx = 0;
  private readonly received: PeerEvent[] = [];
  private readonly echoed: ReproMessage[] = [];
  private readonly sent: ReproMessage[] = [];
  private readonly counts = { peer: 0, wsgate: 0 };
  // wsgate's closing bookkeeping, as core/connection.ts keeps it (its ConnectionRecord).
  private phase: ConnectionStateValue = Open;
  private closedByMe = false;
  private failedByMe = false;
  private wasClean = false;
  private remoteCloseCode: number | null = null;
  /** wsgate would have dropped TCP here (the recording's end does it on the wire). */
  private dropped = false;
  private peerDeflate: PerMessageDeflate | null = null;
  private ourDeflate: PerMessageDeflate | null = null;
  private peerReader: FrameReader;
  private readonly ourReader = new FrameReader({ requireMask: false, compressionNegotiated: true, maxFramePayload: 0 });
  private readonly peerAssembler: MessageAssembler;
  private readonly ourAssembler: MessageAssembler;
  private readonly ourSink: FrameSink;
  private ourInFrame = false;

  constructor(readonly data: RuntimeData) {
    this.peerReader = this.newPeerReader(false);
    const lengthOnly = data.echo === 'length';
    this.peerAssembler = new MessageAssembler(
      this.link({ onMessage: (d, binary, length) => this.peerMessage(d, binary, length), messageLengthOnly: lengthOnly }, () => this.peerDeflate, {
        failedByMe: () => this.failedByMe,
        failConnection: (code, reason) => this.fail(code, reason),
        dropOnError: (reason) => this.fail(null, reason),
        onControlFrame: (op, p) => this.onPeerControl(op, p),
      }),
    );
    // wsgate's own frames break the rules on purpose: nothing it sends fails anything.
    this.ourAssembler = new MessageAssembler(
      this.link({ onMessage: (d, binary, length) => void this.sent.push({ binary, data: d, length }), messageLengthOnly: lengthOnly }, () => this.ourDeflate, {
        failedByMe: () => false,
        failConnection: () => undefined,
        dropOnError: () => undefined,
        onControlFrame: (op) => this.onOurControl(op),
      }),
    );
    this.ourSink = this.ourFrames();
  }

  private newPeerReader(compressionNegotiated: boolean): FrameReader {
    const wsgateIsServer = this.data.role === 'client';
    const max = AUTOBAHN_DEFAULTS.maxMessagePayload;
    return new FrameReader({ requireMask: wsgateIsServer, refuseMask: !wsgateIsServer, compressionNegotiated, maxFramePayload: max, unmaskInPlace: true });
  }

  /** An assembler's link to this session (core/connection.ts's assemblerLink, less the counters and the frame log). */
  private link(
    handler: MessageHandler,
    deflate: () => PerMessageDeflate | null,
    on: Pick<AssemblerLink, 'failedByMe' | 'failConnection' | 'dropOnError' | 'onControlFrame'>,
  ): AssemblerLink {
    return {
      ...on,
      state: () => this.phase,
      deflate,
      handler: () => handler,
      maxMessagePayload: AUTOBAHN_DEFAULTS.maxMessagePayload,
      wire: new WireLog(0),
      traffic: new TrafficCounters(),
      onViolation: (code, reason) => on.failConnection(code === CloseCode.MessageTooBig ? code : CloseCode.ProtocolError, reason),
      stopReading: () => undefined,
    };
  }

  stamp(): string {
    return `+${(performance.now() - this.t0).toFixed(1)} ms`.padStart(12);
  }

  say(at: string, line: string): void {
    console.log(`${at}  ${line}`);
  }

  /** Says it, stamped now. */
  sayNow(line: string): void {
    this.say(this.stamp(), line);
  }

  private note(who: 'peer' | 'wsgate', line: string): void {
    this.counts[who] += 1;
    if (this.counts[who] <= this.shown) this.sayNow(`${who === 'peer' ? 'peer → ' : 'wsgate → '}${line}`);
    else if (this.counts[who] === this.shown + 1) this.sayNow(`(${who}: further frames and messages are counted, not shown)`);
  }

  /** permessage-deflate as the 101 response agreed it, read as wsgate reads it (protocol/deflate/params.ts). */
  agree(extensions: string | null): void {
    const offer = parseExtensionsHeader(extensions ?? '').find((e) => isDeflateExtension(e.name));
    const response = offer === undefined ? null : parseDeflateResponse(offer.params);
    if (response === null || typeof response === 'string') return;
    const asClient = clientAgreement(response);
    const ours = this.data.role === 'server' ? asClient : mirrored(asClient);
    const options = { level: AUTOBAHN_DEFAULTS.deflateLevel, maxMessageSize: AUTOBAHN_DEFAULTS.maxMessagePayload };
    this.peerDeflate = new PerMessageDeflate(ours, options);
    this.ourDeflate = new PerMessageDeflate(mirrored(ours), options);
    this.peerReader = this.newPeerReader(true);
  }

  /** Octets from the peer once open; wsgate reads nothing once it has dropped TCP. */
  peerBytes(chunk: Buffer): void {
    if (this.droppedByMe) return;
    this.rx += chunk.length;
    if (!this.peerReader.stopped) this.peerReader.push(chunk, this.peerAssembler);
    this.replay?.pump();
  }

  /** Octets wsgate's side sends (after the handshake): read for the log, the close and the echoes. */
  ourBytes(chunk: Buffer): void {
    this.ourReader.push(chunk, this.ourSink);
    // A frame written in parts (a case's raw pieces, a chopped frame): each part is said as it leaves.
    if (this.ourInFrame || this.ourReader.bufferedBytes > 0) this.note('wsgate', `${chunk.length} octets, a frame not yet complete`);
  }

  /** wsgate's frames to its assembler, each said as it ends. */
  private ourFrames(): FrameSink {
    let head: Buffer[] = [];
    let kept = 0;
    return {
      onViolation: () => undefined,
      onFrameBegin: (h: FrameHeader) => {
        this.ourInFrame = true;
        head = [];
        kept = 0;
        this.ourAssembler.onFrameBegin(h);
      },
      onFrameData: (chunk: Buffer) => {
        if (kept < 64 && chunk.length > 0) head.push(chunk.subarray(0, 64 - kept));
        kept += chunk.length;
        this.ourAssembler.onFrameData(chunk);
      },
      onFrameEnd: (h: FrameHeader) => {
        this.ourInFrame = false;
        const payload = Buffer.concat(head);
        const bits = `${h.fin ? 'fin' : 'not fin'}${h.rsv !== 0 ? `, rsv ${h.rsv}` : ''}`;
        if (h.opcode === Opcode.Close) this.note('wsgate', describeClose(payload));
        else this.note('wsgate', `${OPCODES[h.opcode] ?? `opcode ${h.opcode}`} frame ${show(payload)} (${h.length} bytes, ${bits})`);
        this.ourAssembler.onFrameEnd(h);
      },
    };
  }

  /** wsgate sent a close frame: it starts the closing handshake unless it already answered or failed. */
  private onOurControl(opcode: number): void {
    if (opcode !== Opcode.Close || this.phase !== Open) return;
    this.phase = Closing;
    this.closedByMe = true;
  }

  /** wsgate fails the connection (core/connection.ts's failConnection, or dropOnError with no code). */
  private fail(code: number | null, reason: string): void {
    if (this.phase === Closed) return;
    this.failedByMe = true;
    if (code === null) {
      this.sayNow(`peer → ${reason} (wsgate drops TCP)`);
      this.wasClean = false;
      this.drop();
    } else if (this.phase !== Closing) {
      this.sayNow(`peer → protocol violation: ${reason} (wsgate fails the connection, ${code})`);
      this.phase = Closing;
      this.closedByMe = true;
    } else {
      this.sayNow(`peer → protocol violation: ${reason} (wsgate, already closing, drops TCP)`);
      this.drop();
    }
  }

  /** A method, so checks after fail() are not narrowed away. */
  private isClosed(): boolean {
    return this.phase === Closed;
  }

  private drop(): void {
    this.phase = Closed;
    this.dropped = true;
    this.peerReader.stop();
  }

  private peerMessage(data: Buffer, binary: boolean, length: number): void {
    // A case that judges lengths only gets no payload (core/message-assembler.ts's messageLengthOnly).
    const shown = data.length === 0 && length > 0 ? '' : ` ${show(data.subarray(0, 64))}`;
    this.note('peer', `${binary ? 'binary' : 'text'} message${shown} (${length} bytes)`);
    if (this.data.echo !== null) this.echoed.push({ binary, data, length });
    else this.received.push({ kind: 'message', data, binary });
  }

  private onPeerControl(opcode: number, payload: Buffer): void {
    if (opcode === Opcode.Close) {
      this.note('peer', describeClose(payload));
      this.onPeerClose(payload);
    } else if (opcode === Opcode.Ping) this.note('peer', `ping ${show(payload)}`);
    else if (opcode === Opcode.Pong) {
      this.note('peer', `pong ${show(payload)}`);
      this.received.push({ kind: 'pong', data: payload });
    }
  }

  /** RFC 6455 §7.1.5, §5.5.1, as core/connection.ts's onCloseFrame handles a received close frame. */
  private onPeerClose(payload: Buffer): void {
    const code = payload.length >= 2 ? payload.readUInt16BE(0) : null;
    const reason = payload.length > 2 ? payload.subarray(2) : null;
    this.remoteCloseCode = code;
    if (code !== null && !isValidCloseCode(code)) this.fail(CloseCode.ProtocolError, `invalid close code ${code}`);
    if (this.isClosed()) return;
    if (reason !== null && !isValidUtf8(reason)) this.fail(CloseCode.InvalidPayload, 'invalid close reason (non-UTF-8 payload)');
    if (this.isClosed()) return;
    // The closing handshake is complete (our close answered, or the peer's answered): a server drops TCP.
    this.wasClean = true;
    this.phase = Closing;
    if (this.data.role === 'client') this.drop();
  }

  /** wsgate's case recorded an event of its own (a timeout tag). */
  mark(tag: string): void {
    this.sayNow(`wsgate: timeout ${JSON.stringify(tag)} (the case's own event)`);
    this.received.push({ kind: 'timeout', tag });
  }

  /** TCP is gone: the verdict. */
  tcpClosed(how: string): void {
    if (this.tcpDone) return;
    this.tcpDone = true;
    this.replay?.stop();
    if (!this.droppedByMe) this.sayNow(`peer ${how}`);
    this.finish();
  }

  private finish(): void {
    const wasClean = this.wasClean && this.uncleanEnd === null;
    const droppedByMe = this.droppedByMe || this.dropped;
    const facts = {
      connectionWasOpen: this.open,
      closedByMe: this.closedByMe,
      droppedByMe,
      wasClean,
      remoteCloseCode: this.remoteCloseCode,
      isServer: this.data.role === 'client',
    };
    const v = reproVerdict(this.data, { facts, deflateOn: this.peerDeflate !== null, received: this.received, echoed: this.echoed, sent: this.sent });
    const hidden = Math.max(0, this.counts.peer - this.shown) + Math.max(0, this.counts.wsgate - this.shown);
    const code = this.remoteCloseCode;
    console.log('');
    if (hidden > 0) console.log(`frames and messages not shown: ${hidden}`);
    console.log(`observed events: ${JSON.stringify(this.received.map(reportEvent))}`);
    console.log(`peer close code: ${code === null ? 'none' : String(code)}`);
    console.log(`closed by wsgate's side: ${String(this.closedByMe)}; clean: ${String(wasClean)}; TCP dropped by wsgate's side: ${String(droppedByMe)}`);
    console.log(`behavior: ${v.result}`);
    console.log(`closing: ${v.resultClose}`);
    console.log(`verdict: ${v.behavior} / ${v.behaviorClose}`);
    process.exitCode = v.behavior === 'OK' && v.behaviorClose === 'OK' ? 0 : 1;
    this.onJudged();
  }
}
