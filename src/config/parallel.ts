/** How a run is spread: --jobs (cases at once) and --shard (which slice of the selection). */
import os from 'node:os';

/** --jobs when not given: one case per core, at most 8. */
export function defaultJobs(): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, Math.min(8, cores));
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
