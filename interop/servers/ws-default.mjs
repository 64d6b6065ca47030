// Echo server on the `ws` package's WebSocketServer with its default options (permessage-deflate
// off, maxPayload 100 MiB, maxFragments 16384), as a user would start it.
//   ws-default.mjs PORT
// With WSGATE_CERT_FILE and WSGATE_KEY_FILE (`wsgate run --tls --server ...`), it serves wss://.
// With WSGATE_NPM_PREFIX, the release of ws installed there (ws 7 calls it Server; its handler has
// no isBinary: its text arrives as a string, which is sent back as text).
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { loadPackage } from '../npm-package.mjs';

const wsPackage = loadPackage('ws');
const WebSocketServer = wsPackage.WebSocketServer ?? wsPackage.Server;

const port = Number(process.argv[2]);
const { WSGATE_CERT_FILE: cert, WSGATE_KEY_FILE: key } = process.env;
let wss;
if (cert && key) {
  const server = https.createServer({ cert: readFileSync(cert), key: readFileSync(key) });
  wss = new WebSocketServer({ server });
  server.listen(port, '127.0.0.1');
} else {
  wss = new WebSocketServer({ host: '127.0.0.1', port });
}
wss.on('connection', (ws) => {
  ws.on('message', (data, isBinary) => ws.send(data, typeof isBinary === 'boolean' ? { binary: isBinary } : {}));
  ws.on('error', () => undefined);
});
process.on('SIGTERM', () => process.exit(0));
