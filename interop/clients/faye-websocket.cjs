// Echo client on faye-websocket: echoes every message back unchanged (text as text, binary as binary).
const { loadPackage } = require('../npm-package.cjs');

const WebSocket = loadPackage('faye-websocket');

const url = process.argv[2] ?? process.env.WSGATE_URL;
const ws = new WebSocket.Client(url, [], { maxLength: 64 * 1024 * 1024 });
ws.on('message', (event) => ws.send(event.data));
ws.on('error', () => {});
ws.on('close', () => process.exit(0));
