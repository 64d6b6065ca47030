/**
 * The gate for servers end to end, as a process: wsgate is the fuzzing client. The bundled ws
 * server passes; servers each wrong in one way get the verdicts Autobahn's fuzzing client would give
 * and exit 1; server commands that never listen or exit at start are one-line errors (exit 2); one
 * that dies mid-run fails the remaining cases (or is restarted); one that ignores SIGTERM is killed.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { WebSocketServer } from 'ws';
import { runCliWith, runMain, startCliUntil, type SummaryCase } from '../support/cli-env.js';
import { tempDir } from '../support/harness.js';

const BROKEN = fileURLToPath(new URL('../fixtures/servers/broken-server.js', import.meta.url));

function brokenServer(mode: string): string {
  return `'${process.execPath}' '${BROKEN}' ${mode} {port}`;
}

/**
 * A run whose reports go to DIR/reports/servers. Given `cwd`, the CLI runs as a process there and
 * writes to its default ./reports/servers; without, main() runs in this process (runMain: what the
 * run decides, its verdicts, reports, one-line errors and status) with that directory as --outdir.
 */
async function gate(
  args: string[],
  cwd?: string,
): Promise<{ code: number | null; stdout: string; stderr: string; cases: Map<string, SummaryCase>; outdir: string }> {
  const dir = cwd ?? (await tempDir());
  const outdir = path.join(dir, 'reports', 'servers');
  const res = cwd !== undefined ? await runCliWith(['run', ...args], { cwd, timeoutMs: 90_000 }) : await runMain(['run', '--outdir', outdir, ...args]);
  let cases = new Map<string, SummaryCase>();
  if (res.code === 0 || res.code === 1) {
    const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as { cases: SummaryCase[] };
    cases = new Map(summary.cases.map((c) => [c.id, c]));
  }
  return { ...res, cases, outdir };
}

function verdicts(c: SummaryCase | undefined): string {
  return `${c?.behavior ?? '-'}/${c?.behaviorClose ?? '-'}`;
}

test("the embedded default: --role server runs the bundled ws server, reports in ./reports/servers as Autobahn's fuzzing client writes them", async () => {
  const res = await gate(['--role', 'server', '--cases', '1.1.1', '2.5', '6.3.1', '7.1.1', '12.1.1', '--jobs', '2'], await tempDir());
  assert.equal(res.code, 0, res.stdout + res.stderr);
  assert.match(res.stdout, /against the bundled ws server at ws:\/\/127\.0\.0\.1:\d+\//);
  assert.deepEqual(
    [...res.cases.values()].map((c) => `${c.id} ${c.status} ${verdicts(c)}`),
    ['1.1.1 passed OK/OK', '2.5 passed OK/OK', '6.3.1 passed OK/OK', '7.1.1 passed OK/OK', '12.1.1 passed OK/OK'],
  );
  const index = JSON.parse(await readFile(path.join(res.outdir, 'index.json'), 'utf8')) as Record<string, Record<string, { reportfile: string }>>;
  assert.deepEqual(Object.keys(index), ['wsgate-reference-ws']);
  const report = JSON.parse(await readFile(path.join(res.outdir, index['wsgate-reference-ws']?.['12.1.1']?.reportfile ?? ''), 'utf8')) as Record<
    string,
    unknown
  >;
  assert.equal(report.isServer, false);
  // Autobahn's fuzzing client numbers a case by its place in the whole catalogue.
  assert.equal(report.case, 302);
  assert.match(
    String(report.httpRequest),
    /^GET \/ HTTP\/1\.1\r\n[\s\S]*Sec-WebSocket-Extensions: permessage-deflate; client_no_context_takeover; client_max_window_bits\r\n/,
  );
  assert.match(String(report.httpResponse), /Sec-WebSocket-Extensions: permessage-deflate/);
  assert.equal(report.wasServerConnectionDropTimeout, false);
});

describe("servers wrong in one way get the original fuzzing client's verdicts and exit 1", () => {
  const cases = ['--cases', '1.1.1', '6.3.1', '--agent', 'broken'];

  test("no echo: the outcome fails; the case's timer closes with 1001, which ws echoes: WRONG CODE", async () => {
    const res = await gate(['--server', brokenServer('no-echo'), ...cases]);
    assert.equal(res.code, 1);
    assert.equal(verdicts(res.cases.get('1.1.1')), 'FAILED/WRONG CODE');
  });

  test('a wrong Sec-WebSocket-Accept: the handshake is failed, and the reason says so', async () => {
    const res = await gate(['--server', brokenServer('wrong-accept'), ...cases]);
    assert.equal(res.code, 1);
    assert.equal(verdicts(res.cases.get('1.1.1')), 'FAILED/FAILED');
    const report = JSON.parse(await readFile(path.join(res.outdir, 'broken_case_1_1_1.json'), 'utf8')) as {
      wasNotCleanReason: string;
      resultClose: string;
      expected: unknown;
      expectedClose: unknown;
    };
    assert.match(report.wasNotCleanReason, /Sec-WebSocket-Accept is "AAAAAAAAAAAAAAAAAAAAAAAAAAA="/);
    assert.equal(report.resultClose, 'The WebSocket opening handshake was never completed!');
    // Autobahn's cases set their expectations when the connection opens: one that never opened expects nothing.
    assert.deepEqual([report.expected, report.expectedClose], [{}, {}]);
    assert.equal(verdicts(res.cases.get('6.3.1')), 'FAILED/FAILED');
  });

  test('accepts invalid UTF-8: 6.3.1 fails (the server echoes what it must refuse), 1.1.1 passes', async () => {
    const res = await gate(['--server', brokenServer('no-utf8-check'), ...cases]);
    assert.equal(res.code, 1);
    assert.equal(verdicts(res.cases.get('1.1.1')), 'OK/OK');
    assert.equal(res.cases.get('6.3.1')?.behavior, 'FAILED');
    // wsgate fails the connection (1007) on the echo, and the message's end fails it again: as in
    // autobahn-python, that second failure drops TCP without waiting for the server's close.
    const report = JSON.parse(await readFile(path.join(res.outdir, 'broken_case_6_3_1.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual([report.localCloseCode, report.remoteCloseCode, report.droppedByMe, report.wasClean], [1007, null, true, false]);
  });

  test('drops TCP at once: FAILED on both axes', async () => {
    const res = await gate(['--server', brokenServer('drops-at-once'), ...cases]);
    assert.equal(res.code, 1);
    assert.equal(verdicts(res.cases.get('1.1.1')), 'FAILED/FAILED');
  });

  test('never closes: the echo is right, the close is UNCLEAN (no answer to our close within the timeout)', async () => {
    const res = await gate(['--server', brokenServer('never-closes'), ...cases]);
    assert.equal(res.code, 1);
    assert.equal(verdicts(res.cases.get('1.1.1')), 'OK/UNCLEAN');
  });

  test('keeps TCP open after the closing handshake: wsgate drops it (FAILED BY CLIENT), or after 1 s uncleanly', async () => {
    const res = await gate(['--server', brokenServer('keeps-tcp'), '--cases', '1.1.1', '2.1', '--agent', 'broken']);
    assert.equal(res.code, 1);
    // 1.1.1's own timer (fail after 1 s) fires first and drops the closing connection, as in Autobahn.
    assert.equal(verdicts(res.cases.get('1.1.1')), 'OK/FAILED BY CLIENT');
    // 2.1 has no such timer: the server gets its second to drop TCP, then wsgate does, uncleanly.
    assert.equal(verdicts(res.cases.get('2.1')), 'OK/UNCLEAN');
    const report = JSON.parse(await readFile(path.join(res.outdir, 'broken_case_2_1.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(report.wasServerConnectionDropTimeout, true);
    assert.equal(report.wasNotCleanReason, 'server did not drop TCP connection (in time)');
    assert.equal(report.droppedByMe, true);
  });
});

describe('server commands that misbehave', () => {
  test('one that never listens: a one-line error naming it, exit 2, within the start timeout', async () => {
    const t0 = performance.now();
    const res = await gate(['--server', brokenServer('never-listens'), '--server-start-timeout', '1', '--cases', '1.1.1']);
    assert.equal(res.code, 2);
    assert.match(res.stderr, /the server command did not accept connections on 127\.0\.0\.1:\d+ within 1 s/);
    assert.equal(res.stderr.trim().split('\n').length, 1, res.stderr);
    assert.ok(performance.now() - t0 < 15_000);
  });

  test('one that exits at start: its status and last output, exit 2', async () => {
    const res = await gate(['--server', brokenServer('exits-at-start'), '--cases', '1.1.1']);
    assert.equal(res.code, 2);
    assert.match(
      res.stderr,
      /the server command exited with status 3 before it accepted connections on 127\.0\.0\.1:\d+: broken-server: cannot open the configuration file/,
    );
  });

  test('one that dies mid-run: the case it died in fails, the rest are not run (or, with --restart-server, they run on a new one)', async () => {
    const cases = ['--cases', '1.1.1', '1.1.2', '1.1.3', '1.1.4', '1.1.5', '--jobs', '1', '--agent', 'dies'];
    const died = await gate(['--server', brokenServer('dies-at-3'), ...cases]);
    assert.equal(died.code, 1);
    assert.deepEqual(
      [...died.cases.values()].map((c) => c.status),
      ['passed', 'passed', 'failed', 'skipped', 'skipped'],
    );
    // Its verdicts failed too (the connection ended at once): their reason follows.
    assert.match(
      died.cases.get('1.1.3')?.reason ?? '',
      /^the server under test exited with status 7, during this case \(its whole output: server-output\.log\); outcome FAILED/,
    );
    assert.equal(
      died.cases.get('1.1.4')?.reason,
      'not run: the server under test had died during 1.1.3 (exited with status 7); it is not restarted (--restart-server restarts it)',
    );
    const restarted = await gate(['--server', brokenServer('dies-at-3'), '--restart-server', ...cases]);
    assert.equal(restarted.code, 1);
    // The new process counts its connections afresh: 1.1.4 and 1.1.5 are its first two.
    assert.deepEqual(
      [...restarted.cases.values()].map((c) => c.status),
      ['passed', 'passed', 'failed', 'passed', 'passed'],
    );
    assert.match(restarted.stdout, /^wsgate: the server under test exited with status 7 during 1\.1\.3; restarted it \(start 2\)$/m);
  });

  test('one that ignores SIGTERM: killed at the end with a warning, nothing left listening', async () => {
    const res = await gate(['--server', brokenServer('ignores-sigterm'), '--cases', '1.1.1']);
    assert.equal(res.code, 0);
    assert.match(res.stdout, /the server ignored SIGTERM for 1 s; its process group was killed with SIGKILL/);
    const port = Number(/at ws:\/\/127\.0\.0\.1:(\d+)\//.exec(res.stdout)?.[1]);
    const refused = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(false);
      });
      s.once('error', () => resolve(true));
    });
    assert.equal(refused, true, 'the server still listens');
  });
});

test('--server-url: a server running elsewhere, named by its Server header; --seed makes the bytes on the wire repeat', async () => {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('headers', (headers: string[]) => headers.push('Server: test-server/1.0'));
  wss.on('connection', (ws) => ws.on('message', (d, b) => ws.send(d as Buffer, { binary: b })));
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const { port } = wss.address() as net.AddressInfo;
  try {
    const runs = [];
    for (let i = 0; i < 2; i++) {
      const res = await gate(['--server-url', `ws://127.0.0.1:${port}/echo?x=1`, '--cases', '1.1.2', '--seed', '7']);
      assert.equal(res.code, 0, res.stdout + res.stderr);
      runs.push(
        JSON.parse(await readFile(path.join(res.outdir, 'test_server_1_0_case_1_1_2.json'), 'utf8')) as {
          httpRequest: string;
          wirelog: unknown[][];
          agent: string;
        },
      );
    }
    assert.equal(runs[0]?.agent, 'test-server/1.0');
    assert.match(runs[0]?.httpRequest ?? '', /^GET \/echo\?x=1 HTTP\/1\.1\r\n/);
    assert.equal(runs[0]?.httpRequest, runs[1]?.httpRequest);
    const sent = (r: { wirelog: unknown[][] } | undefined): unknown[] => (r?.wirelog ?? []).filter((e) => e[0] === 'TO' || e[0] === 'TF');
    assert.deepEqual(sent(runs[0]), sent(runs[1]));
  } finally {
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  }
});

test('SIGTERM mid-case: the running case and the rest are not run, the server process tree is gone, exit 143', async () => {
  const dir = await tempDir();
  const marker = `wsgate-server-interrupt-${process.pid}`;
  // 6.4.x hold the connection about two seconds each (their pauses), so the signal lands mid-case.
  const server = `exec '${process.execPath}' '${BROKEN}' ignores-sigterm {port} ${marker}`;
  const run = await startCliUntil(['run', '--server', server, '--agent', 'srv', '--jobs', '1', '--cases', '1.1.1', '6.4.1', '6.4.2'], /\[1\/3\] pass 1\.1\.1/, {
    cwd: dir,
  });
  await new Promise((r) => setTimeout(r, 500));
  run.child.kill('SIGTERM');
  assert.equal(await run.exited, 143, run.output());
  const summary = JSON.parse(await readFile(path.join(dir, 'reports', 'servers', 'summary.json'), 'utf8')) as { cases: SummaryCase[] };
  assert.deepEqual(
    summary.cases.map((c) => [c.id, c.status]),
    [
      ['1.1.1', 'passed'],
      ['6.4.1', 'skipped'],
      ['6.4.2', 'skipped'],
    ],
  );
  const ps = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  assert.ok(!ps.includes(marker), 'the server process outlived the run');
});

test("--spec fuzzingclient.json: Autobahn's file unchanged (outdir, servers[0].agent and url, cases)", async () => {
  const dir = await tempDir();
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const spec = path.join(dir, 'fuzzingclient.json');
  await writeFile(
    spec,
    JSON.stringify({
      outdir: './reports/fc',
      servers: [{ agent: 'AutobahnServer', url: `ws://127.0.0.1:${port}` }],
      cases: ['1.1.1', '2.*'],
      'exclude-cases': ['2.1*'],
      'exclude-agent-cases': {},
    }),
  );
  const res = await runCliWith(['run', '--spec', spec, '--server', brokenServer('no-utf8-check')], { cwd: dir, timeoutMs: 60_000 });
  assert.equal(res.code, 0, res.stdout + res.stderr);
  assert.match(res.stdout, new RegExp(`at ws://127\\.0\\.0\\.1:${port}/ \\(agent "AutobahnServer"\\)`));
  const index = JSON.parse(await readFile(path.join(dir, 'reports', 'fc', 'index.json'), 'utf8')) as Record<string, Record<string, unknown>>;
  assert.deepEqual(Object.keys(index.AutobahnServer ?? {}), ['1.1.1', '2.2', '2.3', '2.4', '2.5', '2.6', '2.7', '2.8', '2.9']);
});

test('--extended for servers: group 15 (refusals RFC 6455 and RFC 7692 make a MUST); a server that accepts an unmasked frame fails 15.3.1', async () => {
  const good = await gate(['--role', 'server', '--extended', '--cases', '15.*']);
  assert.equal(good.code, 0, good.stdout);
  assert.deepEqual([...good.cases.keys()], ['15.1.1', '15.1.2', '15.1.3', '15.1.4', '15.1.5', '15.1.6', '15.2.1', '15.2.2', '15.2.3', '15.3.1']);
  // ws refuses the bad requests with 400 (426 with Sec-WebSocket-Version for the wrong version) and fails the handshake on bad offers.
  assert.equal(good.cases.get('15.1.1')?.behavior, 'OK');
  assert.equal(good.cases.get('15.2.1')?.behavior, 'NON-STRICT');
  assert.equal(verdicts(good.cases.get('15.3.1')), 'OK/OK');
  const lenient = await gate(['--server', brokenServer('accepts-unmasked'), '--extended', '--cases', '15.1.*', '15.3.1', '--agent', 'lenient']);
  assert.equal(lenient.code, 1);
  assert.equal(lenient.cases.get('15.3.1')?.behavior, 'FAILED');
  // The raw server answers 101 to anything: every request it must refuse fails.
  for (const id of ['15.1.1', '15.1.2', '15.1.3', '15.1.4', '15.1.5', '15.1.6']) assert.equal(lenient.cases.get(id)?.behavior, 'FAILED', id);
  assert.match(lenient.cases.get('15.1.1')?.reason ?? '', /accepted a request it must refuse/);
});

test('a fuzzingclient.json with two servers: each tested in turn under its own agent, one report directory, JUnit suites per agent', async () => {
  const servers: WebSocketServer[] = [];
  const ports: number[] = [];
  for (const skipUTF8Validation of [false, true]) {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, skipUTF8Validation });
    wss.on('connection', (ws) => {
      ws.on('message', (d, b) => ws.send(d as Buffer, { binary: b }));
      ws.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    servers.push(wss);
    ports.push((wss.address() as net.AddressInfo).port);
  }
  try {
    const dir = await tempDir();
    const spec = path.join(dir, 'fuzzingclient.json');
    await writeFile(
      spec,
      JSON.stringify({ servers: ports.map((p, i) => ({ agent: ['strict', 'lenient'][i], url: `ws://127.0.0.1:${p}` })), cases: ['1.1.1', '6.3.1'] }),
    );
    const res = await gate(['--spec', spec], dir);
    assert.equal(res.code, 1, res.stdout + res.stderr);
    const summary = JSON.parse(await readFile(path.join(res.outdir, 'summary.json'), 'utf8')) as {
      agent: string;
      cases: Array<SummaryCase & { agent: string }>;
    };
    assert.equal(summary.agent, 'strict, lenient');
    assert.deepEqual(
      summary.cases.map((c) => `${c.agent} ${c.id} ${c.status}`),
      ['strict 1.1.1 passed', 'strict 6.3.1 passed', 'lenient 1.1.1 passed', 'lenient 6.3.1 failed'],
    );
    const index = JSON.parse(await readFile(path.join(res.outdir, 'index.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(index).sort(), ['lenient', 'strict']);
    const junit = await readFile(path.join(res.outdir, 'junit.xml'), 'utf8');
    assert.match(junit, /<testsuite name="strict · 6 UTF-8 Handling"/);
    assert.match(junit, /<testsuite name="lenient · 6 UTF-8 Handling"[^>]* failures="1"/);
    const started = await runMain(['run', '--spec', spec, '--server', 'true']);
    assert.equal(started.code, 2);
    assert.match(started.stderr, /--server starts one server, but .* lists 2/);
  } finally {
    for (const wss of servers) await new Promise<void>((resolve) => wss.close(() => resolve()));
  }
});

test('shards of a server run merge into one, and judge reads server reports (group 15 included)', async () => {
  const dir = await tempDir();
  const cases = ['--role', 'server', '--extended', '--cases', '1.1.*', '15.1.*'];
  for (const k of [1, 2]) {
    const res = await runMain(['run', ...cases, '--shard', `${k}/2`, '--outdir', path.join(dir, `shard-${k}`)]);
    assert.equal(res.code, 0, res.stdout + res.stderr);
  }
  const merged = await runMain(['merge', path.join(dir, 'shard-1'), path.join(dir, 'shard-2'), '--outdir', path.join(dir, 'merged')]);
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  const summary = JSON.parse(await readFile(path.join(dir, 'merged', 'summary.json'), 'utf8')) as { role: string; cases: SummaryCase[] };
  assert.equal(summary.role, 'server');
  assert.equal(summary.cases.length, 14);
  const judged = await runMain([
    'judge',
    '--outdir',
    path.join(dir, 'merged'),
    '--json',
    path.join(dir, 'judged.json'),
    '--junit',
    path.join(dir, 'judged.xml'),
  ]);
  assert.equal(judged.code, 0, judged.stdout + judged.stderr);
  const verdict = JSON.parse(await readFile(path.join(dir, 'judged.json'), 'utf8')) as { role: string; cases: SummaryCase[] };
  assert.deepEqual([verdict.role, verdict.cases.length, verdict.cases.at(-1)?.id], ['server', 14, '15.1.6']);
});
