// Echo client on undici's WebSocket (the WHATWG API Node.js ships as globalThis.WebSocket).
import { loadPackage } from '../npm-package.mjs';

const { WebSocket } = loadPackage('undici');

const url = process.argv[2] ?? process.env.WSGATE_URL;
const ws = new WebSocket(url);
ws.binaryType = 'arraybuffer';
ws.onmessage = (event) => ws.send(event.data);
ws.onerror = () => {};
ws.onclose = () => process.exit(0);
