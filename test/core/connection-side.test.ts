/**
 * The connection core on the client's side (groundwork of the server-under-test role): over a real
 * TCP connection on 127.0.0.1, a client-side Connection masks every frame it sends with a fresh key,
 * reads the server's unmasked frames, and fails the connection (1002) on a masked one, as RFC 6455
 * §5.1 requires of a client.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { Connection, type ConnectionHandler } from '../../src/core/connection.js';
import { Opcode } from '../../src/protocol/constants.js';
import { maskInPlace } from '../../src/protocol/frame-writer.js';
import { encodeFrame } from '../support/frame-encoder.js';

const OPTIONS = { openHandshakeTimeoutMs: 5000, closeHandshakeTimeoutMs: 1000, failByDrop: false, maxMessagePayload: 0 };

/** A raw TCP server (the far end, as bytes) and a client-side Connection to it, already open. */
async function pair(masks: Uint8Array[]): Promise<{ conn: Connection; far: net.Socket; received: () => Buffer; messages: string[]; close: () => void }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const farSocket = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const far = await farSocket;
  let bytes = Buffer.alloc(0);
  far.on('data', (chunk: Buffer) => {
    bytes = Buffer.concat([bytes, chunk]);
  });
  const messages: string[] = [];
  let next = 0;
  const conn = new Connection(socket, OPTIONS, { role: 'client', newMask: () => masks[next++ % masks.length] as Uint8Array, serverDropTimeoutMs: 1000 });
  const handler: ConnectionHandler = {
    onOpen: () => undefined,
    onMessage: (data) => messages.push(data.toString('utf8')),
    onPong: () => undefined,
    onConnectionLost: () => undefined,
  };
  conn.accept(handler, null);
  conn.open();
  return {
    conn,
    far,
    received: () => bytes,
    messages,
    close: () => {
      far.destroy();
      socket.destroy();
      server.close();
    },
  };
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 100));

test('a client-side connection masks each frame with a fresh key: MASK bit, the key, the payload XORed', async () => {
  const keys = [Uint8Array.of(1, 2, 3, 4), Uint8Array.of(0xa0, 0xb0, 0xc0, 0xd0)];
  const p = await pair(keys);
  try {
    p.conn.sender.sendFrame({ opcode: Opcode.Text, payload: 'Hello' });
    p.conn.sender.sendFrame({ opcode: Opcode.Ping, payload: 'ab' });
    await settle();
    const hello = Buffer.from('Hello');
    maskInPlace(hello, keys[0] as Uint8Array);
    const ping = Buffer.from('ab');
    maskInPlace(ping, keys[1] as Uint8Array);
    // 0x81 0x85: FIN, text, MASK, length 5; then the key; 0x89 0x82: FIN, ping, MASK, length 2.
    assert.deepEqual(p.received(), Buffer.concat([Buffer.from([0x81, 0x85, 1, 2, 3, 4]), hello, Buffer.from([0x89, 0x82, 0xa0, 0xb0, 0xc0, 0xd0]), ping]));
  } finally {
    p.close();
  }
});

test("a client-side connection reads the server's unmasked frames and fails the connection with 1002 on a masked one", async () => {
  const key = Uint8Array.of(9, 9, 9, 9);
  const p = await pair([key]);
  try {
    p.far.write(encodeFrame({ opcode: Opcode.Text, payload: Buffer.from('plain') }));
    await settle();
    assert.deepEqual(p.messages, ['plain']);
    p.far.write(encodeFrame({ opcode: Opcode.Text, payload: Buffer.from('masked'), mask: Uint8Array.of(5, 6, 7, 8) }));
    await settle();
    assert.deepEqual(p.messages, ['plain'], 'the masked frame is not delivered');
    assert.equal(p.conn.record.failedByMe, true);
    assert.equal(p.conn.record.localCloseCode, 1002);
    // The close frame it sent: masked too, code 1002 (03 ea) and the reason.
    const close = p.received();
    assert.equal(close[0], 0x88);
    assert.equal((close[1] as number) & 0x80, 0x80);
    const body = Buffer.from(close.subarray(6));
    maskInPlace(body, key);
    assert.equal(body.readUInt16BE(0), 1002);
    assert.equal(body.subarray(2).toString('utf8'), 'masked server-to-client frame');
  } finally {
    p.close();
  }
});
