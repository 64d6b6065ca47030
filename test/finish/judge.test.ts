/**
 * `wsgate judge`: the gate applied to reports a server already wrote (index.json + per-case JSON),
 * with the same rule, baseline and reports as `run`; bad or missing reports are usage errors.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { runMain } from '../support/cli-env.js';
import { fixtureCommand, LIVE_RUNS_AT_ONCE, runCli, tempDir } from '../support/harness.js';

/**
 * judge's verdicts, files and one-line errors are what the command decides: its calls run main() in
 * this process (runMain) unless `asProcess`; one judge in each block and every run stay processes.
 */
type Runner = (args: string[]) => Promise<{ code: number | null; stdout: string; stderr: string }>;
const inProcess: Runner = (args) => runMain(args);
const asProcess: Runner = (args) => runCli(args);

interface Summary {
  agent: string;
  result: string;
  counts: { passed: number; failed: number; skipped: number; accepted: number };
  cases: Array<{ id: string; status: string; reason: string; behavior: string | null }>;
}

describe('judge', { concurrency: LIVE_RUNS_AT_ONCE }, () => {
  let outdir = '';
  const agent = 'echo invalid/1.0';
  before(async () => {
    outdir = await tempDir();
    // echo-invalid: 6.9.2 passes, 6.12.7 is FAILED/FAILED.
    const res = await runCli([
      'run',
      '--client',
      fixtureCommand('echo-invalid'),
      '--agent',
      agent,
      '--url',
      'ws://127.0.0.1:0',
      '--outdir',
      outdir,
      '--cases',
      '6.9.2',
      '6.12.7',
    ]);
    assert.equal(res.code, 1, res.stdout + res.stderr);
  });

  async function judge(args: string[], run: Runner = inProcess): Promise<{ code: number | null; stdout: string; stderr: string; summary: Summary }> {
    const out = await tempDir();
    const json = path.join(out, 'summary.json');
    const res = await run(['judge', '--outdir', outdir, '--json', json, '--junit', path.join(out, 'junit.xml'), ...args]);
    const summary = JSON.parse(await readFile(json, 'utf8').catch(() => '{}')) as Summary;
    return { ...res, summary };
  }

  test('the reports of a run: the same verdicts and exit 1; the agent is the only one in index.json', async () => {
    const r = await judge([], asProcess);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(r.summary.agent, agent);
    assert.deepEqual(
      r.summary.cases.map((c) => [c.id, c.status, c.behavior]),
      [
        ['6.9.2', 'passed', 'OK'],
        ['6.12.7', 'failed', 'FAILED'],
      ],
    );
    assert.match(r.summary.cases[1]?.reason ?? '', /^outcome FAILED: .*; closing FAILED: The connection was failed by the wrong endpoint$/);
    assert.match(r.stdout, /judging 2 cases of agent "echo invalid\/1\.0"/);
    // The time is the judged run's, from its reports (the first case's start to the last one's end), not judge's own.
    const index = JSON.parse(await readFile(path.join(outdir, 'index.json'), 'utf8')) as Record<string, Record<string, { reportfile: string }>>;
    const spans = await Promise.all(
      Object.values(index[agent] ?? {}).map(async (c) => {
        const r = JSON.parse(await readFile(path.join(outdir, c.reportfile), 'utf8')) as { started: string; duration: number };
        return [Date.parse(r.started), Date.parse(r.started) + r.duration];
      }),
    );
    const span = Math.max(...spans.map((x) => x[1] as number)) - Math.min(...spans.map((x) => x[0] as number));
    assert.ok(span > 0);
    assert.match(r.stdout, new RegExp(`2 cases: 1 passed, 1 failed, 0 skipped in ${(span / 1000).toFixed(1).replace('.', '\\.')} s`));
  });

  test('with a baseline the failure is accepted: exit 0', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'baseline.json');
    await writeFile(file, JSON.stringify({ version: 1, cases: { '6.12.7': { reason: 'known' } } }));
    const r = await judge(['--baseline', file]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.summary.counts.accepted, 1);
  });

  test('--fail-on applies: with only WRONG CODE nothing fails', async () => {
    const r = await judge(['--fail-on', 'WRONG CODE']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });

  test('a selected case without a result fails', async () => {
    const r = await judge(['--cases', '6.9.2', '6.12.7', '7.1.1']);
    assert.equal(r.code, 1);
    assert.deepEqual(r.summary.cases[2], {
      ...r.summary.cases[2],
      id: '7.1.1',
      status: 'failed',
      reason: 'no result in index.json: the client did not run this case',
    });
  });

  test('usage errors: no index.json, several agents, an unknown agent', async () => {
    const empty = await tempDir();
    const none = await runMain(['judge', '--outdir', empty]);
    assert.equal(none.code, 2);
    assert.equal(none.stderr, `wsgate: ${path.join(empty, 'index.json')}: cannot read the report index (write it with /updateReports first): no such file\n`);
    await writeFile(path.join(empty, 'index.json'), JSON.stringify({ a: {}, b: {} }));
    const several = await runMain(['judge', '--outdir', empty]);
    assert.equal(several.code, 2);
    assert.equal(several.stderr, `wsgate: ${path.join(empty, 'index.json')}: holds several agents ("a", "b"): name one with --agent\n`);
    const unknown = await runMain(['judge', '--outdir', empty, '--agent', 'c']);
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stderr, `wsgate: ${path.join(empty, 'index.json')}: no results for agent "c" (agents: "a", "b")\n`);
  });

  test('a report file outside the directory is refused', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'index.json'), JSON.stringify({ a: { '6.9.2': { behavior: 'OK', behaviorClose: 'OK', reportfile: '../../etc/passwd' } } }));
    const res = await runMain(['judge', '--outdir', dir]);
    assert.equal(res.code, 2);
    assert.match(res.stderr, /^wsgate: .*index\.json: case 6\.9\.2: file name escapes the output directory: "\.\.\/\.\.\/etc\/passwd"\n$/);
  });
});

// judge, baseline files and run see one catalogue: wsgate's own group 14 (--extended) included.
describe('judge and baselines on a group-14 run', () => {
  let outdir = '';
  let runStatus: number | null = null;
  before(async () => {
    outdir = await tempDir();
    // The bundled ws client: 14.4.5 fails (docs/extended-groups.md), 14.2.3 is UNIMPLEMENTED, the rest pass.
    const res = await runCli(['run', '--extended', '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', '14.*'], 120_000);
    runStatus = res.code;
  });

  async function judge(args: string[], run: Runner = inProcess): Promise<{ code: number | null; stdout: string; stderr: string; summary: Summary }> {
    const out = await tempDir();
    const json = path.join(out, 'summary.json');
    const res = await run(['judge', '--outdir', outdir, '--json', json, '--junit', path.join(out, 'junit.xml'), ...args]);
    const summary = JSON.parse(await readFile(json, 'utf8').catch(() => '{}')) as Summary;
    return { ...res, summary };
  }

  test('judge --extended --cases 14.*: the 28 cases with the run verdicts, 14.4.5 failing, exit 1 as the run', async () => {
    assert.equal(runStatus, 1);
    const r = await judge(['--extended', '--cases', '14.*']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(r.summary.cases.length, 28);
    assert.deepEqual(
      r.summary.cases.filter((c) => c.status === 'failed').map((c) => c.id),
      ['14.4.5'],
    );
    assert.equal(r.summary.cases.find((c) => c.id === '14.2.3')?.status, 'skipped');
  });

  test('judge with no --cases judges the group-14 results the index holds, not 517 missing cases', async () => {
    const r = await judge([]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(r.summary.cases.length, 28);
    assert.ok(r.summary.cases.every((c) => c.id.startsWith('14.')));
  });

  test('a baseline holding 14.4.5 is accepted, by judge and by run', async () => {
    const file = path.join(await tempDir(), 'baseline.json');
    await writeFile(file, JSON.stringify({ version: 1, cases: { '14.4.5': { reason: "Node's HTTP parser misses Upgrade between tabs" } } }));
    const judged = await judge(['--extended', '--cases', '14.*', '--baseline', file]);
    assert.equal(judged.code, 0, judged.stdout + judged.stderr);
    assert.equal(judged.summary.counts.accepted, 1);
    const out = await tempDir();
    const ran = await runMain(['run', '--extended', '--url', 'ws://127.0.0.1:0', '--outdir', out, '--cases', '14.4.5', '--baseline', file]);
    assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  });

  test('a group-14 id without --extended: exit 2 and the way out', async () => {
    const r = await judge(['--cases', '14.1.1'], asProcess);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, 'wsgate: "14.1.1" is one of wsgate\'s own cases (group 14): add --extended\n');
  });
});
