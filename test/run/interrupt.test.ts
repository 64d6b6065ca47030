/**
 * SIGINT and SIGTERM to a real `wsgate run` process in the middle of a run: no new case starts, the
 * client's process group is killed, the finished cases are reported, the rest are marked not run
 * (JUnit <error> with the reason: red to every JUnit reader), the exit status is 130 / 143, and the report directory holds
 * only complete files (no temporary file; every JSON file parses).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { CLI, fixture, tempDir } from '../support/harness.js';

interface Summary {
  interrupted: string | null;
  result: string;
  cases: Array<{ id: string; status: string; reason: string; behavior: string | null }>;
}

/** Every file under dir, relative paths. */
async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.push(path.relative(dir, path.join(e.parentPath, e.name)));
  }
  return out.sort();
}

for (const [signal, status] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  test(`${signal} after two of three cases: reports for the two, the third not run, no client left, exit ${status}`, async () => {
    const outdir = await tempDir();
    const marker = `wsgate-interrupt-${signal}-${process.pid}`;
    const node = `'${process.execPath}'`;
    // A correct peer for the first two cases; for the third a client that never connects (it would run
    // into the 60 s timeout). The marker names the client processes in the process table.
    const client = `if [ "$WSGATE_CASE" = 6.12.7 ]; then exec ${node} '${fixture('never-connect')}' ${marker}; else exec ${node} '${fixture('spec-peer')}' {url} ${marker}; fi`;
    const child = spawn(
      process.execPath,
      [CLI, 'run', '--client', client, '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--case-timeout', '60', '--cases', '1.1.1', '6.9.2', '6.12.7'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    // 'close', not 'exit': its output is asserted after, and a process can exit before the last of it is read.
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // Both first cases done, in either order: with two at once, 6.9.2 can end before 1.1.1 (a quiet
    // .ci/run once signalled while 1.1.1 still ran, and found it not run).
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (/\] pass 1\.1\.1/.test(out) && /\] pass 6\.9\.2/.test(out)) resolve();
      });
      void exited.then(() => reject(new Error(`the run ended before the signal: ${out}${err}`)));
    });
    // Let the third case's client start, then interrupt.
    await new Promise((r) => setTimeout(r, 500));
    child.kill(signal);
    assert.equal(await exited, status, out + err);
    assert.match(out, /interrupted|not run/i);

    const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as Summary;
    assert.equal(summary.interrupted, signal);
    assert.equal(summary.result, 'failed');
    assert.deepEqual(
      summary.cases.map((c) => [c.id, c.status, c.behavior]),
      [
        ['1.1.1', 'passed', 'OK'],
        ['6.9.2', 'passed', 'OK'],
        ['6.12.7', 'skipped', null],
      ],
    );
    assert.equal(summary.cases[2]?.reason, `not run: the run was interrupted (${signal})`);
    const junit = await readFile(path.join(outdir, 'junit.xml'), 'utf8');
    assert.equal((junit.match(/<skipped /g) ?? []).length, 0);
    assert.equal((junit.match(/<error /g) ?? []).length, 1);
    assert.match(junit, new RegExp(`<error message="not run: the run was interrupted \\(${signal}\\)" type="NOT RUN"/>`));

    // The finished cases have their Autobahn reports; the interrupted one has none.
    const files = await listFiles(outdir);
    assert.deepEqual(files, [
      'client_case_1_1_1.html',
      'client_case_1_1_1.json',
      'client_case_6_9_2.html',
      'client_case_6_9_2.json',
      'index.html',
      'index.json',
      'junit.xml',
      'summary.json',
    ]);
    const index = JSON.parse(await readFile(path.join(outdir, 'index.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(index.client ?? {}), ['1.1.1', '6.9.2']);
    // Atomic writes: every JSON file is whole.
    for (const f of files.filter((f) => f.endsWith('.json'))) JSON.parse(await readFile(path.join(outdir, f), 'utf8'));

    const ps = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    assert.ok(!ps.includes(marker), 'a client process outlived the run');
  });
}

test('SIGTERM while a looping client (the bundled one) is mid-case: that case and the rest are not run, not failed', async () => {
  const outdir = await tempDir();
  // 6.4.x keep the connection about a second each (the server's timers), so the signal lands mid-case.
  const child = spawn(
    process.execPath,
    [CLI, 'run', '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--jobs', '1', '--cases', '1.1.1', '6.4.1', '6.4.2', '6.4.3'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (/\[2\/4\] \S+ +6\.4\.1 /.test(out)) resolve();
    });
    void exited.then(() => reject(new Error(`the run ended before the signal: ${out}`)));
  });
  await new Promise((r) => setTimeout(r, 300));
  child.kill('SIGTERM');
  assert.equal(await exited, 143, out);
  assert.doesNotMatch(out, /\[3\/4\]/, 'the case cut short was printed with a verdict');
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as Summary;
  assert.deepEqual(
    summary.cases.map((c) => [c.id, c.status]),
    [
      ['1.1.1', 'passed'],
      ['6.4.1', 'passed'],
      ['6.4.2', 'skipped'],
      ['6.4.3', 'skipped'],
    ],
  );
  const index = JSON.parse(await readFile(path.join(outdir, 'index.json'), 'utf8')) as Record<string, Record<string, unknown>>;
  assert.deepEqual(Object.keys(index['wsgate-reference-ws'] ?? {}), ['1.1.1', '6.4.1']);
  const files = await listFiles(outdir);
  assert.ok(
    files.every((f) => !f.startsWith('.wsgate-tmp-')),
    files.join(' '),
  );
  for (const f of files.filter((f) => f.endsWith('.json'))) JSON.parse(await readFile(path.join(outdir, f), 'utf8'));
});

test('SIGINT while the server under test is starting: every selected case is not run, each a JUnit error, exit 130', async () => {
  const outdir = await tempDir();
  const marker = path.join(outdir, '..', `${path.basename(outdir)}-starting`);
  // A server command that says it started, then never listens.
  const server = `touch '${marker}'; exec sleep 60`;
  const child = spawn(process.execPath, [CLI, 'run', '--role', 'server', '--server', server, '--outdir', outdir, '--cases', '1.1.*'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  try {
    const { existsSync, rmSync } = await import('node:fs');
    const deadline = performance.now() + 30_000;
    while (!existsSync(marker) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    rmSync(marker, { force: true });
    child.kill('SIGINT');
    assert.equal(await exited, 130);
    const junit = await readFile(path.join(outdir, 'junit.xml'), 'utf8');
    assert.match(junit, /<testsuites [^>]*tests="8" failures="0" errors="8" skipped="0"/);
    assert.equal((junit.match(/<error message="not run: the run was interrupted \(SIGINT\)" type="NOT RUN"\/>/g) ?? []).length, 8);
  } finally {
    child.kill('SIGKILL');
  }
});
