/**
 * A growth attack's plan: one header at growing sizes, each on a fresh connection, until the server's
 * HTTP layer refuses one; then between the last size taken and the first refused, so the largest
 * figure is close to what the server accepts; the largest, its quarter and a small value timed again
 * (the shortest of three tries: noise on a shared machine only ever adds time). A connection the
 * server drops without an answer is a refusal too, but not a limit on the size: what the server
 * spent reading the value before it dropped it is the cost the case is about, so the climb goes on
 * through drops (each timed to the drop) until one of them is slow.
 */
import type { AttackProbe, GrowthAttack, GrowthFacts, ProbeFacts, SizedTime } from '../../cases/attack-types.js';
import { buildUpgradeRequest } from '../../protocol/client-handshake.js';
import { scaledMs } from '../../cases/data/budgets.js';
import type { AttackPlayer } from './player.js';
import { probeLines } from './probe.js';
import { droppedProbe, dropMs } from '../../robustness/attack-judges.js';

/** Statuses of an HTTP layer refusing a request for its size, before any WebSocket code reads it. */
const SIZE_REFUSALS: ReadonlySet<number> = new Set([413, 414, 431, 494]);

/** How the plan plays a probe (the engine's runProbe, bound to the target). */
export type PlayProbe = (probe: AttackProbe) => Promise<ProbeFacts>;

/** Tries per timed size. */
const TRIES = 3;
/** Bisection steps between the last size taken and the first refused. */
const BISECTIONS = 4;

/** Where the climb ended: the largest size taken, the smallest refused, whether an answer was already over the budget. */
interface Climb {
  top: number | null;
  cap: number | null;
  over: boolean;
  /** The server stopped answering (no answer in time, or no connection): nothing more is tried. */
  gone: boolean;
}

/** One growth attack in progress: the probes played, and how each is read. */
class GrowthRun {
  readonly probes: ProbeFacts[] = [];
  private readonly waitMs: number;

  constructor(
    private readonly attack: GrowthAttack,
    private readonly play: PlayProbe,
    readonly stopped: () => boolean,
  ) {
    this.waitMs = Math.max(3000, attack.stopAfterMs * 3);
  }

  /** The header at n bytes, on a fresh connection. */
  async at(n: number): Promise<ProbeFacts> {
    const { header, value } = this.attack;
    const p = await this.play({
      label: `${n.toLocaleString('en-US')} byte${n === 1 ? '' : 's'}`,
      size: n,
      waitMs: this.waitMs,
      request: (normal) => buildUpgradeRequest({ ...normal, headers: [...(normal.headers ?? []), [header, value(n)]] }),
    });
    this.probes.push(p);
    return p;
  }

  kind(p: ProbeFacts): 'taken' | 'refused' | 'gone' {
    if (p.status === null) return p.ending === 'closed' || p.ending === 'reset' ? 'refused' : 'gone';
    return SIZE_REFUSALS.has(p.status) ? 'refused' : 'taken';
  }

  slow(p: ProbeFacts): boolean {
    return (p.answerMs ?? 0) > this.attack.stopAfterMs;
  }

  /** A connection dropped with no answer (closed or reset): refused, at a cost of its own. */
  dropped(p: ProbeFacts): boolean {
    return droppedProbe(p);
  }

  /** Up the sizes until one is refused (a drop does not stop it), an answer or a drop is over the budget, or the server is gone. */
  async climb(): Promise<Climb> {
    const climb = await this.up();
    // The smallest size dropped above the largest taken is where the HTTP layer's limit is looked for.
    const drop = this.probes.filter((p) => this.dropped(p) && (climb.top === null || p.size > climb.top)).map((p) => p.size);
    return climb.cap === null && !climb.over && !climb.gone && drop.length > 0 && climb.top !== null ? { ...climb, cap: Math.min(...drop) } : climb;
  }

  private async up(): Promise<Climb> {
    let top: number | null = null;
    for (const n of this.attack.sizes) {
      if (this.stopped()) return { top, cap: null, over: false, gone: true };
      const p = await this.at(n);
      const k = this.kind(p);
      if (k === 'gone') return { top, cap: null, over: false, gone: true };
      // A drop took the server its time to decide (the figure the judge reads: dropMs); past the budget, the climb ends.
      if (this.dropped(p) && dropMs(p) > this.attack.stopAfterMs) return { top, cap: null, over: true, gone: false };
      if (this.dropped(p)) continue;
      if (k === 'refused') return { top, cap: n, over: false, gone: false };
      top = n;
      if (this.slow(p)) return { top, cap: null, over: true, gone: false };
    }
    return { top, cap: null, over: false, gone: false };
  }

  /** Between the largest size taken and the smallest refused, so the largest figure is near the HTTP layer's limit. */
  async bisect(climb: Climb & { top: number }): Promise<Climb & { top: number }> {
    let { top, cap, over } = climb;
    for (let step = 0; step < BISECTIONS && cap !== null && !over && !this.stopped(); step++) {
      const mid: number = Math.round((top + cap) / 200) * 100;
      if (mid <= top || mid >= cap) break;
      const p = await this.at(mid);
      const k = this.kind(p);
      if (k === 'gone') break;
      if (k === 'refused') cap = mid;
      else {
        top = mid;
        over = this.slow(p);
      }
    }
    return { ...climb, top, cap, over };
  }

  /** Plays size n up to `tries` times more (fewer once an answer is slow or missing). */
  async again(n: number, tries: number): Promise<void> {
    for (let i = 0; i < tries && !this.stopped(); i++) {
      const p = await this.at(n);
      if (p.answerMs === null || this.slow(p)) break;
    }
  }

  /** The shortest answer time of size n among the probes played (noise only ever adds time). */
  best(n: number): SizedTime {
    const times = this.probes.filter((p) => p.size === n && p.answerMs !== null && this.kind(p) === 'taken').map((p) => p.answerMs ?? 0);
    return { size: n, ms: times.length === 0 ? 0 : Math.min(...times) };
  }
}

/** Plays the growth attack; `stopped` ends it early (the run was interrupted, or the case's limit). */
export async function runGrowth(attack: GrowthAttack, play: PlayProbe, stopped: () => boolean): Promise<GrowthFacts> {
  const run = new GrowthRun(attack, play, stopped);
  const climb = await run.climb();
  const empty = (): GrowthFacts => ({ probes: run.probes, base: null, largest: null, quarter: null, cap: climb.cap });
  if (climb.top === null || climb.gone) return climb.top === null ? empty() : { ...empty(), largest: run.best(climb.top) };
  const { top: largest, cap, over } = await run.bisect({ ...climb, top: climb.top });
  // A size already over the budget is not tried again: its figure is in.
  if (!over) await run.again(largest, TRIES - 1);
  const quarter = Math.max(1, Math.round(largest / 4));
  if (largest >= 4) await run.again(quarter, TRIES);
  await run.again(1, TRIES);
  return { probes: run.probes, base: run.best(1), largest: run.best(largest), quarter: largest >= 4 ? run.best(quarter) : null, cap };
}

/** A header grown until the HTTP layer refuses it, its answer times the figures (its stop time under the run's `time` budget). */
export const growthPlayer: AttackPlayer<GrowthAttack> = {
  async play(attack, on) {
    const facts = await runGrowth({ ...attack, stopAfterMs: scaledMs(attack.stopAfterMs, on.budgets) }, (p) => on.probe(p), on.stopped);
    return { verdict: attack.judge(facts, on.budgets), ...probeLines(facts.probes) };
  },
};
