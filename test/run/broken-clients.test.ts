/**
 * The gate end to end, as a process, against deliberately broken clients (each wrong in one way):
 * each gets the verdict Autobahn would give, a JUnit failure with a readable reason, and exit 1.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fixtureCommand, LIVE_RUNS_AT_ONCE, runCli, tempDir } from '../support/harness.js';

import type { SummaryCase } from '../support/cli-env.js';

async function gate(
  client: string,
  extra: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string; cases: Map<string, SummaryCase>; junit: string; outdir: string }> {
  const outdir = await tempDir();
  const res = await runCli(['run', '--client', client, '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', '6.9.2', '6.12.7', ...extra]);
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as { cases: SummaryCase[] };
  const junit = await readFile(path.join(outdir, 'junit.xml'), 'utf8');
  return { ...res, cases: new Map(summary.cases.map((c) => [c.id, c])), junit, outdir };
}

/** A run of group 1 with a client command that cannot work: its exit status, its `wsgate:` lines, the cases it played. */
async function broken(
  client: string,
  extra: string[],
): Promise<{ code: number | null; stdout: string; stderr: string; errorLines: string[]; played: string[] }> {
  const outdir = await tempDir();
  const res = await runCli(['run', '--client', client, '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', '1.*', ...extra]);
  const errorLines = res.stderr.split('\n').filter((l) => l.startsWith('wsgate:'));
  // The progress lines of the cases that ended.
  const played = [...res.stdout.matchAll(/^\[ *\d+\/\d+\] \S+ +(1\.\d\.\d+) /gm)].map((m) => m[1] as string);
  // A stopped run writes no reports.
  assert.deepEqual(existsSync(path.join(outdir, 'summary.json')), false);
  return { ...res, errorLines, played };
}

function verdicts(c: SummaryCase | undefined): string {
  return `${c?.behavior ?? '-'}/${c?.behaviorClose ?? '-'}`;
}

/** The <testcase> element of a case id, with its body. */
function junitCase(junit: string, id: string): string {
  const at = junit.indexOf(`name="${id} `);
  assert.ok(at >= 0, `no testcase for ${id}`);
  return junit.slice(at, junit.indexOf('</testcase>', at));
}

describe('the gate with broken clients', { concurrency: LIVE_RUNS_AT_ONCE }, () => {
  test('a client that echoes invalid UTF-8 fails 6.12.7 (the server had to fail the connection)', async () => {
    const r = await gate(fixtureCommand('echo-invalid'));
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.cases.get('6.9.2')?.status, 'passed');
    const c = r.cases.get('6.12.7');
    assert.equal(c?.status, 'failed');
    assert.equal(verdicts(c), 'FAILED/FAILED');
    assert.match(c?.reason ?? '', /closing FAILED: The connection was failed by the wrong endpoint/);
    assert.match(junitCase(r.junit, '6.12.7'), /<failure [^>]*type="FAILED\/FAILED"/);
    assert.match(r.stdout, /FAIL 6\.12\.7/);
  });

  test('a client that never closes gets UNCLEAN and FAILED', async () => {
    const r = await gate(fixtureCommand('never-close'));
    assert.equal(r.code, 1);
    const echo = r.cases.get('6.9.2');
    assert.equal(verdicts(echo), 'OK/UNCLEAN');
    assert.match(echo?.reason ?? '', /closing UNCLEAN: The spec requires the connection to be failed cleanly here/);
    assert.equal(verdicts(r.cases.get('6.12.7')), 'FAILED/FAILED');
    assert.match(junitCase(r.junit, '6.9.2'), /<failure [^>]*type="OK\/UNCLEAN"/);
  });

  test('a client that drops TCP without a close frame fails the echo case', async () => {
    const r = await gate(fixtureCommand('drop-tcp'));
    assert.equal(r.code, 1);
    assert.equal(verdicts(r.cases.get('6.9.2')), 'FAILED/FAILED');
    // Dropping TCP is one way to fail a connection: 6.12.7 passes.
    assert.equal(verdicts(r.cases.get('6.12.7')), 'OK/OK');
    const report = JSON.parse(await readFile(path.join(r.outdir, 'index.json'), 'utf8')) as Record<string, Record<string, { reportfile: string }>>;
    const file = report.client?.['6.9.2']?.reportfile ?? '';
    const detail = JSON.parse(await readFile(path.join(r.outdir, file), 'utf8')) as { wasNotCleanReason: string; wasClean: boolean };
    assert.equal(detail.wasClean, false);
    assert.equal(detail.wasNotCleanReason, 'peer dropped the TCP connection without previous WebSocket closing handshake');
  });

  test('a client that never connects: the run stops after its first two cases, each killed at the case timeout; exit 2, one line, nothing played after', async () => {
    const r = await broken(fixtureCommand('never-connect'), ['--case-timeout', '1.5', '--jobs', '1']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.deepEqual(r.errorLines, [
      "wsgate: the client command never connected in the run's first 2 cases (1.1.1, 1.1.2): the client did not connect within 1.5 s; it was killed; the run is stopped: check --client (the command, and that it dials its {url})",
    ]);
    // The first case was reported, the second stopped the run; the 14 others of group 1 were not played.
    assert.deepEqual(r.played, ['1.1.1']);
  });

  test('a client that crashes mid-case fails the echo case and its exit status is reported', async () => {
    const r = await gate(fixtureCommand('crash'));
    assert.equal(r.code, 1);
    const c = r.cases.get('6.9.2');
    assert.equal(verdicts(c), 'FAILED/FAILED');
    assert.equal(c?.client?.exitCode, 1);
    assert.ok(r.cases.get('6.12.7')?.warnings.includes('the client exited with status 1'));
    assert.match(junitCase(r.junit, '6.9.2'), /deliberate crash of a test client/);
  });

  test("a command that does not exist: exit 2 after two cases, with the shell's own line", async () => {
    const r = await broken('/nonexistent/wsgate-no-such-client {url}', ['--jobs', '4']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal(r.errorLines.length, 1, r.stderr);
    assert.match(
      r.errorLines[0] ?? '',
      /^wsgate: the client command never connected in the run's first 2 cases \(1\.1\.\d, 1\.1\.\d\): the client exited with status 127 \(command not found\?\) before it connected: .*\/nonexistent\/wsgate-no-such-client: not found; the run is stopped/,
    );
    assert.ok(r.played.length <= 4, r.stdout);
  });

  test('a client that connects in its first case and then exits before connecting: those cases fail with the exit status (exit 1)', async () => {
    const peer = fixtureCommand('spec-peer');
    const r = await gate(`case {case} in 6.9.2) ${peer} ;; *) exit 3 ;; esac`, ['--jobs', '1', '--cases', '1.1.1']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(r.cases.get('6.9.2')?.status, 'passed');
    for (const id of ['6.12.7', '1.1.1']) {
      const c = r.cases.get(id);
      assert.deepEqual([c?.status, c?.reason, c?.client?.exitCode], ['failed', 'the client exited with status 3 before it connected', 3]);
      assert.match(junitCase(r.junit, id), /<failure [^>]*message="the client exited with status 3 before it connected" type="CLIENT"/);
    }
  });

  test('placeholders are shell-quoted: an agent with spaces, quotes and & reaches the client intact', async () => {
    const agent = `it's "my" client & co`;
    const r = await gate(`${fixtureCommand('spec-peer')} && test "$WSGATE_AGENT" = {agent} && test "$WSGATE_CASE" = {case}`, ['--agent', agent]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.cases.get('6.9.2')?.status, 'passed');
    const index = JSON.parse(await readFile(path.join(r.outdir, 'index.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(index), [agent]);
  });

  test('a client that exits at once (status 0, no connection): exit 2 after two cases, the looping one at once', async () => {
    const r = await broken(fixtureCommand('exits-at-once'), ['--jobs', '1']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.deepEqual(r.errorLines, [
      "wsgate: the client command never connected in the run's first 2 cases (1.1.1, 1.1.2): the client exited with status 0 before it connected; the run is stopped: check --client (the command, and that it dials its {url})",
    ]);
    const looping = await broken(fixtureCommand('exits-at-once'), ['--client-loops']);
    assert.equal(looping.code, 2, looping.stdout + looping.stderr);
    assert.deepEqual(looping.errorLines, [
      'wsgate: the looping client command exited with status 0 before it connected; the run is stopped: check --client (the command, and that it dials its {url})',
    ]);
    const silent = await broken(fixtureCommand('never-connect'), ['--client-loops', '--case-timeout', '1.5']);
    assert.equal(silent.code, 2, silent.stdout + silent.stderr);
    assert.deepEqual(silent.errorLines, [
      'wsgate: the looping client command did not connect within 1.5 s; it was killed; the run is stopped: check --client (the command, and that it dials its {url})',
    ]);
  });

  test('a client that exits non-zero after passing: the case passes with a warning, the run passes', async () => {
    const r = await gate(fixtureCommand('exit-status-after-pass'));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    for (const id of ['6.9.2', '6.12.7']) {
      const c = r.cases.get(id);
      assert.equal(c?.status, 'passed');
      assert.equal(c?.client?.exitCode, 3);
      assert.deepEqual(c?.warnings, ['the client exited with status 3']);
      const tc = junitCase(r.junit, id);
      assert.doesNotMatch(tc, /<failure/);
      assert.match(tc, /<property name="warning" value="the client exited with status 3"\/>/);
      assert.match(tc, /<system-err><!\[CDATA\[warning: the client exited with status 3\]\]><\/system-err>/);
    }
  });

  test('a client that leaves a child behind: the process group is killed, no orphan is left', async () => {
    const dir = await tempDir();
    const r = await gate(fixtureCommand('forks-orphan', `{url} '${dir}/'{case}.pid`));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    for (const id of ['6.9.2', '6.12.7']) {
      assert.equal(r.cases.get(id)?.status, 'passed');
      const pid = Number(readFileSync(path.join(dir, `${id}.pid`), 'utf8'));
      assert.ok(pid > 0);
      // Gone from the process table, or a zombie no one reaped (dead either way).
      const stat = `/proc/${pid}/stat`;
      const state = existsSync(stat) ? readFileSync(stat, 'utf8').split(') ')[1]?.[0] : 'gone';
      assert.ok(state === 'gone' || state === 'Z', `the client's child ${pid} is still running (state ${state})`);
    }
  });

  for (const mode of ['setsid', 'daemon'] as const) {
    test(`a client that leaves a process outside its process group (${mode}): found by its environment and ended`, async () => {
      const dir = await tempDir();
      const r = await gate(fixtureCommand('escapes-group', `{url} '${dir}/'{case}.pid ${mode}`));
      assert.equal(r.code, 0, r.stdout + r.stderr);
      for (const id of ['6.9.2', '6.12.7']) {
        assert.equal(r.cases.get(id)?.status, 'passed');
        const pid = Number(readFileSync(path.join(dir, `${id}.pid`), 'utf8'));
        assert.ok(pid > 0);
        const stat = `/proc/${pid}/stat`;
        const state = existsSync(stat) ? readFileSync(stat, 'utf8').split(') ')[1]?.[0] : 'gone';
        assert.ok(state === 'gone' || state === 'Z', `the ${mode} process ${pid} of case ${id} is still running (state ${state})`);
      }
    });
  }

  test('a client that ignores SIGTERM and never exits is killed with SIGKILL after a grace; nothing is left', async () => {
    const marker = `wsgate-ignores-sigterm-${process.pid}`;
    const r = await gate(fixtureCommand('ignores-sigterm', `{url} ${marker}`), ['--exclude-cases', '6.12.7']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const c = r.cases.get('6.9.2');
    assert.equal(c?.status, 'passed');
    assert.deepEqual(c?.warnings, ['the client was still running 2 s after its case ended and ignored SIGTERM; its process group was killed with SIGKILL']);
    const tc = junitCase(r.junit, '6.9.2');
    assert.match(tc, /Client output:\nignores-sigterm: SIGTERM ignored/);
    assert.ok(!execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).includes(marker), 'a client process outlived the run');
  });

  test('a client that prints 32 MiB: the case passes, its output is kept bounded (the last part) in the report', async () => {
    const r = await gate(fixtureCommand('floods-stdout'), ['--exclude-cases', '6.12.7']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const c = r.cases.get('6.9.2');
    assert.equal(c?.status, 'passed');
    assert.equal(c?.client?.exitCode, 0);
    const tc = junitCase(r.junit, '6.9.2');
    assert.match(tc, /Client output \(last part only\):\n/);
    assert.match(tc, /floods-stdout: printed 33554432 bytes\n/);
    assert.ok(Buffer.byteLength(r.junit) < 64 * 1024, `junit.xml is ${Buffer.byteLength(r.junit)} bytes`);
    // The console output is the gate's own: the client's flood does not reach it.
    assert.ok(r.stdout.length < 4096, `the gate printed ${r.stdout.length} bytes`);
  });
});
