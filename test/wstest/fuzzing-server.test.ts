/**
 * `wstest -m fuzzingserver` as scripts written for the original use it: a spec file in the working
 * directory, a client loop over /getCaseCount, /runCase and /updateReports, reports read the moment
 * the socket closes, the web port, signals. Real sockets, the real executable.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { test } from 'node:test';
import WebSocket from 'ws';
import { generatePki } from '../../src/tls/certificates.js';
import { REFERENCE_CLIENT, runNode, tempDir } from '../support/harness.js';
import { runCliWith, startCliUntil } from '../support/cli-env.js';
import { needs, PYTHON } from '../support/requirements.js';
import { freePort, runWstest, startWstest, type WstestProcess } from '../support/wstest.js';

/** One text message and the close, or the HTTP status of a refused handshake. */
function ask(url: string, headers: Record<string, string> = {}): Promise<{ text: string | null; status: number | null; code: number | null }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    let text: string | null = null;
    ws.on('message', (d) => (text = String(d)));
    ws.on('unexpected-response', (_req, res) => {
      resolve({ text: null, status: res.statusCode ?? null, code: null });
      ws.terminate();
    });
    ws.on('close', (code) => resolve({ text, status: 101, code }));
    ws.on('error', () => undefined);
  });
}

async function withSpec(spec: object, args: string[] = ['-u', '0']): Promise<{ dir: string; server: WstestProcess; base: string }> {
  const dir = await tempDir('wsgate-wstest-');
  const port = await freePort();
  writeFileSync(path.join(dir, 'fuzzingserver.json'), JSON.stringify({ url: `ws://127.0.0.1:${port}`, ...spec }));
  const server = await startWstest(['-m', 'fuzzingserver', '-s', 'fuzzingserver.json', ...args], dir);
  return { dir, server, base: `ws://127.0.0.1:${port}` };
}

async function stop(p: WstestProcess): Promise<number | null> {
  p.child.kill('SIGTERM');
  return p.exited;
}

test("fuzzingserver binds every interface at the url's port: a spec saying 127.0.0.1 is reached at 127.0.0.2 and through localhost", async () => {
  const { server } = await withSpec({ outdir: './reports/clients', cases: ['1.1.1'] });
  try {
    const other = await ask(`ws://127.0.0.2:${server.port}/getCaseCount`);
    assert.equal(other.text, '1');
    const named = await ask(`ws://localhost:${server.port}/getCaseCount`);
    assert.equal(named.text, '1');
  } finally {
    assert.equal(await stop(server), 0);
  }
});

test('fuzzingserver endpoints as the original answers them: count, info, casetuple, a case past the count refused, unknown paths idle, any Host port', async () => {
  const { server, base } = await withSpec({ outdir: './r', cases: ['1.1.1', '2.1', '7.1.*'], 'exclude-cases': ['7.1.6'] });
  try {
    // 1.1.1, 2.1, 7.1.1-7.1.5: seven cases.
    const count = await ask(`${base}/getCaseCount`);
    // A text frame holding only the count, then a close frame with no code (1005 at the client), as the original sends.
    assert.deepEqual([count.text, count.code], ['7', 1005]);
    const info = await ask(`${base}/getCaseInfo?case=2`);
    assert.equal(JSON.parse(info.text ?? '{}').id, '2.1');
    // A Host header naming another port (a published -p 9001:PORT) is accepted.
    const mapped = await ask(`${base}/getCaseCount`, { Host: '127.0.0.1:9001' });
    assert.equal(mapped.text, '7');
    const past = await ask(`${base}/runCase?case=8&agent=a`);
    assert.equal(past.status, 404, 'a case past the count fails the handshake (driver loops end on it)');
    const tuple = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`${base}/runCase?casetuple=2.1&agent=tuple`);
      ws.on('ping', () => undefined);
      ws.on('close', () => resolve('closed'));
      ws.on('error', () => resolve('error'));
    });
    assert.equal(tuple, 'closed');
    // Any other path: the upgrade succeeds and the connection stays open (readiness probes use /).
    const idle = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`${base}/`);
      ws.on('open', () => setTimeout(() => resolve(ws.readyState === WebSocket.OPEN ? 'open after 300 ms' : 'closed'), 300));
      ws.on('error', (e) => resolve(`error ${e.message}`));
    });
    assert.equal(idle, 'open after 300 ms');
    // A plain HTTP GET (no Upgrade) gets a 200 page, as the original's server answers it: `curl -f` readiness loops rely on it.
    const plain = await fetch(`http://127.0.0.1:${server.port}/`);
    assert.equal(plain.status, 200);
    assert.match(await plain.text(), /WebSocket endpoint/);
  } finally {
    assert.equal(await stop(server), 0);
  }
});

test("/updateReports: every report is on disk when the close arrives, index.json is laid out as Python's json.dumps, shutdownOnComplete ends the server with 0", async (t) => {
  const { dir, server, base } = await withSpec({ outdir: './reports/clients', cases: ['1.1.1', '1.1.2', '5.1'] });
  const agent = 'Node/ws 8 (loop)';
  for (let i = 1; i <= 3; i++) {
    await new Promise<void>((resolve) => {
      const ws = new WebSocket(`${base}/runCase?case=${i}&agent=${encodeURIComponent(agent)}`);
      ws.on('message', (d, binary) => ws.send(d, { binary }));
      ws.on('close', () => resolve());
      ws.on('error', () => undefined);
    });
  }
  const outdir = path.join(dir, 'reports/clients');
  // Read at the very moment the socket closes, as scripts that move or kill the container then do.
  const seen = await new Promise<string[]>((resolve) => {
    const ws = new WebSocket(`${base}/updateReports?agent=${encodeURIComponent(agent)}&shutdownOnComplete=true`);
    ws.on('close', () => {
      const problems: string[] = [];
      if (!existsSync(path.join(outdir, 'index.json'))) problems.push('no index.json');
      else {
        const index = JSON.parse(readFileSync(path.join(outdir, 'index.json'), 'utf8')) as Record<string, Record<string, { reportfile: string }>>;
        for (const [id, row] of Object.entries(index[agent] ?? {}))
          if (!existsSync(path.join(outdir, row.reportfile))) problems.push(`${id}: ${row.reportfile} missing`);
        if (Object.keys(index[agent] ?? {}).length !== 3) problems.push(`index.json has ${Object.keys(index[agent] ?? {}).length} cases`);
      }
      resolve(problems);
    });
  });
  assert.deepEqual(seen, []);
  assert.equal(await server.exited, 0, 'shutdownOnComplete=true ends the server');
  const text = readFileSync(path.join(outdir, 'index.json'), 'utf8');
  // The original writes json.dumps(sort_keys=True, indent=3, separators=(',', ': ')): Debian's Python says what that gives.
  await t.test("index.json as Python's json.dumps writes it", { skip: needs('python3') }, () => {
    const python = execFileSync(
      PYTHON,
      ['-c', "import json,sys; sys.stdout.write(json.dumps(json.load(sys.stdin), sort_keys=True, indent=3, separators=(',', ': ')))"],
      { input: text, encoding: 'utf8' },
    );
    assert.equal(text.trimEnd(), python);
  });
  const row = (JSON.parse(text) as Record<string, Record<string, Record<string, unknown>>>)[agent]?.['1.1.1'];
  assert.deepEqual(Object.keys(row ?? {}).sort(), ['behavior', 'behaviorClose', 'duration', 'remoteCloseCode', 'reportfile']);
  assert.equal(row?.reportfile, 'node_ws_8__loop_case_1_1_1.json');
});

test('/getCaseStatus answers once the case has a result; /stopServer stops the server (exit 0)', async () => {
  const { server, base } = await withSpec({ outdir: './r', cases: ['1.1.1'] });
  const status = ask(`${base}/getCaseStatus?case=1&agent=late`);
  await new Promise<void>((resolve) => {
    const ws = new WebSocket(`${base}/runCase?case=1&agent=late`);
    ws.on('message', (d, binary) => ws.send(d, { binary }));
    ws.on('close', () => resolve());
  });
  assert.deepEqual(JSON.parse((await status).text ?? '{}'), { behavior: 'OK' });
  await ask(`${base}/stopServer`);
  assert.equal(await server.exited, 0);
});

test('--webport serves the report directory under /cwd/ and nothing else; -u 0 serves nothing', async () => {
  const webport = await freePort();
  const { dir, server, base } = await withSpec({ outdir: './reports/clients', cases: ['1.1.1'] }, [`--webport=${webport}`]);
  writeFileSync(path.join(dir, 'secret.txt'), 'not for the web');
  try {
    await runNode(REFERENCE_CLIENT, [base, 'web-agent'], 30_000);
    const get = async (p: string): Promise<number> => (await fetch(`http://127.0.0.1:${webport}${p}`)).status;
    const index = await fetch(`http://127.0.0.1:${webport}/cwd/reports/clients/index.json`);
    assert.equal(index.status, 200);
    assert.ok('web-agent' in ((await index.json()) as object));
    assert.equal(await get('/cwd/reports/clients/web_agent_case_1_1_1.json'), 200);
    assert.equal(await get('/cwd/reports/clients/'), 200, 'a directory serves its index.html');
    for (const outside of [
      '/cwd/secret.txt',
      '/cwd/fuzzingserver.json',
      '/cwd/reports/clients/../../secret.txt',
      '/cwd/reports/clients/%2e%2e/%2e%2e/secret.txt',
      '/cwd/%2fetc%2fpasswd',
      '/etc/passwd',
    ]) {
      assert.equal(await get(outside), 404, outside);
    }
  } finally {
    assert.equal(await stop(server), 0);
  }
  const quiet = await withSpec({ outdir: './r', cases: ['1.1.1'] }, ['-u', '0']);
  try {
    assert.ok(!/Web port/.test(quiet.server.output()), quiet.server.output());
  } finally {
    await stop(quiet.server);
  }
});

test('SIGTERM stops the server at once with 0, and results no /updateReports wrote yet are written', async () => {
  const { dir, server, base } = await withSpec({ outdir: './out', cases: ['1.1.1'] });
  await new Promise<void>((resolve) => {
    const ws = new WebSocket(`${base}/runCase?case=1&agent=unsaved`);
    ws.on('message', (d, binary) => ws.send(d, { binary }));
    ws.on('close', () => resolve());
  });
  const t0 = performance.now();
  assert.equal(await stop(server), 0);
  assert.ok(performance.now() - t0 < 5000);
  const index = JSON.parse(readFileSync(path.join(dir, 'out/index.json'), 'utf8')) as Record<string, unknown>;
  assert.deepEqual(Object.keys(index), ['unsaved']);
});

test('exclude-agent-cases as the original reads it: agent and case patterns are anchored regular expressions, agents may hold "/"', async () => {
  const { server, base } = await withSpec({
    outdir: './r',
    cases: ['1.1.1', '1.1.2', '2.1'],
    'exclude-agent-cases': { 'Mozilla/5.*': ['1.1.*'], 'curl/[0-9]+': ['2.1'] },
  });
  /** Whether the case was played (a message or a ping arrived) or skipped (closed at once). */
  const played = (i: number, agent: string): Promise<boolean> =>
    new Promise((resolve) => {
      let got = false;
      const ws = new WebSocket(`${base}/runCase?case=${i}&agent=${encodeURIComponent(agent)}`);
      ws.on('message', (d, binary) => {
        got = true;
        ws.send(d, { binary });
      });
      ws.on('ping', () => (got = true));
      ws.on('close', () => resolve(got));
    });
  try {
    assert.equal(await played(1, 'Mozilla/5.0'), false, '1.1.1 is skipped for Mozilla/5.0');
    assert.equal(await played(1, 'XMozilla/5.0'), true, 'anchored at the start');
    assert.equal(await played(1, 'Mozilla/50'), true, '"." is literal');
    assert.equal(await played(3, 'curl/8x'), true, 'anchored at the end');
    assert.equal(await played(3, 'curl/8'), false, '"curl/[0-9]+" is a regular expression: 2.1 (case 3) is skipped for curl/8');
    assert.equal(await played(3, 'curl/x'), true, 'and not for curl/x');
  } finally {
    await stop(server);
  }
});

test("no --spec: fuzzingserver.json in the working directory, written with the original's defaults when missing, read when present", async () => {
  const dir = await tempDir('wsgate-wstest-');
  const port = await freePort();
  // Present: read (a port of its own, three cases).
  writeFileSync(
    path.join(dir, 'fuzzingserver.json'),
    JSON.stringify({ url: `ws://127.0.0.1:${port}`, outdir: './x', cases: ['1.1.*'], 'exclude-cases': ['1.1.4', '1.1.5', '1.1.6', '1.1.7', '1.1.8'] }),
  );
  const present = await startWstest(['--mode', 'fuzzingserver', '--webport', '0'], dir);
  assert.match(present.output(), /Using implicit spec file 'fuzzingserver.json'/);
  assert.equal((await ask(`ws://127.0.0.1:${port}/getCaseCount`)).text, '3');
  await stop(present);
  // Missing: written with the defaults, then used. Port 9001 belongs to another test of the suite
  // (safe-defaults): a file named "reports" stops this server at its report directory, before it listens.
  const empty = await tempDir('wsgate-wstest-');
  writeFileSync(path.join(empty, 'reports'), '');
  const written = await runWstest(['-m', 'fuzzingserver', '-u', '0'], empty);
  assert.match(written.stdout, /Auto-generating spec file 'fuzzingserver.json'/);
  assert.equal(written.code, 2);
  assert.match(written.stderr, /cannot write to the report directory .*reports\/clients/);
  const spec = JSON.parse(readFileSync(path.join(empty, 'fuzzingserver.json'), 'utf8')) as Record<string, unknown>;
  assert.deepEqual(spec, { url: 'ws://127.0.0.1:9001', outdir: './reports/clients', cases: ['*'], 'exclude-cases': [], 'exclude-agent-cases': {} });
});

test('a spec in a read-only directory is only read; bad input is one line and exit 2 with nothing written', async () => {
  // One level down: the spec's outdir, ../reports, stays inside the test's own directory.
  const dir = path.join(await tempDir('wsgate-wstest-'), 'work');
  mkdirSync(dir);
  const config = path.join(dir, 'config');
  mkdirSync(config);
  const port = await freePort();
  writeFileSync(
    path.join(config, 'fuzzingserver.json'),
    JSON.stringify({ url: `ws://127.0.0.1:${port}`, outdir: '../reports', cases: ['2.*'], webport: 8080, comment: 'ignored' }),
  );
  chmodSync(config, 0o555);
  const server = await startWstest(['-m', 'fuzzingserver', '-s', 'config/fuzzingserver.json', '-u', '0'], dir);
  await stop(server);
  assert.deepEqual(readdirSync(config), ['fuzzingserver.json']);
  chmodSync(config, 0o755);

  const bad = async (spec: string | null, args: string[], expected: RegExp): Promise<void> => {
    const where = await tempDir('wsgate-wstest-');
    if (spec !== null) writeFileSync(path.join(where, 's.json'), spec);
    const r = await runWstest(['-m', 'fuzzingserver', '-u', '0', ...args], where);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, expected);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.deepEqual(readdirSync(where).sort(), spec === null ? [] : ['s.json']);
  };
  await bad(null, ['-s', 'missing.json'], /^wstest: missing\.json: cannot read the spec file: no such file/);
  await bad('{"url": ', ['-s', 's.json'], /not valid JSON/);
  await bad('{"url": "ws://127.0.0.1:1", "cases": "1.*"}', ['-s', 's.json'], /"cases" must be an array of strings/);
  await bad('{"url": "ws://127.0.0.1:1", "cases": ["1.(*"]}', ['-s', 's.json'], /"1\.\(\*" is not a valid pattern/);
  await bad('{"url": "ws://127.0.0.1:1", "cases": ["8.*", "11.*"]}', ['-s', 's.json'], /no case matches/);
  await bad('{"url": "http://x"}', ['-s', 's.json'], /"url": must start with ws:\/\//);
  await bad(null, ['-s', 's.json', '--mode=nothing'], /mode "nothing" is not a mode/);
  await bad(null, ['-m', 'broadcastserver'], /mode "broadcastserver" is not provided by wsgate/);
  await bad(null, ['--webport', 'x'], /invalid web port "x"/);
  await bad(null, ['--bogus'], /Unknown argument: bogus/);
});

test('verdicts through wstest are those of wsgate serve for the same client and cases', async () => {
  const cases = ['1.1.*', '2.*', '3.*', '5.1', '6.4.1', '7.1.*', '7.9.*'];
  const { dir, server, base } = await withSpec({ outdir: './reports/clients', cases });
  await runNode(REFERENCE_CLIENT, [base, 'same-client'], 60_000);
  await stop(server);
  const viaWstest = JSON.parse(readFileSync(path.join(dir, 'reports/clients/index.json'), 'utf8')) as Record<
    string,
    Record<string, { behavior: string; behaviorClose: string; remoteCloseCode: number | null }>
  >;
  const port = await freePort();
  const outdir = path.join(dir, 'serve');
  const serve = await startCliUntil(['serve', '--url', `ws://127.0.0.1:${port}`, '--outdir', outdir, '--cases', ...cases], /Fuzzing Server/);
  await runNode(REFERENCE_CLIENT, [`ws://127.0.0.1:${port}`, 'same-client'], 60_000);
  serve.child.kill('SIGTERM');
  await serve.exited;
  const viaServe = JSON.parse(readFileSync(path.join(outdir, 'index.json'), 'utf8')) as typeof viaWstest;
  const verdicts = (index: typeof viaWstest): Record<string, string> =>
    Object.fromEntries(Object.entries(index['same-client'] ?? {}).map(([id, r]) => [id, `${r.behavior}/${r.behaviorClose}/${String(r.remoteCloseCode)}`]));
  assert.equal(Object.keys(verdicts(viaWstest)).length, 8 + 11 + 7 + 1 + 1 + 6 + 9);
  assert.deepEqual(verdicts(viaWstest), verdicts(viaServe));
  // And the gate judges wstest's reports against the spec they were run from: the bundled client passes these.
  const judged = await runCliWith(['judge', '--outdir', path.join(dir, 'reports/clients'), '--spec', path.join(dir, 'fuzzingserver.json')]);
  assert.equal(judged.code, 0, judged.stdout + judged.stderr);
  assert.match(judged.stdout, /judging 43 cases of agent "same-client" .*\(the selection of .*fuzzingserver\.json\)/);
  // Without it, the whole catalogue is what should be there: the 474 cases this spec left out fail as not run.
  const whole = await runCliWith([
    'judge',
    '--outdir',
    path.join(dir, 'reports/clients'),
    '--json',
    path.join(dir, 'whole.json'),
    '--junit',
    path.join(dir, 'whole.xml'),
  ]);
  assert.equal(whole.code, 1);
  const missing = (JSON.parse(readFileSync(path.join(dir, 'whole.json'), 'utf8')) as { cases: Array<{ reason: string }> }).cases.filter(
    (c) => c.reason === 'no result in index.json: the client did not run this case',
  );
  assert.equal(missing.length, 517 - 43);
});

test("a wss:// url with the spec's key and cert serves TLS (the web port too); host 0.0.0.0 and an absolute, nested outdir are taken; /updateReports repeats", async () => {
  const dir = await tempDir('wsgate-wstest-');
  const pki = await generatePki(['127.0.0.1']);
  writeFileSync(path.join(dir, 'server.crt'), pki.cert);
  writeFileSync(path.join(dir, 'server.key'), pki.key);
  const port = await freePort();
  const webport = await freePort();
  const outdir = path.join(dir, 'abs', 'nested', 'reports');
  writeFileSync(path.join(dir, 'spec.json'), JSON.stringify({ url: `wss://0.0.0.0:${port}`, key: 'server.key', cert: 'server.crt', outdir, cases: ['1.1.1'] }));
  const server = await startWstest(['-m', 'fuzzingserver', '-s', 'spec.json', '-u', String(webport)], dir);
  try {
    assert.match(server.output(), /Fuzzing Server \(Port \d+ TLS\)/);
    const agent = 'tls-client';
    const run = (p: string): Promise<void> =>
      new Promise((resolve) => {
        const ws = new WebSocket(`wss://127.0.0.1:${port}${p}`, { ca: pki.caCert });
        ws.on('message', (d, binary) => ws.send(d, { binary }));
        ws.on('close', () => resolve());
        ws.on('error', () => resolve());
      });
    await run(`/runCase?case=1&agent=${agent}`);
    await run(`/updateReports?agent=${agent}`);
    const first = readFileSync(path.join(outdir, 'index.json'), 'utf8');
    await run(`/updateReports?agent=${agent}`);
    assert.equal(readFileSync(path.join(outdir, 'index.json'), 'utf8'), first);
    assert.equal(JSON.parse(first)[agent]['1.1.1'].behavior, 'OK');
    // The web port over TLS, with the same certificate (the original's listenSSL); an absolute outdir inside the working directory is served under /cwd/.
    const get = (p: string): Promise<{ status: number; body: string }> =>
      new Promise((resolve, reject) => {
        https
          .get(`https://127.0.0.1:${webport}${p}`, { ca: pki.caCert }, (res) => {
            let body = '';
            res.on('data', (d: Buffer) => (body += d.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          })
          .on('error', reject);
      });
    assert.match((await get('/')).body, /href="\/cwd\/abs\/nested\/reports\/index.html"/);
    assert.deepEqual(await get('/cwd/abs/nested/reports/index.json'), { status: 200, body: first });
    assert.equal((await get('/cwd/server.key')).status, 404, 'the key beside the spec is not served');
  } finally {
    assert.equal(await stop(server), 0);
  }
});
