/**
 * The interop matrix in the bench (`--matrix`; bench/bench.ts): `wsgate matrix` over the installed
 * rows of the registry (browser engines are the browser section's), one process as a user runs it,
 * then per row what its run's summary.json says: wall time, wsgate's CPU, the peer's CPU, and the
 * row's CPU floor, (wsgate's CPU + the peer's) / cores, the wall time a row cannot beat on this
 * machine. Forty rows multiply every idle second: the goal is a wall time within 1.3 times the
 * floor, per row and for the matrix. `peer CPU / wall` near 1 in a server row is its one server
 * process busy all the time: a single-threaded server cannot use the second core, so such a row
 * cannot reach the floor whatever wsgate does.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRegistry } from '../src/matrix/registry.js';
import { planRows } from '../src/matrix/rows.js';
import { fmtN } from './runs.js';

/** A row's wall time against its CPU floor. */
export const GOAL_FLOOR_RATIO = 1.3;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface RowSummary {
  durationMs: number;
  counts: { total: number; passed: number; failed: number };
  resources: { cpuUserMs: number; cpuSystemMs: number; maxRssKiB: number; clientCpuMs: number | null } | null;
}

/** The installed, non-browser implementations of the registry (`only`: these names), as `--only` takes them. */
export function benchImplementations(only: readonly string[] | null): string[] {
  const rows = planRows(readRegistry(path.join(ROOT, 'interop/implementations')), { only: only ?? [], role: null }, ROOT);
  const installed = rows.filter((r) => r.version !== null && !(r.impl.roles[r.role]?.args ?? []).includes('--browser'));
  return [...new Set(installed.map((r) => r.impl.name))];
}

/** Runs the matrix (`selection`: --quick or --cases …) and prints its table; returns what missed the goal or could not run. */
export async function matrixSection(
  cli: string,
  nodeFlags: readonly string[],
  env: NodeJS.ProcessEnv,
  base: string,
  names: readonly string[],
  selection: readonly string[],
): Promise<string[]> {
  const outdir = path.join(base, 'matrix');
  if (names.length === 0) {
    process.stdout.write('\nMatrix: no implementation of the registry is installed here (interop/install.sh installs them).\n');
    return [];
  }
  const t0 = performance.now();
  const code = await new Promise<number>((resolve) => {
    execFile(
      process.execPath,
      [...nodeFlags, cli, 'matrix', '--only', ...names, ...selection, '--outdir', outdir],
      { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 },
      (err) => resolve(err === null ? 0 : typeof err.code === 'number' ? err.code : -1),
    );
  });
  const wallS = (performance.now() - t0) / 1000;
  const problems = code === 0 ? [] : [`matrix: exit status ${code}`];
  return [...problems, ...matrixTable(outdir, wallS, selection.join(' '))];
}

/**
 * The table of a matrix directory: per row what its summary.json says, against its CPU floor on
 * this machine's cores. `wallS`: the matrix's own wall time when it ran here as one process; null
 * for a matrix run elsewhere or joined from one run per implementation (`--matrix-from DIR`), whose
 * wall is then the sum of its rows'. Returns what missed the goal.
 */
export function matrixTable(outdir: string, wallS: number | null, label: string): string[] {
  const cores = os.availableParallelism();
  const matrix = JSON.parse(readFileSync(path.join(outdir, 'matrix.json'), 'utf8')) as {
    rows: Array<{ name: string; role: string; version: string | null; reportDir: string | null; error: string | null }>;
  };
  const problems: string[] = [];
  const lines: string[] = [];
  let floorSum = 0;
  let rowWallSum = 0;
  let peakRss = 0;
  for (const r of matrix.rows) {
    const key = `${r.name}-${r.role}`;
    if (r.reportDir === null) {
      lines.push(`| ${key} | ${r.version ?? 'not installed'} | ${r.error === null ? '' : `could not run: ${r.error}`} ||||||||`);
      continue;
    }
    const s = JSON.parse(readFileSync(path.join(outdir, r.reportDir, 'summary.json'), 'utf8')) as RowSummary;
    const wall = s.durationMs / 1000;
    const own = s.resources === null ? Number.NaN : (s.resources.cpuUserMs + s.resources.cpuSystemMs) / 1000;
    const peer = s.resources?.clientCpuMs == null ? Number.NaN : s.resources.clientCpuMs / 1000;
    const floor = (own + peer) / cores;
    const ratio = wall / floor;
    if (Number.isFinite(floor)) {
      floorSum += floor;
      rowWallSum += wall;
    }
    peakRss = Math.max(peakRss, (s.resources?.maxRssKiB ?? 0) / 1024);
    lines.push(
      `| ${key} | ${r.version ?? ''} | ${s.counts.total} | ${fmtN(wall)} | ${fmtN(own)} | ${fmtN(peer)} | ${fmtN(peer / wall, 2)} | ${fmtN(floor)} | ${fmtN(ratio, 2)} | ${s.counts.failed} | ${ratio <= GOAL_FLOOR_RATIO ? 'met' : '**missed**'} |`,
    );
  }
  const wall = wallS ?? rowWallSum;
  const whole = wall / floorSum;
  if (!(whole <= GOAL_FLOOR_RATIO))
    problems.push(`matrix: wall ${fmtN(wall)} s is ${fmtN(whole, 2)} times its CPU floor ${fmtN(floorSum)} s (goal ${GOAL_FLOOR_RATIO})`);
  const how = wallS === null ? `the matrix of ${outdir}, its rows' walls summed` : '**the matrix**, one wsgate process';
  process.stdout.write(
    `\n| matrix (${label}), ${cores} cores | version | cases | wall s | wsgate CPU s | peer CPU s | peer CPU / wall | floor s | wall/floor | failed | goal: within ${GOAL_FLOOR_RATIO}x |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n${lines.join('\n')}\n` +
      `| ${how} | ${matrix.rows.length} rows | | ${fmtN(wall)}${wallS === null ? '' : ` (rows ${fmtN(rowWallSum)})`} | | | | ${fmtN(floorSum)} | ${fmtN(whole, 2)} | | ${whole <= GOAL_FLOOR_RATIO ? 'met' : '**missed**'} |\n` +
      `\nMatrix: peak RSS of the wsgate process ${fmtN(peakRss)} MiB; reports: ${outdir}\n`,
  );
  return problems;
}
