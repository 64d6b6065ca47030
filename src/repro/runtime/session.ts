/**
 * The repro runtime's connection: what the peer sends, read as wsgate reads it (masks, RSV bits,
 * fragments, UTF-8, permessage-deflate, the close), what wsgate's side sends (for the log, the
 * closing order and the echoes it expects), each printed with its time, and the verdict at the end.
 * Copied into every script as source (see data.ts): self-contained.
 */
import type * as NetModule from 'node:net';
import type { ReproEvent, ReproFrame, ReproMessage, ReproPlayer, RuntimeData, RuntimeModules } from './data.js';
import { reproJudge } from './judge.js';
import { ReproFrameReader, reproDescribeClose, reproInflater, reproLogData, reproShow, reproUtf8 } from './wire.js';

/** One replayed connection and what the peer did on it. */
export class ReproSession {
  /** Lines printed of each side's frames and messages; the rest are counted. */
  private readonly shown = 40;
  private readonly opcodes: Record<number, string> = { 0: 'continuation', 1: 'text', 2: 'binary', 8: 'close', 9: 'ping', 10: 'pong' };
  /** When the connection started: times are printed and writes scheduled from here. */
  t0 = performance.now();
  socket: NetModule.Socket | null = null;
  replay: ReproPlayer | null = null;
  /** Called once the connection is gone and judged. */
  onJudged: () => void = () => undefined;
  open = false;
  tcpDone = false;
  droppedByMe = false;
  uncleanEnd: string | null = null;
  deflateOn = false;
  /** Frame octets received from the peer. */
  rx = 0;
  private readonly received: ReproEvent[] = [];
  private readonly echoed: ReproMessage[] = [];
  private readonly sent: ReproMessage[] = [];
  private readonly counts = { peer: 0, wsgate: 0 };
  private peerCode: { code: number | null } | null = null;
  private order = 0;
  private ourCloseOrder: number | null = null;
  private peerCloseOrder: number | null = null;
  /** wsgate failed the connection (a protocol violation, invalid UTF-8): later messages are not delivered. */
  private failed = false;
  /** Printing and events in arrival order, behind any message still being inflated. */
  private chain: Promise<void> = Promise.resolve();
  private peerInflate: (data: Buffer) => Promise<Buffer | null>;
  /** The peer agreed to compress each message afresh: a reference back into the last one fails. */
  private peerFresh: (() => (data: Buffer) => Promise<Buffer | null>) | null = null;
  private readonly ourInflate: (data: Buffer) => Promise<Buffer | null>;
  private peerMessage: { binary: boolean; compressed: boolean; parts: Buffer[]; frames: number } | null = null;
  private ourMessage: { binary: boolean; compressed: boolean; parts: Buffer[] } | null = null;
  private readonly peerReader = new ReproFrameReader((f) => this.onPeerFrame(f));
  private readonly ourReader = new ReproFrameReader((f) => this.onOurFrame(f));

  constructor(
    readonly data: RuntimeData,
    readonly node: RuntimeModules,
  ) {
    this.peerInflate = reproInflater(node.zlib, 15);
    this.ourInflate = reproInflater(node.zlib, 15);
  }

  stamp(): string {
    return `+${(performance.now() - this.t0).toFixed(1)} ms`.padStart(12);
  }

  say(at: string, line: string): void {
    console.log(`${at}  ${line}`);
  }

  /** Says it now-stamped, in arrival order (behind messages still being inflated). */
  sayLater(line: string): void {
    const at = this.stamp();
    this.later(() => this.say(at, line));
  }

  private later(fn: () => void | Promise<void>): void {
    this.chain = this.chain.then(fn);
  }

  private note(who: 'peer' | 'wsgate', at: string, line: string): void {
    this.counts[who] += 1;
    if (this.counts[who] <= this.shown) this.say(at, `${who === 'peer' ? 'peer → ' : 'wsgate → '}${line}`);
    else if (this.counts[who] === this.shown + 1) this.say(at, `(${who}: further frames and messages are counted, not shown)`);
  }

  /** permessage-deflate as the 101 response agreed it: the peer's window is the one negotiated for its side. */
  agree(extensions: string | null): void {
    this.deflateOn = /permessage-deflate/i.test(extensions ?? '');
    const side = this.data.role === 'client' ? 'client' : 'server';
    const bits = new RegExp(`${side}_max_window_bits\\s*=\\s*"?(\\d+)`, 'i').exec(extensions ?? '')?.[1];
    const windowBits = bits === undefined ? 15 : Number(bits);
    this.peerInflate = reproInflater(this.node.zlib, windowBits);
    this.peerFresh = new RegExp(`${side}_no_context_takeover`, 'i').test(extensions ?? '') ? () => reproInflater(this.node.zlib, windowBits) : null;
  }

  /** Octets from the peer once open; wsgate reads nothing once it has dropped TCP. */
  peerBytes(chunk: Buffer): void {
    if (this.droppedByMe) return;
    this.rx += chunk.length;
    this.peerReader.push(chunk);
    this.replay?.pump();
  }

  /** Octets wsgate's side sends (after the handshake): parsed for the log, the close and the echoes. */
  ourBytes(chunk: Buffer): void {
    this.ourReader.push(chunk);
    // A frame written in parts (a case's raw pieces, a chopped frame): each part is said as it leaves.
    const pending = this.ourReader.pending;
    if (pending > 0) this.sayLaterNote('wsgate', `${chunk.length} octets, ${pending} of a frame not yet complete`);
  }

  private sayLaterNote(who: 'peer' | 'wsgate', line: string): void {
    const at = this.stamp();
    this.later(() => this.note(who, at, line));
  }

  private violation(at: string, what: string): void {
    this.failed = true;
    this.later(() => this.say(at, `peer → protocol violation: ${what} (wsgate fails the connection)`));
  }

  private onPeerFrame(f: ReproFrame): void {
    const at = this.stamp();
    const name = this.opcodes[f.opcode] ?? `opcode ${f.opcode}`;
    if (this.data.role === 'client' && !f.masked) return this.violation(at, `unmasked ${name} frame from a client`);
    if (this.data.role === 'server' && f.masked) return this.violation(at, `masked ${name} frame from a server`);
    if (f.opcode >= 8) return this.onPeerControl(f, at);
    if (f.opcode > 2) return this.violation(at, `reserved opcode ${f.opcode}`);
    const compressedStart = f.opcode !== 0 && f.rsv === 4 && this.deflateOn;
    if (f.rsv !== 0 && !compressedStart) return this.violation(at, `RSV bits ${f.rsv} on a ${name} frame`);
    if (f.opcode === 0 && this.peerMessage === null) return this.violation(at, 'continuation frame with no message under way');
    if (f.opcode !== 0 && this.peerMessage !== null) return this.violation(at, 'new message before the previous one ended');
    const m = (this.peerMessage ??= { binary: f.opcode === 2, compressed: compressedStart, parts: [], frames: 0 });
    m.parts.push(f.payload);
    m.frames += 1;
    if (!f.fin) return;
    this.peerMessage = null;
    const wire = Buffer.concat(m.parts);
    this.later(async () => {
      const data = m.compressed ? await (this.peerFresh?.() ?? this.peerInflate)(wire) : wire;
      const size = `${String(data?.length ?? '?')} bytes, ${m.frames} frame${m.frames === 1 ? '' : 's'}${m.compressed ? `, ${wire.length} compressed` : ''}`;
      this.peerMessageDone(m.binary, data, size, at);
    });
  }

  private peerMessageDone(binary: boolean, data: Buffer | null, size: string, at: string): void {
    const kind = binary ? 'binary' : 'text';
    if (data === null) {
      this.failed = true;
      this.note('peer', at, `${kind} message that does not inflate (${size}): wsgate drops TCP`);
    } else if (!binary && reproUtf8(data) === null) {
      this.failed = true;
      this.note('peer', at, `text message with invalid UTF-8 ${reproShow(data)} (${size}): wsgate fails the connection (1007)`);
    } else if (this.failed) {
      this.note('peer', at, `${kind} message ${reproShow(data)} (${size}), after wsgate failed the connection: not delivered`);
    } else {
      this.note('peer', at, `${kind} message ${reproShow(data)} (${size})`);
      if (this.data.echo !== null) this.echoed.push({ binary, data });
      else this.received.push({ kind: 'message', data, binary });
    }
  }

  private onPeerControl(f: ReproFrame, at: string): void {
    if (f.rsv !== 0) return this.violation(at, `control frame with RSV bits ${f.rsv}`);
    if (!f.fin) return this.violation(at, 'fragmented control frame');
    if (f.payload.length > 125) return this.violation(at, `control frame of ${f.payload.length} bytes`);
    const payload = f.payload;
    if (f.opcode === 8) {
      if (payload.length === 1) return this.violation(at, reproDescribeClose(payload));
      this.peerCloseOrder ??= ++this.order;
      this.peerCode ??= { code: payload.length >= 2 ? payload.readUInt16BE(0) : null };
      this.later(() => this.note('peer', at, reproDescribeClose(payload)));
    } else if (f.opcode === 9) this.later(() => this.note('peer', at, `ping ${reproShow(payload)}`));
    else if (f.opcode === 10) {
      this.later(() => {
        this.note('peer', at, `pong ${reproShow(payload)}`);
        this.received.push({ kind: 'pong', data: payload });
      });
    } else this.violation(at, `reserved opcode ${f.opcode}`);
  }

  private onOurFrame(f: ReproFrame): void {
    const at = this.stamp();
    if (f.opcode === 8) {
      this.ourCloseOrder ??= ++this.order;
      this.later(() => this.note('wsgate', at, reproDescribeClose(f.payload)));
      return;
    }
    const bits = `${f.fin ? 'fin' : 'not fin'}${f.rsv !== 0 ? `, rsv ${f.rsv}` : ''}`;
    this.later(() => this.note('wsgate', at, `${this.opcodes[f.opcode] ?? `opcode ${f.opcode}`} frame ${reproShow(f.payload)} (${f.payload.length} bytes, ${bits})`));
    if (f.opcode > 2 || f.rsv > 4 || (f.opcode === 0) === (this.ourMessage === null)) return;
    const m = (this.ourMessage ??= { binary: f.opcode === 2, compressed: f.rsv === 4, parts: [] });
    m.parts.push(f.payload);
    if (!f.fin) return;
    this.ourMessage = null;
    this.later(async () => {
      const data = m.compressed ? await this.ourInflate(Buffer.concat(m.parts)) : Buffer.concat(m.parts);
      if (data !== null) this.sent.push({ binary: m.binary, data });
    });
  }

  /** wsgate's case recorded an event of its own (a timeout tag). */
  mark(tag: string): void {
    const at = this.stamp();
    this.later(() => {
      this.say(at, `wsgate: timeout ${JSON.stringify(tag)} (the case's own event)`);
      this.received.push({ kind: 'timeout', tag });
    });
  }

  /** TCP is gone: once everything before is printed, the verdict. */
  tcpClosed(how: string): void {
    if (this.tcpDone) return;
    this.tcpDone = true;
    this.replay?.stop();
    if (!this.droppedByMe) this.sayLater(`peer ${how}`);
    void this.chain.then(() => this.finish());
  }

  private finish(): void {
    const closedByMe = this.ourCloseOrder !== null && (this.peerCloseOrder === null || this.ourCloseOrder < this.peerCloseOrder);
    const wasClean = this.peerCode !== null && this.uncleanEnd === null;
    const remoteCloseCode = this.peerCode?.code ?? null;
    const facts = { open: this.open, closedByMe, droppedByMe: this.droppedByMe, wasClean, remoteCloseCode, deflateOn: this.deflateOn };
    const v = reproJudge(this.data, facts, this.received, this.echoed, this.sent);
    const shown = this.received.map((e) => (e.kind === 'timeout' ? ['timeout', e.tag] : e.kind === 'pong' ? ['pong', reproLogData(e.data)] : ['message', reproLogData(e.data), e.binary]));
    const hidden = Math.max(0, this.counts.peer - this.shown) + Math.max(0, this.counts.wsgate - this.shown);
    console.log('');
    if (hidden > 0) console.log(`frames and messages not shown: ${hidden}`);
    console.log(`observed events: ${JSON.stringify(shown)}`);
    console.log(`peer close code: ${remoteCloseCode === null ? 'none' : String(remoteCloseCode)}`);
    console.log(`closed by wsgate's side: ${String(closedByMe)}; clean: ${String(wasClean)}; TCP dropped by wsgate's side: ${String(this.droppedByMe)}`);
    console.log(`behavior: ${v.result}`);
    console.log(`closing: ${v.resultClose}`);
    console.log(`verdict: ${v.behavior} / ${v.behaviorClose}`);
    process.exitCode = v.behavior === 'OK' && v.behaviorClose === 'OK' ? 0 : 1;
    this.onJudged();
  }
}
