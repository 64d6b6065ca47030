/**
 * `wsgate repro` end to end: a run against a real peer (a broken fixture, a real third-party client
 * or server), then the repro script of each failing case, copied alone into an empty directory and
 * run with a clean environment against a fresh instance of the same peer. The script must see the
 * peer do what the run saw (its events and close code, as the per-case report has them) and print
 * the run's verdict; and the command refuses, in one line with exit 2, what it cannot reproduce.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { main } from '../../src/main.js';
import { fixture, runCli, tempDir } from '../support/harness.js';
import { runWstest } from '../support/wstest.js';
import { needs, needsReleases, pinnedRelease, PYTHON } from '../support/requirements.js';
import { reservedPort } from '../support/ports.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BROKEN_SERVER = fileURLToPath(new URL('../fixtures/servers/broken-server.js', import.meta.url));
const BAD_CLOSE = fileURLToPath(new URL('bad-close-client.js', import.meta.url));

/** A peer as a program: its executable and arguments (the URL or the port goes last). */
interface Program {
  file: string;
  args: string[];
}

const node = (script: string, ...args: string[]): Program => ({ file: process.execPath, args: [script, ...args] });
const python = (script: string): Program => ({ file: PYTHON, args: [path.join(ROOT, 'interop', 'clients', script)] });
const quoted = (p: Program): string => [p.file, ...p.args].map((a) => `'${a}'`).join(' ');

interface CaseReport {
  behavior: string;
  behaviorClose: string;
  received: unknown[];
  remoteCloseCode: number | null;
}

/** What a repro script printed and how it ended. */
interface Replay {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the gate on the cases (exit 1: some fail; 0: only warnings, NON-STRICT or INFORMATIONAL); returns the report directory. */
async function gate(args: string[], cases: string[], exit = 1): Promise<string> {
  const outdir = await tempDir('wsgate-repro-run-');
  const res = await runCli(['run', '--outdir', outdir, '--agent', 'peer', '--cases', ...cases, ...args], 180_000);
  assert.equal(res.code, exit, `${res.stdout}\n${res.stderr}`);
  return outdir;
}

async function caseReport(outdir: string, id: string): Promise<CaseReport> {
  return JSON.parse(await readFile(path.join(outdir, `peer_case_${id.replaceAll('.', '_')}.json`), 'utf8')) as CaseReport;
}

/** A stream that keeps what is written to it. */
function collected(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done): void {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/**
 * The wsgate command line run in this process: src/main.ts's `main`, what the executable (src/cli.ts)
 * runs, with its output captured; a process start costs more CPU than writing a script. The tests that
 * start the real `wsgate repro` process use runCli.
 */
async function wsgate(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = collected();
  const stderr = collected();
  const code = await main(args, { stdout: stdout.stream, stderr: stderr.stream, isTty: false });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/**
 * `wsgate repro ID --from OUTDIR`, written into a fresh empty directory: the directory and file. The
 * command runs in this process, or, with `asProcess`, as the real `wsgate` executable.
 */
async function makeScript(outdir: string, id: string, asProcess = false): Promise<{ dir: string; file: string }> {
  const written = path.join(await tempDir('wsgate-repro-made-'), `repro-${id}.mjs`);
  const args = ['repro', id, '--from', outdir, '--out', written];
  const res = asProcess ? await runCli(args) : await wsgate(args);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, new RegExp(`wsgate: wrote .*repro-${id.replaceAll('.', '\\.')}\\.mjs`));
  // Alone in an empty directory: nothing of wsgate beside it.
  const dir = await tempDir('wsgate-repro-empty-');
  const file = path.join(dir, `repro-${id}.mjs`);
  await copyFile(written, file);
  return { dir, file };
}

/** Starts a program with a clean environment (PATH only) and collects its output. */
function start(p: Program, cwd: string, extra: string[] = []): { child: ChildProcess; out: () => string; err: () => string; exited: Promise<number | null> } {
  const child = spawn(p.file, [...p.args, ...extra], { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  // 'close', not 'exit': the process can exit before its last output has been read (on a busy machine
  // a script's verdict lines were missing when 'exit' came).
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
}

async function until<T>(what: string, probe: () => T | null | Promise<T | null>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * The exit status, or 'late' if the process has not ended after `ms`. The timer is cleared when the
 * process ends: a pending one kept the test file's process alive for up to a minute after its last test.
 */
async function exitedWithin(exited: Promise<number | null>, ms: number): Promise<number | null | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([exited, new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** The script of a client's case: it listens; the client connects to it as to wsgate. */
async function replayClient(script: { dir: string; file: string }, client: Program, loops = false): Promise<Replay> {
  const repro = start(node(script.file, '0'), script.dir);
  let peer: ChildProcess | null = null;
  try {
    const port = await until('the script to listen', () => /listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(repro.out())?.[1] ?? null);
    // A looping driver gets the base URL and asks for the case count itself.
    peer = start(client, script.dir, loops ? [`ws://127.0.0.1:${port}`, 'peer'] : [`ws://127.0.0.1:${port}/runCase?case=1&agent=peer`]).child;
    const code = await exitedWithin(repro.exited, 60_000);
    assert.notEqual(code, 'late', `the script did not end\n${repro.out()}`);
    return { code: code === 'late' ? null : code, stdout: repro.out(), stderr: repro.err() };
  } finally {
    repro.child.kill('SIGKILL');
    peer?.kill('SIGKILL');
  }
}

function freePort(): Promise<number> {
  return reservedPort();
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = net.connect(port, '127.0.0.1', () => {
      c.destroy();
      resolve(true);
    });
    c.on('error', () => resolve(false));
  });
}

/** The script of a server's case: a fresh instance of the server, and the script connecting to it. */
async function replayServer(script: { dir: string; file: string }, server: Program): Promise<Replay> {
  const port = await freePort();
  const srv = start(server, script.dir, [String(port)]);
  try {
    await until('the server to listen', async () => ((await accepts(port)) ? true : null));
    const repro = start(node(script.file, `ws://127.0.0.1:${port}/`), script.dir);
    const code = await exitedWithin(repro.exited, 60_000);
    repro.child.kill('SIGKILL');
    assert.notEqual(code, 'late', `the script did not end\n${repro.out()}`);
    return { code: code === 'late' ? null : code, stdout: repro.out(), stderr: repro.err() };
  } finally {
    srv.child.kill('SIGKILL');
  }
}

/** The script saw what the run saw and ends with the run's verdict. */
function assertSame(id: string, replay: Replay, report: CaseReport): void {
  const why = `${id}\n${replay.stdout}\n${replay.stderr}`;
  const events = /^observed events: (.*)$/m.exec(replay.stdout)?.[1];
  assert.ok(events !== undefined, why);
  assert.deepEqual(JSON.parse(events), report.received, why);
  assert.equal(/^peer close code: (.*)$/m.exec(replay.stdout)?.[1], report.remoteCloseCode === null ? 'none' : String(report.remoteCloseCode), why);
  assert.equal(/^verdict: (.*)$/m.exec(replay.stdout)?.[1], `${report.behavior} / ${report.behaviorClose}`, why);
  assert.equal(replay.code, 1, why);
}

/** Runs the gate against a client on the cases, then each case's script against a fresh client. */
async function clientCases(client: Program, cases: string[]): Promise<void> {
  const outdir = await gate(['--url', 'ws://127.0.0.1:0', '--client', `${quoted(client)} {url}`], cases);
  for (const id of cases) {
    const report = await caseReport(outdir, id);
    assert.notEqual(`${report.behavior}/${report.behaviorClose}`, 'OK/OK', id);
    assertSame(id, await replayClient(await makeScript(outdir, id), client), report);
  }
}

/** Runs the gate against a server on the cases, then each case's script against a fresh server. */
async function serverCases(server: Program, cases: string[], exit = 1): Promise<void> {
  const outdir = await gate(['--server', `${quoted(server)} {port}`], cases, exit);
  for (const id of cases) {
    const report = await caseReport(outdir, id);
    assert.notEqual(`${report.behavior}/${report.behaviorClose}`, 'OK/OK', id);
    assertSame(id, await replayServer(await makeScript(outdir, id), server), report);
  }
}

/**
 * The tests of a describe run two at a time: each has its own report directories, ports and peer
 * processes, and much of a case's time is its own timers (a close timeout, a second between parts).
 */
const TWO_AT_ONCE = { concurrency: 2 };

describe('repro scripts of clients under test', TWO_AT_ONCE, () => {
  test('a client that answers every close with 1001: 2.4 (a ping), 5.2 (a fragmented pong), 7.1.1 and 9.5.1 (1 MiB in 64-byte writes)', async () => {
    await clientCases(node(fixture('wrong-close-code')), ['2.4', '5.2', '7.1.1', '9.5.1']);
  });

  test('an Autobahn-style looping driver on ws: 6.4.3 NON-STRICT (the invalid part 1 s after the valid one), /getCaseCount and /updateReports answered', async () => {
    const driver = node(fixture('autobahn-driver'));
    const outdir = await tempDir('wsgate-repro-run-');
    const res = await runCli([
      'run',
      '--client-loops',
      '--client',
      `${quoted(driver)} {url} peer`,
      '--agent',
      'peer',
      '--url',
      'ws://127.0.0.1:0',
      '--outdir',
      outdir,
      '--cases',
      '6.4.3',
    ]);
    assert.equal(res.code, 0, res.stderr);
    const report = await caseReport(outdir, '6.4.3');
    assert.equal(`${report.behavior}/${report.behaviorClose}`, 'NON-STRICT/OK');
    const replay = await replayClient(await makeScript(outdir, '6.4.3'), driver, true);
    assertSame('6.4.3', replay, report);
    assert.match(replay.stdout, /\+ *1\d{3}\.\d ms {2}wsgate → 4 octets/, 'the invalid part leaves a second after the first');
  });

  test('a client whose pongs differ from the pings: 2.3', async () => {
    await clientCases(node(fixture('wrong-pong')), ['2.3']);
  });

  test('a client that echoes invalid UTF-8: 6.12.7', async () => {
    await clientCases(node(fixture('echo-invalid')), ['6.12.7']);
  });

  test('a client that truncates echoes past 1 MiB: 9.1.4 (a 4 MiB message, judged by the echo)', async () => {
    await clientCases(node(fixture('truncating-echo')), ['9.1.4']);
  });

  // The run fails the connection on a close frame with a code no endpoint may send or a reason that
  // is not UTF-8 (core/connection.ts); the script reads the close with the same code, so its
  // facts (who closed, clean or not) and verdict are the run's.
  test('a client whose close the server must refuse: 1004 and a non-UTF-8 reason answering the close of 7.1.1, 999 first on 1.1.1', async () => {
    const expected: Record<string, [string, string]> = {
      // wsgate was closing: the second failure drops TCP before the handshake completes.
      'answer-1004 7.1.1': ['OK / UNCLEAN', '1004'],
      'answer-bad-reason 7.1.1': ['OK / UNCLEAN', '1000'],
      // wsgate fails the connection (1002) on the peer's close: it closed first, as the case expects.
      'first-999 1.1.1': ['FAILED / WRONG CODE', '999'],
    };
    for (const [which, [verdict, code]] of Object.entries(expected)) {
      const [mode = '', id = ''] = which.split(' ');
      const client = node(BAD_CLOSE, mode);
      const outdir = await gate(['--url', 'ws://127.0.0.1:0', '--client', `${quoted(client)} {url}`], [id]);
      const report = await caseReport(outdir, id);
      assert.equal(`${report.behavior} / ${report.behaviorClose}`, verdict, which);
      assert.equal(String(report.remoteCloseCode), code, which);
      const replay = await replayClient(await makeScript(outdir, id), client);
      assertSame(which, replay, report);
      assert.match(replay.stdout, /peer → protocol violation: invalid close (code|reason)/, which);
    }
  });

  describe('real Python clients', { skip: needs('python-clients') }, () => {
    test("Python websocket-client closes with 1000 where 1002, 1007 or the peer's code is due: 5.9, 6.3.1, 7.9.1", async () => {
      await clientCases(python('python-websocket-client.py'), ['5.9', '6.3.1', '7.9.1']);
    });

    test('tornado with permessage-deflate: 13.7.1 (compressed echoes compared whole)', async () => {
      await clientCases(python('python-tornado.py'), ['13.7.1']);
    });
  });
});

describe('repro scripts of servers under test', TWO_AT_ONCE, () => {
  test('a server that echoes invalid UTF-8: 6.3.1', async () => {
    await serverCases(node(BROKEN_SERVER, 'no-utf8-check'), ['6.3.1']);
  });

  test('a server that keeps TCP open after the closing handshake: 2.1 (UNCLEAN), 5.1 (a fragmented ping), 7.1.1', async () => {
    await serverCases(node(BROKEN_SERVER, 'keeps-tcp'), ['2.1', '5.1', '7.1.1']);
  });

  test('Python websockets as the server: 6.4.3 NON-STRICT (it fails the connection when the message ends, not at the invalid part a second earlier)', {
    skip: needs('python-clients'),
  }, async (t) => {
    t.diagnostic('Debian python3-websockets, interop/servers/python-websockets.py');
    await serverCases({ file: PYTHON, args: [path.join(ROOT, 'interop', 'servers', 'python-websockets.py')] }, ['6.4.3'], 0);
  });

  test("ws's WebSocketServer with its defaults: 9.3.1 (65536 fragments), 13.1.1 (no permessage-deflate: UNIMPLEMENTED)", async () => {
    await serverCases(node(path.join(ROOT, 'interop', 'servers', 'ws-default.mjs')), ['9.3.1', '13.1.1']);
  });
});

// These three run side by side too: the first is mostly a server keeping TCP open past its budget.
describe('the robustness profile, and what wsgate repro refuses', TWO_AT_ONCE, () => {
  describe("repro scripts of the robustness profile's scripted group-17 cases", () => {
    test('17.4.4 against a server that keeps TCP after the closing handshake: one connection, so it has a script, and the script sees the same close', async () => {
      const server = node(BROKEN_SERVER, 'keeps-tcp');
      const outdir = await gate(['--robustness', '--server', `${quoted(server)} {port}`], ['17.4.4']);
      const report = await caseReport(outdir, '17.4.4');
      assert.equal(report.behavior, 'FAILED');
      // `wsgate repro` as the real executable, as a user runs it (the other tests run it in this process).
      const replay = await replayServer(await makeScript(outdir, '17.4.4', true), server);
      // The script replays wsgate's writes (its close) and shows the server's answer: 1000, as in the run.
      assert.equal(/^peer close code: (.*)$/m.exec(replay.stdout)?.[1], String(report.remoteCloseCode), replay.stdout);
    });
  });

  describe('what wsgate repro refuses, and run --repro', TWO_AT_ONCE, () => {
    test('run --repro writes a script and a recording per non-passing case, none for passing ones; the command refuses a passing case', async () => {
      const client = node(fixture('echo-invalid'));
      const outdir = await tempDir('wsgate-repro-run-');
      const res = await runCli([
        'run',
        '--url',
        'ws://127.0.0.1:0',
        '--outdir',
        outdir,
        '--agent',
        'peer',
        '--client',
        `${quoted(client)} {url}`,
        '--cases',
        '6.9.2',
        '6.12.7',
        '--repro',
      ]);
      assert.equal(res.code, 1, res.stderr);
      assert.deepEqual(await readdir(path.join(outdir, 'repro')), ['peer_case_6_12_7.mjs']);
      assert.deepEqual(await readdir(path.join(outdir, 'repro-data')), ['peer_case_6_12_7.json.gz']);
      const data = JSON.parse(gunzipSync(await readFile(path.join(outdir, 'repro-data', 'peer_case_6_12_7.json.gz'))).toString('utf8')) as {
        id: string;
        role: string;
      };
      assert.equal(data.id, '6.12.7');
      assert.equal(data.role, 'client');
      const dir = await tempDir('wsgate-repro-empty-');
      const file = path.join(dir, 'repro.mjs');
      await copyFile(path.join(outdir, 'repro', 'peer_case_6_12_7.mjs'), file);
      // Its top says what it shows: the requirement the case tests and why it failed in the run.
      const lines = (await readFile(file, 'utf8')).split('\n');
      const top = lines
        .filter((l) => l.startsWith('//'))
        .map((l) => l.slice(2))
        .join(' ')
        .replace(/\s+/g, ' ');
      assert.match(top, / Requirement \(RFC 6455 §8\.1, §7\.4\.1\): a text message that is not valid UTF-8 must fail the connection/);
      assert.match(
        top,
        / Why: invalid UTF-8 in a text message accepted: the peer accepted it and sent text frame 1 \(FIN, 6 bytes\) 0x80bf80bf80bf instead of failing the connection\./,
      );
      // One file of wsgate's own code, bundled (about 400 lines, where the hand-copied runtime made 700),
      // that imports nothing but Node's built-in modules.
      assert.ok(lines.length < 500, `${lines.length} lines`);
      const imports = [...lines.join('\n').matchAll(/(?:^|[;}])import(?:[^'"]*?from)?\s*["']([^"']+)["']/gm)].map((m) => m[1]);
      assert.ok(imports.length > 0 && imports.every((m) => m?.startsWith('node:') === true), imports.join(', '));
      assertSame('6.12.7', await replayClient({ dir, file }, client), await caseReport(outdir, '6.12.7'));

      const passed = await runCli(['repro', '6.9.2', '--from', outdir, '--out', path.join(dir, 'x.mjs')]);
      assert.equal(passed.code, 2);
      assert.equal(passed.stderr, 'wsgate: case 6.9.2 passed (OK / OK) for "peer": nothing to reproduce\n');
      const missing = await runCli(['repro', '1.1.1', '--from', outdir]);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /^wsgate: no report of case 1\.1\.1 in .*\n$/);
    });

    test('a missing report directory, and the reports of wstest (which keeps no recording): one line, exit 2', async () => {
      const gone = path.join(await tempDir(), 'nothing-here');
      const res = await wsgate(['repro', '6.4.3', '--from', gone]);
      assert.equal(res.code, 2);
      assert.equal(res.stderr, `wsgate: no report directory ${gone}\n`);
      // wstest -m fuzzingclient against a server that fails 6.3.1: the original's files, no recording.
      const port = await freePort();
      const server = start(node(BROKEN_SERVER, 'no-utf8-check', String(port)), ROOT);
      try {
        await until('the server to listen', async () => ((await accepts(port)) ? true : null));
        const dir = await tempDir('wsgate-repro-wstest-');
        await writeFile(
          path.join(dir, 'fuzzingclient.json'),
          JSON.stringify({ outdir: './out', servers: [{ agent: 'srv', url: `ws://127.0.0.1:${port}` }], cases: ['6.3.1'] }),
        );
        const run = await runWstest(['-m', 'fuzzingclient', '-s', 'fuzzingclient.json'], dir, { timeoutMs: 60_000 });
        assert.equal(run.code, 0, run.stderr);
        const outdir = path.join(dir, 'out');
        assert.ok((await readdir(outdir)).includes('srv_case_6_3_1.json'));
        assert.ok(!(await readdir(outdir)).includes('repro-data'));
        const none = await wsgate(['repro', '6.3.1', '--from', outdir]);
        assert.equal(none.code, 2);
        assert.match(none.stderr, /^wsgate: the run in .* kept no recording \(wsgate run keeps one per non-passing case; wstest and older runs do not\)\n$/);
      } finally {
        server.child.kill('SIGKILL');
      }
    });
  });

  describe('repro scripts of the robustness profile', () => {
    const robustness = (name: string, file: string): Program => node(path.join(pinnedRelease(name).dir, file));

    test('undici 6.23.0 on 18.1.1 (CVE-2026-2229): the script, alone, makes the client die again with the RangeError the run saw', {
      skip: needsReleases('undici-6.23.0'),
    }, async () => {
      const outdir = await gate(
        ['--robustness', '--url', 'ws://127.0.0.1:0', '--client', `${quoted(robustness('undici-6.23.0', 'client.mjs'))} {url}`],
        ['18.1.1'],
      );
      assert.equal((await caseReport(outdir, '18.1.1')).behavior, 'FAILED');
      const script = await makeScript(outdir, '18.1.1');
      const repro = start(node(script.file, '0'), script.dir);
      try {
        const port = await until('the script to listen', () => /listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(repro.out())?.[1] ?? null);
        const client = start(robustness('undici-6.23.0', 'client.mjs'), script.dir, [`ws://127.0.0.1:${port}/`]);
        assert.notEqual(await client.exited, 0, 'the client process died');
        assert.match(client.err(), /RangeError \[ERR_OUT_OF_RANGE\]: The value of "options\.windowBits" is out of range/);
        await repro.exited;
        assert.match(repro.out(), /peer closed TCP/);
      } finally {
        repro.child.kill('SIGKILL');
      }
    });

    test('a group 17 attack (several raw connections) has no script: one line that says why and how to replay it, exit 2', {
      skip: needsReleases('ws-8.17.0'),
    }, async () => {
      const outdir = await gate(['--robustness', '--server', `${quoted(robustness('ws-8.17.0', 'server.cjs'))} {port}`], ['17.1.3']);
      const res = await wsgate(['repro', '17.1.3', '--from', outdir]);
      assert.equal(res.code, 2);
      assert.match(
        res.stderr.trim(),
        /^wsgate: case 17\.1\.3 is an attack of the robustness profile on several raw connections .*: repro scripts replay one connection; replay it with: wsgate run --robustness --role server --server-url URL --cases 17\.1\.3$/,
      );
    });
  });
});
