/**
 * The kernel's queues of a loopback connection, read from /proc/net/tcp: over real TCP on
 * 127.0.0.1, what one end wrote and the other has not read is in the reader's receive queue (or the
 * writer's unacknowledged bytes), either way, and once the reader reads it all, nothing is; a connection whose
 * other end is not in the table (here: ended) has no answer.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { test } from 'node:test';
import { connectionQueues } from '../../src/util/kernel-queues.js';

const MiB = 1024 * 1024;

/** A connection to 127.0.0.1; `listen` is the server's address (undefined: every address, IPv6's :: where the machine has it, so the server's end is an IPv4-mapped IPv6 socket). */
async function pair(listen: string | undefined): Promise<{ client: net.Socket; accepted: net.Socket; server: net.Server }> {
  const server = net.createServer();
  server.listen(0, listen);
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  const accepted = once(server, 'connection') as Promise<[net.Socket]>;
  const client = net.connect(port, '127.0.0.1');
  await once(client, 'connect');
  const [socket] = await accepted;
  return { client, accepted: socket, server };
}

async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 200));
}

for (const listen of ['127.0.0.1', undefined]) {
  test(`a server listening on ${listen ?? 'every address'}: bytes written and not read are in the kernel's queues; read, they are gone`, async () => {
    const { client, accepted, server } = await pair(listen);
    try {
      // The reader reads nothing: what the writer flushed sits in the kernel, both ends.
      accepted.pause();
      const written = 2 * MiB;
      client.write(Buffer.alloc(written, 7));
      await settle();
      const flushed = client.bytesWritten - client.writableLength;
      const held = connectionQueues(client);
      assert.ok(held !== null, 'the peer socket is in the table');
      assert.ok(held.peerUnread > 0, JSON.stringify(held));
      // A paused Node socket still reads up to its highWaterMark into its own buffer: that much the
      // reader's process took; the rest of what the kernel took is still there, on one side or the other.
      assert.equal(held.ourUnacked + held.peerUnread, flushed - accepted.readableLength, JSON.stringify({ held, flushed, taken: accepted.readableLength }));

      let read = 0;
      accepted.on('data', (d: Buffer) => {
        read += d.length;
      });
      accepted.resume();
      while (read < written) await settle();
      const after = connectionQueues(client);
      assert.deepEqual(after, { ourUnacked: 0, peerUnread: 0, peerUnacked: 0, ourUnread: 0 });

      // The other way: the server writes, the client reads nothing; seen from the client's end.
      client.pause();
      const back = 2 * MiB;
      accepted.write(Buffer.alloc(back, 9));
      await settle();
      const backFlushed = accepted.bytesWritten - accepted.writableLength;
      const queued = connectionQueues(client);
      assert.ok(queued !== null && queued.ourUnread > 0, JSON.stringify(queued));
      assert.equal(
        queued.peerUnacked + queued.ourUnread,
        backFlushed - client.readableLength,
        JSON.stringify({ queued, backFlushed, taken: client.readableLength }),
      );
      let got = 0;
      client.on('data', (d: Buffer) => {
        got += d.length;
      });
      client.resume();
      while (got < back) await settle();
      assert.deepEqual(connectionQueues(client), { ourUnacked: 0, peerUnread: 0, peerUnacked: 0, ourUnread: 0 });
    } finally {
      client.destroy();
      accepted.destroy();
      server.close();
    }
  });
}

test('a socket whose other end is gone, or that never connected, has no answer', async () => {
  const { client, accepted, server } = await pair('127.0.0.1');
  accepted.destroy();
  server.close();
  await once(client, 'close');
  assert.equal(connectionQueues(client), null);
  assert.equal(connectionQueues(new net.Socket()), null);
});
