// Echo server on the `ws` package's WebSocketServer with its default options (permessage-deflate
// off, maxPayload 100 MiB, maxFragments 16384), as a user would start it.
//   ws-default.mjs PORT
import { WebSocketServer } from 'ws';

const wss = new WebSocketServer({ host: '127.0.0.1', port: Number(process.argv[2]) });
wss.on('connection', (ws) => {
  ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
  ws.on('error', () => undefined);
});
process.on('SIGTERM', () => process.exit(0));
