/**
 * The robustness profile against real releases, through the real CLI over real TCP: a ws release
 * with a published advisory fails the case that replays it, the release that fixed it passes, the
 * current ws (the bundled server) passes the whole of group 17, and a server of our own with no
 * message limit is caught by the case about it. The releases are installed by `npm test`
 * (test/fixtures/robustness/install.mjs); a test whose release is missing skips with the reason.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { robustnessServerCases } from '../../src/robustness/index.js';
import { runCliWith } from '../support/cli-env.js';
import { brokenServer, release, runRobustness, type RobustnessRun } from '../support/robustness.js';
import { tempDir } from '../support/harness.js';
import { needsReleases, PINNED_RELEASES, pinnedRelease } from '../support/requirements.js';

const robustness = (args: string[]): Promise<RobustnessRun> => runRobustness(args, 60_000);

test('ws 8.17.0 dies of 2,000 header lines (CVE-2024-37890): 17.1.3 FAILED, the server restarted; 8.17.1 passes it', {
  skip: needsReleases('ws-8.17.0', 'ws-8.17.1'),
}, async () => {
  const bad = await robustness(['--server', release('ws-8.17.0'), '--cases', '17.1.3', '17.1.5']);
  assert.equal(bad.code, 1, bad.out);
  const c = bad.cases.get('17.1.3');
  assert.equal(c?.status, 'failed', bad.out);
  assert.match(c?.reason ?? '', /the server under test exited with status 1 \(last output: /);
  assert.match(c?.reason ?? '', /restarted for the next case \(the robustness profile restarts a server wsgate started\)/);
  // The per-case report says FAILED too, with the liveness check's finding.
  const report = await bad.report('17.1.3');
  assert.equal(report.behavior, 'FAILED');
  assert.match(report.result, /Afterwards the server under test exited/);
  // Restarted, it passes the next case.
  assert.equal(bad.cases.get('17.1.5')?.status, 'passed', bad.out);

  const good = await robustness(['--server', release('ws-8.17.1'), '--cases', '17.1.3']);
  assert.equal(good.code, 0, good.out);
  assert.match((await good.report('17.1.3')).result, /Afterwards a normal case on a fresh connection passed \(echoed\), and the server process is alive/);
});

test('ws 8.17.0 under a supervisor (Node cluster) loses its worker to 2,000 header lines: 17.1.3 FAILED, though the root lives on; 8.17.1 passes', {
  skip: needsReleases('ws-8.17.0', 'ws-8.17.1'),
}, async () => {
  const supervised = (name: string): string => `'${process.execPath}' '${path.join(PINNED_RELEASES, 'cluster.cjs')}' ${name} {port}`;
  const bad = await robustness(['--server', supervised('ws-8.17.0'), '--cases', '17.1.3', '17.1.5']);
  assert.equal(bad.code, 1, bad.out);
  assert.equal(bad.cases.get('17.1.3')?.status, 'failed', bad.out);
  const report = await bad.report('17.1.3');
  assert.equal(report.behavior, 'FAILED');
  assert.match(report.result, /^A process of the peer's tree \(pid \d+, node\) ended during the case while its root process lived on/);
  // The supervisor forked another worker: the root was never restarted, and the next case passes.
  assert.doesNotMatch(report.result, /restarted for the next case/);
  assert.equal(bad.cases.get('17.1.5')?.status, 'passed', bad.out);

  const good = await robustness(['--server', supervised('ws-8.17.1'), '--cases', '17.1.3']);
  assert.equal(good.code, 0, good.out);
  assert.doesNotMatch((await good.report('17.1.3')).result, /ended during the case/);
});

test("ws 7.4.5's Sec-WebSocket-Protocol split is quadratic (CVE-2021-32640): 17.1.1 FAILED with the figures; 7.4.6 passes it", {
  skip: needsReleases('ws-7.4.5', 'ws-7.4.6'),
}, async () => {
  const bad = await robustness(['--server', release('ws-7.4.5'), '--cases', '17.1.1']);
  assert.equal(bad.code, 1, bad.out);
  const c = bad.cases.get('17.1.1');
  assert.equal(c?.status, 'failed', bad.out);
  assert.match(c?.reason ?? '', /super-linearly|budget 1,000 ms/);
  assert.match(c?.reason ?? '', /answered [\d,]+ bytes of Sec-WebSocket-Protocol in [\d,.]+ ms/);

  const good = await robustness(['--server', release('ws-7.4.6'), '--cases', '17.1.1']);
  assert.equal(good.code, 0, good.out);
  assert.match((await good.report('17.1.1')).result, /grew no faster than the size/);
});

test('17.1.1 against servers that refuse a bad Sec-WebSocket-Protocol by dropping the connection: the one whose tokenizer is quadratic in a run of spaces FAILED on how long a drop took; its one-pass twin is INFORMATIONAL, its drops timed', async () => {
  const [bad, good] = await Promise.all([
    robustness(['--server', brokenServer('quadratic-protocol-drops'), '--cases', '17.1.1']),
    robustness(['--server', brokenServer('linear-protocol-drops'), '--cases', '17.1.1']),
  ]);
  assert.equal(bad.code, 1, bad.out);
  const text = (await bad.report('17.1.1')).result;
  const figures = (await bad.report('17.1.1')).figures ?? [];
  // A drop past the budget; or, on a loaded machine, one that took past wsgate's 3 s wait: no answer at all.
  const drop =
    /^The server dropped the connection with no answer to Sec-WebSocket-Protocol of ([\d,]+) bytes only ([\d,.]+) ms after it began \(budget 1,000 ms\): refusing it cost that long, answered or not\./.exec(
      text,
    );
  if (drop === null) {
    assert.match(text, /^Sec-WebSocket-Protocol of [\d,]+ bytes: no answer within 3,000 ms\./);
    assert.ok(
      figures.some((f) => f.name === 'unanswered-bytes'),
      JSON.stringify(figures),
    );
  } else {
    assert.ok(Number((drop[2] as string).replace(/,/g, '')) > 1000, text);
    assert.equal(figures.find((f) => f.name === 'slowest-drop-ms')?.over, true, JSON.stringify(figures));
  }

  assert.equal(good.code, 0, good.out);
  assert.equal(good.cases.get('17.1.1')?.status, 'passed', good.out);
  assert.match(
    (await good.report('17.1.1')).result,
    /^The server refused every size of Sec-WebSocket-Protocol up to 1,048,576 bytes, each within [\d,.]+ ms \(budget 1,000 ms\)/,
  );
});

test('a server that dies 2 s after a connection it failed (a cleanup timer that throws): the case that caused it FAILED with its error line, not the next; its twin passes', async () => {
  const [bad, good] = await Promise.all([
    robustness(['--server', brokenServer('dies-late-on-error'), '--cases', '17.2.3', '17.4.4']),
    robustness(['--server', brokenServer('cleans-up-on-error'), '--cases', '17.2.3', '17.4.4']),
  ]);
  assert.equal(bad.code, 1, bad.out);
  assert.equal(bad.cases.get('17.2.3')?.status, 'failed', bad.out);
  assert.match(
    bad.cases.get('17.2.3')?.reason ?? '',
    /Afterwards the server under test exited with status 1 \(last output: Error: cleanup of a failed socket: it is already closed\); it is restarted for the next case/,
  );
  // 17.4.4 closes normally on the restarted server: its server does not die, and it is not charged.
  assert.equal(bad.cases.get('17.4.4')?.status, 'passed', bad.out);
  assert.equal(good.code, 0, good.out);
  assert.deepEqual(
    [...good.cases.values()].map((c) => `${c.id} ${c.status}`),
    ['17.2.3 passed', '17.4.4 passed'],
    good.out,
  );
});

// Slowloris (17.1.10) waits for Node's own timeout of a stalled head, 60 to 90 s: floods.test.ts plays it against servers with short timeouts.
const BUNDLED_PASSES = [
  '17.1.1',
  '17.1.2',
  '17.1.3',
  '17.1.4',
  '17.1.5',
  '17.1.6',
  '17.1.7',
  '17.1.8',
  '17.1.9',
  '17.1.11',
  '17.1.12',
  '17.2.1',
  '17.2.2',
  '17.4.1',
  '17.4.2',
  '17.4.3',
  '17.4.4',
];

test('the current ws (the bundled server) passes the whole of group 17 (but Slowloris, for its time)', async () => {
  const run = await robustness(['--role', 'server', '--cases', ...BUNDLED_PASSES]);
  assert.equal(run.code, 0, run.out);
  // The crowds of 17.1.6 and 17.1.11 (16 and 500 connections on one abort signal) leak no listener.
  assert.doesNotMatch(run.out, /MaxListenersExceededWarning/);
  assert.deepEqual(
    [...run.cases.values()].map((c) => `${c.id} ${c.status}`),
    BUNDLED_PASSES.map((id) => `${id} passed`),
  );
  // The 20 MB header refused long before its end; the normal client served beside 500 half-open connections.
  assert.match(
    (await run.report('17.1.8')).result,
    /wsgate had written [\d,]+ of the request's bytes; the server had read [\d,]+ of them \(budget 1,048,576\) when it refused a 20 MB header/,
  );
  assert.match(
    (await run.report('17.1.11')).result,
    /^The normal client's 101 came [\d,.]+ ms after its request \(budget 1,000 ms\), beside 500 connections each holding a partial request head/,
  );
  // Who ended TCP, not who began the closing handshake (wsgate did, in 17.4.4): the server, as it should.
  assert.match((await run.report('17.4.4')).result, /budget 2,000 ms; the peer ended it\)/);
});

test('a server with no message limit reads a declared gigabyte instead of refusing it at the header: 17.2.2 FAILED', async () => {
  const run = await robustness(['--server', brokenServer('no-size-limit'), '--cases', '17.2.1', '17.2.2']);
  assert.equal(run.code, 1, run.out);
  // ws refuses a 64-bit length over 2^53 - 1 whatever its limit: the length case passes.
  assert.equal(run.cases.get('17.2.1')?.status, 'passed', run.out);
  assert.equal(run.cases.get('17.2.2')?.status, 'failed', run.out);
  assert.match(run.cases.get('17.2.2')?.reason ?? '', /not refused: the server kept the connection open after reading [\d,]+ payload bytes/);
});

test('a server wsgate did not start (--server-url) that dies: that case FAILED, the rest not run, with the reason', {
  skip: needsReleases('ws-8.17.0'),
}, async () => {
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(p));
    });
  });
  const child = spawn(process.execPath, [path.join(pinnedRelease('ws-8.17.0').dir, 'server.cjs'), String(port)], { stdio: 'ignore' });
  try {
    const run = await robustness(['--server-url', `ws://127.0.0.1:${port}`, '--server-start-timeout', '10', '--cases', '17.1.3', '17.1.5']);
    assert.equal(run.code, 1, run.out);
    assert.equal(run.cases.get('17.1.3')?.status, 'failed', run.out);
    // The liveness probe finds no server, or (while the dying process still holds its port) a connection that goes nowhere.
    assert.match(
      run.cases.get('17.1.3')?.reason ?? '',
      /(found no server |a normal case on a fresh connection failed).*wsgate did not start it, so it cannot restart it: the remaining cases are not run/,
    );
    assert.equal(run.cases.get('17.1.5')?.status, 'skipped', run.out);
    assert.match(run.cases.get('17.1.5')?.reason ?? '', /^not run: the server is down after an earlier case/);
  } finally {
    child.kill();
  }
});

// With --http2 it selects the HTTP/2 floods alone (17.5): h2-attacks.test.ts.
test('--robustness selects group 17 alone for a server, and does not go with --extended', async () => {
  const dir = await tempDir();
  const list = await runCliWith(['list', '--robustness', '--role', 'server'], { cwd: dir });
  assert.equal(list.code, 0, list.stderr);
  assert.deepEqual(
    list.stdout
      .trim()
      .split('\n')
      .map((l) => l.trim().split(/\s+/)[1]),
    robustnessServerCases.map((c) => c.id),
  );
  assert.ok(robustnessServerCases.every((c) => c.id.startsWith('17.')) && robustnessServerCases.length >= 17);
  const plain = await runCliWith(['list', '--role', 'server', '--extended'], { cwd: dir });
  assert.doesNotMatch(plain.stdout, /^\s*\d+\s+17\./m);
  for (const flag of ['--extended']) {
    const res = await runCliWith(['run', '--role', 'server', '--robustness', flag], { cwd: dir });
    assert.equal(res.code, 2, res.stdout + res.stderr);
    assert.match(res.stderr, new RegExp(`--robustness .*${flag}`));
  }
});
