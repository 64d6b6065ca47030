/**
 * What the robustness tests (test/robustness/) share: the pinned releases and the broken server as
 * commands, and `wsgate run --robustness` through the real CLI with its reports read back.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCliWith, type SummaryCase } from './cli-env.js';
import { tempDir } from './harness.js';
import { pinnedRelease } from './requirements.js';

const BROKEN_SERVER = fileURLToPath(new URL('../fixtures/servers/broken-server.js', import.meta.url));

/**
 * The command that starts a pinned release's echo server (test/fixtures/robustness/NAME/server.cjs);
 * a test that uses it declares `{ skip: needsReleases(NAME) }`, and this checks the release again.
 */
export function release(name: string): string {
  const { dir, skip } = pinnedRelease(name);
  assert.equal(skip, false, `${name}: ${String(skip)}`);
  return `'${process.execPath}' '${path.join(dir, 'server.cjs')}' {port}`;
}

/** The command that runs a pinned release's client (test/fixtures/robustness/NAME/client.mjs), checked as `release` is. */
export function pinnedClient(name: string): string {
  const { dir, skip } = pinnedRelease(name);
  assert.equal(skip, false, `${name}: ${String(skip)}`);
  return `'${process.execPath}' '${path.join(dir, 'client.mjs')}' {url}`;
}

/** The command that starts test/fixtures/servers/broken-server.ts in one of its modes. */
export function brokenServer(mode: string): string {
  return `'${process.execPath}' '${BROKEN_SERVER}' ${mode} {port}`;
}

/** What a run reported: its exit status and output, the summary's cases, and a case's own report. */
export interface RobustnessRun {
  code: number | null;
  out: string;
  cases: Map<string, SummaryCase>;
  report: (id: string) => Promise<{
    behavior: string;
    behaviorClose: string;
    remoteCloseCode: number | null;
    result: string;
    httpRequest: string;
    figures?: { name: string; value: number; unit: string; budget: number | null; over: boolean }[];
  }>;
  result: (id: string) => Promise<string>;
}

/** `wsgate run --robustness ARGS` (agent "sut") into a fresh report directory; it must exit 0 or 1. */
export async function runRobustness(args: string[], timeoutMs = 90_000): Promise<RobustnessRun> {
  const outdir = path.join(await tempDir(), 'reports');
  const res = await runCliWith(['run', '--robustness', '--agent', 'sut', '--outdir', outdir, ...args], { timeoutMs });
  const out = res.stdout + res.stderr;
  assert.ok(res.code === 0 || res.code === 1, out);
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as { cases: SummaryCase[] };
  const report = async (id: string): Promise<Awaited<ReturnType<RobustnessRun['report']>>> =>
    JSON.parse(await readFile(path.join(outdir, `sut_case_${id.replace(/\./g, '_')}.json`), 'utf8')) as Awaited<ReturnType<RobustnessRun['report']>>;
  return { code: res.code, out, cases: new Map(summary.cases.map((c) => [c.id, c])), report, result: async (id) => (await report(id)).result };
}
