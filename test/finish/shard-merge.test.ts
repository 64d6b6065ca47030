/** --shard K/N and `wsgate merge`: four shards merged equal one unsharded run, case for case. */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { runMain } from '../support/cli-env.js';
import { fixtureCommand, runCli, tempDir } from '../support/harness.js';

const SUBSET = ['1.1.*', '2.*', '5.19', '6.4.1', '7.1.*', '9.1.1', '12.1.1'];

interface Summary {
  agent: string;
  result: string;
  shard: { index: number; count: number } | null;
  counts: { total: number; passed: number; failed: number };
  cases: Array<{
    index: number;
    /** Only when the run has several agents. */
    agent?: string;
    id: string;
    status: string;
    behavior: string | null;
    behaviorClose: string | null;
    remoteCloseCode: number | null;
    reason: string;
    warnings: string[];
    reportfile: string | null;
  }>;
}

const readJson = async <T>(file: string): Promise<T> => JSON.parse(await readFile(file, 'utf8')) as T;

/** index.json without durations (timing differs between runs). */
async function indexWithoutDurations(dir: string): Promise<unknown> {
  const index = await readJson<Record<string, Record<string, Record<string, unknown>>>>(path.join(dir, 'index.json'));
  for (const cases of Object.values(index)) for (const entry of Object.values(cases)) delete entry.duration;
  return index;
}

/** JUnit test cases as (name, status) in document order. */
function junitCases(xml: string): string[] {
  return [...xml.matchAll(/<testcase [^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/testcase>/g)].map(
    (m) => `${m[1] ?? ''} ${/<failure/.test(m[2] ?? '') ? 'failure' : /<skipped/.test(m[2] ?? '') ? 'skipped' : 'pass'}`,
  );
}

// The shards' and merges' files, verdicts and statuses are what the commands decide: they run main()
// in this process (runMain, absolute paths only). The unsharded run and one usage error stay
// processes (runCli), for the real process's exit status.
describe('--shard and merge', () => {
  test('shards 1/4 to 4/4, merged, equal one unsharded run (index.json, reports, summary, JUnit)', async () => {
    const root = await tempDir();
    const whole = path.join(root, 'whole');
    const res = await runCli(['run', '--url', 'ws://127.0.0.1:0', '--outdir', whole, '--cases', ...SUBSET], 180_000);
    assert.equal(res.code, 0, res.stderr);
    const shards: string[] = [];
    for (let k = 1; k <= 4; k++) {
      const dir = path.join(root, `shard-${k}`);
      const r = await runMain(['run', '--url', 'ws://127.0.0.1:0', '--outdir', dir, '--shard', `${k}/4`, '--cases', ...SUBSET]);
      assert.equal(r.code, 0, r.stderr);
      const s = await readJson<Summary>(path.join(dir, 'summary.json'));
      assert.deepEqual(s.shard, { index: k, count: 4 });
      assert.ok(s.counts.total > 0, `shard ${k}/4 is empty`);
      shards.push(dir);
    }
    const merged = path.join(root, 'merged');
    const m = await runMain(['merge', ...shards.reverse(), '--outdir', merged]);
    assert.equal(m.code, 0, m.stderr);
    assert.match(m.stdout, /merged 4 runs: \d+ cases: \d+ passed, 0 failed/);

    assert.deepEqual(await indexWithoutDurations(merged), await indexWithoutDurations(whole));
    const a = await readJson<Summary>(path.join(whole, 'summary.json'));
    const b = await readJson<Summary>(path.join(merged, 'summary.json'));
    const view = (s: Summary): unknown[] =>
      s.cases.map((c) => [c.index, c.id, c.status, c.behavior, c.behaviorClose, c.remoteCloseCode, c.reason, c.warnings, c.reportfile]);
    assert.deepEqual(view(b), view(a));
    assert.equal(b.result, 'passed');
    assert.equal(b.shard, null);
    assert.deepEqual(junitCases(await readFile(path.join(merged, 'junit.xml'), 'utf8')), junitCases(await readFile(path.join(whole, 'junit.xml'), 'utf8')));
    // Every per-case report the merged index points at exists and is the shard's report, byte for byte.
    for (const c of b.cases) {
      assert.ok(c.reportfile !== null);
      const copy = await readFile(path.join(merged, c.reportfile), 'utf8');
      const origin = await Promise.any(shards.map((d) => readFile(path.join(d, c.reportfile as string), 'utf8')));
      assert.equal(copy, origin, c.id);
    }
  });

  test('a failure in one shard fails the merged run (exit 1) and is in its JUnit', async () => {
    const root = await tempDir();
    const dirs = [path.join(root, 'a'), path.join(root, 'b')];
    for (const [k, dir] of dirs.entries()) {
      const r = await runMain([
        'run',
        '--client',
        fixtureCommand('wrong-pong'),
        '--url',
        'ws://127.0.0.1:0',
        '--outdir',
        dir,
        '--shard',
        `${k + 1}/2`,
        '--cases',
        '2.3',
        '2.4',
        '1.1.1',
        '1.1.2',
      ]);
      assert.ok(r.code === 0 || r.code === 1, r.stderr);
    }
    const merged = path.join(root, 'merged');
    const m = await runMain(['merge', ...dirs, '--outdir', merged]);
    assert.equal(m.code, 1, m.stdout + m.stderr);
    const s = await readJson<Summary>(path.join(merged, 'summary.json'));
    assert.deepEqual(
      s.cases.map((c) => c.id),
      ['1.1.1', '1.1.2', '2.3', '2.4'],
    );
    assert.deepEqual(
      s.cases.map((c) => c.status),
      ['passed', 'passed', 'failed', 'failed'],
    );
    assert.equal(s.result, 'failed');
    assert.match(await readFile(path.join(merged, 'junit.xml'), 'utf8'), /<failure message="A ping: pong differs\.[^"]*" type="FAILED\/OK"/);
  });

  test('runs of different agents (one job per browser engine) merge into one report set of several agents', async () => {
    const root = await tempDir();
    const a = path.join(root, 'a');
    const b = path.join(root, 'b');
    const ra = await runMain(['run', '--agent', 'engine-a', '--url', 'ws://127.0.0.1:0', '--outdir', a, '--cases', '1.1.1', '2.1']);
    assert.equal(ra.code, 0, ra.stderr);
    const rb = await runMain([
      'run',
      '--client',
      fixtureCommand('wrong-pong'),
      '--agent',
      'engine-b',
      '--url',
      'ws://127.0.0.1:0',
      '--outdir',
      b,
      '--cases',
      '1.1.1',
      '2.3',
    ]);
    assert.equal(rb.code, 1, rb.stderr);
    const merged = path.join(root, 'merged');
    const m = await runMain(['merge', a, b, '--outdir', merged]);
    assert.equal(m.code, 1, m.stdout + m.stderr);
    const s = await readJson<Summary & { agent: string; cases: Array<{ index: number; agent?: string; reportfile: string | null }> }>(
      path.join(merged, 'summary.json'),
    );
    assert.equal(s.agent, 'engine-a, engine-b');
    assert.deepEqual(
      s.cases.map((c) => [c.index, c.agent, c.id, c.status]),
      [
        [1, 'engine-a', '1.1.1', 'passed'],
        [2, 'engine-a', '2.1', 'passed'],
        [1, 'engine-b', '1.1.1', 'passed'],
        [2, 'engine-b', '2.3', 'failed'],
      ],
    );
    const index = await readJson<Record<string, Record<string, { reportfile: string }>>>(path.join(merged, 'index.json'));
    assert.deepEqual(Object.keys(index), ['engine-a', 'engine-b']);
    assert.deepEqual(Object.keys(index['engine-b'] ?? {}).sort(), ['1.1.1', '2.3']);
    for (const c of s.cases) {
      const report = await readJson<{ agent: string; id: string }>(path.join(merged, c.reportfile ?? ''));
      assert.deepEqual([report.agent, report.id], [c.agent, c.id]);
    }
    // The same agent's case twice is still refused.
    const twice = await runMain(['merge', a, a, '--outdir', path.join(root, 'twice')]);
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /^wsgate: case 1\.1\.1 of agent "engine-a" is in both /);
  });

  test('bad inputs: one line naming the problem, exit 2, nothing written', async () => {
    const root = await tempDir();
    const shard = (k: number, n: number): Promise<{ code: number | null; stderr: string }> =>
      runMain(['run', '--url', 'ws://127.0.0.1:0', '--outdir', path.join(root, `s${k}of${n}`), '--shard', `${k}/${n}`, '--cases', '1.1.1', '1.1.2', '1.1.3']);
    for (const [k, n] of [
      [1, 3],
      [2, 3],
      [1, 2],
    ] as const)
      assert.equal((await shard(k, n)).code, 0);
    const empty = path.join(root, 'empty');
    await mkdir(empty);
    const broken = path.join(root, 'broken');
    await mkdir(broken);
    await writeFile(path.join(broken, 'summary.json'), '{"agent": 1');
    const cases: Array<[string[], RegExp]> = [
      [[path.join(root, 's1of3'), path.join(root, 's2of3')], /shard 3\/3 missing/],
      [[path.join(root, 's1of3'), path.join(root, 's1of3'), path.join(root, 's2of3')], /given twice|both/],
      [[path.join(root, 's1of3'), path.join(root, 's1of2')], /shard 1\/2, the others are of 3|of 3/],
      [[empty], /no summary\.json/],
      [[broken], /not valid JSON/],
    ];
    for (const [inputs, message] of cases) {
      const out = path.join(root, `out-${Math.random().toString(36).slice(2)}`);
      const r = await runMain(['merge', ...inputs, '--outdir', out]);
      assert.equal(r.code, 2, `${inputs.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      await assert.rejects(readFile(path.join(out, 'index.json')));
    }
    const bad = await runCli(['run', '--url', 'ws://127.0.0.1:0', '--outdir', path.join(root, 'x'), '--shard', '5/4']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^wsgate: --shard: K must be 1\.\.4, got 5\n$/);
  });
});
