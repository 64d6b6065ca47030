/**
 * The client's opening handshake on a real connection (groundwork of the server-under-test role):
 * against ws's WebSocketServer the connection opens and a masked message is echoed (ws refuses
 * unmasked client frames, so the echo proves the masking); against a server that answers with a
 * wrong Sec-WebSocket-Accept the connection never opens and the reason is kept.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { test } from 'node:test';
import { WebSocketServer } from 'ws';
import type { ConnectionHandler } from '../../src/core/connection.js';
import { ClientUpgrade } from '../../src/fuzzing-client/upgrade.js';
import { newClientKey } from '../../src/protocol/client-handshake.js';
import { findHeadEnd } from '../../src/protocol/handshake.js';

const OPTIONS = {
  openHandshakeTimeoutMs: 5000,
  closeHandshakeTimeoutMs: 1000,
  failByDrop: false,
  maxMessagePayload: 0,
  maxHeadBytes: 16 * 1024,
  serverDropTimeoutMs: 1000,
};
const newMask = (): Uint8Array => randomBytes(4);

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
  });
}

test("against ws's server: the connection opens and a masked message comes back", async () => {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('connection', (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })));
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const { port } = wss.address() as net.AddressInfo;
  try {
    const socket = await connect(port);
    const echoed = await new Promise<string>((resolve, reject) => {
      let upgrade: ClientUpgrade | null = null;
      const handler: ConnectionHandler = {
        onOpen: () => upgrade?.connection.sender.sendMessage(Buffer.from('Hello, server'), false),
        onMessage: (data) => {
          resolve(data.toString('utf8'));
          upgrade?.connection.sendClose(1000);
        },
        onPong: () => undefined,
        onConnectionLost: () => reject(new Error(`lost before the echo: ${upgrade?.failure ?? upgrade?.connection.record.wasNotCleanReason ?? '?'}`)),
      };
      upgrade = new ClientUpgrade(
        socket,
        OPTIONS,
        { host: `127.0.0.1:${port}`, target: '/', key: newClientKey(randomBytes) },
        newMask,
        () => handler,
        () => ({ deflate: null }),
      );
    });
    assert.equal(echoed, 'Hello, server');
  } finally {
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  }
});

test('a response with a wrong Sec-WebSocket-Accept: the connection never opens, TCP is dropped, the reason kept', async () => {
  const server = net.createServer((s) => {
    let head = Buffer.alloc(0);
    s.on('data', (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      if (findHeadEnd(head) < 0) return;
      s.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: AAAAAAAAAAAAAAAAAAAAAAAAAAA=\r\n\r\n');
    });
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  try {
    const socket = await connect(port);
    let opened = false;
    const upgrade = await new Promise<ClientUpgrade>((resolve) => {
      const handler: ConnectionHandler = {
        onOpen: () => (opened = true),
        onMessage: () => undefined,
        onPong: () => undefined,
        onConnectionLost: () => undefined,
      };
      const u = new ClientUpgrade(
        socket,
        OPTIONS,
        { host: `127.0.0.1:${port}`, target: '/', key: newClientKey(randomBytes) },
        newMask,
        () => handler,
        () => ({ deflate: null }),
      );
      socket.once('close', () => resolve(u));
    });
    assert.equal(opened, false);
    assert.equal(upgrade.connection.record.connectionWasOpen, false);
    assert.match(upgrade.failure ?? '', /^the response's Sec-WebSocket-Accept is "AAAA.*", not "/);
    assert.equal(upgrade.connection.record.droppedByMe, true);
  } finally {
    server.close();
  }
});
