// Echo client on the `websocket` package (WebSocket-Node): echoes every message back unchanged.
const { loadPackage } = require('../npm-package.cjs');

const { client: WebSocketClient } = loadPackage('websocket');

const url = process.argv[2] ?? process.env.WSGATE_URL;
const client = new WebSocketClient({
  maxReceivedFrameSize: 64 * 1024 * 1024,
  maxReceivedMessageSize: 64 * 1024 * 1024,
  fragmentOutgoingMessages: false,
});
client.on('connect', (connection) => {
  connection.on('message', (m) => {
    if (m.type === 'utf8') connection.sendUTF(m.utf8Data);
    else connection.sendBytes(m.binaryData);
  });
  connection.on('error', () => {});
  connection.on('close', () => process.exit(0));
});
client.on('connectFailed', (err) => {
  process.stderr.write(`connect failed: ${err}\n`);
  process.exit(1);
});
client.connect(url);
