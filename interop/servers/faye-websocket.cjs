// Echo server on faye-websocket: Node's http server hands each Upgrade request to a
// WebSocket, which echoes every message back unchanged (text as text, binary as binary).
//   faye-websocket.cjs PORT     listens on 127.0.0.1:PORT until SIGTERM
// No extensions: permessage-deflate is a separate package (permessage-deflate) this does not load.
const http = require('node:http');
const { loadPackage } = require('../npm-package.cjs');

const WebSocket = loadPackage('faye-websocket');

const port = Number(process.argv[2]);
const server = http.createServer((_req, res) => {
  res.writeHead(426, { 'content-type': 'text/plain' });
  res.end('WebSocket only\n');
});
server.on('upgrade', (request, socket, body) => {
  if (!WebSocket.isWebSocket(request)) {
    socket.destroy();
    return;
  }
  // maxLength: Autobahn's 9.x messages go up to 16 MiB (the default limit is 64 MiB - 1, kept explicit).
  const ws = new WebSocket(request, socket, body, [], { maxLength: 64 * 1024 * 1024 });
  ws.on('message', (event) => ws.send(event.data));
  ws.on('error', () => {});
});
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
