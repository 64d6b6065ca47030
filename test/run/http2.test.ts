/**
 * WebSockets over HTTP/2 (RFC 8441), end to end as processes over real TCP on 127.0.0.1: the same
 * selection over HTTP/1.1 and with --http2 gives the same verdicts, case by case, in both roles, h2c
 * and over TLS (ALPN h2); the reports say which transport carried each case and show the extended
 * CONNECT's HEADERS. What cannot carry a WebSocket over HTTP/2 fails every case with one line naming
 * it: a client that speaks HTTP/1.1 to an --http2 server, a server that does not advertise
 * SETTINGS_ENABLE_CONNECT_PROTOCOL, an HTTP/1.1-only server. Wire level: wsgate ends a stream with
 * END_STREAM after the closing handshake and resets it with CANCEL when it drops a case uncleanly.
 */
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { WebSocketServer } from 'ws';
import { runCliWith, runNodeWith, startCliUntil, type SummaryCase } from '../support/cli-env.js';
import { REFERENCE_CLIENT, tempDir } from '../support/harness.js';

interface Summary {
  cases: Array<SummaryCase & { transport: string | null; explanation: { cause: { key: string } } | null }>;
}

const SELECTION = [
  '1.1.*',
  '1.2.8',
  '2.*',
  '3.2',
  '4.1.1',
  '5.1',
  '5.9',
  '5.19',
  '6.2.3',
  '6.4.3',
  '6.12.7',
  '7.1.*',
  '7.3.2',
  '7.9.1',
  '9.1.1',
  '12.1.1',
  '13.3.3',
];

async function gate(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; summary: Summary; outdir: string }> {
  const outdir = path.join(await tempDir(), 'out');
  // A client role's fuzzing server on a free port (9001 is reserved).
  const url = args.includes('--server-url') || args.includes('server') ? [] : ['--url', 'ws://127.0.0.1:0'];
  const res = await runCliWith(['run', '--outdir', outdir, '--quiet', ...url, ...args], { timeoutMs: 120_000 });
  assert.ok(res.code === 0 || res.code === 1, `exit ${String(res.code)}: ${res.stderr}`);
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as Summary;
  return { ...res, summary, outdir };
}

function verdicts(s: Summary): string[] {
  return s.cases.map((c) => `${c.id} ${c.behavior ?? '-'}/${c.behaviorClose ?? '-'}`);
}

async function caseReport(outdir: string, id: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path.join(outdir, `wsgate_reference_ws_case_${id.replace(/\./g, '_')}.json`), 'utf8')) as Record<string, unknown>;
}

for (const role of ['client', 'server'] as const) {
  describe(`the ${role} role over HTTP/2`, () => {
    test('the same verdicts as over HTTP/1.1, case by case; the reports name the transport and show the HEADERS', async () => {
      const [h1, h2] = await Promise.all([gate(['--role', role, '--cases', ...SELECTION]), gate(['--role', role, '--http2', '--cases', ...SELECTION])]);
      assert.equal(h2.code, 0, h2.stdout);
      assert.ok(h2.summary.cases.length >= 35);
      assert.deepEqual(verdicts(h2.summary), verdicts(h1.summary));
      assert.deepEqual(new Set(h2.summary.cases.map((c) => c.transport)), new Set(['h2']));
      assert.deepEqual(new Set(h1.summary.cases.map((c) => c.transport)), new Set(['http/1.1']));
      assert.match(h2.stdout, /over HTTP\/2 \(RFC 8441, h2c\)/);
      const over2 = await caseReport(h2.outdir, '7.1.1');
      assert.equal(over2.transport, 'h2');
      assert.match(
        String(over2.httpRequest),
        /^HTTP\/2 HEADERS\r\n:method: CONNECT\r\n:protocol: websocket\r\n:scheme: http\r\n:path: \/[^\r]*\r\n:authority: 127\.0\.0\.1:\d+\r\n/,
      );
      assert.match(String(over2.httpRequest), /\r\nsec-websocket-version: 13\r\n/);
      assert.doesNotMatch(String(over2.httpRequest), /sec-websocket-key/i);
      assert.match(String(over2.httpResponse), /^HTTP\/2 HEADERS\r\n:status: 200\r\n/);
      assert.doesNotMatch(String(over2.httpResponse), /sec-websocket-accept/i);
      // Over HTTP/1.1 the per-case file keeps the original's keys only.
      assert.equal('transport' in (await caseReport(h1.outdir, '7.1.1')), false);
      const page = await readFile(path.join(h2.outdir, 'wsgate_reference_ws_case_7_1_1.html'), 'utf8');
      assert.match(page, /<p id="transport">Over HTTP\/2 \(RFC 8441\)/);
    });

    test('over TLS with ALPN h2: the cases pass, and each report has its TLS version and transport', async () => {
      const run = await gate(['--role', role, '--http2', '--tls', '--cases', '1.1.1', '5.9', '7.1.1']);
      assert.equal(run.code, 0, run.stdout);
      assert.match(run.stdout, /over HTTP\/2 \(RFC 8441, TLS with ALPN h2\)/);
      for (const c of run.summary.cases) {
        assert.equal(c.transport, 'h2');
        assert.match(c.tls?.version ?? '', /^TLSv1\.[23]$/);
      }
      const report = await caseReport(run.outdir, '7.1.1');
      assert.match(String(report.httpRequest), /\r\n:scheme: https\r\n/);
    });
  });
}

test('serve --http2: the bundled client loops over the cases on HTTP/2 streams; an HTTP/1.1 client is told in one line', async () => {
  const outdir = await tempDir();
  const served = await startCliUntil(
    ['serve', '--http2', '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', '1.1.1', '2.1'],
    /over HTTP\/2 \(h2c, prior knowledge; RFC 8441\)\n/,
  );
  try {
    const port = Number(/Fuzzing Server \(Port (\d+)\)/.exec(served.output())?.[1]);
    const client = await runNodeWith(REFERENCE_CLIENT, [`ws://127.0.0.1:${port}`, 'h2-looper'], { env: { WSGATE_HTTP2: '1' }, timeoutMs: 30_000 });
    assert.equal(client.code, 0, client.stderr);
    const index = JSON.parse(await readFile(path.join(outdir, 'index.json'), 'utf8')) as Record<
      string,
      Record<string, { behavior: string; reportfile: string }>
    >;
    assert.deepEqual(Object.keys(index['h2-looper'] ?? {}), ['1.1.1', '2.1']);
    for (const entry of Object.values(index['h2-looper'] ?? {})) {
      assert.equal(entry.behavior, 'OK');
      assert.equal((JSON.parse(await readFile(path.join(outdir, entry.reportfile), 'utf8')) as { transport: string }).transport, 'h2');
    }
    // An HTTP/1.1 client: one line on the console, naming HTTP/2.
    await runNodeWith(REFERENCE_CLIENT, [`ws://127.0.0.1:${port}/runCase?case=1&agent=h1`], { env: { WSGATE_HTTP2: '' }, timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.match(served.output(), /^HTTP\/2: the client did not open with the HTTP\/2 connection preface .*\(peer tcp4:127\.0\.0\.1:\d+\)$/m);
  } finally {
    served.child.kill('SIGTERM');
    assert.equal(await served.exited, 0);
  }
});

describe('what cannot carry a WebSocket over HTTP/2 fails every case with one line', () => {
  test('repro scripts replay HTTP/1.1: a run over HTTP/2 keeps no recording, and says so', async () => {
    const run = await gate(['--http2', '--cases', '6.4.3']);
    assert.equal(run.summary.cases[0]?.behavior, 'NON-STRICT');
    const repro = await runCliWith(['repro', '6.4.3', '--from', run.outdir, '--out', '-']);
    assert.equal(repro.code, 2);
    assert.match(repro.stderr, /case 6\.4\.3 ran over HTTP\/2 \(RFC 8441\): repro scripts replay HTTP\/1\.1 connections only/);
    const both = await runCliWith(['run', '--http2', '--repro', '--cases', '1.1.1']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--repro writes scripts that replay HTTP\/1\.1 connections: it does not go with --http2/);
  });

  test('a client that speaks HTTP/1.1 to an --http2 server', async () => {
    const client = `env -u WSGATE_HTTP2 ${JSON.stringify(process.execPath)} ${JSON.stringify(REFERENCE_CLIENT)} {url}`;
    const run = await gate(['--http2', '--client', client, '--cases', '1.1.1', '2.1', '--case-timeout', '5']);
    assert.equal(run.code, 1);
    for (const c of run.summary.cases) {
      assert.equal(c.status, 'failed');
      assert.equal(c.behavior, null);
      assert.match(c.reason, /^HTTP\/2: the client did not open with the HTTP\/2 connection preface \(an HTTP\/1\.1 client\?\)/);
      assert.equal(c.explanation?.cause.key, 'no-result:http2');
    }
  });

  test('a server that does not advertise SETTINGS_ENABLE_CONNECT_PROTOCOL, and a server that speaks HTTP/1.1 only', async () => {
    const plain = http2.createServer();
    plain.on('stream', (stream) => stream.respond({ ':status': 404 }, { endStream: true }));
    const ws = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await Promise.all([new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve)), new Promise<void>((resolve) => ws.once('listening', resolve))]);
    try {
      const noSetting = await gate(['--http2', '--server-url', `ws://127.0.0.1:${(plain.address() as AddressInfo).port}/`, '--cases', '1.1.1', '7.1.1']);
      assert.equal(noSetting.code, 1);
      for (const c of noSetting.summary.cases) {
        assert.equal(c.behavior, null);
        assert.match(
          c.reason,
          /the server did not advertise SETTINGS_ENABLE_CONNECT_PROTOCOL in its HTTP\/2 SETTINGS: it does not take WebSockets over HTTP\/2 \(RFC 8441 §3\)/,
        );
        assert.equal(c.explanation?.cause.key, 'no-result:http2');
      }
      const h1Only = await gate(['--http2', '--server-url', `ws://127.0.0.1:${(ws.address() as AddressInfo).port}/`, '--cases', '1.1.1']);
      assert.equal(h1Only.code, 1);
      assert.match(h1Only.summary.cases[0]?.reason ?? '', /HTTP\/2 (connection|SETTINGS)/);
    } finally {
      plain.close();
      ws.close();
    }
  });
});
