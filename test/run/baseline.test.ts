/**
 * Baseline files: accepted failures do not fail the build (and say so in every report), baselined
 * cases that pass now are reported so the baseline can shrink, new failures still fail, and
 * --write-baseline writes a baseline the next run accepts. Bad files are one-line usage errors.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { applyBaseline, baselineFromRun, parseBaseline } from '../../src/policy/baseline.js';
import { gateCase, sampleRun } from '../report/helpers.js';
import { fixtureCommand, LIVE_RUNS_AT_ONCE, runCli, tempDir, usageMessage } from '../support/harness.js';

describe('baseline file validation', () => {
  const table: Array<[string, unknown, string]> = [
    ['not an object', [], 'b.json: a baseline must be a JSON object {"version": 1, "cases": {...}}'],
    ['no version', { cases: {} }, 'b.json: "version" must be 1'],
    ['version 2', { version: 2, cases: {} }, 'b.json: "version" must be 1'],
    ['cases as a list', { version: 1, cases: ['6.4.1'] }, 'b.json: "cases" must be an object mapping case patterns to {"reason": "..."}'],
    ['an entry as a string', { version: 1, cases: { '6.4.1': 'slow' } }, 'b.json: "cases.6.4.1" must be an object {"reason": "...", "agents": [...]}'],
    ['no reason', { version: 1, cases: { '6.4.1': {} } }, 'b.json: "cases.6.4.1.reason" must be a non-empty string: say why the case is accepted'],
    [
      'a blank reason',
      { version: 1, cases: { '6.4.1': { reason: '  ' } } },
      'b.json: "cases.6.4.1.reason" must be a non-empty string: say why the case is accepted',
    ],
    [
      'agents not a list',
      { version: 1, cases: { '6.4.1': { reason: 'r', agents: 'x' } } },
      'b.json: "cases.6.4.1.agents" must be an array of non-empty strings (agent patterns)',
    ],
    [
      'an unknown key',
      { version: 1, cases: {}, note: 'x' },
      'b.json: unknown key "note" (a baseline has "version", "cases" and "causes"; an entry has "reason" and "agents")',
    ],
    [
      'an unknown entry key',
      { version: 1, cases: { '6.4.1': { reason: 'r', why: 'x' } } },
      'b.json: unknown key "cases.6.4.1.why" (a baseline has "version", "cases" and "causes"; an entry has "reason" and "agents")',
    ],
    ['causes as a list', { version: 1, cases: {}, causes: ['x'] }, 'b.json: "causes" must be an object mapping causes (a key or a title) to {"reason": "..."}'],
    [
      'a cause with no reason',
      { version: 1, cases: {}, causes: { 'closing-answer:*': {} } },
      'b.json: "causes.closing-answer:*.reason" must be a non-empty string: say why the cause is accepted',
    ],
    ['an empty cause', { version: 1, cases: {}, causes: { ' ': { reason: 'r' } } }, 'b.json: "causes": an empty cause'],
    ['an unknown case id', { version: 1, cases: { '6.4.9': { reason: 'r' } } }, 'b.json: "cases": no case has the id "6.4.9"'],
    ['a bad pattern', { version: 1, cases: { 'six.*': { reason: 'r' } } }, 'b.json: "cases": bad case pattern "six.*"'],
  ];
  for (const [what, value, message] of table) {
    test(what, () => {
      assert.equal(
        usageMessage(() => parseBaseline('b.json', value)),
        message,
      );
    });
  }
});

describe('applyBaseline', () => {
  const baseline = parseBaseline('b.json', {
    version: 1,
    cases: {
      '6.12.*': { reason: 'echoes invalid UTF-8 until v2' },
      '6.9.2': { reason: 'was flaky', agents: ['other*'] },
      '1.1.*': { reason: 'never mind' },
    },
  });
  const run = sampleRun();

  test('a failing case it names is accepted (skipped, the failure kept); others are unchanged', () => {
    const out = applyBaseline(run.cases, run.agent, baseline);
    const accepted = out.find((c) => c.id === '6.12.7');
    assert.equal(accepted?.status, 'skipped');
    assert.deepEqual(accepted?.baseline, {
      state: 'accepted',
      pattern: '6.12.*',
      reason: 'echoes invalid UTF-8 until v2',
      failure: 'behavior FAILED: the peer echoed invalid UTF-8',
      cause: 'invalid UTF-8 in a text message: unexpected message',
    });
    assert.equal(accepted?.reason, 'accepted failure (baseline: echoes invalid UTF-8 until v2): behavior FAILED: the peer echoed invalid UTF-8');
    // A case that failed without a result (the client never connected) is a failure like another.
    assert.equal(out.find((c) => c.id === '1.1.2')?.reason, 'accepted failure (baseline: never mind): the client did not connect within 30 s; it was killed');
    // 6.9.2's entry is for other agents only; 1.1.1 (skipped) is not a failure to accept.
    for (const id of ['6.9.2', '1.1.1'])
      assert.deepEqual(
        out.find((c) => c.id === id),
        run.cases.find((c) => c.id === id),
      );
  });

  test('a passing case it names stays passed with a note; applying twice changes nothing', () => {
    const once = applyBaseline(run.cases, 'other-agent', baseline);
    const c = once.find((x) => x.id === '6.9.2');
    assert.equal(c?.status, 'passed');
    assert.equal(c?.baseline?.state, 'passing');
    assert.deepEqual(c?.warnings, ['passes now: can be removed from the baseline ("6.9.2" in b.json)']);
    assert.deepEqual(applyBaseline(once, 'other-agent', baseline), once);
  });

  test("--write-baseline content: every failing or accepted case, with its cause's title as reason", () => {
    const failing = { ...run, cases: [...run.cases, gateCase({ id: '7.1.1', status: 'failed', reason: 'closing FAILED: x' })] };
    const accepted = { ...failing, cases: applyBaseline(failing.cases, failing.agent, baseline) };
    const text = baselineFromRun(accepted);
    assert.deepEqual(JSON.parse(text), {
      version: 1,
      cases: { '1.1.2': { reason: 'never mind' }, '6.12.7': { reason: 'echoes invalid UTF-8 until v2' }, '7.1.1': { reason: 'no result: closing FAILED: x' } },
    });
    // What it writes loads again.
    assert.equal(parseBaseline('w.json', JSON.parse(text)).entries.length, 3);
  });
});

interface Summary {
  result: string;
  baseline: string | null;
  counts: { failed: number; skipped: number; accepted: number; baselinePassing: number };
  cases: Array<{ id: string; status: string; baseline: { state: string; reason: string } | null; warnings: string[] }>;
}

async function gate(
  baseline: unknown,
  extra: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string; summary: Summary; junit: string; dir: string }> {
  const dir = await tempDir();
  const file = path.join(dir, 'baseline.json');
  if (baseline !== null) await writeFile(file, JSON.stringify(baseline));
  const outdir = path.join(dir, 'reports');
  // echo-invalid: 6.9.2 passes, 6.12.7 fails (FAILED/FAILED).
  const args = ['run', '--client', fixtureCommand('echo-invalid'), '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', '6.9.2', '6.12.7'];
  const res = await runCli([...args, ...(baseline !== null ? ['--baseline', file] : []), ...extra]);
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as Summary;
  return { ...res, summary, junit: await readFile(path.join(outdir, 'junit.xml'), 'utf8'), dir };
}

describe('baselines end to end', { concurrency: LIVE_RUNS_AT_ONCE }, () => {
  test('the failing case baselined: exit 0, reported as an accepted failure in console, JSON and JUnit', async () => {
    const r = await gate({ version: 1, cases: { '6.12.7': { reason: 'we echo before validating; fix in v2' } } });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /acc +6\.12\.7/);
    assert.match(r.stdout, /2 cases: 1 passed, 0 failed, 1 skipped \(1 accepted by the baseline\)/);
    // Once, in its cause's words, with the baseline's reason.
    assert.match(r.stdout, /\n {2}accepted failure 6\.12\.7: invalid UTF-8 in a text message accepted \(baseline: we echo before validating; fix in v2\)\n/);
    assert.equal(r.summary.result, 'passed');
    assert.equal(r.summary.counts.accepted, 1);
    assert.deepEqual(r.summary.cases[1]?.baseline?.state, 'accepted');
    // JUnit: a skipped test case whose message carries the baseline's reason.
    const at = r.junit.indexOf('name="6.12.7 ');
    const tc = r.junit.slice(at, r.junit.indexOf('</testcase>', at));
    assert.match(tc, /<skipped message="accepted failure \(baseline: we echo before validating; fix in v2\): outcome FAILED: [^"]*; closing FAILED/);
    assert.doesNotMatch(tc, /<failure/);
  });

  test('a baselined case that passes now is reported as removable and does not fail', async () => {
    const r = await gate({ version: 1, cases: { '6.*': { reason: 'everything in group 6 for now' } } });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /baseline: 6\.9\.2 passes now: can be removed from the baseline/);
    assert.equal(r.summary.counts.baselinePassing, 1);
    assert.deepEqual(r.summary.cases[0]?.warnings, [`passes now: can be removed from the baseline ("6.*" in ${path.join(r.dir, 'baseline.json')})`]);
  });

  test('a new failure fails the build even with a baseline', async () => {
    const r = await gate({ version: 1, cases: { '6.9.2': { reason: 'not the failing one' } } });
    assert.equal(r.code, 1);
    assert.equal(r.summary.counts.failed, 1);
    assert.equal(r.summary.cases[1]?.status, 'failed');
  });

  test('a baseline for other agents does not apply', async () => {
    const r = await gate({ version: 1, cases: { '6.12.7': { reason: 'r', agents: ['someone-else*'] } } });
    assert.equal(r.code, 1);
  });

  test('--write-baseline writes the failures; the next run with it passes', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'sub', 'baseline.json');
    const written = await gate(null, ['--write-baseline', file]);
    assert.equal(written.code, 1, 'writing a baseline does not change the verdict of the run');
    assert.match(written.stdout, new RegExp(`baseline: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(edit each reason`));
    const content = JSON.parse(await readFile(file, 'utf8')) as { version: number; cases: Record<string, { reason: string }> };
    assert.deepEqual(Object.keys(content.cases), ['6.12.7']);
    // The reason is the cause's title; the next run says it once.
    assert.equal(content.cases['6.12.7']?.reason, 'invalid UTF-8 in a text message accepted');
    const again = await gate(content);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /\n {2}accepted failure 6\.12\.7: invalid UTF-8 in a text message accepted\n/);
    const summary = again.stdout.slice(again.stdout.indexOf('\n\n'));
    assert.equal(summary.split('invalid UTF-8 in a text message accepted').length - 1, 1, again.stdout);
  });

  test('a baseline written before causes (the failure as its reason) still accepts, and says the failure once', async () => {
    const first = await gate(null);
    const failure = first.summary.cases[1]?.status === 'failed' ? (first.summary.cases[1] as unknown as { reason: string }).reason : '';
    const r = await gate({ version: 1, cases: { '6.12.7': { reason: failure } } });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.stdout.split(failure).length - 1, 1, r.stdout);
    assert.match(r.stdout, /\n {2}accepted failure 6\.12\.7: invalid UTF-8 in a text message accepted\n/);
  });

  test("by pattern and by cause (key or title): wrong-close-code's failures accepted, each once; a cause it does not have accepts nothing", async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'baseline.json');
    const cli = (baseline: unknown) =>
      writeFile(file, JSON.stringify(baseline)).then(() =>
        runCli([
          'run',
          '--client',
          fixtureCommand('wrong-close-code'),
          '--url',
          'ws://127.0.0.1:0',
          '--outdir',
          path.join(dir, 'r'),
          '--cases',
          '2.1',
          '7.9.1',
          '7.9.2',
          '--baseline',
          file,
        ]),
      );
    const r = await cli({
      version: 1,
      cases: { '7.9.*': { reason: 'invalid codes answered with 1001 until v3' } },
      causes: { 'closing-answer:code-1001': { reason: 'normal closes answered with 1001' } },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const lines = r.stdout.split('\n').filter((l) => l.includes('accepted failure '));
    assert.deepEqual(
      lines.map((l) => l.trim()).filter((l) => l.startsWith('accepted')),
      [
        'accepted failure 2.1: a close frame answered with code 1001 instead of its own code or 1000 (baseline: normal closes answered with 1001)',
        'accepted failure 7.9.1: an invalid close code: close code 1001 instead of 1002 (or none) (baseline: invalid codes answered with 1001 until v3)',
        'accepted failure 7.9.2: an invalid close code: close code 1001 instead of 1002 (or none) (baseline: invalid codes answered with 1001 until v3)',
      ],
    );
    // A cause by its title, with a wildcard; a cause the peer does not have leaves its failures failing.
    const byTitle = await cli({ version: 1, cases: {}, causes: { 'an invalid close code: *': { reason: 'r' } } });
    assert.equal(byTitle.code, 1);
    assert.match(byTitle.stdout, /acc +7\.9\.1/);
    assert.match(byTitle.stdout, /FAIL 2\.1/);
    const other = await cli({ version: 1, cases: {}, causes: { 'utf8-invalid:accepted': { reason: 'r' } } });
    assert.equal(other.code, 1);
    assert.doesNotMatch(other.stdout, /accepted failure/);
  });

  test('a bad baseline: exit 2 with one line, before any case runs', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'b.json');
    await writeFile(file, '{"version": 1, "cases": {"6.12.7": {}}}');
    const res = await runCli(['run', '--url', 'ws://127.0.0.1:0', '--outdir', dir, '--cases', '6.9.2', '--baseline', file]);
    assert.equal(res.code, 2);
    assert.equal(res.stderr, `wsgate: ${file}: "cases.6.12.7.reason" must be a non-empty string: say why the case is accepted\n`);
    assert.equal(res.stdout, '');
  });
});
