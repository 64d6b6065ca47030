/**
 * The robustness profile (`--robustness`) in the bench: group 18 against the bundled ws client and
 * group 17 against the bundled ws server (and 17.5, its HTTP/2 floods, over --http2), each in one wsgate process, with the goals beside
 * the figures: the whole profile under 3 minutes per role, wsgate's own peak RSS under 300 MiB
 * (it writes a 1 GiB decompression bomb as a stream, never holds it).
 */
import path from 'node:path';
import { fmtN, type RunResult } from './runs.js';

/** The goals of the profile (issue 36), per role. */
const GOAL_WALL_S = 180;
const GOAL_RSS_MIB = 300;

/** Runs the profile in both roles with `play`; prints the table; returns what missed a goal or failed. */
export async function robustnessSection(
  play: (role: 'client' | 'server', outdir: string, http2: boolean) => Promise<RunResult | null>,
  base: string,
  jobs: number,
): Promise<string[]> {
  const problems: string[] = [];
  const rows: string[] = [];
  // Group 17.5 (--robustness --http2) against the bundled h2 server, a row of its own.
  for (const [role, http2] of [
    ['client', false],
    ['server', false],
    ['server', true],
  ] as const) {
    const r = await play(role, path.join(base, `robustness-${role}${http2 ? '-h2' : ''}`), http2);
    if (r === null) {
      problems.push(`robustness (${role} role${http2 ? ', HTTP/2' : ''}): the run did not finish`);
      continue;
    }
    const met = r.wallS < GOAL_WALL_S && r.rssMiB < GOAL_RSS_MIB;
    if (r.failed > 0) problems.push(`robustness (${role} role): ${r.failed} cases failed against the bundled ws ${role}`);
    if (!met) problems.push(`robustness (${role} role): a goal missed (wall ${fmtN(r.wallS)} s, peak RSS ${fmtN(r.rssMiB)} MiB)`);
    const group = role === 'client' ? 'group 18, bundled ws client' : http2 ? 'group 17.5 (--http2), bundled h2 server' : 'group 17, bundled ws server';
    rows.push(
      `| ${group} | ${r.cases} | ${fmtN(r.wallS)} | ${fmtN(r.cases / r.wallS)} | ${fmtN(r.cpuS)} | ${fmtN(r.clientCpuS)} | ${fmtN(r.rssMiB)} | ${r.failed} | ${met ? 'met' : '**missed**'} |`,
    );
  }
  process.stdout.write(
    `\n| robustness profile (--robustness), --jobs ${jobs} | cases | wall s | cases/s | wsgate CPU s | peer CPU s | wsgate peak RSS MiB | failed | goal: under ${GOAL_WALL_S} s and ${GOAL_RSS_MIB} MiB |\n|---|---:|---:|---:|---:|---:|---:|---:|---|\n${rows.join('\n')}\n`,
  );
  return problems;
}
