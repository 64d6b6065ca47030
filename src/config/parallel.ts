/** How a run is spread: --jobs (cases at once) and --shard (which slice of the selection). */
import os from 'node:os';

/** --jobs when not given: one case per core, at most 8. */
export function defaultJobs(): number {
  return Math.max(1, Math.min(8, cores()));
}

/**
 * A matrix row's --jobs when not given: two cases per core, at most 8. A row is a throughput run:
 * each case is a ping-pong in which wsgate and the peer take turns, so one case per core leaves a
 * core idle about half the time (bench: the heavy groups against ws-bundled on 2 cores, wall/floor
 * 1.57 with 2 jobs, 1.37 with 4, 1.32 with 8). The catalogue's verdicts do not depend on it
 * (test/gate/jobs.test.ts); group 9 and the read-ahead races still run alone.
 */
export function matrixJobs(n: number = cores()): number {
  return Math.max(1, Math.min(8, 2 * n));
}

function cores(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}

/** A shard: the K-th (1-based) of N slices. */
export interface Shard {
  index: number;
  count: number;
}

/** Parses "K/N" (1 <= K <= N <= 1000); null with a reason on anything else. */
export function parseShard(text: string): Shard | string {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (m === null) return `--shard takes K/N (e.g. 2/4), got ${JSON.stringify(text)}`;
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > 1000) return `--shard: N must be 1..1000, got ${count}`;
  if (index < 1 || index > count) return `--shard: K must be 1..${count}, got ${index}`;
  return { index, count };
}
