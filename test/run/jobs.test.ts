/**
 * Concurrent runs (--jobs) through the real CLI: the same verdicts and frame logs as one case at a
 * time, group 9 never overlapping anything, and hanging clients costing the timeout once per job slot.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fixtureCommand, REFERENCE_CLIENT, runCli, tempDir } from '../support/harness.js';

/** A mix: quick cases, cases with built-in pauses and timers, group 9 (runs alone), deflate. */
const SUBSET = [
  '1.1.1',
  '1.2.8',
  '2.3',
  '2.10',
  '3.2',
  '4.2.3',
  '5.6',
  '5.19',
  '6.4.1',
  '6.12.7',
  '7.1.5',
  '7.5.1',
  '7.9.3',
  '9.1.1',
  '9.7.1',
  '10.1.1',
  '12.1.3',
  '13.7.2',
];

interface Summary {
  cases: Array<{
    id: string;
    status: string;
    behavior: string | null;
    behaviorClose: string | null;
    remoteCloseCode: number | null;
    reason: string;
    reportfile: string | null;
    timeMs: number;
  }>;
}

type Wirelog = Array<[string, ...unknown[]]>;
interface CaseReport {
  behavior: string;
  behaviorClose: string;
  result: string;
  resultClose: string;
  remoteCloseCode: number | null;
  received: unknown[];
  started: string;
  duration: number;
  wirelog: Wirelog;
}

/** The frames of a frame log, without what depends on timing or chance: octet chunks, timers, mask keys. */
function frames(log: Wirelog): unknown[] {
  return log.filter((e) => e[0] === 'TF' || e[0] === 'RF').map((e) => (e[0] === 'RF' ? e.slice(0, 6) : e));
}

async function run(jobs: number, client: string): Promise<{ code: number | null; stdout: string; summary: Summary; reports: Map<string, CaseReport> }> {
  const outdir = await tempDir();
  const res = await runCli(['run', '--client', client, '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--jobs', String(jobs), '--cases', ...SUBSET], 180_000);
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as Summary;
  const reports = new Map<string, CaseReport>();
  for (const c of summary.cases) {
    assert.ok(c.reportfile !== null, `${c.id}: no report (${c.reason})`);
    reports.set(c.id, JSON.parse(await readFile(path.join(outdir, c.reportfile), 'utf8')) as CaseReport);
  }
  return { code: res.code, stdout: res.stdout, summary, reports };
}

describe('--jobs', () => {
  test('--jobs 1 and --jobs 8 (a client process per case) give the same verdicts and frame logs; group 9 overlaps nothing', async () => {
    const client = `'${process.execPath}' '${REFERENCE_CLIENT}' {url}`;
    const one = await run(1, client);
    const eight = await run(8, client);
    assert.equal(one.code, 0);
    assert.equal(eight.code, 0);
    assert.deepEqual(
      eight.summary.cases.map((c) => c.id),
      SUBSET,
    );
    for (const id of SUBSET) {
      const a = one.reports.get(id) as CaseReport;
      const b = eight.reports.get(id) as CaseReport;
      for (const key of ['behavior', 'behaviorClose', 'result', 'resultClose', 'remoteCloseCode', 'received'] as const) {
        assert.deepEqual(b[key], a[key], `${id}: ${key}`);
      }
      assert.deepEqual(frames(b.wirelog), frames(a.wirelog), `${id}: frames`);
    }
    // Did cases really overlap, and did the group 9 cases stay alone? From the reports' own clocks.
    const span = (r: CaseReport): [number, number] => [Date.parse(r.started), Date.parse(r.started) + r.duration];
    const spans = SUBSET.map((id) => ({ id, span: span(eight.reports.get(id) as CaseReport) }));
    const overlaps = (x: [number, number], y: [number, number]): boolean => x[0] < y[1] && y[0] < x[1];
    let overlapping = 0;
    for (const a of spans) {
      for (const b of spans) {
        if (a.id >= b.id || !overlaps(a.span, b.span)) continue;
        overlapping++;
        assert.ok(!a.id.startsWith('9.') && !b.id.startsWith('9.'), `${a.id} overlapped ${b.id}`);
      }
    }
    assert.ok(overlapping > 0, 'with --jobs 8 no two cases ran at the same time');
    // The console's counter counts cases as they finish: 1, 2, … N, whatever order they finish in.
    const counters = [...eight.stdout.matchAll(/^\[ *(\d+)\/(\d+)\] (?:pass|FAIL|warn|skip)/gm)].map((m) => `${m[1]}/${m[2]}`);
    assert.deepEqual(
      counters,
      SUBSET.map((_, i) => `${i + 1}/${SUBSET.length}`),
      eight.stdout,
    );
  });

  test('the bundled client running cases concurrently itself gets the same verdicts as one at a time', async () => {
    const dirs = [await tempDir(), await tempDir()];
    const runs = [];
    for (const [i, jobs] of [1, 4].entries()) {
      const res = await runCli(['run', '--url', 'ws://127.0.0.1:0', '--outdir', dirs[i] as string, '--jobs', String(jobs), '--cases', ...SUBSET], 180_000);
      assert.equal(res.code, 0, res.stderr);
      runs.push(JSON.parse(await readFile(path.join(dirs[i] as string, 'summary.json'), 'utf8')) as Summary);
    }
    const verdicts = (s: Summary): string[] => s.cases.map((c) => `${c.id} ${c.status} ${c.behavior}/${c.behaviorClose}/${c.remoteCloseCode}`);
    assert.deepEqual(verdicts(runs[1] as Summary), verdicts(runs[0] as Summary));
    assert.equal(runs[0]?.cases.length, SUBSET.length);
  });

  test('clients that hang on every case but the first: each costs the timeout, the job slots run them side by side, the report is complete', async () => {
    const outdir = await tempDir();
    const ids = ['1.1.1', '1.1.2', '1.1.3', '1.1.4', '1.1.5', '1.1.6', '1.1.7'];
    // Each hanging client notes when it started (ns since the epoch), to show the slots overlapped.
    const starts = path.join(await tempDir(), 'starts');
    // 1.1.1's client connects, so the command works and the run goes on (a command that never connects stops it).
    const client = `case {case} in 1.1.1) ${fixtureCommand('spec-peer')} ;; *) date +%s%N >> '${starts}'; ${fixtureCommand('never-connect')} ;; esac`;
    const res = await runCli(
      ['run', '--client', client, '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--jobs', '3', '--case-timeout', '2', '--cases', ...ids],
      60_000,
    );
    assert.equal(res.code, 1);
    const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as Summary;
    assert.deepEqual(
      summary.cases.map((c) => c.id),
      ids,
    );
    assert.equal(summary.cases[0]?.status, 'passed');
    for (const c of summary.cases.slice(1)) {
      assert.equal(c.status, 'failed', c.id);
      assert.ok(c.timeMs >= 1900, `${c.id} ended after ${c.timeMs} ms, before its timeout`);
    }
    // Side by side: a hanging client started while another still waited out its 2 s (one at a time,
    // each would start at least 2 s after the one before). No bound on the run's wall time.
    const at = (await readFile(starts, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => Number(BigInt(line) / 1_000_000n))
      .sort((a, b) => a - b);
    assert.equal(at.length, 6, at.join(' '));
    const gaps = at.slice(1).map((t, i) => t - (at[i] as number));
    assert.ok(
      gaps.some((gap) => gap < 1900),
      `each hanging client started at least 1.9 s after the one before: ${gaps.join(', ')} ms`,
    );
  });

  test('clients that exit before connecting, eight at a time: each case fails with the exit status, none waits for its timeout', async () => {
    const outdir = await tempDir();
    const ids = ['1.1.1', '1.1.2', '1.1.3', '1.1.4', '1.1.5', '1.1.6', '1.1.7', '1.1.8', '2.1', '2.2', '2.3', '2.4'];
    // 1.1.1's client connects (so the command works: the run goes on); the others exit 3 after a moment.
    const client = `case {case} in 1.1.1) ${fixtureCommand('spec-peer')} ;; *) sleep 3; exit 3 ;; esac`;
    const res = await runCli(['run', '--client', client, '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--jobs', '8', '--cases', ...ids], 60_000);
    assert.equal(res.code, 1, res.stdout + res.stderr);
    const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as Summary;
    assert.deepEqual(
      summary.cases.map((c) => c.id),
      ids,
    );
    assert.equal(summary.cases[0]?.status, 'passed');
    for (const c of summary.cases.slice(1)) {
      assert.equal(c.status, 'failed', c.id);
      // Its own exit ended it (a case that waited for its 30 s timeout would say it timed out instead).
      assert.match(c.reason, /exited with status 3 before it connected/, c.id);
    }
  });
});
