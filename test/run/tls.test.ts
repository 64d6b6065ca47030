/**
 * wss:// end to end, as processes over real TLS on 127.0.0.1. Client role: the bundled ws client and
 * Debian's Python websockets trust a throwaway CA handed over by environment only; clients that do
 * not trust it, or speak plain TCP, fail every case with a reason naming TLS (exit 1, no hang); the
 * user's own certificate; `serve --tls`. Server role: the bundled server gets a generated certificate
 * by file; a server whose certificate is unknown or for another host is refused unless --ca or
 * --insecure. In every run: the report directory holds the CA's certificate and no private key, and
 * the temporary directory with a server's key is gone at exit, also after SIGTERM.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import https from 'node:https';
import type net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { describe, test } from 'node:test';
import { WebSocketServer } from 'ws';
import { generatePki } from '../../src/tls/certificates.js';
import { runCliWith, runMain, startCliUntil, type SummaryCase } from '../support/cli-env.js';
import { REFERENCE_CLIENT, tempDir } from '../support/harness.js';
import { needs, PYTHON } from '../support/requirements.js';

interface Summary {
  tls?: { caFile: string | null; generated: boolean; insecure: boolean };
  cases: SummaryCase[];
}

/**
 * A run with its own report directory: main() in this process (runMain) by default, for what the run
 * decides (verdicts, reasons, reports); with `asProcess`, the CLI as a process with its own TMPDIR (to
 * see what it leaves there) and working directory.
 */
async function gate(
  args: string[],
  { asProcess = false }: { asProcess?: boolean } = {},
): Promise<{ code: number | null; stdout: string; stderr: string; summary: Summary | null; outdir: string; tmp: string }> {
  const dir = await tempDir();
  const tmp = path.join(dir, 'tmp');
  await mkdir(tmp);
  const outdir = path.join(dir, 'out');
  const res = asProcess
    ? await runCliWith(['run', '--outdir', outdir, ...args], { cwd: dir, env: { TMPDIR: tmp }, timeoutMs: 90_000 })
    : await runMain(['run', '--outdir', outdir, ...args]);
  const summary = res.code === 0 || res.code === 1 ? (JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as Summary) : null;
  return { ...res, summary, outdir, tmp };
}

/** Every file under dir (relative paths). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** No file in the report directory holds a private key; ca.pem is a CA certificate (and only that). */
async function assertOnlyTheCertificate(outdir: string): Promise<void> {
  for (const f of await filesUnder(outdir)) {
    const text = await readFile(path.join(outdir, f), 'utf8');
    assert.ok(!/PRIVATE KEY/.test(text), `${f} holds a private key`);
  }
  const ca = new X509Certificate(await readFile(path.join(outdir, 'ca.pem')));
  assert.equal(ca.ca, true, 'ca.pem is not a CA certificate');
  assert.match(ca.subject, /wsgate throwaway CA/);
}

function statuses(summary: Summary | null): string[] {
  return (summary?.cases ?? []).map((c) => `${c.id} ${c.status}`);
}

const CASES = ['1.1.1', '2.1', '5.1', '6.4.1', '7.1.1', '12.1.1'];

describe('client role over wss://', () => {
  test('--tls: the bundled ws client trusts the generated CA by environment alone; each report records TLS version and cipher', async () => {
    const res = await gate(['--tls', '--cases', ...CASES, '--url', 'ws://127.0.0.1:0'], { asProcess: true });
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.match(res.stdout, /on wss:\/\/127\.0\.0\.1:\d+/);
    assert.deepEqual(
      statuses(res.summary),
      CASES.map((id) => `${id} passed`),
    );
    assert.deepEqual(res.summary?.tls, { caFile: path.join(res.outdir, 'ca.pem'), generated: true, insecure: false });
    for (const c of res.summary?.cases ?? []) {
      assert.match(c.tls?.version ?? '', /^TLSv1\.[23]$/, c.id);
      assert.match(c.tls?.cipher ?? '', /^TLS_/, c.id);
    }
    const report = JSON.parse(await readFile(path.join(res.outdir, 'wsgate_reference_ws_case_1_1_1.json'), 'utf8')) as { tls?: unknown; isServer: boolean };
    assert.deepEqual(Object.keys(report.tls ?? {}), ['cipher', 'version']);
    assert.match(await readFile(path.join(res.outdir, 'index.html'), 'utf8'), /<p id="tls">Over TLS \(wss:\/\/\): TLSv1\.[23] with TLS_/);
    await assertOnlyTheCertificate(res.outdir);
    assert.deepEqual(await readdir(res.tmp), [], 'the run left files in TMPDIR');
  });

  test('shards over TLS merge into one report set that still says TLS', async () => {
    const dir = await tempDir();
    for (const k of [1, 2]) {
      const res = await runMain([
        'run',
        '--tls',
        '--url',
        'ws://127.0.0.1:0',
        '--cases',
        '1.1.1',
        '1.1.2',
        '--shard',
        `${k}/2`,
        '--outdir',
        path.join(dir, `s${k}`),
      ]);
      assert.equal(res.code, 0, res.stdout + res.stderr);
    }
    const merged = await runMain(['merge', path.join(dir, 's1'), path.join(dir, 's2'), '--outdir', path.join(dir, 'all')]);
    assert.equal(merged.code, 0, merged.stdout + merged.stderr);
    const summary = JSON.parse(await readFile(path.join(dir, 'all', 'summary.json'), 'utf8')) as Summary;
    // Each shard made its own CA: the merged run names none.
    assert.deepEqual(summary.tls, { caFile: null, generated: true, insecure: false });
    assert.deepEqual(
      summary.cases.map((c) => Object.keys(c.tls ?? {})),
      [
        ['version', 'cipher'],
        ['version', 'cipher'],
      ],
    );
    assert.match(await readFile(path.join(dir, 'all', 'index.html'), 'utf8'), /<p id="tls">Over TLS/);
  });

  test('the generated certificate names the URL host and the loopback names, and chains to ca.pem', async () => {
    const pki = await generatePki(['ws.example.test']);
    const leaf = new X509Certificate(pki.cert);
    const ca = new X509Certificate(pki.caCert);
    assert.equal(leaf.subjectAltName, 'DNS:ws.example.test, DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    assert.ok(leaf.checkIssued(ca) && leaf.verify(ca.publicKey), 'not signed by the CA');
    assert.equal(leaf.ca, false);
    assert.equal(leaf.checkHost('localhost'), 'localhost');
    assert.equal(leaf.checkHost('elsewhere.example'), undefined);
    assert.match(pki.key, /^-----BEGIN PRIVATE KEY-----\n/);
    assert.ok(!('caKey' in pki), 'the CA key left the generator');
  });

  test('{ca}, WSGATE_CA_FILE, SSL_CERT_FILE and NODE_EXTRA_CA_CERTS all name ca.pem', async () => {
    const check = `[ "$WSGATE_CA_FILE" = {ca} ] && [ "$SSL_CERT_FILE" = {ca} ] && [ "$NODE_EXTRA_CA_CERTS" = {ca} ] && grep -q 'BEGIN CERTIFICATE' {ca} && exec '${process.execPath}' '${REFERENCE_CLIENT}' {url}`;
    const res = await gate(['--tls', '--client', check, '--cases', '1.1.1', '2.1', '--url', 'ws://127.0.0.1:0']);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.deepEqual(statuses(res.summary), ['1.1.1 passed', '2.1 passed']);
  });

  test("Debian's Python websockets trusts it through SSL_CERT_FILE, unchanged", { skip: needs('python-clients') }, async () => {
    const driver = path.resolve('interop/clients/python-websockets.py');
    const res = await gate(['--tls', '--client', `${PYTHON} '${driver}' {url}`, '--cases', '1.1.1', '5.1', '7.1.1']);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.deepEqual(statuses(res.summary), ['1.1.1 passed', '5.1 passed', '7.1.1 passed']);
  });

  test('a client that does not trust the CA: every case fails naming TLS, exit 1, at once', async () => {
    const t0 = performance.now();
    const client = `env -u NODE_EXTRA_CA_CERTS '${process.execPath}' '${REFERENCE_CLIENT}' {url}`;
    const res = await gate(['--tls', '--client', client, '--cases', '1.1.1', '1.1.2', '2.1', '--url', 'ws://127.0.0.1:0']);
    assert.equal(res.code, 1, res.stdout + res.stderr);
    assert.ok(performance.now() - t0 < 20_000, 'it waited for a timeout');
    for (const c of res.summary?.cases ?? []) {
      assert.equal(c.status, 'failed');
      assert.match(c.reason, /^TLS.*(does not trust|does it trust)/, c.reason);
    }
  });

  test('a client that speaks plain TCP to the wss:// server: the reason says so', async () => {
    const plain = `'${process.execPath}' -e "const s=require('net').connect(+process.env.WSGATE_URL.split(':')[2].split('/')[0],'127.0.0.1',()=>s.write('GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n'));s.on('data',()=>{});s.on('error',()=>{});s.on('close',()=>process.exit(1))"`;
    const res = await gate(['--tls', '--client', plain, '--cases', '1.1.1', '--url', 'ws://127.0.0.1:0']);
    assert.equal(res.code, 1, res.stdout + res.stderr);
    assert.match(res.summary?.cases[0]?.reason ?? '', /^TLS handshake failed: the client spoke plain TCP to a wss:\/\/ server/);
  });

  test('--cert/--key/--ca: your own certificate; nothing is generated or copied', async () => {
    const dir = await tempDir();
    const pki = await generatePki(['127.0.0.1']);
    await writeFile(path.join(dir, 'cert.pem'), pki.cert);
    await writeFile(path.join(dir, 'key.pem'), pki.key);
    await writeFile(path.join(dir, 'my-ca.pem'), pki.caCert);
    const res = await gate([
      '--cert',
      path.join(dir, 'cert.pem'),
      '--key',
      path.join(dir, 'key.pem'),
      '--ca',
      path.join(dir, 'my-ca.pem'),
      '--cases',
      '1.1.1',
      '2.1',
      '--url',
      'ws://127.0.0.1:0',
    ]);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.deepEqual(res.summary?.tls, { caFile: path.join(dir, 'my-ca.pem'), generated: false, insecure: false });
    assert.equal(existsSync(path.join(res.outdir, 'ca.pem')), false);
  });

  test("a fuzzingserver.json with a wss:// url, key and cert (Autobahn's TLS keys) serves that certificate", async () => {
    const dir = await tempDir();
    const pki = await generatePki(['127.0.0.1']);
    await writeFile(path.join(dir, 'server.crt'), pki.cert);
    await writeFile(path.join(dir, 'server.key'), pki.key);
    await writeFile(path.join(dir, 'ca.crt'), pki.caCert);
    await writeFile(
      path.join(dir, 'fuzzingserver.json'),
      JSON.stringify({ url: 'wss://127.0.0.1:0', key: 'server.key', cert: 'server.crt', outdir: './out', cases: ['1.1.1'] }),
    );
    const client = `'${process.execPath}' '${REFERENCE_CLIENT}' {url}`;
    const res = await runCliWith(['run', '--spec', 'fuzzingserver.json', '--client', client], {
      cwd: dir,
      env: { NODE_EXTRA_CA_CERTS: path.join(dir, 'ca.crt') },
      timeoutMs: 60_000,
    });
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.match(res.stdout, /on wss:\/\/127\.0\.0\.1:\d+/);
    const summary = JSON.parse(await readFile(path.join(dir, 'out', 'summary.json'), 'utf8')) as Summary;
    assert.deepEqual(summary.tls, { caFile: null, generated: false, insecure: false });
  });

  test('serve --tls: prints the wss:// URL and the CA, and a client trusting it runs a case', async () => {
    const dir = await tempDir();
    const served = await startCliUntil(['serve', '--tls', '--url', 'ws://127.0.0.1:0', '--outdir', dir, '--cases', '1.1.1'], /CA certificate: \S+ /);
    try {
      const url = /Serving (wss:\/\/\S+) \(TLS\)/.exec(served.output())?.[1] ?? '';
      const ca = /CA certificate: (\S+)/.exec(served.output())?.[1] ?? '';
      assert.equal(ca, path.join(dir, 'ca.pem'));
      const client = spawnSync(process.execPath, [REFERENCE_CLIENT, url], { env: { ...process.env, NODE_EXTRA_CA_CERTS: ca }, timeout: 20_000 });
      assert.equal(client.status, 0, String(client.stderr));
      // The server's lines were held while spawnSync blocked this loop: let them in.
      for (let i = 0; i < 50 && !/Running test case ID 1\.1\.1/.test(served.output()); i++) await new Promise((r) => setTimeout(r, 20));
      assert.match(served.output(), /Running test case ID 1\.1\.1/);
    } finally {
      served.child.kill('SIGTERM');
    }
  });
});

/** A wss:// echo server of ws over https with a certificate from its own CA (for `hosts`, loopback names or not). */
async function foreignServer(hosts: string[], loopback: boolean): Promise<{ port: number; caFile: string; close: () => Promise<void> }> {
  const pki = await generatePki(hosts, { loopback });
  const dir = await tempDir();
  const caFile = path.join(dir, 'their-ca.pem');
  await writeFile(caFile, pki.caCert);
  const server = https.createServer({ cert: pki.cert, key: pki.key });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => ws.on('message', (d, b) => ws.send(d as Buffer, { binary: b })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    caFile,
    close: () =>
      new Promise<void>((resolve) => {
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('server role over wss://', () => {
  test('--role server --tls: the bundled server gets a generated certificate by file; the key is gone at exit', async () => {
    const res = await gate(['--role', 'server', '--tls', '--cases', ...CASES], { asProcess: true });
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.match(res.stdout, /against the bundled ws server at wss:\/\/127\.0\.0\.1:\d+\//);
    assert.deepEqual(
      statuses(res.summary),
      CASES.map((id) => `${id} passed`),
    );
    for (const c of res.summary?.cases ?? []) assert.match(c.tls?.version ?? '', /^TLSv1\.[23]$/, c.id);
    await assertOnlyTheCertificate(res.outdir);
    assert.deepEqual(await readdir(res.tmp), [], 'the temporary directory with the server key was left behind');
  });

  test('{cert} and {key} name the files a server command serves', async () => {
    const server = `test -s {cert} && test -s {key} && [ "$WSGATE_CERT_FILE" = {cert} ] && exec '${process.execPath}' '${path.resolve('dist/src/bundled/reference-server.js')}' {port}`;
    const res = await gate(['--server', server, '--tls', '--cases', '1.1.1']);
    assert.equal(res.code, 0, res.stdout + res.stderr);
  });

  test('a certificate from an unknown CA is refused in one line per case (exit 1); --ca trusts it', async () => {
    const srv = await foreignServer(['localhost'], true);
    try {
      const url = `wss://127.0.0.1:${srv.port}`;
      const refused = await gate(['--server-url', url, '--cases', '1.1.1', '2.1']);
      assert.equal(refused.code, 1, refused.stdout + refused.stderr);
      for (const c of refused.summary?.cases ?? [])
        assert.match(c.reason, /^TLS: the server's certificate is not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE/, c.reason);
      const trusted = await gate(['--server-url', url, '--ca', srv.caFile, '--cases', '1.1.1', '2.1']);
      assert.equal(trusted.code, 0, trusted.stdout + trusted.stderr);
      assert.deepEqual(trusted.summary?.tls, { caFile: srv.caFile, generated: false, insecure: false });
    } finally {
      await srv.close();
    }
  });

  test('a certificate for another host is refused even from a trusted CA; --insecure runs the cases and says so', async () => {
    const srv = await foreignServer(['other.example'], false);
    try {
      const url = `wss://127.0.0.1:${srv.port}`;
      const refused = await gate(['--server-url', url, '--ca', srv.caFile, '--cases', '1.1.1']);
      assert.equal(refused.code, 1, refused.stdout + refused.stderr);
      assert.match(
        refused.summary?.cases[0]?.reason ?? '',
        /^TLS: the server's certificate is for another host \(.*127\.0\.0\.1.*\); --insecure skips the check$/,
      );
      const insecure = await gate(['--server-url', url, '--insecure', '--cases', '1.1.1']);
      assert.equal(insecure.code, 0, insecure.stdout + insecure.stderr);
      assert.deepEqual(insecure.summary?.tls, { caFile: null, generated: false, insecure: true });
    } finally {
      await srv.close();
    }
  });

  test('a ws:// server named with wss://: the reason says it does not speak TLS', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    try {
      const { port } = wss.address() as net.AddressInfo;
      const res = await gate(['--server-url', `wss://127.0.0.1:${port}`, '--agent', 'plain', '--cases', '1.1.1']);
      assert.equal(res.code, 1, res.stdout + res.stderr);
      assert.match(res.summary?.cases[0]?.reason ?? '', /^TLS: the server does not speak TLS on this port/);
    } finally {
      wss.close();
    }
  });

  test('SIGTERM mid-run: exit 143, and the temporary directory with the server key is removed', async () => {
    const dir = await tempDir();
    const tmp = path.join(dir, 'tmp');
    await mkdir(tmp);
    const run = await startCliUntil(
      ['run', '--role', 'server', '--tls', '--jobs', '1', '--outdir', path.join(dir, 'out'), '--cases', '1.1.1', '6.4.1', '6.4.2'],
      /\[1\/3\] pass 1\.1\.1/,
      { env: { TMPDIR: tmp } },
    );
    assert.equal((await readdir(tmp)).length, 1, 'no temporary directory while the server runs');
    run.child.kill('SIGTERM');
    assert.equal(await run.exited, 143, run.output());
    assert.deepEqual(await readdir(tmp), []);
  });
});

test('the TLS socket the client role serves presents the chain a client can verify against ca.pem alone', async () => {
  const dir = await tempDir();
  const served = await startCliUntil(['serve', '--tls', '--url', 'ws://127.0.0.1:0', '--outdir', dir, '--cases', '1.1.1'], /CA certificate: \S+ /);
  try {
    const port = Number(/Serving wss:\/\/127\.0\.0\.1:(\d+)/.exec(served.output())?.[1]);
    const ca = await readFile(path.join(dir, 'ca.pem'), 'utf8');
    for (const servername of ['localhost', undefined]) {
      const authorized = await new Promise<boolean>((resolve, reject) => {
        const s = tls.connect({ host: '127.0.0.1', port, ca, ...(servername !== undefined ? { servername } : {}) }, () => {
          resolve(s.authorized);
          s.destroy();
        });
        s.on('error', reject);
      });
      assert.equal(authorized, true, `servername ${servername ?? '(none: the IP)'}`);
    }
  } finally {
    served.child.kill('SIGTERM');
  }
});
