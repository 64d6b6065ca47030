/**
 * Real projects' Autobahn invocations, run as written against wsgate's `wstest` (the npm bin on PATH),
 * with real peers and the projects' own judge logic on the result. Where a script ran inside the
 * original image, its working directory was `/` and its mounts were directories under it: here a
 * temporary directory stands for that `/`. Sources and the edits each needs:
 * test/fixtures/consumers/README.md.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { runCliWith } from '../support/cli-env.js';
import { tempDir } from '../support/harness.js';
import { needs, PYTHON } from '../support/requirements.js';
import { freePort, WSTEST } from '../support/wstest.js';

const CONSUMERS = fileURLToPath(new URL('../../../test/fixtures/consumers/', import.meta.url));
const REFERENCE_SERVER = fileURLToPath(new URL('../../src/bundled/reference-server.js', import.meta.url));
const REFERENCE_CLIENT = fileURLToPath(new URL('../../src/bundled/reference-client.js', import.meta.url));

/** A PATH with `wstest` on it, as `npm i -g wsgate` leaves it (a link to the package's bin, made executable as npm makes it). */
async function pathWithWstest(): Promise<string> {
  chmodSync(WSTEST, 0o755);
  const bin = await tempDir('wsgate-bin-');
  symlinkSync(WSTEST, path.join(bin, 'wstest'));
  return `${bin}${path.delimiter}${process.env.PATH ?? ''}`;
}

/** Runs a shell line as a CI script would (bash, with wstest on PATH); resolves with its status and output. */
function sh(line: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', line], { cwd, env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, out: stdout + stderr });
    });
  });
}

/** Starts a shell line in the background (a CI script's `&`). */
function background(line: string, cwd: string, env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn('bash', ['-c', `exec ${line}`], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out, exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
}

/** Waits until `probe` resolves true (tried every 100 ms), or fails after `ms`. */
async function until(what: string, probe: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function replacePort(file: string, from: number, to: number): void {
  writeFileSync(file, readFileSync(file, 'utf8').replace(`:${from}`, `:${to}`));
}

type Index = Record<string, Record<string, { behavior: string; behaviorClose: string; remoteCloseCode?: number | null }>>;

/** The cases whose verdicts differ between two index.json files, one line each (what a failed jq diff does not say). */
function verdictChanges(expectedFile: string, actualFile: string): string {
  const read = (f: string): Index => JSON.parse(readFileSync(f, 'utf8')) as Index;
  const [expected, actual] = [read(expectedFile), read(actualFile)];
  const lines: string[] = [];
  for (const [agent, cases] of Object.entries(expected)) {
    for (const [id, e] of Object.entries(cases)) {
      const a = actual[agent]?.[id];
      if (a?.behavior !== e.behavior || a.behaviorClose !== e.behaviorClose || a.remoteCloseCode !== e.remoteCloseCode)
        lines.push(
          `${agent} ${id}: expected ${e.behavior}/${e.behaviorClose}/${e.remoteCloseCode}, got ${a === undefined ? 'nothing' : `${a.behavior}/${a.behaviorClose}/${a.remoteCloseCode}`}`,
        );
    }
  }
  return lines.join('\n');
}

/** What tokio-tungstenite's spec files select (cases ["*"]: groups 1-7 and 10), for the run that makes their expected results. */
const TUNGSTENITE_CASES = ['1.*', '2.*', '3.*', '4.*', '5.*', '6.*', '7.*', '10.*'];

// Two projects' scripts at a time: each has its own directory, ports and processes, and most of a
// script's time is waiting (the cases' own timers, a project's fixed sleep), not CPU.
describe("real projects' Autobahn invocations", { concurrency: 2 }, () => {
  test("nodejs/undici: the default CMD's fuzzingserver, readiness by curl -f (crossbario/autobahn-python), undici's own client and report.js; their judge and wsgate judge agree", {
    skip: needs('curl'),
  }, async () => {
    // The container's / holds the /config and /reports mounts; the default CMD is `wstest --mode fuzzingserver --spec /config/fuzzingserver.json`.
    const root = await tempDir('wsgate-consumer-');
    cpSync(path.join(CONSUMERS, 'undici/config'), path.join(root, 'config'), { recursive: true });
    mkdirSync(path.join(root, 'reports'));
    const port = await freePort();
    replacePort(path.join(root, 'config/fuzzingserver.json'), 9001, port);
    // undici's test/autobahn holds client.js and report.js beside config/ and reports/.
    copyFileSync(path.join(CONSUMERS, 'undici/client.cjs'), path.join(root, 'client.js'));
    copyFileSync(path.join(CONSUMERS, 'undici/report.cjs'), path.join(root, 'report.js'));
    const env = { PATH: await pathWithWstest() };
    const server = background('wstest --mode fuzzingserver --spec config/fuzzingserver.json --webport 0', root, env);
    try {
      // crossbario/autobahn-python's readiness loop: `curl -f http://127.0.0.1:9001` until it answers.
      await until('curl -f', async () => (await sh(`curl -sf -o /dev/null http://127.0.0.1:${port}`, root, env)).code === 0);
      const flag = Number(process.versions.node.split('.')[0]) < 22 ? '--experimental-websocket ' : '';
      const client = await sh(`node ${flag}client.js`, root, { ...env, FUZZING_SERVER_URL: `ws://127.0.0.1:${port}`, LOG_ON_ERROR: 'false' });
      assert.equal(client.code, 0, client.out);
      assert.match(client.out, /Running test case 101\/101/);
      const report = await sh('node report.js', root, { ...env, FAIL_ON_ERROR: 'true' });
      const judged = await runCliWith([
        'judge',
        '--outdir',
        path.join(root, 'reports/clients'),
        '--agent',
        'undici',
        '--spec',
        path.join(root, 'config/fuzzingserver.json'),
      ]);
      assert.equal(report.code, judged.code === 0 ? 0 : 1, `report.js: ${report.out}\nwsgate judge: ${judged.stdout}`);
      assert.equal(Object.keys((JSON.parse(readFileSync(path.join(root, 'reports/clients/index.json'), 'utf8')) as Index).undici ?? {}).length, 101);
    } finally {
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0);
    }
  });

  test('snapview/tokio-tungstenite: fuzzingclient from / with a relative spec, the server started right before; the jq diff against expected results passes', {
    skip: needs('jq'),
  }, async () => {
    const root = await tempDir('wsgate-consumer-');
    cpSync(path.join(CONSUMERS, 'tokio-tungstenite/autobahn'), path.join(root, 'autobahn'), { recursive: true });
    const port = await freePort();
    replacePort(path.join(root, 'autobahn/fuzzingclient.json'), 9002, port);
    const env = { PATH: await pathWithWstest() };
    // `cargo run --release --example autobahn-server & WSSERVER_PID=$!` — here the bundled ws server, and no `sleep 5`.
    const server = background(`node ${REFERENCE_SERVER} ${port}`, root, env);
    try {
      const run = await sh("wstest -m fuzzingclient -s 'autobahn/fuzzingclient.json'", root, env, 240_000);
      assert.equal(run.code, 0, run.out);
      // Their expected-results.json is a committed index.json; here it is wsgate run's for the same server and cases.
      const gate = await runCliWith(
        ['run', '--server-url', `ws://127.0.0.1:${port}`, '--agent', 'Tungstenite', '--outdir', path.join(root, 'gate'), '--cases', ...TUNGSTENITE_CASES],
        { timeoutMs: 240_000 },
      );
      assert.ok(gate.code === 0 || gate.code === 1, gate.stderr);
      copyFileSync(path.join(root, 'gate/index.json'), path.join(root, 'autobahn/expected-results.json'));
      const diff = await sh(`bash ${path.join(CONSUMERS, 'tokio-tungstenite/test_diff_server.sh')}`, root, env);
      assert.equal(
        diff.code,
        0,
        `${diff.out}\n${verdictChanges(path.join(root, 'autobahn/expected-results.json'), path.join(root, 'autobahn/server/index.json'))}`,
      );
      // The judge can fail: a changed verdict makes it exit 64.
      const index = JSON.parse(readFileSync(path.join(root, 'autobahn/server/index.json'), 'utf8')) as Record<string, Record<string, { behavior: string }>>;
      const first = index.Tungstenite?.['1.1.1'];
      assert.ok(first !== undefined);
      first.behavior = 'FAILED';
      writeFileSync(path.join(root, 'autobahn/server/index.json'), JSON.stringify(index));
      assert.equal((await sh(`bash ${path.join(CONSUMERS, 'tokio-tungstenite/test_diff_server.sh')}`, root, env)).code, 64);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  test('snapview/tokio-tungstenite autobahn-client.sh: the fuzzingserver started in the background, a fixed `sleep 5`, a client loop, the jq diff against expected results', {
    skip: needs('jq'),
  }, async () => {
    const root = await tempDir('wsgate-consumer-');
    cpSync(path.join(CONSUMERS, 'tokio-tungstenite/autobahn'), path.join(root, 'autobahn'), { recursive: true });
    const port = await freePort();
    replacePort(path.join(root, 'autobahn/fuzzingserver.json'), 9001, port);
    const env = { PATH: await pathWithWstest() };
    // `docker run -d --rm -v "${PWD}/autobahn:/autobahn" -p 9001:9001 --init … wstest -m fuzzingserver -s 'autobahn/fuzzingserver.json'`, then `sleep 5`.
    const server = background("wstest -m fuzzingserver -s 'autobahn/fuzzingserver.json' -u 0", root, env);
    try {
      const [client, gate] = await Promise.all([
        (async () => {
          await sh('sleep 5', root, env);
          // `cargo run --release --example autobahn-client`: here the bundled ws client, looping under their agent name.
          return sh(`node ${REFERENCE_CLIENT} ws://127.0.0.1:${port} Tungstenite`, root, env, 240_000);
        })(),
        // Their expected-results.json: here wsgate run's index.json for the same client and cases. It
        // needs nothing of their script (its own server, its own client), so it runs beside it.
        runCliWith(['run', '--agent', 'Tungstenite', '--url', 'ws://127.0.0.1:0', '--outdir', path.join(root, 'gate'), '--cases', ...TUNGSTENITE_CASES], {
          timeoutMs: 240_000,
        }),
      ]);
      assert.equal(client.code, 0, client.out);
      assert.ok(gate.code === 0 || gate.code === 1, gate.stderr);
      copyFileSync(path.join(root, 'gate/index.json'), path.join(root, 'autobahn/expected-results.json'));
      const diff = await sh(`bash ${path.join(CONSUMERS, 'tokio-tungstenite/test_diff_client.sh')}`, root, env);
      assert.equal(
        diff.code,
        0,
        `${diff.out}\n${verdictChanges(path.join(root, 'autobahn/expected-results.json'), path.join(root, 'autobahn/client/index.json'))}`,
      );
    } finally {
      // Their trap: `docker container stop fuzzingserver`.
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0);
    }
  });

  test('denoland/fastwebsockets: fuzzingclient with the spec as a single file, no wait for the server; their judge passes on ws and fails on a server that echoes invalid UTF-8', async () => {
    // The two servers at once: each has its own repository directory, port and wstest.
    const servers = [
      ['ws', (port: number) => `node ${REFERENCE_SERVER} ${port}`, 0],
      ['no-utf8-check', (port: number) => `node ${fileURLToPath(new URL('../fixtures/servers/broken-server.js', import.meta.url))} no-utf8-check ${port}`, 1],
    ] as const;
    await Promise.all(
      servers.map(async ([what, command, expected]) => {
        // The repository root holds autobahn/; the container's / holds /fuzzingclient.json and the /reports mount (autobahn/reports).
        const repo = await tempDir('wsgate-consumer-');
        const root = path.join(repo, 'autobahn');
        mkdirSync(path.join(root, 'reports'), { recursive: true });
        copyFileSync(path.join(CONSUMERS, 'fastwebsockets/fuzzingclient.json'), path.join(root, 'fuzzingclient.json'));
        const port = await freePort();
        replacePort(path.join(root, 'fuzzingclient.json'), 8080, port);
        const env = { PATH: await pathWithWstest() };
        const server = background(command(port), root, env);
        try {
          const run = await sh('wstest -m fuzzingclient -s fuzzingclient.json', root, env, 240_000);
          assert.equal(run.code, 0, `${what}: ${run.out}`);
          copyFileSync(path.join(CONSUMERS, 'fastwebsockets/judge.mjs'), path.join(repo, 'judge.mjs'));
          const judge = await sh('node judge.mjs', repo, env);
          assert.equal(judge.code, expected, `${what}: ${judge.out}`);
          assert.match(judge.out, /tests OK/);
        } finally {
          server.child.kill('SIGKILL');
        }
      }),
    );
  });

  test('coder/websocket (pip-style): the test code starts `wstest --mode fuzzingserver --spec TMP --webport=0`, dials / until it answers, loops with agent main, and its checkWSTestIndex passes', async () => {
    const cwd = await tempDir('wsgate-consumer-');
    const port = await freePort();
    const url = `ws://127.0.0.1:${port}`;
    // tempJSONFile: a spec in the temporary directory, written with tabs by Go's json.Encoder.
    const specFile = path.join(await tempDir('temp.json'), 'spec.json');
    const excluded = ['6.*', '7.5.1', '13.3.*', '13.4.*', '13.5.*', '13.6.*', '9.*', '12.*', '13.*'];
    writeFileSync(specFile, JSON.stringify({ url, outdir: 'ci/out/wstestClientReports', cases: ['*'], 'exclude-cases': excluded }, null, '\t'));
    // exec.CommandContext(ctx, "wstest", "--mode", "fuzzingserver", "--spec", specFile, "--webport=0")
    const wstest = spawn('wstest', ['--mode', 'fuzzingserver', '--spec', specFile, '--webport=0'], {
      cwd,
      env: { ...process.env, PATH: await pathWithWstest() },
      stdio: 'ignore',
    });
    try {
      // waitWS: dial the root path until it succeeds, then close with 1000. Their 5 s is for a wstest
      // already installed; here wstest is a Node start on a machine busy with other test files (CI
      // failed once at 5 s): 20 s, the wait being what is tested, not its length.
      await until(
        'a WebSocket on /',
        () =>
          new Promise<boolean>((resolve) => {
            const ws = new WebSocket(url);
            ws.on('open', () => {
              ws.close(1000);
              resolve(true);
            });
            ws.on('error', () => resolve(false));
          }),
        20_000,
      );
      const count = await new Promise<number>((resolve) => {
        const ws = new WebSocket(`${url}/getCaseCount`);
        ws.on('message', (d) => resolve(Number(String(d))));
      });
      for (let i = 1; i <= count; i++) {
        await new Promise<void>((resolve) => {
          const ws = new WebSocket(`${url}/runCase?case=${i}&agent=main`, { perMessageDeflate: true, maxPayload: 64 * 1024 * 1024 });
          ws.on('message', (d, binary) => ws.send(d, { binary }));
          ws.on('close', () => resolve());
          ws.on('error', () => undefined);
        });
      }
      await new Promise<void>((resolve) => {
        const ws = new WebSocket(`${url}/updateReports?agent=main`);
        ws.on('close', () => resolve());
      });
      // checkWSTestIndex: for every agent and case, behaviorClose OK or INFORMATIONAL, behavior OK, NON-STRICT or INFORMATIONAL.
      const index = JSON.parse(readFileSync(path.join(cwd, 'ci/out/wstestClientReports/index.json'), 'utf8')) as Index;
      const bad: string[] = [];
      for (const tests of Object.values(index)) {
        for (const [id, r] of Object.entries(tests)) {
          if (r.behaviorClose !== 'OK' && r.behaviorClose !== 'INFORMATIONAL') bad.push(`${id} behaviorClose ${r.behaviorClose}`);
          if (!['OK', 'NON-STRICT', 'INFORMATIONAL'].includes(r.behavior)) bad.push(`${id} behavior ${r.behavior}`);
        }
      }
      assert.deepEqual(bad, []);
      assert.equal(Object.keys(index.main ?? {}).length, count);
      assert.ok(count > 100 && !('6.1.1' in (index.main ?? {})) && !('12.1.1' in (index.main ?? {})));
    } finally {
      // Their teardown: wstest.Process.Kill().
      wstest.kill('SIGKILL');
    }
  });

  test("python-websockets/websockets 10.4 compliance/: `wstest -m fuzzingclient` with its implicit fuzzingclient.json against test_server.py on Debian's websockets", {
    skip: needs('python-clients'),
  }, async () => {
    // "All commands below must be run from the directory containing this file": compliance/.
    const compliance = await tempDir('wsgate-consumer-');
    const port = await freePort();
    for (const f of ['fuzzingclient.json', 'test_server.py']) {
      copyFileSync(path.join(CONSUMERS, 'python-websockets', f), path.join(compliance, f));
      replacePort(path.join(compliance, f), 8642, port);
    }
    writeFileSync(
      path.join(compliance, 'test_server.py'),
      readFileSync(path.join(compliance, 'test_server.py'), 'utf8').replace('HOST, PORT = "127.0.0.1", 8642', `HOST, PORT = "127.0.0.1", ${port}`),
    );
    const env = { PATH: await pathWithWstest() };
    // `PYTHONPATH=.. python test_server.py` in one shell (Debian's websockets instead of the checkout), `wstest -m fuzzingclient` in another.
    const server = background(`${PYTHON} test_server.py`, compliance, env);
    try {
      const run = await sh('wstest -m fuzzingclient', compliance, env, 240_000);
      assert.equal(run.code, 0, run.out + server.output());
      assert.match(run.out, /Using implicit spec file 'fuzzingclient.json'/);
      const index = JSON.parse(readFileSync(path.join(compliance, 'reports/servers/index.json'), 'utf8')) as Index;
      const rows = index.websockets ?? {};
      assert.equal(Object.keys(rows).length, 16 + 11 + 7 + 10 + 20 + 4 + 37 + 1);
      // Their conformance notes: Non-Strict at most where websockets fails fast or decodes late; nothing fails.
      const notOk = Object.entries(rows)
        .filter(([, r]) => r.behavior !== 'OK' && r.behavior !== 'INFORMATIONAL')
        .map(([id, r]) => `${id} ${r.behavior}`);
      const notes = new Set(['3.2', '3.3', '3.4', '4.1.3', '4.1.4', '4.1.5', '4.2.3', '4.2.4', '4.2.5', '5.15', '6.4.1', '6.4.2', '6.4.3', '6.4.4']);
      assert.deepEqual(
        notOk.filter((l) => !notes.has(l.split(' ')[0] ?? '') || !l.endsWith('NON-STRICT')),
        [],
      );
      const judged = await runCliWith(['judge', '--outdir', path.join(compliance, 'reports/servers'), '--spec', path.join(compliance, 'fuzzingclient.json')]);
      assert.equal(judged.code, 0, judged.stdout);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  test('theoriclabs/leanws: `wstest -m fuzzingclient -w URL` with no spec file tests the server at -w (the spec is written beside it), and stops with the reports of what it played', async () => {
    const cwd = await tempDir('wsgate-consumer-');
    const port = await freePort();
    const env = { PATH: await pathWithWstest() };
    // `lake exe leanws_echo -- --port 9001`: here the bundled ws server.
    const server = background(`node ${REFERENCE_SERVER} ${port}`, cwd, env);
    const run = background(`wstest -m fuzzingclient -w ws://127.0.0.1:${port}`, cwd, env);
    try {
      // The whole catalogue against one server takes minutes: the first 16 cases show it runs where -w says.
      await until('16 cases', async () => /\[ *16\/517\]/.test(run.output()), 60_000);
      run.child.kill('SIGTERM');
      assert.equal(await run.exited, 143, run.output());
      assert.match(run.output(), /Auto-generating spec file 'fuzzingclient.json'/);
      const spec = JSON.parse(readFileSync(path.join(cwd, 'fuzzingclient.json'), 'utf8')) as { servers: Array<{ url: string }> };
      assert.deepEqual(spec.servers, [{ url: `ws://127.0.0.1:${port}` }]);
      const index = JSON.parse(readFileSync(path.join(cwd, 'reports/servers/index.json'), 'utf8')) as Index;
      assert.ok(Object.keys(index.UnknownServer ?? {}).length >= 16);
      assert.equal(index.UnknownServer?.['1.1.1']?.behavior, 'OK');
    } finally {
      run.child.kill('SIGKILL');
      server.child.kill('SIGKILL');
    }
  });

  test('lipp/lua-websockets: `wstest -m echoserver -w ws://localhost:${LUAWS_WSTEST_PORT:=11000} &` is an echo peer for unit tests', async () => {
    const cwd = await tempDir('wsgate-consumer-');
    const port = await freePort();
    const env = { PATH: await pathWithWstest(), LUAWS_WSTEST_PORT: String(port) };
    const echo = background('wstest -m echoserver -w ws://localhost:${LUAWS_WSTEST_PORT:=11000}', cwd, env);
    try {
      // test.sh: `sleep 5`; here: until the port answers.
      await until(
        'the echo server',
        () =>
          new Promise<boolean>((resolve) => {
            const ws = new WebSocket(`ws://localhost:${port}`);
            ws.on('open', () => {
              ws.close();
              resolve(true);
            });
            ws.on('error', () => resolve(false));
          }),
      );
      // What the busted specs check of the echo: text as text, binary as binary, a large message whole, a close answered.
      const echoed = await new Promise<Array<[string, boolean, number]>>((resolve) => {
        const ws = new WebSocket(`ws://localhost:${port}`);
        const got: Array<[string, boolean, number]> = [];
        ws.on('open', () => {
          ws.send('Hello');
          ws.send(Buffer.from([0, 1, 2, 255]));
          ws.send('x'.repeat(100_000));
        });
        ws.on('message', (d: Buffer, binary) => {
          got.push([binary ? d.toString('hex') : d.toString().slice(0, 5), binary, d.length]);
          if (got.length === 3) ws.close(1000, 'done');
        });
        ws.on('close', (code) => {
          got.push(['close', false, code]);
          resolve(got);
        });
      });
      assert.deepEqual(echoed, [
        ['Hello', false, 5],
        ['000102ff', true, 4],
        ['xxxxx', false, 100_000],
        ['close', false, 1000],
      ]);
    } finally {
      echo.child.kill('SIGTERM');
      assert.equal(await echo.exited, 0);
      assert.ok(!existsSync(path.join(cwd, 'reports')), 'an echo server writes nothing');
    }
  });
});
