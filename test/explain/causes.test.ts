/**
 * Causes: ranges of consecutive ids, groups ordered by size, and the bounds that keep a run where
 * every one of the 517 cases fails readable: the quiet console and the job summary.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { catalogueFor } from '../../src/catalogue/registry.js';
import { idRanges } from '../../src/explain/causes.js';
import { explainNoResult, RUN_FAULT } from '../../src/explain/explain.js';
import { runCauses } from '../../src/explain/run.js';
import type { GateCase, GateRun } from '../../src/model/report.js';
import { jobSummary, SUMMARY_LIMIT_BYTES } from '../../src/report/github/markdown.js';
import { Progress } from '../../src/report/progress.js';
import { gateCase, referenceResult, sampleRun } from '../report/helpers.js';

test('ranges join consecutive ids that differ in their last number only, in the order given', () => {
  assert.equal(idRanges(['6.4.1', '6.4.2', '6.4.3', '6.4.4', '6.6.1', '7.9.1', '7.9.3']), '6.4.1–6.4.4, 6.6.1, 7.9.1, 7.9.3');
  assert.equal(idRanges(['2.9', '2.10', '2.11', '3.1']), '2.9–2.11, 3.1');
  assert.equal(idRanges(['ws 6.3.1', 'ws 6.3.2', 'undici 6.3.1']), 'ws 6.3.1–ws 6.3.2, undici 6.3.1');
  assert.equal(idRanges([]), '');
});

/** The whole catalogue, every case failing the way a client that echoes invalid UTF-8 fails 6.12.7. */
function everyCaseFailing(): GateRun {
  const cases: GateCase[] = catalogueFor(false).map((c, i) =>
    gateCase({
      index: i + 1,
      id: c.id,
      status: 'failed',
      reason: 'outcome FAILED',
      result: { ...referenceResult('6.12.7'), id: c.id, behavior: 'FAILED', result: 'Actual events differ from any expected.' },
    }),
  );
  return { ...sampleRun(), cases };
}

test('517 failing cases: causes grouped (most cases first), the quiet console a few lines, the job summary under its limit with the causes first', () => {
  const run = everyCaseFailing();
  assert.equal(run.cases.length, 517);
  const causes = runCauses(run);
  assert.ok(causes.length < 40, `${causes.length} causes`);
  assert.equal(
    causes.reduce((n, g) => n + g.cases.length, 0),
    517,
  );
  for (let i = 1; i < causes.length; i++) assert.ok((causes[i - 1]?.cases.length ?? 0) >= (causes[i]?.cases.length ?? 0));
  const utf8 = causes.find((g) => g.key === 'utf8-invalid:events');
  assert.ok(utf8?.ranges.startsWith('6.1.1–6.1.3, 6.2.1–6.2.4, 6.3.1–6.3.2, 6.4.1–6.4.4'), utf8?.ranges);

  const out = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => (text += d.toString()));
  const progress = new Progress(out, false, run.cases.length, true);
  for (const c of run.cases) progress.caseDone(c);
  progress.summary(run, { outdir: 'r', junit: 'r/junit.xml', json: 'r/summary.json' });
  const lines = text.split('\n');
  assert.ok(lines.length <= 40, `the quiet console printed ${lines.length} lines`);
  assert.match(text, /^\n517 cases: 0 passed, 517 failed, 0 skipped/);
  assert.match(text, /and \d+ more causes \(\d+ cases\): see summary\.json or index\.html/);

  const md = jobSummary(run, { outdir: 'r', junit: 'r/junit.xml', json: 'r/summary.json' });
  assert.ok(Buffer.byteLength(md) <= SUMMARY_LIMIT_BYTES);
  assert.ok(md.indexOf('### Failures by cause') < md.indexOf('### Failing cases'));
  assert.match(md, /\| invalid UTF-8 in a text message: events differ \| 145: 6\.1\.1–6\.1\.3, 6\.2\.1–6\.2\.4/);
});

test("a case with no result: the gate's reason is the story, classed into a cause", () => {
  const cause = (reason: string): string => explainNoResult('1.1.1', 'A text message with an empty payload, in one frame.', reason).cause.key;
  assert.equal(cause('the client did not connect within 30 s; it was killed'), 'no-result:no-connection');
  assert.equal(cause('the client exited with status 0 before it connected'), 'no-result:no-connection');
  assert.equal(cause('the client was killed by SIGSEGV before it connected'), 'no-result:crash');
  assert.equal(cause('the case did not finish within 30 s; the client was killed'), 'no-result:timeout');
  assert.equal(cause('the client never completed the opening handshake'), 'no-result:handshake');
  assert.equal(cause('the client exited with status 127 (command not found?) before it connected'), 'no-result:no-command');
  assert.equal(
    cause('the client did not complete the TLS handshake (certificate unknown); the client exited with status 1 before it connected'),
    'no-result:tls',
  );
  const e = explainNoResult('1.1.1', 'A text message with an empty payload, in one frame.', 'the case did not finish within 30 s; the client was killed');
  assert.equal(e.verdict, 'NO RESULT');
  assert.equal(e.did, 'sent a text message with an empty payload, in one frame');
  assert.equal(e.short, 'the case did not finish within 30 s; the client was killed — RFC 6455 §5.2');
});

test('a case that never connected is a fault of the run: no RFC requirement, nothing claimed sent; one that played keeps its own', () => {
  const explain = (reason: string) => explainNoResult('9.1.1', 'A text message of 64 KiB, in one frame.', reason);
  for (const reason of [
    'the client exited with status 127 (command not found?) before it connected',
    'the client command could not be started: spawn ENOENT',
    'the client exited with status 0 before it connected',
    'the client was killed by SIGSEGV before it connected',
    'the server under test exited with status 7 (last output: bye); not restarted (--restart-server restarts it)',
    'could not connect to 127.0.0.1:4321: ECONNREFUSED',
  ]) {
    const e = explain(reason);
    assert.equal(e.requirement.rfc, RUN_FAULT, reason);
    assert.equal(e.did, 'sent nothing of the case: it never had a WebSocket connection', reason);
  }
  assert.equal(explain('the client never completed the opening handshake').requirement.rfc, 'RFC 6455 §4.1, §4.2');
  const played = explain('the case did not finish within 30 s; the client was killed');
  assert.match(played.requirement.rfc, /^RFC 6455 §/);
  assert.equal(played.did, 'sent a text message of 64 KiB, in one frame');
});

test('a server under test with no result: stopped, or not reachable', () => {
  const cause = (reason: string): string => explainNoResult('1.1.1', 'A text message.', reason).cause.key;
  assert.equal(
    cause('the server under test exited with status 7 (last output: bye); not restarted (--restart-server restarts it)'),
    'no-result:server-stopped',
  );
  assert.equal(cause('could not connect to 127.0.0.1:4321: ECONNREFUSED'), 'no-result:unreachable');
});
