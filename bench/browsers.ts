/**
 * Browser engines in the bench (`--browsers`, on by default; `--browsers-only` runs it alone): each
 * engine installed here (`wsgate run --browser`, found where the distributions put it) plays the
 * quick profile, then the whole catalogue (`--no-browser-whole` leaves that out: about 13 minutes per
 * engine on 2 cores). An engine that is not installed gets a row that says so. The verdicts are the
 * engine's own: no reference to compare with, but a run cut short by the watchdog is a problem.
 */
import path from 'node:path';
import { discoverEngine, ENGINES } from '../src/browsers/engines.js';
import { BROWSER_ENGINES, type BrowserEngine } from '../src/config/schema.js';
import { fmtN, type RunResult } from './runs.js';

/** One browser run's figures beside what the bench reads of its summary. */
export interface BrowserRun extends RunResult {
  agent: string;
  interrupted: string | null;
  /** Cases reported skipped (UNIMPLEMENTED: a deflate case the engine's offer cannot negotiate). */
  skipped: number;
}

/** Runs every installed engine with `play`; prints the table; returns what went wrong. */
export async function browsersSection(
  play: (engine: BrowserEngine, quick: boolean, outdir: string) => Promise<BrowserRun | null>,
  base: string,
  whole: boolean,
): Promise<string[]> {
  const problems: string[] = [];
  const rows: string[] = [];
  for (const engine of BROWSER_ENGINES) {
    const kind = ENGINES[engine];
    const executable = discoverEngine(kind);
    if (executable === null) {
      rows.push(`| ${kind.label} | not installed (${kind.install}) | | | | | | | |`);
      continue;
    }
    for (const quick of whole ? [true, false] : [true]) {
      const r = await play(engine, quick, path.join(base, `browser-${engine}${quick ? '-quick' : ''}`));
      const what = quick ? '--quick' : 'whole catalogue';
      if (r === null) {
        problems.push(`${kind.label} (${what}): the run did not finish`);
        continue;
      }
      if (r.interrupted !== null) problems.push(`${kind.label} (${what}): cut short: ${r.interrupted}`);
      rows.push(
        `| ${r.agent} (${executable}) | ${what} | ${r.cases} | ${fmtN(r.wallS)} | ${fmtN(r.cases / r.wallS)} | ${fmtN(r.cpuS)} | ${fmtN(r.clientCpuS)} | ${fmtN(r.rssMiB)} | ${r.cases - r.failed - r.skipped} passed, ${r.failed} failed, ${r.skipped} skipped${r.interrupted === null ? '' : ', **cut short**'} |`,
      );
    }
  }
  process.stdout.write(
    `\n| browser engine (run --browser) | selection | cases | wall s | cases/s | wsgate CPU s | browser CPU s (its processes at the end) | wsgate peak RSS MiB | verdicts |\n|---|---|---:|---:|---:|---:|---:|---:|---|\n${rows.join('\n')}\n`,
  );
  return problems;
}
