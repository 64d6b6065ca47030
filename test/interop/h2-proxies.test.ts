/**
 * The catalogue over HTTP/2 (RFC 8441) through HAProxy and nghttpx, both ways, against the bundled ws
 * peers speaking HTTP/1.1 on the far side, case by case against the same peer straight over HTTP/1.1
 * (interop/README.md, "WebSocket over HTTP/2 through proxies", has the whole catalogue):
 * - server role: wsgate --http2 → proxy (h2-to-h1) → the bundled ws server over HTTP/1.1;
 * - client role: the bundled ws client over HTTP/1.1 → proxy (h1-to-h2) → wsgate's fuzzing server, --http2.
 * Every verdict is the one over HTTP/1.1. What differs is how streams end and which header fields
 * arrive: HAProxy answers with the backend's Sec-WebSocket-Accept and sends `:scheme: https` and the
 * client's key to an h2c backend; nghttpx adds `via: 1.1 nghttpx`, and resets each stream with
 * RST_STREAM(INTERNAL_ERROR) when its HTTP/1.1 client sends FIN, dropping what it still buffered:
 * 7.1.6 (informational) then loses the client's close, and the report names the reset.
 * A proxy that is not installed is skipped (.ci/install-proxies.sh installs both).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { WebSocketServer } from 'ws';
import { echoConnection, WS_SERVER_OPTIONS } from '../../src/bundled/ws-echo.js';
import { runCliWith } from '../support/cli-env.js';
import { REFERENCE_CLIENT, tempDir } from '../support/harness.js';
import { startProxy, type ProxyKind } from '../support/proxies.js';
import { needs } from '../support/requirements.js';
import { reservedPort } from '../support/ports.js';

/** Groups 1, 2, 5 and 7 whole, and a few of 9 and 12: every verdict the bundled peers give (OK, INFORMATIONAL) and a deflate case. */
const SELECTION = ['1.*', '2.*', '5.*', '7.*', '9.1.1', '9.2.1', '9.8.1', '12.1.1', '12.2.1'];
const COUNT = 16 + 11 + 20 + 37 + 3 + 2;
/** The bundled peers' verdicts over HTTP/1.1 (interop/README.md): OK, but informational where Autobahn's are. */
const INFORMATIONAL = new Set(['7.1.6', '7.13.1', '7.13.2']);
const NGHTTPX_RESET = 'peer reset the HTTP/2 stream (RST_STREAM INTERNAL_ERROR) without previous WebSocket closing handshake';

interface CaseReport {
  wasClean: boolean;
  wasNotCleanReason: string | null;
  remoteCloseCode: number | null;
  httpRequest: string;
  httpResponse: string;
}
interface Run {
  verdicts: Map<string, string>;
  transports: Set<string | null>;
  reports: Map<string, CaseReport>;
}

async function run(args: string[]): Promise<Run> {
  const dir = await tempDir();
  const res = await runCliWith(['run', ...args, '--agent', 'peer', '--outdir', dir, '--cases', ...SELECTION, '--quiet'], { timeoutMs: 60_000 });
  assert.equal(res.code, 0, res.stdout + res.stderr);
  const summary = JSON.parse(await readFile(path.join(dir, 'summary.json'), 'utf8')) as {
    cases: Array<{ id: string; behavior: string; behaviorClose: string; transport: string | null; reportfile: string }>;
  };
  const reports = new Map<string, CaseReport>();
  for (const c of summary.cases) reports.set(c.id, JSON.parse(await readFile(path.join(dir, c.reportfile), 'utf8')) as CaseReport);
  return {
    verdicts: new Map(summary.cases.map((c) => [c.id, `${c.behavior}/${c.behaviorClose}`])),
    transports: new Set(summary.cases.map((c) => c.transport)),
    reports,
  };
}

/** Every case's verdict is the HTTP/1.1 run's, and that is OK or (7.1.6, 7.13.x) INFORMATIONAL. */
function assertSameVerdicts(proxied: Run, h1: Run): void {
  assert.equal(proxied.verdicts.size, COUNT);
  for (const [id, v] of proxied.verdicts) {
    assert.equal(v, INFORMATIONAL.has(id) ? 'INFORMATIONAL/INFORMATIONAL' : 'OK/OK', id);
    assert.equal(v, h1.verdicts.get(id), id);
  }
  assert.deepEqual([...proxied.transports], ['h2']);
}

/** The endings too, but where a proxy's reset can take the peer's close (see the header comment). */
function assertSameEndings(proxied: Run, h1: Run, resetMayCut: ReadonlySet<string>): void {
  for (const [id, r] of proxied.reports) {
    const base = h1.reports.get(id);
    if (resetMayCut.has(id) && !r.wasClean) {
      assert.equal(r.wasNotCleanReason, NGHTTPX_RESET, id);
      assert.equal(r.remoteCloseCode, null, id);
      continue;
    }
    assert.equal(r.wasClean, base?.wasClean, id);
    assert.equal(r.remoteCloseCode, base?.remoteCloseCode, id);
  }
}

function freePort(): Promise<number> {
  return reservedPort();
}

const KINDS: ProxyKind[] = ['haproxy', 'nghttpx'];
const skip = (kind: ProxyKind): string | false => needs(kind);

describe('server role: wsgate over HTTP/2 → proxy → the bundled ws server over HTTP/1.1', () => {
  let wss: WebSocketServer;
  let port = 0;
  let h1: Run;
  before(async () => {
    // The bundled server (reference-server.js without WSGATE_HTTP2), in this process.
    wss = new WebSocketServer({ ...WS_SERVER_OPTIONS, host: '127.0.0.1', port: 0 });
    wss.on('connection', echoConnection);
    await new Promise<void>((resolve) => wss.once('listening', resolve));
    port = (wss.address() as AddressInfo).port;
    h1 = await run(['--role', 'server', '--server-url', `ws://127.0.0.1:${port}/`]);
  });
  after(() => new Promise<void>((resolve) => wss.close(() => resolve())));

  for (const kind of KINDS) {
    test(`${kind}: every verdict and ending as over HTTP/1.1`, { skip: skip(kind) }, async () => {
      const proxy = await startProxy(kind, 'h2-to-h1', { host: '127.0.0.1', port });
      try {
        const proxied = await run(['--role', 'server', '--http2', '--server-url', `ws://127.0.0.1:${proxy.port}/`]);
        assertSameVerdicts(proxied, h1);
        assertSameEndings(proxied, h1, new Set());
        // The proxy's answer: HAProxy passes the backend's Sec-WebSocket-Accept through; nghttpx drops it and names itself.
        const response = proxied.reports.get('12.1.1')?.httpResponse ?? '';
        assert.match(response, /^HTTP\/2 HEADERS\r\n:status: 200\r\n/);
        assert.match(response, /\r\nsec-websocket-extensions: permessage-deflate/);
        if (kind === 'haproxy') assert.match(response, /\r\nsec-websocket-accept: [A-Za-z0-9+/]{27}=\r\n/);
        else assert.match(response, /\r\nvia: 1\.1 nghttpx\r\n/);
      } finally {
        await proxy.stop();
      }
    });
  }
});

describe('client role: the bundled ws client over HTTP/1.1 → proxy → wsgate over HTTP/2', () => {
  let h1: Run;
  before(async () => {
    h1 = await run(['--client-loops', '--client', `'${process.execPath}' '${REFERENCE_CLIENT}' {url}`, '--url', 'ws://127.0.0.1:0']);
  });

  for (const kind of KINDS) {
    test(`${kind}: every verdict as over HTTP/1.1${kind === 'nghttpx' ? '; a lost close on 7.1.6 is nghttpx resetting the stream' : ''}`, {
      skip: skip(kind),
    }, async () => {
      // The fuzzing server on a port known before it starts, so that the proxy can forward to it.
      const fuzz = await freePort();
      const proxy = await startProxy(kind, 'h1-to-h2', { host: '127.0.0.1', port: fuzz });
      try {
        // The client speaks HTTP/1.1 to the proxy: WSGATE_HTTP2 (set under --http2) removed from its environment.
        const client = `env -u WSGATE_HTTP2 '${process.execPath}' '${REFERENCE_CLIENT}' ws://127.0.0.1:${proxy.port}`;
        const proxied = await run(['--http2', '--client-loops', '--client', client, '--url', `ws://127.0.0.1:${fuzz}`]);
        assertSameVerdicts(proxied, h1);
        // 7.1.6 sends 256 KiB, a close and a ping back to back; ws answers the close and sends FIN at
        // once, and nghttpx turns that FIN into RST_STREAM(INTERNAL_ERROR), sometimes before the
        // echo and the close it still holds have reached wsgate (measured: 6 short runs in 26, and once in the whole catalogue).
        assertSameEndings(proxied, h1, new Set(kind === 'nghttpx' ? ['7.1.6'] : []));
        const request = proxied.reports.get('12.1.1')?.httpRequest ?? '';
        assert.match(request, /^HTTP\/2 HEADERS\r\n:method: CONNECT\r\n/);
        assert.match(request, /\r\n:protocol: websocket\r\n/);
        assert.match(request, /\r\nsec-websocket-extensions: permessage-deflate; client_max_window_bits\r\n/);
        if (kind === 'haproxy') {
          // HAProxy names the scheme https to a cleartext backend, and forwards the client's key (RFC 8441 has none).
          assert.match(request, /\r\n:scheme: https\r\n/);
          assert.match(request, /\r\nsec-websocket-key: [A-Za-z0-9+/]{22}==\r\n/);
        } else {
          assert.match(request, /\r\n:scheme: http\r\n/);
          assert.doesNotMatch(request, /sec-websocket-key/);
          assert.match(request, /\r\nvia: 1\.1 nghttpx\r\n/);
        }
      } finally {
        await proxy.stop();
      }
    });
  }
});
