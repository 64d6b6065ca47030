/**
 * The programmatic API (src/api.ts, the package's entry point) over real sockets: run against the
 * bundled client and a broken one, a server under test, an aborted run, startServer driven by a
 * looping client then judged, shards merged, and the usage errors a caller can make.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { judge, merge, run, startServer, UsageError, VERSION, type RunResult } from '../../src/api.js';
import { fixture, LIVE_RUNS_AT_ONCE, REFERENCE_CLIENT, runNode, tempDir } from '../support/harness.js';

const LOOPBACK = 'ws://127.0.0.1:0';

/** What summary.json holds: the result without the API's own three fields. */
function summaryOf(result: RunResult): unknown {
  const { exitCode: _e, ok: _o, files: _f, ...summary } = result;
  return summary;
}

describe('the programmatic API', { concurrency: LIVE_RUNS_AT_ONCE }, () => {
  test('run: the bundled client on group 1.1 passes; the result is summary.json plus the exit decision', async () => {
    const outdir = await tempDir('wsgate-api-');
    const lines: string[] = [];
    const output = new (await import('node:stream')).Writable({
      write: (c: Buffer, _e, done) => {
        lines.push(c.toString());
        done();
      },
    });
    const result = await run({ url: LOOPBACK, outdir, cases: '1.1.*', output });
    assert.equal(result.exitCode, 0);
    assert.equal(result.ok, true);
    assert.equal(result.result, 'passed');
    assert.equal(result.agent, 'wsgate-reference-ws');
    assert.deepEqual(result.counts, { total: 8, passed: 8, failed: 0, skipped: 0, errors: 0, accepted: 0, baselinePassing: 0, nonStrict: 0, informational: 0 });
    assert.deepEqual(
      result.cases.map((c) => [c.id, c.behavior, c.behaviorClose]),
      ['1.1.1', '1.1.2', '1.1.3', '1.1.4', '1.1.5', '1.1.6', '1.1.7', '1.1.8'].map((id) => [id, 'OK', 'OK']),
    );
    assert.deepEqual(result.files, {
      outdir,
      junit: path.join(outdir, 'junit.xml'),
      json: path.join(outdir, 'summary.json'),
      html: path.join(outdir, 'index.html'),
    });
    assert.deepEqual(JSON.parse(readFileSync(result.files.json, 'utf8')), summaryOf(result));
    assert.ok(existsSync(result.files.junit) && existsSync(result.files.html));
    assert.match(lines.join(''), /8 passed/, 'the progress lines go to output');
  });

  test('run: quick keeps groups 1-7 whole and plays the fixed sample of 9 (case 1 of each subgroup)', async () => {
    const outdir = await tempDir('wsgate-api-');
    const result = await run({ url: LOOPBACK, outdir, cases: ['2.*', '9.1.*', '9.2.*'], quick: true });
    assert.equal(result.exitCode, 0);
    assert.deepEqual(
      result.cases.map((c) => c.id),
      ['2.1', '2.2', '2.3', '2.4', '2.5', '2.6', '2.7', '2.8', '2.9', '2.10', '2.11', '9.1.1', '9.2.1'],
    );
  });

  test('run: robustness plays the attacks on the client (group 18) instead of the catalogue; the bundled client passes them', async () => {
    const outdir = await tempDir('wsgate-api-');
    const result = await run({ url: LOOPBACK, outdir, robustness: true, cases: ['18.1.*', '18.3.1'] });
    assert.equal(result.exitCode, 0);
    assert.deepEqual(
      result.cases.map((c) => [c.id, c.behavior]),
      ['18.1.1', '18.1.2', '18.1.3', '18.1.4', '18.1.5', '18.1.6', '18.3.1'].map((id) => [id, 'OK']),
    );
  });

  test('run: a client that echoes invalid UTF-8 fails the gate: exit decision 1, the failing case named', async () => {
    const outdir = await tempDir('wsgate-api-');
    const result = await run({ url: LOOPBACK, outdir, cases: ['6.3.1', '1.1.1'], client: `node ${fixture('echo-invalid')} {url}`, agent: 'echo-invalid' });
    assert.equal(result.exitCode, 1);
    assert.equal(result.ok, false);
    assert.equal(result.result, 'failed');
    assert.equal(result.counts.total, 2);
    assert.equal(result.counts.failed, 1);
    const failed = result.cases.find((c) => c.status === 'failed');
    assert.equal(failed?.id, '6.3.1');
    assert.equal(failed?.behavior, 'FAILED');
  });

  test('run with role server: the bundled ws server passes; a signal aborted before the start interrupts the run', async () => {
    const outdir = await tempDir('wsgate-api-');
    const result = await run({ role: 'server', outdir, cases: '1.1.1,2.1' });
    assert.equal(result.role, 'server');
    assert.deepEqual([result.exitCode, result.counts.passed, result.counts.total], [0, 2, 2]);
    const stopped = await run({ url: LOOPBACK, outdir: await tempDir('wsgate-api-'), cases: '1.*', signal: AbortSignal.abort('stop') });
    assert.equal(stopped.exitCode, 1);
    assert.notEqual(stopped.interrupted, null);
    assert.equal(stopped.counts.passed, 0);
  });

  test('startServer: a client drives the cases itself; close writes the reports; judge gives the verdict', async () => {
    const outdir = await tempDir('wsgate-api-');
    const server = await startServer({ url: LOOPBACK, outdir, cases: ['2.*'] });
    assert.match(server.url, /^ws:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(server.port, Number(new URL(server.url).port));
    assert.deepEqual(server.cases, ['2.1', '2.2', '2.3', '2.4', '2.5', '2.6', '2.7', '2.8', '2.9', '2.10', '2.11']);
    assert.equal(server.caFile, null);
    const client = await runNode(REFERENCE_CLIENT, [server.url, 'looping-ws']);
    assert.equal(client.code, 0, client.stderr);
    await server.close();
    await server.close(); // twice is harmless
    const verdict = await judge({ outdir, agent: 'looping-ws' });
    assert.deepEqual([verdict.exitCode, verdict.agent, verdict.counts.total, verdict.counts.passed], [0, 'looping-ws', 11, 11]);
    const strict = await judge({ outdir, agent: 'looping-ws', cases: '1.*' });
    assert.equal(strict.exitCode, 1, 'group 1 was never run: judge must not pass it');
  });

  test('merge: two shards of a selection join into one result', async () => {
    const root = await tempDir('wsgate-api-');
    const shards = ['1/2', '2/2'].map((shard, i) => ({ shard, outdir: path.join(root, `shard-${i + 1}`) }));
    const parts = await Promise.all(shards.map((s) => run({ url: LOOPBACK, cases: ['1.1.*', '2.*'], ...s })));
    assert.deepEqual(
      parts.map((p) => p.counts.total).reduce((a, b) => a + b),
      19,
    );
    const merged = await merge({ inputs: shards.map((s) => s.outdir), outdir: path.join(root, 'merged') });
    assert.deepEqual([merged.exitCode, merged.counts.total, merged.counts.passed, merged.shard], [0, 19, 19, null]);
    assert.deepEqual(
      merged.cases.map((c) => c.index),
      Array.from({ length: 19 }, (_, i) => i + 1),
    );
  });

  test('a bad option is a UsageError: an unknown name, a bad value, a non-object, an output inside an input', async () => {
    await assert.rejects(
      run({ url: LOOPBACK, clientCommand: 'x' } as never),
      (e: unknown) => e instanceof UsageError && /unknown option clientCommand/.test(e.message),
    );
    await assert.rejects(run({ url: 'http://127.0.0.1:1' }), UsageError);
    await assert.rejects(run({ jobs: 0 }), (e: unknown) => e instanceof UsageError && /--jobs/.test(e.message));
    await assert.rejects(startServer(null as never), UsageError);
    await assert.rejects(judge({ outdir: await tempDir('wsgate-api-empty-') }), UsageError);
    const dir = await tempDir('wsgate-api-');
    await assert.rejects(merge({ inputs: [dir], outdir: dir }), (e: unknown) => e instanceof UsageError && /must not be one of the inputs/.test(e.message));
  });

  test("VERSION is package.json's", () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    assert.equal(VERSION, pkg.version);
  });
});
