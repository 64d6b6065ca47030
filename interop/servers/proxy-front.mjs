#!/usr/bin/env node
// A proxy under test: Debian's HAProxy or nginx on 127.0.0.1:PORT, in front of an echo server on the
// `ws` package with its default options (as interop/servers/ws-default.mjs), over HTTP/1.1 Upgrade.
// Both stop on SIGTERM/SIGINT (the proxy first, then the echo server); the proxy's own log goes to
// stderr. The proxy runs in the foreground with a generated config, never as the package's service.
//   proxy-front.mjs haproxy|nginx PORT
//
// The config lives in $TMPDIR/wsgate-KIND-PID-XXXXXX, removed however this process ends but SIGKILL:
// wsgate stops a server with SIGTERM to its process group and again to each process of its tree, so
// two SIGTERMs arrive at once (a handler registered with `once` let the second one end the process
// with Node's default action, before the removal); and every start removes the directories of
// launchers that are gone (SIGKILL after wsgate's grace, or a wsgate that was killed itself).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebSocketServer } from 'ws';

const [kind, portArg] = process.argv.slice(2);
const port = Number(portArg);
if ((kind !== 'haproxy' && kind !== 'nginx') || !Number.isInteger(port)) {
  process.stderr.write('usage: proxy-front.mjs haproxy|nginx PORT\n');
  process.exit(2);
}

// Debian puts both in /usr/sbin, which a non-root user's PATH may lack.
function binary(name) {
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/sbin']) {
    const file = path.join(dir || '.', name);
    if (existsSync(file)) return file;
  }
  process.stderr.write(`proxy-front: ${name} is not installed\n`);
  process.exit(1);
}

function haproxyConfig(dir, backendPort) {
  return [
    'global',
    `  pidfile ${path.join(dir, 'haproxy.pid')}`,
    'defaults',
    '  mode http',
    '  timeout connect 5s',
    '  timeout client 30s',
    '  timeout server 30s',
    // A WebSocket tunnel idles under "timeout tunnel", not client/server.
    '  timeout tunnel 60s',
    'frontend fe',
    `  bind 127.0.0.1:${port}`,
    '  default_backend be',
    'backend be',
    `  server s1 127.0.0.1:${backendPort}`,
    '',
  ].join('\n');
}

function nginxConfig(dir, backendPort) {
  return `daemon off;
master_process off;
pid ${path.join(dir, 'nginx.pid')};
error_log stderr warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir};
  uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://127.0.0.1:${backendPort};
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection "upgrade";
      proxy_set_header Host $host;
      proxy_buffering off;
      proxy_read_timeout 60s;
      proxy_send_timeout 60s;
    }
  }
}
`;
}

// Signals first: from here on, a SIGTERM or SIGINT (however many) is one orderly stop.
let stopping = false;
let proxy = null;
let dir = null;
function removeDir() {
  if (dir !== null) rmSync(dir, { recursive: true, force: true });
  dir = null;
}
process.on('SIGTERM', () => stop(0));
process.on('SIGINT', () => stop(0));
// Every other way out (an exception, process.exit) removes it too.
process.on('exit', removeDir);

/** Whether process PID is gone (a process of another user counts as alive). */
function gone(pid) {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return err.code === 'ESRCH';
  }
}

// Directories of launchers that were killed (their pid is the name's second part).
for (const name of readdirSync(tmpdir())) {
  const owner = /^wsgate-(?:haproxy|nginx)-(\d+)-/.exec(name);
  if (owner !== null && gone(Number(owner[1]))) {
    rmSync(path.join(tmpdir(), name), { recursive: true, force: true });
  }
}
const executable = binary(kind);

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
wss.on('connection', (ws) => {
  ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
  ws.on('error', () => undefined);
});
await new Promise((resolve, reject) => {
  wss.once('listening', resolve);
  wss.once('error', reject);
});
const backendPort = wss.address().port;

dir = mkdtempSync(path.join(tmpdir(), `wsgate-${kind}-${process.pid}-`));
const cfg = path.join(dir, `${kind}.cfg`);
let args;
if (kind === 'haproxy') {
  writeFileSync(cfg, haproxyConfig(dir, backendPort));
  args = ['-db', '-f', cfg];
} else {
  writeFileSync(cfg, nginxConfig(dir, backendPort));
  args = ['-p', dir, '-e', 'stderr', '-c', cfg];
}
proxy = spawn(executable, args, { stdio: ['ignore', 'inherit', 'inherit'] });

function stop(code) {
  if (stopping) return;
  stopping = true;
  const done = () => {
    wss.close();
    removeDir();
    process.exit(code);
  };
  if (proxy === null || proxy.exitCode !== null || proxy.signalCode !== null) return done();
  proxy.once('exit', done);
  proxy.kill('SIGTERM');
  setTimeout(() => proxy.kill('SIGKILL'), 2000).unref();
}
proxy.once('exit', (code, signal) => {
  if (stopping) return;
  process.stderr.write(`proxy-front: ${kind} exited (${signal ?? code})\n`);
  stop(1);
});
proxy.once('error', (err) => {
  process.stderr.write(`proxy-front: ${kind}: ${err.message}\n`);
  stop(1);
});
