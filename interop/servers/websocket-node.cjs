// Echo server on the `websocket` package (WebSocket-Node): accepts every WebSocket request and
// echoes every message back unchanged (text as text, binary as binary).
//   websocket-node.cjs PORT     listens on 127.0.0.1:PORT until SIGTERM
const http = require('node:http');
const { loadPackage } = require('../npm-package.cjs');

const { server: WebSocketServer } = loadPackage('websocket');

const port = Number(process.argv[2]);
const httpServer = http.createServer((_req, res) => {
  res.writeHead(426, { 'content-type': 'text/plain' });
  res.end('WebSocket only\n');
});
const wsServer = new WebSocketServer({
  httpServer,
  // Its defaults are 64 KiB a frame and 1 MiB a message; Autobahn's 9.x cases go up to 16 MiB.
  maxReceivedFrameSize: 64 * 1024 * 1024,
  maxReceivedMessageSize: 64 * 1024 * 1024,
  // Echo each message as one frame (the default splits outgoing messages at 16 KiB).
  fragmentOutgoingMessages: false,
  autoAcceptConnections: false,
});
wsServer.on('request', (request) => {
  const connection = request.accept(null, request.origin);
  connection.on('message', (m) => {
    if (m.type === 'utf8') connection.sendUTF(m.utf8Data);
    else connection.sendBytes(m.binaryData);
  });
  connection.on('error', () => {});
});
httpServer.listen(port, '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
