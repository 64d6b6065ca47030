/**
 * `wstest -m fuzzingclient` as scripts written for the original use it: servers started right before
 * it (or not at all), exit 0 whatever the verdicts, the original's report files only, agents as the
 * original names them, the spec's options. Real servers: the bundled `ws` server and servers broken
 * in one way (test/fixtures/servers/broken-server.ts).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { WebSocketServer } from 'ws';
import { generatePki } from '../../src/tls/certificates.js';
import { runCliWith } from '../support/cli-env.js';
import { tempDir } from '../support/harness.js';
import { unansweredAddress } from '../support/ports.js';
import { freePort, runWstest } from '../support/wstest.js';

const REFERENCE_SERVER = fileURLToPath(new URL('../../src/bundled/reference-server.js', import.meta.url));
const BROKEN_SERVER = fileURLToPath(new URL('../fixtures/servers/broken-server.js', import.meta.url));

type Index = Record<string, Record<string, { behavior: string; behaviorClose: string; remoteCloseCode: number | null; reportfile: string }>>;

/** Starts a server script on a free port; resolves once it accepts connections. */
async function serverProcess(
  script: string,
  args: (port: number) => string[],
  env: NodeJS.ProcessEnv = {},
  delayMs = 0,
): Promise<{ port: number; child: Promise<ChildProcess> }> {
  const port = await freePort();
  const child = new Promise<ChildProcess>((resolve) => {
    setTimeout(() => resolve(spawn(process.execPath, [script, ...args(port)], { stdio: 'ignore', env: { ...process.env, ...env } })), delayMs);
  });
  return { port, child };
}

async function kill(p: { child: Promise<ChildProcess> }): Promise<void> {
  const c = await p.child;
  c.kill('SIGKILL');
}

function index(dir: string, outdir = 'reports/servers'): Index {
  return JSON.parse(readFileSync(path.join(dir, outdir, 'index.json'), 'utf8')) as Index;
}

function verdicts(rows: Index[string] | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(rows ?? {}).map(([id, r]) => [id, `${r.behavior}/${r.behaviorClose}/${String(r.remoteCloseCode)}`]));
}

const CASES = ['1.1.*', '2.*', '3.*', '5.1', '6.4.1', '7.1.*', '9.1.1', '12.1.1'];

test("fuzzingclient against a server started right before it, with no wait: exit 0, the original's files only, verdicts equal to wsgate run's", async () => {
  const dir = await tempDir('wsgate-wstest-');
  // Started 1.5 s after wstest: the first connection is retried, as a drop-in must (the original's slow start hid this race).
  const server = await serverProcess(REFERENCE_SERVER, (port) => [String(port)], {}, 1500);
  writeFileSync(
    path.join(dir, 'fuzzingclient.json'),
    JSON.stringify({
      outdir: './reports/servers',
      servers: [{ url: `ws://127.0.0.1:${server.port}` }],
      cases: CASES,
      'exclude-cases': [],
      'exclude-agent-cases': {},
    }),
  );
  try {
    const r = await runWstest(['-m', 'fuzzingclient', '-s', 'fuzzingclient.json'], dir, { timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const got = index(dir);
    // No agent and no Server header: the original's name.
    assert.deepEqual(Object.keys(got), ['UnknownServer']);
    assert.equal(Object.keys(got.UnknownServer ?? {}).length, 8 + 11 + 7 + 1 + 1 + 6 + 1 + 1);
    const files = readdirSync(path.join(dir, 'reports/servers'));
    assert.deepEqual(
      files.filter((f) => !/^unknownserver_case_[0-9_]+\.(json|html)$/.test(f)).sort(),
      ['index.html', 'index.json'],
      'no junit.xml, summary.json or anything else of the gate',
    );
    for (const row of Object.values(got.UnknownServer ?? {})) assert.ok(files.includes(row.reportfile), row.reportfile);
    // The same server, the same cases, through wsgate's own gate.
    const gate = await runCliWith(
      ['run', '--server-url', `ws://127.0.0.1:${server.port}`, '--agent', 'UnknownServer', '--outdir', path.join(dir, 'gate'), '--cases', ...CASES],
      { timeoutMs: 120_000 },
    );
    assert.equal(gate.code, 0, gate.stdout + gate.stderr);
    assert.deepEqual(verdicts(got.UnknownServer), verdicts(index(dir, 'gate').UnknownServer));
  } finally {
    await kill(server);
  }
});

test('fuzzingclient against a failing server exits 0 with the failures in its reports; wsgate judge on those reports exits 1', async () => {
  const dir = await tempDir('wsgate-wstest-');
  const server = await serverProcess(BROKEN_SERVER, (port) => ['no-utf8-check', String(port)]);
  await new Promise((r) => setTimeout(r, 300));
  writeFileSync(
    path.join(dir, 'spec.json'),
    JSON.stringify({ outdir: './out', servers: [{ agent: 'broken/utf8', url: `ws://127.0.0.1:${server.port}` }], cases: ['1.1.1', '6.3.1', '6.3.2'] }),
  );
  try {
    const r = await runWstest(['--spec=spec.json', '--mode=fuzzingclient'], dir, { timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const rows = index(dir, 'out')['broken/utf8'] ?? {};
    assert.equal(rows['1.1.1']?.behavior, 'OK');
    assert.equal(rows['6.3.1']?.behavior, 'FAILED');
    const judged = await runCliWith(['judge', '--outdir', path.join(dir, 'out'), '--spec', path.join(dir, 'spec.json')]);
    assert.equal(judged.code, 1, judged.stdout + judged.stderr);
    assert.match(judged.stdout, /6\.3\.1/);
  } finally {
    await kill(server);
  }
});

test("docs/autobahn.md's one more line against a server that stops part-way: wstest exits 0 with the reports of what it reached; wsgate judge --spec exits 1, each missing case not run", async () => {
  const dir = await tempDir('wsgate-wstest-');
  const server = await serverProcess(BROKEN_SERVER, (port) => ['exits-after-20', String(port)]);
  writeFileSync(
    path.join(dir, 'fuzzingclient.json'),
    JSON.stringify({ outdir: './reports/servers', servers: [{ agent: 'stops', url: `ws://127.0.0.1:${server.port}` }], cases: ['1.*', '2.*', '7.*'] }),
  );
  try {
    const r = await runWstest(['-m', 'fuzzingclient', '-s', 'fuzzingclient.json'], dir, { timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    // Its 20 connections, and the case that found it gone (a result with no connection, as the original writes).
    const played = Object.keys(index(dir).stops ?? {}).length;
    assert.ok(played >= 20 && played < 30, `${played} reports`);
    const judged = await runCliWith(['judge', '--outdir', path.join(dir, 'reports/servers'), '--spec', path.join(dir, 'fuzzingclient.json')]);
    assert.equal(judged.code, 1, judged.stdout + judged.stderr);
    assert.match(judged.stdout, /judging 64 cases of agent "stops"/);
    const summary = JSON.parse(readFileSync(path.join(dir, 'reports/servers/summary.json'), 'utf8')) as { cases: Array<{ status: string; reason: string }> };
    const missing = summary.cases.filter((c) => c.reason === 'no result in index.json: the server run did not reach this case');
    assert.equal(missing.length, 64 - played);
    assert.ok(missing.every((c) => c.status === 'failed'));
  } finally {
    await kill(server);
  }
});

test('fuzzingclient -w with no servers in the spec, several servers in one run, agents from the spec, the Server header or UnknownServer, an unreachable server skipped', async () => {
  const dir = await tempDir('wsgate-wstest-');
  const plain = await serverProcess(REFERENCE_SERVER, (port) => [String(port)]);
  // A server that names itself in its Server header.
  const named = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(named, 'listening');
  const namedPort = (named.address() as AddressInfo).port;
  named.on('headers', (headers) => headers.push('Server: EchoServer/2.0'));
  named.on('connection', (ws) => ws.on('message', (d, binary) => ws.send(d as Buffer, { binary })));
  // Held for the test: a port nobody can listen on meanwhile, so it stays unreachable.
  const unanswered = await unansweredAddress();
  const nobody = unanswered.port;
  try {
    writeFileSync(path.join(dir, 'w.json'), JSON.stringify({ outdir: './reports/servers', servers: [], cases: ['1.1.1'] }));
    const viaW = await runWstest(['-m', 'fuzzingclient', '-s', 'w.json', '-w', `ws://127.0.0.1:${plain.port}`], dir, { timeoutMs: 60_000 });
    assert.equal(viaW.code, 0, viaW.stdout + viaW.stderr);
    assert.deepEqual(Object.keys(index(dir)), ['UnknownServer']);

    writeFileSync(
      path.join(dir, 'many.json'),
      JSON.stringify({
        outdir: './many',
        servers: [
          { agent: 'ws/8 plain', url: `ws://127.0.0.1:${plain.port}` },
          { url: `ws://127.0.0.1:${nobody}` },
          { url: `ws://127.0.0.1:${namedPort}/some/path?x=1` },
        ],
        cases: ['1.1.1', '2.1'],
      }),
    );
    const t0 = performance.now();
    const many = await runWstest(['-m', 'fuzzingclient', '-s', 'many.json'], dir, { timeoutMs: 90_000 });
    assert.equal(many.code, 0, many.stdout + many.stderr);
    assert.match(many.stdout, new RegExp(`127\\.0\\.0\\.1:${nobody}.*skipped`));
    // The unreachable server is retried for its few seconds, then left out, as the original leaves it.
    assert.ok(performance.now() - t0 >= 9000);
    const got = index(dir, 'many');
    assert.deepEqual(Object.keys(got).sort(), ['EchoServer/2.0', 'ws/8 plain']);
    assert.deepEqual(verdicts(got['EchoServer/2.0']), { '1.1.1': 'OK/OK/1000', '2.1': 'OK/OK/1000' });
    assert.equal(got['ws/8 plain']?.['1.1.1']?.reportfile, 'ws_8_plain_case_1_1_1.json');
  } finally {
    await kill(plain);
    named.close();
    await unanswered.close();
  }
});

test('fuzzingclient honours failByDrop per server and "version": 18 (RFC 6455\'s final draft) without a word; other options are warned about', async () => {
  const dir = await tempDir('wsgate-wstest-');
  const server = await serverProcess(BROKEN_SERVER, (port) => ['no-utf8-check', String(port)]);
  await new Promise((r) => setTimeout(r, 300));
  const url = `ws://127.0.0.1:${server.port}`;
  writeFileSync(
    path.join(dir, 'spec.json'),
    JSON.stringify({
      outdir: './out',
      options: { version: 18 },
      servers: [
        { agent: 'drops', url, options: { version: 18, failByDrop: true } },
        { agent: 'closes', url, options: { failByDrop: false, utf8validateIncoming: false } },
      ],
      cases: ['6.3.1'],
    }),
  );
  try {
    const r = await runWstest(['-m', 'fuzzingclient', '-s', 'spec.json'], dir, { timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.stderr.trim(), "wstest: servers.1.options.utf8validateIncoming = false is not honoured: wsgate runs with Autobahn's default");
    const report = (agent: string): { droppedByMe: boolean; localCloseCode: number | null } => {
      const file = index(dir, 'out')[agent]?.['6.3.1']?.reportfile ?? '';
      return JSON.parse(readFileSync(path.join(dir, 'out', file), 'utf8')) as { droppedByMe: boolean; localCloseCode: number | null };
    };
    // The echoed invalid UTF-8 fails the connection: by dropping TCP with failByDrop, else by a close frame (1007).
    assert.deepEqual([report('drops').droppedByMe, report('drops').localCloseCode], [true, null]);
    assert.equal(report('closes').localCloseCode, 1007);
  } finally {
    await kill(server);
  }
});

test('fuzzingclient over wss:// to a self-signed server does not verify the certificate, as the original', async () => {
  const dir = await tempDir('wsgate-wstest-');
  const pki = await generatePki(['127.0.0.1']);
  writeFileSync(path.join(dir, 'cert.pem'), pki.cert);
  writeFileSync(path.join(dir, 'key.pem'), pki.key);
  const server = await serverProcess(REFERENCE_SERVER, (port) => [String(port)], {
    WSGATE_CERT_FILE: path.join(dir, 'cert.pem'),
    WSGATE_KEY_FILE: path.join(dir, 'key.pem'),
  });
  writeFileSync(
    path.join(dir, 'spec.json'),
    JSON.stringify({ outdir: './out', servers: [{ agent: 'tls', url: `wss://127.0.0.1:${server.port}` }], cases: ['1.1.1', '5.1'] }),
  );
  try {
    const r = await runWstest(['-m', 'fuzzingclient', '-s', 'spec.json'], dir, { timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(verdicts(index(dir, 'out').tls), { '1.1.1': 'OK/OK/1000', '5.1': 'OK/OK/1002' });
    assert.deepEqual(
      readdirSync(path.join(dir, 'out')).filter((f) => f.endsWith('.pem')),
      [],
      'no CA file: nothing was made',
    );
  } finally {
    await kill(server);
  }
});

test('run as root (as in the image), wstest writes into a 755 directory of another user, and what it writes belongs to that user', async () => {
  const dir = await tempDir('wsgate-wstest-');
  const workspace = path.join(dir, 'workspace');
  mkdirSync(workspace, { mode: 0o755 });
  const isRoot = process.getuid?.() === 0;
  // A CI runner's workspace: uid 1001, mode 755 (as root, the test makes it so; as another user, it is the user's own).
  const runner = isRoot ? { uid: 1001, gid: 1001 } : { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  if (isRoot) chownSync(workspace, runner.uid, runner.gid);
  const server = await serverProcess(REFERENCE_SERVER, (port) => [String(port)]);
  // The runner's checkout holds the spec; the report directories do not exist yet.
  const spec = path.join(workspace, 'fuzzingclient.json');
  writeFileSync(spec, JSON.stringify({ outdir: './autobahn/reports/servers', servers: [{ url: `ws://127.0.0.1:${server.port}` }], cases: ['1.1.1', '2.1'] }));
  if (isRoot) chownSync(spec, runner.uid, runner.gid);
  try {
    const r = await runWstest(['-m', 'fuzzingclient', '-s', 'fuzzingclient.json'], workspace, { timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
  } finally {
    await kill(server);
  }
  const owners = (p: string): string[] => {
    const out: string[] = [];
    const walk = (f: string): void => {
      const s = statSync(f);
      out.push(`${path.relative(workspace, f) || '.'} ${s.uid}:${s.gid}`);
      if (s.isDirectory()) for (const e of readdirSync(f)) walk(path.join(f, e));
    };
    walk(p);
    return out;
  };
  const seen = owners(workspace);
  assert.ok(
    seen.some((l) => l.startsWith('fuzzingclient.json ')),
    seen.join('\n'),
  );
  assert.ok(
    seen.some((l) => l.startsWith('autobahn/reports/servers/index.json ')),
    seen.join('\n'),
  );
  assert.ok(
    seen.some((l) => l.startsWith('autobahn/reports/servers/unknownserver_case_2_1.html ')),
    seen.join('\n'),
  );
  assert.deepEqual(
    seen.filter((l) => !l.endsWith(` ${runner.uid}:${runner.gid}`)),
    [],
  );
});
