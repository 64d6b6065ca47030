/**
 * HAProxy and nghttpx as real RFC 8441 proxies between a WebSocket client and server (binaries from
 * .ci/install-proxies.sh): "h2-to-h1" takes WebSocket over HTTP/2 (extended CONNECT, h2c prior
 * knowledge, or h2 over TLS) from the client and speaks HTTP/1.1 Upgrade to the backend; "h1-to-h2"
 * takes an HTTP/1.1 Upgrade and opens an extended CONNECT stream on an h2c backend. All four
 * combinations work with Debian 12's HAProxy 2.6 and nghttpx 1.52; both advertise
 * SETTINGS_ENABLE_CONNECT_PROTOCOL=1 on an h2 front and forward Sec-WebSocket-Extensions both ways.
 *
 * How they end a tunnel differs, which tests of closing must allow for (Node's stream.close(code)
 * sends an empty END_STREAM DATA frame before its RST_STREAM):
 * - HAProxy, h2 front: the client's END_STREAM half-closes the backend TCP (FIN); the backend's FIN
 *   or TCP RST both become END_STREAM then RST_STREAM(CANCEL). h2 back: the client's FIN becomes
 *   END_STREAM, its TCP RST END_STREAM + RST_STREAM(CANCEL); the backend's END_STREAM or RST_STREAM
 *   become a FIN to the client.
 * - nghttpx, h2 front: the client's END_STREAM alone reaches the backend as nothing (no FIN), its
 *   RST_STREAM as a FIN; the backend's FIN or TCP RST both become END_STREAM + RST_STREAM(NO_ERROR).
 *   h2 back: the client's FIN or TCP RST both become RST_STREAM without END_STREAM (PROTOCOL_ERROR in a first relay capture; INTERNAL_ERROR on every stream of the full catalogue, interop/README.md);
 *   after the backend's END_STREAM (a FIN to the client) the backend stream gets nothing more.
 * - nghttpx (h2 front) forwards a client's Sec-WebSocket-Key and adds its own: two keys, which ws's
 *   server answers with 400. HAProxy answers the h2 client with the backend's Sec-WebSocket-Accept,
 *   and sends `:scheme: https` and the client's Sec-WebSocket-Key to an h2c backend.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { executable } from './requirements.js';
import { reservedPort } from './ports.js';

export type ProxyKind = 'haproxy' | 'nghttpx';
/** Which side speaks HTTP/2: "h2-to-h1" = h2 client, HTTP/1.1 backend; "h1-to-h2" = the reverse. */
export type ProxyDirection = 'h2-to-h1' | 'h1-to-h2';

/** A running proxy. */
export interface RunningProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** Stops the proxy's process group, waits for it and removes its temp dir; safe to call twice. */
  stop(): Promise<void>;
  /** Everything the proxy printed so far (stdout and stderr: its access and error logs). */
  logs(): string;
}

/** Options of startProxy. */
export interface ProxyOptions {
  /** PEM certificate and key: the front listens with TLS (ALPN h2 for h2-to-h1, http/1.1 for h1-to-h2). */
  tls?: { cert: string; key: string };
}

const BINARY: Record<ProxyKind, string> = { haproxy: 'haproxy', nghttpx: 'nghttpx' };
/** How long a proxy may take to accept TCP, and to exit after SIGTERM, before the test gives up on it. */
const READY_MS = 5000;
const STOP_MS = 2000;

// Every proxy still running, killed (whole group, SIGKILL) if the test process exits without stop().
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) killGroup(child, 'SIGKILL');
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** The proxy's executable: on PATH, or in /usr/sbin, where Debian puts both (not on a non-root user's PATH); null when absent. */
export function proxyBinary(kind: ProxyKind): string | null {
  return executable(BINARY[kind]);
}

/** A port that was free a moment ago (the proxy binds it itself: a small race, retried by startProxy). */
function freePort(): Promise<number> {
  return reservedPort();
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** HAProxy's config: HTTP mode, which turns an h1 Upgrade into extended CONNECT and back by itself. */
function haproxyConfig(direction: ProxyDirection, port: number, backend: { host: string; port: number }, pem: string | null): string {
  const front = pem !== null ? ` ssl crt ${pem} alpn ${direction === 'h2-to-h1' ? 'h2' : 'http/1.1'}` : direction === 'h2-to-h1' ? ' proto h2' : '';
  const host = backend.host.includes(':') ? `[${backend.host}]` : backend.host;
  return [
    'global',
    '  log stderr format raw local0 info',
    'defaults',
    '  mode http',
    '  log global',
    '  option httplog',
    '  timeout connect 5s',
    '  timeout client 30s',
    '  timeout server 30s',
    // A WebSocket tunnel idles under "timeout tunnel", not client/server.
    '  timeout tunnel 60s',
    'frontend fe',
    `  bind 127.0.0.1:${port}${front}`,
    '  default_backend be',
    'backend be',
    `  server s1 ${host}:${backend.port}${direction === 'h1-to-h2' ? ' proto h2' : ''}`,
    '',
  ].join('\n');
}

/** The command line of one proxy run (the binary first), its config files written into `dir`. */
async function command(
  binary: string,
  kind: ProxyKind,
  direction: ProxyDirection,
  port: number,
  backend: { host: string; port: number },
  dir: string,
  tls: ProxyOptions['tls'],
): Promise<string[]> {
  if (kind === 'haproxy') {
    let pem: string | null = null;
    if (tls !== undefined) {
      // HAProxy takes certificate and key from one file.
      pem = path.join(dir, 'front.pem');
      await writeFile(pem, `${tls.cert.trimEnd()}\n${tls.key.trimEnd()}\n`, { mode: 0o600 });
    }
    const cfg = path.join(dir, 'haproxy.cfg');
    await writeFile(cfg, haproxyConfig(direction, port, backend, pem));
    // -db: foreground, no daemon, no master process.
    return [binary, '-db', '-f', cfg];
  }
  // An empty --conf, so that /etc/nghttpx/nghttpx.conf does not apply.
  const conf = path.join(dir, 'nghttpx.conf');
  await writeFile(conf, '');
  const args = [
    binary,
    `--conf=${conf}`,
    `--frontend=127.0.0.1,${port}${tls === undefined ? ';no-tls' : ''}`,
    `--backend=${backend.host},${backend.port};;proto=${direction === 'h1-to-h2' ? 'h2' : 'http/1.1'}`,
    '--workers=1',
    // One process: stop() has one pid to wait for (the group is killed all the same).
    '--single-process',
    '--errorlog-file=/dev/stderr',
    '--accesslog-file=/dev/stderr',
  ];
  if (tls !== undefined) {
    const key = path.join(dir, 'front.key');
    const cert = path.join(dir, 'front.crt');
    await writeFile(key, tls.key, { mode: 0o600 });
    await writeFile(cert, tls.cert);
    // nghttpx offers h2 and http/1.1 by ALPN; no OCSP fetching for a self-signed certificate.
    args.push('--no-ocsp', key, cert);
  }
  return args;
}

async function startOnce(
  binary: string,
  kind: ProxyKind,
  direction: ProxyDirection,
  backend: { host: string; port: number },
  options: ProxyOptions,
): Promise<RunningProxy> {
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), `wsgate-${kind}-`));
  const [, ...args] = await command(binary, kind, direction, port, backend, dir, options.tls);
  // Its own process group (detached), so that stop() reaches anything it forks.
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  live.add(child);
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  child.once('error', (err) => (output += `spawn ${binary}: ${err.message}\n`));
  void exited.then(() => live.delete(child));

  let stopped: Promise<void> | null = null;
  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      killGroup(child, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), STOP_MS);
      await exited;
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    })());

  const deadline = Date.now() + READY_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
      await stop();
      throw new Error(`${kind} (${direction}) exited before listening on 127.0.0.1:${port}:\n${output}`);
    }
    if (await canConnect(port)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${kind} (${direction}) did not accept TCP on 127.0.0.1:${port} within ${READY_MS} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { port, stop, logs: () => output };
}

/**
 * Starts `kind` on a free port of 127.0.0.1, in the foreground with a config generated into a fresh
 * temp dir, forwarding WebSocket to `backend` as `direction` says; resolves once the port accepts TCP.
 */
export async function startProxy(
  kind: ProxyKind,
  direction: ProxyDirection,
  backend: { host: string; port: number },
  options: ProxyOptions = {},
): Promise<RunningProxy> {
  const binary = proxyBinary(kind);
  if (binary === null) throw new Error(`${kind} is not installed (not on PATH, nor in /usr/sbin): run .ci/install-proxies.sh`);
  if (direction !== 'h2-to-h1' && direction !== 'h1-to-h2') throw new Error(`${kind}: no such direction ${String(direction)}`);
  // The free port may be taken between freePort() and the proxy's bind: try again on a new one.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(binary, kind, direction, backend, options);
    } catch (err) {
      if (attempt >= 3 || !/in use|cannot bind|Could not bind/i.test(String(err))) throw err;
    }
  }
}
