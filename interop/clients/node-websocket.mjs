// Echo client on Node.js's own WebSocket (globalThis.WebSocket; Node 20 needs --experimental-websocket).
// Bun and Deno run it as it is: their WebSocket is the same WHATWG API (interop/implementations/bun.json, deno.json).
const url = process.argv[2] ?? process.env.WSGATE_URL;
const ws = new WebSocket(url);
ws.binaryType = 'arraybuffer';
ws.onmessage = (event) => ws.send(event.data);
ws.onerror = () => {};
ws.onclose = () => process.exit(0);
