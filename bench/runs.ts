/**
 * What one `wsgate run` of the bench measured (its summary.json read back), and the helpers the
 * bench's sections share to compare runs: verdicts that differ, medians of repeated runs.
 */

/** One finished run: wall time as the bench saw it, wsgate's resources and its verdicts per case. */
export interface RunResult {
  wallS: number;
  cpuS: number;
  clientCpuS: number;
  rssMiB: number;
  failed: number;
  cases: number;
  verdicts: Map<string, string>;
  /** Each case's duration in ms, as summary.json reports it (how long the case played). */
  durations: Map<string, number>;
  mismatches: string[];
}

/** Case ids whose verdicts differ between two runs. */
export function differences(a: RunResult, b: RunResult): string[] {
  const ids = new Set([...a.verdicts.keys(), ...b.verdicts.keys()]);
  return [...ids]
    .filter((id) => a.verdicts.get(id) !== b.verdicts.get(id))
    .map((id) => `${id}: ${a.verdicts.get(id) ?? 'missing'} vs ${b.verdicts.get(id) ?? 'missing'}`);
}

/** The median of a non-empty list (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/**
 * Repeated runs of one selection as one row: the median of each figure separately (so a row's
 * figures may come from different runs); verdicts, durations and mismatches are the median wall
 * time's run's (its index, for an even count the upper middle).
 */
export function medianRun(runs: RunResult[]): RunResult {
  const pick = (f: (r: RunResult) => number): number => median(runs.map(f));
  const byWall = [...runs].sort((a, b) => a.wallS - b.wallS);
  const middle = byWall[Math.floor(byWall.length / 2)] as RunResult;
  return {
    ...middle,
    wallS: pick((r) => r.wallS),
    cpuS: pick((r) => r.cpuS),
    clientCpuS: pick((r) => r.clientCpuS),
    rssMiB: pick((r) => r.rssMiB),
    failed: Math.max(...runs.map((r) => r.failed)),
  };
}

/** Numbers as the bench's tables print them: fixed decimals, "-" for a figure that is missing. */
export function fmtN(n: number, d = 1): string {
  return Number.isFinite(n) ? n.toFixed(d) : '-';
}
