#!/usr/bin/env node
/**
 * A looping echo client on undici's WebSocket over HTTP/2 (RFC 8441, h2c with prior knowledge through
 * undici's H2CClient dispatcher), driving every case itself as Autobahn's client drivers do
 * (/getCaseCount, /runCase, /updateReports). Each WebSocket that fails to open is logged to stderr
 * with undici's reason, so the run shows where it stops.
 *
 *   node interop/undici-h2-client.mjs BASE-URL [AGENT]     e.g. ws://127.0.0.1:9001
 *   wsgate run --http2 --client-loops --client "node interop/undici-h2-client.mjs {url}"
 */
import diagnostics from 'node:diagnostics_channel';
import { H2CClient, WebSocket } from 'undici';

// undici's error and close events do not say why a handshake failed (the WHATWG API hides it): its
// diagnostics channels show what it sent and what came back, the evidence in interop/README.md.
diagnostics.subscribe('undici:client:sendHeaders', ({ request, headers }) =>
  process.stderr.write(`undici-h2-client: sent ${request.method} ${request.path}: ${JSON.stringify(String(headers))}\n`),
);
diagnostics.subscribe('undici:request:headers', ({ request, response }) =>
  process.stderr.write(
    `undici-h2-client: response to ${request.method} ${request.path}: ${response.statusCode} ${JSON.stringify(response.headers.map(String))}\n`,
  ),
);

const base = (process.argv[2] ?? process.env.WSGATE_URL ?? '').replace(/\/+$/, '');
if (base === '') {
  process.stderr.write('undici-h2-client: no base URL (first argument or WSGATE_URL)\n');
  process.exit(2);
}
const agent = encodeURIComponent(process.argv[3] ?? process.env.WSGATE_AGENT ?? 'undici-h2');
// One h2c session for every WebSocket, as a browser keeps one HTTP/2 connection per origin.
const dispatcher = new H2CClient(base.replace(/^ws/, 'http'));

/** One WebSocket: echoes every message; resolves with the first text message (if any) once closed. */
function echo(url) {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { dispatcher });
    ws.binaryType = 'arraybuffer';
    let first = null;
    ws.onmessage = (event) => {
      if (first === null && typeof event.data === 'string') first = event.data;
      ws.send(event.data);
    };
    ws.onerror = (event) =>
      process.stderr.write(`undici-h2-client: ${url}: error: ${event.error?.cause?.message ?? event.error?.message ?? event.message ?? 'unknown'}\n`);
    ws.onclose = (event) => {
      process.stderr.write(`undici-h2-client: ${url}: closed: code ${event.code} wasClean ${event.wasClean} reason ${JSON.stringify(event.reason)}\n`);
      resolve(first);
    };
  });
}

const text = await echo(`${base}/getCaseCount`);
let count = text === null ? Number.NaN : Number(text);
if (!Number.isInteger(count)) {
  // Case 1 all the same: wsgate's report of it records the handshake undici made and how it ended.
  process.stderr.write(`undici-h2-client: no case count from ${base}/getCaseCount: trying case 1 alone\n`);
  count = 1;
}
for (let i = 1; i <= count; i++) await echo(`${base}/runCase?case=${i}&agent=${agent}`);
await echo(`${base}/updateReports?agent=${agent}`);
await dispatcher.close();
