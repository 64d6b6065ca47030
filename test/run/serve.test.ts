/**
 * `wsgate serve` as a process: an Autobahn-style client driver runs unchanged against it, and the
 * same driver works as a looping client of `wsgate run --client-loops`.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { CLI, fixture, fixtureCommand, runCli, runNode, tempDir } from '../support/harness.js';

test('an Autobahn client driver runs unchanged against wsgate serve', async () => {
  const outdir = await tempDir();
  const child = spawn(process.execPath, [CLI, 'serve', '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', '6.9.2', '6.12.7'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Fuzzing Server \(Port (\d+)\)/.exec(out);
      if (m && out.includes('Ok, will run 2 test cases')) resolve(Number(m[1]));
    });
    child.on('exit', () => reject(new Error(`serve exited early: ${out}`)));
  });
  const driver = await runNode(fixture('autobahn-driver'), [`ws://127.0.0.1:${port}`, 'driver agent']);
  assert.equal(driver.code, 0, driver.stderr);
  assert.equal(driver.stdout, 'ran 2 cases\n');
  const index = JSON.parse(await readFile(path.join(outdir, 'index.json'), 'utf8')) as Record<
    string,
    Record<string, { behavior: string; behaviorClose: string }>
  >;
  assert.deepEqual(Object.keys(index), ['driver agent']);
  assert.deepEqual(Object.keys(index['driver agent'] ?? {}).sort(), ['6.12.7', '6.9.2']);
  for (const v of Object.values(index['driver agent'] ?? {})) assert.deepEqual([v.behavior, v.behaviorClose], ['OK', 'OK']);
  assert.match(out, /Running test case ID 6\.9\.2 for agent "driver agent" from peer tcp4:127\.0\.0\.1:\d+/);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
});

test('run --client-loops: the driver runs every case itself and the gate judges them', async () => {
  const outdir = await tempDir();
  const res = await runCli([
    'run',
    '--client',
    fixtureCommand('autobahn-driver', '{url} looping'),
    '--client-loops',
    '--agent',
    'looping',
    '--url',
    'ws://127.0.0.1:0',
    '--outdir',
    outdir,
    '--cases',
    '6.9.2',
    '6.12.7',
    '--jobs',
    '2',
  ]);
  assert.equal(res.code, 0, res.stdout + res.stderr);
  // A looping client runs its cases one after another, whatever --jobs says; the header says so.
  assert.match(res.stdout, /^wsgate: 2 cases, one at a time, against /m);
  assert.doesNotMatch(res.stdout, /at once/);
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as { cases: Array<{ id: string; status: string }> };
  assert.deepEqual(
    summary.cases.map((c) => [c.id, c.status]),
    [
      ['6.9.2', 'passed'],
      ['6.12.7', 'passed'],
    ],
  );
});

test('run --client-loops with a driver that asks for nothing: the run stops, exit 2, one line', async () => {
  const outdir = await tempDir();
  const res = await runCli(['run', '--client', 'true', '--client-loops', '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', '6.9.2', '6.12.7']);
  assert.equal(res.code, 2, res.stdout + res.stderr);
  assert.match(res.stderr, /^wsgate: the looping client command exited with status 0 before it connected; the run is stopped/m);
});

test('run --client-loops with a driver that asks for the count and runs nothing fails every case', async () => {
  const outdir = await tempDir();
  // It asks for the count over a WebSocket (as Autobahn's drivers do), then exits.
  const count = `'${process.execPath}' -e "const W = require('ws'); new W(process.env.WSGATE_URL + '/getCaseCount').on('message', () => process.exit(0))"`;
  const res = await runCli(['run', '--client', count, '--client-loops', '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', '6.9.2', '6.12.7']);
  assert.equal(res.code, 1, res.stdout + res.stderr);
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as { cases: Array<{ status: string; reason: string }> };
  for (const c of summary.cases) {
    assert.equal(c.status, 'failed');
    assert.match(c.reason, /the client did not run this case/);
  }
});
