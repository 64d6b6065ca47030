/**
 * Before and after a run's cases: the report paths checked up front, and the resources the run used
 * (its own CPU and memory, its peers' CPU).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { RunSettings } from '../config/run-config.js';
import { UsageError } from '../errors.js';
import type { RunResources } from '../model/report.js';
import { checkDirectories } from '../report/files.js';

/** Every place a report goes is checked before any case runs: a run must not end in an unwritable path. */
export async function checkOutputs(config: Pick<RunSettings, 'outdir' | 'junit' | 'json'>): Promise<void> {
  await checkDirectories([
    ['the report directory', config.outdir],
    ['the --junit directory', path.dirname(config.junit)],
    ['the --json directory', path.dirname(config.json)],
  ]);
  for (const [flag, file] of [
    ['--junit', config.junit],
    ['--json', config.json],
  ] as const) {
    const isDir = await stat(file).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (isDir) throw new UsageError(`${flag} ${file} is a directory; give a file name`);
  }
}

/** A run's clock and CPU meter, started when its first peer is about to start. */
export interface RunMeter {
  startedAt: string;
  elapsedMs(): number;
  /** This process's CPU time and peak RSS since the start, with the peers' CPU time (null: unknown). */
  resources(peerCpuMs: number | null): RunResources;
}

export function startMeter(): RunMeter {
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const usage0 = process.cpuUsage();
  return {
    startedAt,
    elapsedMs: () => Math.round(performance.now() - t0),
    resources: (peerCpuMs) => {
      const cpu = process.cpuUsage(usage0);
      return {
        cpuUserMs: Math.round(cpu.user / 1000),
        cpuSystemMs: Math.round(cpu.system / 1000),
        maxRssKiB: process.resourceUsage().maxRSS,
        clientCpuMs: peerCpuMs,
      };
    },
  };
}
