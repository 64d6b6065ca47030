#!/usr/bin/env node
/**
 * The bundled reference client: the `ws` package, echoing every message back unchanged (text as text,
 * binary as binary), with permessage-deflate offered. It is what `wsgate run` plays against when no
 * --client is given, so the gate shows a full run on any machine.
 *
 * Usage: reference-client.js [URL]   (default: $WSGATE_URL)
 */
import WebSocket from 'ws';

const url = process.argv[2] ?? process.env.WSGATE_URL;
if (url === undefined || url === '') {
  process.stderr.write('reference-client: no URL (give it as the first argument or in WSGATE_URL)\n');
  process.exit(2);
}

// ws accepts `clientMaxWindowBits: true` (offer the parameter with no value) and `maxFragments`
// (ws >= 8.23), which its type definitions do not list yet.
const options = {
  perMessageDeflate: { clientMaxWindowBits: true },
  // Autobahn's 9.x cases send messages up to 16 MiB in up to 65536 fragments.
  maxPayload: 64 * 1024 * 1024,
  maxFragments: 0,
} as unknown as WebSocket.ClientOptions;
const ws = new WebSocket(url, options);

ws.on('message', (data: Buffer, isBinary: boolean) => {
  ws.send(data, { binary: isBinary });
});
// A failed connection is an expected outcome of many cases: it is not an error of this process.
ws.on('error', () => undefined);
ws.on('close', () => {
  process.exitCode = 0;
});
