#!/usr/bin/env node
/**
 * The bundled reference server: the `ws` package's WebSocketServer, echoing every message back
 * unchanged (text as text, binary as binary), with permessage-deflate enabled. It is what
 * `wsgate run --role server` plays against when neither --server nor --server-url is given.
 *
 *   reference-server.js [PORT]   listens on PORT (default: $WSGATE_PORT) at $WSGATE_HOST (127.0.0.1)
 *
 * With WSGATE_CERT_FILE and WSGATE_KEY_FILE (what `run --role server --tls` sets), it serves wss://.
 * With WSGATE_HTTP2=1 (`--http2`) it serves WebSockets over HTTP/2 instead (bundled/h2-echo.ts).
 */
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { WebSocketServer } from 'ws';
import { h2EchoServer, HTTP2_ENV } from './h2-echo.js';
import { echoConnection, WS_SERVER_OPTIONS } from './ws-echo.js';

const port = Number(process.argv[2] ?? process.env.WSGATE_PORT);
if (!Number.isInteger(port) || port <= 0 || port > 65535) {
  process.stderr.write('reference-server: no port (give it as the first argument or in WSGATE_PORT)\n');
  process.exit(2);
}
const host = process.env.WSGATE_HOST ?? '127.0.0.1';
const certFile = process.env.WSGATE_CERT_FILE;
const keyFile = process.env.WSGATE_KEY_FILE;
let wss: WebSocketServer | undefined;
if (process.env[HTTP2_ENV] === '1') {
  const server = h2EchoServer(certFile !== undefined && keyFile !== undefined ? { cert: readFileSync(certFile), key: readFileSync(keyFile) } : null);
  server.on('error', (err) => {
    process.stderr.write(`reference-server: ${err.message}\n`);
    process.exit(1);
  });
  server.listen(port, host);
} else if (certFile !== undefined && keyFile !== undefined) {
  const secure = https.createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) });
  wss = new WebSocketServer({ ...WS_SERVER_OPTIONS, server: secure });
  secure.on('error', (err) => {
    process.stderr.write(`reference-server: ${err.message}\n`);
    process.exit(1);
  });
  secure.listen(port, host);
} else {
  wss = new WebSocketServer({ ...WS_SERVER_OPTIONS, host, port });
}
if (wss !== undefined) {
  wss.on('connection', echoConnection);
  wss.on('error', (err) => {
    process.stderr.write(`reference-server: ${err.message}\n`);
    process.exit(1);
  });
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => process.exit(0));
