/**
 * One probe of an attack on a server under test: one raw TCP (or TLS) connection, the request head
 * written at once, the answer's status and time; after a 101, a frame header and a trickled payload,
 * and when and how the server ended the connection. Measures only: the case's judge decides.
 * wsgate's memory stays bounded: the request is the only large buffer, the trickle reuses one piece,
 * and nothing the server sends is kept beyond its response head and a close frame.
 */
import type { Socket } from 'node:net';
import type { AttackProbe, ProbeFacts, ProbesAttack } from '../../cases/attack-types.js';
import { answerText, count } from '../../robustness/attack-judges.js';
import type { AttackPlayer } from './player.js';
import { buildUpgradeRequest, type UpgradeRequestSpec } from '../../protocol/client-handshake.js';
import { Opcode } from '../../protocol/constants.js';
import { FrameReader, type FrameHeader, type FrameSink } from '../../protocol/frame-reader.js';
import { HeadReader } from '../../protocol/handshake.js';
import { connectTo } from '../play-case.js';
import type { ServerTarget } from '../play-types.js';
import { writeBytewise, writePaced, writeStreamed, writeTrickle } from './writers.js';
import { connectionQueues } from '../../util/kernel-queues.js';

/** The longest response head read (a server's answer to an attack is short; more is an answer too). */
const MAX_ANSWER_HEAD = 64 * 1024;

/** The request head a probe writes: the case's, or the normal one (a streamed header is appended by the writer). */
function requestHead(probe: AttackProbe, normal: UpgradeRequestSpec): Buffer {
  const text = probe.request?.(normal) ?? buildUpgradeRequest(normal);
  // A streamed header goes where the head's empty line was: the head is written up to it.
  return Buffer.from(probe.delivery?.kind === 'streamed' ? text.replace(/\r\n$/, '') : text, 'latin1');
}

/**
 * Plays one probe; never rejects. `signal` ends it at once (ending 'timeout'); `written` is told once
 * the request head is all written (a head that never ends: once its first byte is).
 */
export function runProbe(
  target: ServerTarget,
  probe: AttackProbe,
  normal: UpgradeRequestSpec,
  signal?: AbortSignal,
  written?: () => void,
): Promise<ProbeFacts> {
  const t0 = performance.now();
  let answeredAt: number | null = null;
  return new Promise((resolve) => {
    const m = {
      requestBytes: 0,
      status: null as number | null,
      answerMs: null as number | null,
      closedMs: null as number | null,
      closeCode: null as number | null,
      trickled: 0,
      peerReadBytes: undefined as number | null | undefined,
    };
    // Null until something ended the connection; wsgate ending it after the answer counts as closed.
    let ending: ProbeFacts['ending'] | null = null;
    let done = false;
    let timer: NodeJS.Timeout | null = null;
    let trickle: NodeJS.Timeout | null = null;
    let socket: Socket | null = null;
    const head = requestHead(probe, normal);
    const finish = (): void => {
      if (done) return;
      done = true;
      if (timer !== null) clearTimeout(timer);
      if (trickle !== null) clearInterval(trickle);
      signal?.removeEventListener('abort', onAbort);
      // A request cut short by the server's end: what went out before it.
      if (m.requestBytes === 0 && socket !== null)
        m.requestBytes = probe.delivery?.kind === 'streamed' ? socket.bytesWritten : Math.min(head.length, socket.bytesWritten);
      socket?.destroy();
      resolve({
        label: probe.label,
        size: probe.size,
        waitMs: probe.waitMs,
        ...m,
        ending: ending ?? 'closed',
        elapsedMs: (answeredAt ?? performance.now()) - t0,
      });
    };
    const onAbort = (): void => {
      ending ??= 'timeout';
      finish();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const wait = (): void => {
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(() => {
        ending ??= 'timeout';
        finish();
      }, probe.waitMs);
    };
    wait();
    socket = connectTo(
      target,
      (s) =>
        new ProbeConnection(s, probe, m, head, {
          finish,
          wait,
          ended: (how) => (ending ??= how),
          setTrickle: (t) => (trickle = t),
          answered: () => (answeredAt ??= performance.now()),
          written: () => written?.(),
        }),
      () => {
        ending = 'refused';
        finish();
      },
    );
    if (done) socket.destroy();
  });
}

type Measured = { -readonly [K in 'requestBytes' | 'status' | 'answerMs' | 'closedMs' | 'closeCode' | 'trickled' | 'peerReadBytes']: ProbeFacts[K] };

/** What a probe's connection tells the probe: its end, and the timers it starts. */
interface ProbeHooks {
  finish: () => void;
  /** (Re)starts the wait for the answer or the end. */
  wait: () => void;
  /** How the connection ended, unless something ended it before. */
  ended: (how: ProbeFacts['ending']) => void;
  setTrickle: (t: NodeJS.Timeout) => void;
  /** The answer's head came (its time is the probe's elapsed time). */
  answered: () => void;
  /** The request head is all written (a trickled one: its first byte). */
  written: () => void;
}

/**
 * One probe's connection: writes the request head, reads the answer's head, then (after a 101 and
 * `afterOpen`) writes the frame header and the trickle, and reads the server's frames for a close.
 */
class ProbeConnection {
  private readonly head = new HeadReader(MAX_ANSWER_HEAD);
  private frames: FrameReader | null = null;
  private readonly sink: FrameSink = this.closeSink();
  private headerAt: number | null = null;
  private writtenAt: number | null = null;
  private closePayload: Buffer[] = [];
  private readonly finish: () => void;
  private readonly wait: () => void;

  constructor(
    private readonly socket: Socket,
    private readonly probe: AttackProbe,
    private readonly m: Measured,
    request: Buffer,
    private readonly hooks: ProbeHooks,
  ) {
    this.finish = hooks.finish;
    this.wait = hooks.wait;
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') hooks.ended('reset');
    });
    socket.on('close', () => {
      hooks.ended('closed');
      this.onEnd();
      this.finish();
    });
    this.wait();
    this.write(request);
  }

  /** Writes the request head as the probe's delivery says; its end (or a streamed header's start) is where the answer time starts. */
  private write(request: Buffer): void {
    const delivery = this.probe.delivery;
    const m = this.m;
    const whole = (): void => {
      this.writtenAt = performance.now();
      m.requestBytes = request.length;
      this.hooks.written();
    };
    if (delivery === undefined) {
      this.socket.write(request, (err) => {
        if (err == null) whole();
      });
    } else if (delivery.kind === 'bytewise') {
      // The wait for the answer starts again after the last byte.
      writeBytewise(this.socket, request, () => {
        whole();
        this.wait();
      });
    } else if (delivery.kind === 'paced') {
      m.peerReadBytes = null;
      writePaced(
        this.socket,
        request,
        { bytes: delivery.pieceBytes, everyMs: delivery.everyMs },
        () => {
          this.sampleRead();
          whole();
          this.wait();
        },
        // The time wsgate takes to write the pieces is its own (a starved wsgate paces slower), not
        // the server's: the wait starts again as they go. A piece is written once the kernel took the
        // one before, so a server that stops reading stops them, and its wait runs out.
        () => {
          this.sampleRead();
          this.wait();
        },
      );
    } else if (delivery.kind === 'trickle') {
      this.hooks.written();
      this.hooks.setTrickle(writeTrickle(this.socket, request, delivery.everyMs, () => (m.requestBytes += 1)));
    } else {
      this.writtenAt = performance.now();
      this.hooks.written();
      const piece = streamedPiece(delivery);
      const prefix = Buffer.concat([request, Buffer.from(`${delivery.header}: `, 'latin1')]);
      m.peerReadBytes = null;
      writeStreamed(
        this.socket,
        { prefix, piece, totalBytes: delivery.totalBytes, suffix: Buffer.from('\r\n\r\n', 'latin1') },
        () => {
          m.requestBytes = prefix.length + delivery.totalBytes + 4;
        },
        () => this.sampleRead(),
      );
    }
  }

  onData(chunk: Buffer): void {
    if (this.frames !== null) {
      this.frames.push(chunk, this.sink);
      return;
    }
    const read = this.head.push(chunk);
    if (read === 'more') return;
    const now = performance.now();
    if (this.m.peerReadBytes !== undefined) this.sampleRead();
    this.hooks.answered();
    // An answer before the request was all written (a refusal of its first part) took no time after it.
    this.m.answerMs = Math.max(0, now - (this.writtenAt ?? now));
    if (this.m.requestBytes === 0) this.m.requestBytes = this.socket.bytesWritten;
    const text = read === 'too-big' ? chunk.toString('latin1', 0, 64) : read.head.toString('latin1', 0, 64);
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(text);
    this.m.status = status === null ? 0 : Number(status[1]);
    if (this.m.status !== 101 || this.probe.afterOpen === undefined || read === 'too-big') {
      this.finish();
      return;
    }
    this.open(read.rest);
  }

  /** How much of what wsgate flushed the server's process has read now, kept when the most so far. */
  private sampleRead(): void {
    const queues = connectionQueues(this.socket);
    if (queues === null) return;
    const flushed = this.socket.bytesWritten - this.socket.writableLength;
    this.m.peerReadBytes = Math.max(this.m.peerReadBytes ?? 0, flushed - queues.ourUnacked - queues.peerUnread);
  }

  /** The server ended TCP: after the frame header, that is its refusal (unless a close frame came first). */
  onEnd(): void {
    if (this.headerAt !== null && this.m.closedMs === null) this.m.closedMs = performance.now() - this.headerAt;
  }

  /** After the 101: the frame header, the trickle, and the server's frames read for a close. */
  private open(rest: Buffer): void {
    const after = this.probe.afterOpen;
    if (after === undefined) return;
    this.frames = new FrameReader({ requireMask: false, refuseMask: false, compressionNegotiated: true, maxFramePayload: 0 });
    this.socket.write(after.head);
    this.headerAt = performance.now();
    this.wait();
    if (rest.length > 0) this.frames.push(rest, this.sink);
    const t = after.trickle;
    if (t === undefined) return;
    const piece = Buffer.alloc(t.pieceBytes);
    this.hooks.setTrickle(
      setInterval(() => {
        if (this.m.trickled >= t.totalBytes || this.socket.destroyed) return;
        this.socket.write(piece);
        this.m.trickled += piece.length;
      }, t.everyMs),
    );
  }

  /** Notes the server's close frame (its code) and ends the probe there. */
  private closeSink(): FrameSink {
    return {
      onViolation: () => undefined,
      onFrameBegin: (h: FrameHeader) => {
        if (h.opcode === Opcode.Close) this.closePayload = [];
      },
      onFrameData: (chunk: Buffer) => {
        if (this.closePayload.length < 4) this.closePayload.push(Buffer.from(chunk));
      },
      onFrameEnd: (h: FrameHeader) => {
        if (h.opcode !== Opcode.Close || this.headerAt === null) return;
        const payload = Buffer.concat(this.closePayload);
        this.m.closeCode = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
        this.m.closedMs = performance.now() - this.headerAt;
        this.finish();
      },
    };
  }
}

/** Fixed probes, one connection each, one after another, judged together. */
export const probesPlayer: AttackPlayer<ProbesAttack> = {
  async play(attack, on) {
    const played: ProbeFacts[] = [];
    for (const p of attack.probes) {
      if (on.stopped()) break;
      played.push(await on.probe(p));
    }
    return { verdict: attack.judge(played, on.budgets), ...probeLines(played) };
  },
};

/** One line per probe: what was written, what came back. */
export function probeLines(probes: readonly ProbeFacts[]): { request: string; response: string } {
  return {
    request: probes
      .map((p) => `${p.label}: ${count(p.requestBytes)} request bytes${p.trickled > 0 ? `, ${count(p.trickled)} payload bytes trickled` : ''}`)
      .join('\n'),
    response: probes
      .map(
        (p) =>
          `${p.label}: ${answerText(p)}${p.closedMs === null ? '' : `; ended ${Math.round(p.closedMs)} ms after the frame header${p.closeCode === null ? '' : ` (close ${p.closeCode})`}`}`,
      )
      .join('\n'),
  };
}

/**
 * The piece a streamed header repeats: `pieceBytes` of a value; or, with `lineBytes`, a value that
 * ends its line and starts the next one of the same name, so the repeats are whole header lines.
 */
function streamedPiece(d: { header: string; pieceBytes: number; totalBytes: number; lineBytes?: number }): Buffer {
  if (d.lineBytes === undefined) return Buffer.alloc(Math.min(d.pieceBytes, d.totalBytes), 'a');
  const next = `\r\n${d.header}: `;
  const line = `${'a'.repeat(Math.max(1, d.lineBytes - next.length))}${next}`;
  // As many whole lines as fit a piece: one write each, as for a single line.
  return Buffer.from(line.repeat(Math.max(1, Math.floor(d.pieceBytes / line.length))), 'latin1');
}
