/**
 * What fails the build: --fail-on replaces the default verdict list, --strict adds NON-STRICT,
 * UNIMPLEMENTED fails only when named, bad verdict names are usage errors naming them.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { UsageError } from '../../src/errors.js';
import { ruleForResult } from '../../src/policy/rule.js';
import { failingVerdicts, VERDICTS, type CloseVerdict, type OutcomeVerdict } from '../../src/model/verdicts.js';
import type { CaseResult } from '../../src/model/report.js';
import { referenceResult } from '../report/helpers.js';
import { fixtureCommand, LIVE_RUNS_AT_ONCE, runCli, tempDir } from '../support/harness.js';

function result(behavior: OutcomeVerdict, behaviorClose: CloseVerdict): CaseResult {
  return { ...referenceResult('6.9.2'), behavior, behaviorClose, result: `the outcome text`, resultClose: 'the closing text' };
}

describe('failingVerdicts', () => {
  test('default: the de-facto rule; --strict adds NON-STRICT only', () => {
    assert.deepEqual([...failingVerdicts(null, false)], ['FAILED', 'WRONG CODE', 'UNCLEAN', 'FAILED BY CLIENT']);
    assert.deepEqual([...failingVerdicts(null, true)], ['FAILED', 'WRONG CODE', 'UNCLEAN', 'FAILED BY CLIENT', 'NON-STRICT']);
    assert.deepEqual([...failingVerdicts([], false)], ['FAILED', 'WRONG CODE', 'UNCLEAN', 'FAILED BY CLIENT']);
  });

  test('--fail-on replaces the list; names are case-insensitive and _ or - stand for the space', () => {
    assert.deepEqual([...failingVerdicts(['failed', 'wrong_code', 'Failed-By-Client'], false)], ['FAILED', 'WRONG CODE', 'FAILED BY CLIENT']);
    assert.deepEqual([...failingVerdicts(['UNIMPLEMENTED'], true)], ['UNIMPLEMENTED', 'NON-STRICT']);
  });

  test('an unknown verdict or OK is a usage error naming it', () => {
    assert.throws(
      () => failingVerdicts(['FAILED', 'BROKEN'], false),
      (err: unknown) => err instanceof UsageError && err.message === `--fail-on: unknown verdict "BROKEN" (one of: ${VERDICTS.join(', ')})`,
    );
    assert.throws(
      () => failingVerdicts(['ok'], false),
      (err: unknown) => err instanceof UsageError && err.message === '--fail-on: OK cannot fail the build',
    );
  });
});

describe('ruleForResult with a verdict set', () => {
  const table: Array<[OutcomeVerdict, CloseVerdict, string[], string]> = [
    ['OK', 'OK', ['FAILED'], 'passed'],
    ['FAILED', 'OK', ['FAILED'], 'failed'],
    ['OK', 'UNCLEAN', ['FAILED'], 'passed'],
    ['OK', 'UNCLEAN', ['UNCLEAN'], 'failed'],
    ['NON-STRICT', 'OK', ['FAILED'], 'passed'],
    ['NON-STRICT', 'OK', ['NON-STRICT'], 'failed'],
    ['INFORMATIONAL', 'INFORMATIONAL', ['FAILED', 'NON-STRICT'], 'passed'],
    ['INFORMATIONAL', 'INFORMATIONAL', ['INFORMATIONAL'], 'failed'],
    ['UNIMPLEMENTED', 'OK', ['FAILED'], 'skipped'],
    ['UNIMPLEMENTED', 'OK', ['UNIMPLEMENTED'], 'failed'],
    ['OK', 'WRONG CODE', ['FAILED BY CLIENT'], 'passed'],
  ];
  for (const [behavior, close, failOn, want] of table) {
    test(`${behavior}/${close} with ${failOn.join('+')}: ${want}`, () => {
      assert.equal(ruleForResult(result(behavior, close), new Set(failOn)).status, want);
    });
  }

  test('a verdict outside the default rule says which option failed it; NON-STRICT that passes is a warning', () => {
    assert.equal(ruleForResult(result('NON-STRICT', 'OK'), failingVerdicts(null, true)).reason, 'outcome NON-STRICT: the outcome text (--strict)');
    assert.equal(ruleForResult(result('OK', 'INFORMATIONAL'), new Set(['INFORMATIONAL'])).reason, 'closing INFORMATIONAL: the closing text (--fail-on)');
    assert.deepEqual(ruleForResult(result('NON-STRICT', 'OK'), failingVerdicts(null, false)).warnings, ['outcome NON-STRICT: the outcome text']);
  });
});

interface Summary {
  failOn: string[];
  counts: { passed: number; failed: number; skipped: number };
  cases: Array<{ id: string; status: string; reason: string }>;
}

async function gate(client: string, cases: string[], extra: string[]): Promise<{ code: number | null; stderr: string; summary: Summary | null }> {
  const outdir = await tempDir();
  const res = await runCli(['run', '--client', client, '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', ...cases, ...extra]);
  const text = await readFile(path.join(outdir, 'summary.json'), 'utf8').catch(() => null);
  return { code: res.code, stderr: res.stderr, summary: text === null ? null : (JSON.parse(text) as Summary) };
}

describe('--fail-on end to end', { concurrency: LIVE_RUNS_AT_ONCE }, () => {
  test('a bad verdict name: exit 2 naming it, before any case runs', async () => {
    const r = await gate(fixtureCommand('spec-peer'), ['6.9.2'], ['--fail-on', 'FAILED,WRONGCODE']);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `wsgate: --fail-on: unknown verdict "WRONGCODE" (one of: ${VERDICTS.join(', ')})\n`);
    assert.equal(r.summary, null);
  });

  test('a client that never closes: UNCLEAN fails by default, not with --fail-on FAILED', async () => {
    // never-close: 6.9.2 is OK/UNCLEAN, 6.12.7 is FAILED/FAILED.
    const byDefault = await gate(fixtureCommand('never-close'), ['6.9.2'], []);
    assert.equal(byDefault.code, 1);
    const onlyFailed = await gate(fixtureCommand('never-close'), ['6.9.2', '6.12.7'], ['--fail-on', 'FAILED']);
    assert.equal(onlyFailed.code, 1);
    assert.deepEqual(onlyFailed.summary?.failOn, ['FAILED']);
    assert.deepEqual(
      onlyFailed.summary?.cases.map((c) => [c.id, c.status]),
      [
        ['6.9.2', 'passed'],
        ['6.12.7', 'failed'],
      ],
    );
  });

  test('UNIMPLEMENTED (no deflate) is skipped by default and fails with --fail-on UNIMPLEMENTED', async () => {
    const skipped = await gate(fixtureCommand('ws-no-deflate'), ['12.1.1'], []);
    assert.equal(skipped.code, 0, skipped.stderr);
    assert.equal(skipped.summary?.cases[0]?.status, 'skipped');
    const failed = await gate(fixtureCommand('ws-no-deflate'), ['12.1.1'], ['--fail-on', 'FAILED', '--fail-on', 'UNIMPLEMENTED']);
    assert.equal(failed.code, 1);
    assert.equal(failed.summary?.cases[0]?.status, 'failed');
    assert.match(failed.summary?.cases[0]?.reason ?? '', /^outcome UNIMPLEMENTED: .* \(--fail-on\)$/);
  });
});
