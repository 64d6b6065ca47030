/**
 * The repro runtime's replay of wsgate's side: each recorded write in order, no earlier than its
 * recorded time and not before the peer has sent as many frame octets as it had then (waiting at most
 * RX_WAIT_MS longer, so a peer that behaves differently cannot hang it); the case's own events; and
 * TCP ended as wsgate ended it.
 */
import type { ReproWrite } from './data.js';
import type { ReproSession } from './session.js';

/** Plays wsgate's recorded writes on a session's socket. */
export class ReproReplay {
  /** How long something waits past its time for peer octets the peer had sent by then in the run. */
  private readonly rxWaitMs = 2000;
  /** How long the repro waits for the peer to close TCP once wsgate's part is played. */
  private readonly peerCloseWaitMs = 10000;
  private next = 0;
  /** Where the next piece of a chopped write starts. */
  private piece = 0;
  private nextMark = 0;
  private lastSent = 0;
  private waitTimer: NodeJS.Timeout | null = null;
  private endTimer: NodeJS.Timeout | null = null;
  private lagNoted = false;
  private finished = false;

  constructor(
    private readonly s: ReproSession,
    private readonly writes: readonly ReproWrite[],
  ) {}

  /** Whether something recorded at (t, needRx) may happen now; else a timer calls pump again. */
  private ready(t: number, needRx: number): boolean {
    const now = performance.now() - this.s.t0;
    if (now < t) {
      this.waitTimer = setTimeout(() => this.pump(), Math.ceil(t - now));
      return false;
    }
    if (this.s.rx >= needRx) return true;
    const giveUp = Math.max(t, this.lastSent) + this.rxWaitMs;
    if (now >= giveUp) {
      if (!this.lagNoted) this.s.sayNow(`(the peer has sent ${this.s.rx} of the ${needRx} frame octets it had sent by now in the run: going on without them)`);
      this.lagNoted = true;
      return true;
    }
    this.waitTimer = setTimeout(() => this.pump(), Math.ceil(giveUp - now));
    return false;
  }

  /** Plays what is due: writes made together leave together, a sync write in a TCP write of its own. */
  pump(): void {
    this.stop();
    const socket = this.s.socket;
    if (socket === null || this.s.tcpDone || !this.s.open || this.finished) return;
    socket.cork();
    try {
      for (;;) {
        const w = this.writes[this.next];
        const m = this.s.data.marks[this.nextMark];
        if (m !== undefined && (w === undefined || m[0] < w.t)) {
          if (!this.ready(m[0], m[1])) return;
          this.nextMark += 1;
          this.s.mark(m[2]);
          continue;
        }
        if (w === undefined) return this.endTcp();
        if (this.piece === 0 && !this.ready(w.t, w.rx)) return;
        if (w.sync) socket.uncork();
        if (w.chop > 0 && this.piece + w.chop < w.data.length) {
          // One piece per loop turn, as wsgate wrote them.
          this.send(w.data.subarray(this.piece, this.piece + w.chop));
          this.piece += w.chop;
          setImmediate(() => this.pump());
          return;
        }
        this.send(w.chop > 0 ? w.data.subarray(this.piece) : w.data);
        this.piece = 0;
        this.next += 1;
        if (w.sync || this.writes[this.next]?.sync === true) {
          setImmediate(() => this.pump());
          return;
        }
      }
    } finally {
      process.nextTick(() => {
        while (socket.writableCorked > 0) socket.uncork();
      });
    }
  }

  private send(data: Buffer): void {
    if (this.s.socket === null || this.s.tcpDone) return;
    this.s.socket.write(data);
    this.lastSent = performance.now() - this.s.t0;
    this.s.ourBytes(data);
  }

  /** wsgate's part is played: end TCP as it did, or wait for the peer to. */
  private endTcp(): void {
    const socket = this.s.socket;
    const end = this.s.data.end;
    if (socket === null) return;
    if (end === null) {
      this.finished = true;
      this.endTimer = setTimeout(() => {
        this.s.sayNow(`(the peer did not close TCP within ${this.peerCloseWaitMs / 1000} s of wsgate's last write: the repro drops it)`);
        this.s.droppedByMe = true;
        socket.destroy();
      }, this.peerCloseWaitMs);
      return;
    }
    const [t, needRx, how, unclean] = end;
    if (!this.ready(t, needRx)) return;
    this.finished = true;
    this.s.droppedByMe = true;
    this.s.uncleanEnd = unclean;
    this.s.sayNow(`wsgate ${how === 'abort' ? 'drops TCP' : 'closes TCP (FIN once its writes have left)'}${unclean !== null ? `: ${unclean}` : ''}`);
    // As wsgate: after the FIN has left, the socket goes (nothing the peer sends later is read).
    if (how === 'abort') socket.destroy();
    else socket.end(() => socket.destroy());
  }

  /** No more waiting (the connection is gone, or pump runs again). */
  stop(): void {
    if (this.waitTimer !== null) clearTimeout(this.waitTimer);
    this.waitTimer = null;
    if (this.s.tcpDone && this.endTimer !== null) clearTimeout(this.endTimer);
  }
}
