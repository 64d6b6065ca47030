import assert from 'node:assert/strict';
import { test } from 'node:test';
import { caseReportJson, indexJson, summaryJson } from '../../src/report/json.js';
import type { CaseResult } from '../../src/model/report.js';
import { referenceReportText } from '../support/autobahn-reference.js';
import { referenceResult, sampleRun } from './helpers.js';

test('caseReportJson reproduces both reference reports exactly', () => {
  for (const id of ['6.9.2', '6.12.7'] as const) {
    assert.equal(caseReportJson(referenceResult(id)), referenceReportText(id));
  }
});

test('caseReportJson writes only the Autobahn keys', () => {
  const extra = { ...referenceResult('6.9.2'), gateStatus: 'passed', clientOutput: 'x' } as CaseResult;
  const out = JSON.parse(caseReportJson(extra)) as Record<string, unknown>;
  assert.deepEqual(Object.keys(out), Object.keys(JSON.parse(referenceReportText('6.9.2')) as object));
  assert.equal(Object.keys(out).length, 39);
});

test("indexJson has Autobahn's shape, order and report file names", () => {
  const a = referenceResult('6.9.2');
  const b = referenceResult('6.12.7');
  const text = indexJson(
    new Map([
      [
        'seedpeer',
        new Map([
          ['6.9.2', a],
          ['6.12.7', b],
          ['10.1.1', { ...a, id: '10.1.1', remoteCloseCode: 1000, duration: 7 }],
        ]),
      ],
      ['My Agent', new Map([['1.1.1', { ...a, agent: 'My Agent', id: '1.1.1' }]])],
    ]),
  );
  const index = JSON.parse(text) as Record<string, Record<string, Record<string, unknown>>>;
  assert.deepEqual(Object.keys(index), ['My Agent', 'seedpeer']);
  assert.deepEqual(Object.keys(index.seedpeer ?? {}), ['10.1.1', '6.12.7', '6.9.2']);
  assert.deepEqual(index.seedpeer?.['6.9.2'], {
    behavior: 'OK',
    behaviorClose: 'OK',
    duration: 14,
    remoteCloseCode: null,
    reportfile: 'seedpeer_case_6_9_2.json',
  });
  assert.equal(index.seedpeer?.['10.1.1']?.remoteCloseCode, 1000);
  assert.equal(index['My Agent']?.['1.1.1']?.reportfile, 'my_agent_case_1_1_1.json');
  // Same layout as Autobahn: 3-space indent, sorted keys, no trailing newline.
  assert.ok(text.startsWith('{\n   "My Agent": {\n      "1.1.1": {\n         "behavior": "OK",'));
  assert.ok(text.endsWith('}'));
});

test('summaryJson counts, result and per-case fields', () => {
  const run = sampleRun();
  const s = JSON.parse(summaryJson(run)) as {
    agent: string;
    counts: Record<string, number>;
    result: string;
    interrupted: string | null;
    cases: Record<string, unknown>[];
  };
  assert.equal(s.agent, 'My Agent/1.0');
  assert.deepEqual(s.counts, { total: 4, passed: 1, failed: 2, skipped: 1, errors: 0, accepted: 0, baselinePassing: 0, nonStrict: 0, informational: 0 });
  assert.equal(s.result, 'failed');
  // wsgate's explanation beside Autobahn's texts: the requirement, what the peer did, the cause.
  const explanation = s.cases[1]?.explanation as { cause: { key: string }; requirement: { rfc: string }; peerDid: string; verdict: string } | undefined;
  assert.deepEqual(
    [explanation?.verdict, explanation?.cause.key, explanation?.requirement.rfc, explanation?.peerDid],
    ['FAILED / OK', 'utf8-invalid:extra-message', 'RFC 6455 §8.1, §7.4.1', 'sent a text message 0x80bf80bf80bf, which the case does not expect'],
  );
  assert.equal(s.cases[0]?.explanation, null, 'a case with OK/OK has no explanation');
  assert.deepEqual(
    (s as unknown as { causes: { key: string; cases: string[] }[] }).causes.map((g) => [g.key, g.cases]),
    [
      ['utf8-invalid:extra-message', ['6.12.7']],
      ['no-result:no-connection', ['1.1.2']],
    ],
  );
  delete s.cases[1]?.explanation;
  assert.deepEqual(s.cases[1], {
    index: 2,
    id: '6.12.7',
    origin: 'autobahn',
    status: 'failed',
    behavior: 'FAILED',
    behaviorClose: 'OK',
    remoteCloseCode: null,
    duration: 5,
    transport: 'http/1.1',
    timeMs: 14,
    reason: 'behavior FAILED: the peer echoed invalid UTF-8',
    warnings: [],
    baseline: null,
    reportfile: 'my_agent_1_0_x_case_6_12_7.json',
    client: { exitCode: 1, signal: null, timedOut: false, spawnError: null, command: 'node client.js', output: 'boom\x07 ]]> done', outputTruncated: false },
  });
  assert.equal(s.cases[2]?.reportfile, null);
  assert.equal(s.cases[2]?.client, null);
  assert.equal(s.cases[2]?.behavior, null);
});

test('summaryJson: passes only with no failure, no error and no interruption', () => {
  const run = sampleRun();
  const passing = { ...run, cases: run.cases.filter((c) => c.status === 'passed') };
  assert.equal((JSON.parse(summaryJson(passing)) as { result: string }).result, 'passed');
  const ns = referenceResult('6.9.2');
  ns.behavior = 'NON-STRICT';
  const withNs = { ...passing, cases: [...passing.cases, { ...passing.cases[0]!, id: '6.4.1', result: ns }] };
  const counts = (JSON.parse(summaryJson(withNs)) as { counts: Record<string, number> }).counts;
  assert.equal(counts.nonStrict, 1);
  assert.equal((JSON.parse(summaryJson({ ...passing, interrupted: 'SIGINT' })) as { result: string }).result, 'failed');
});
