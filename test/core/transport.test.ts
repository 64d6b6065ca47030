/**
 * How a peer's end reads in the reports (Transport.peerLostReason): over TCP Autobahn's words; over an
 * HTTP/2 stream which end it was, since a proxy's RST_STREAM and an orderly END_STREAM must not read
 * alike (nghttpx resets with INTERNAL_ERROR when its HTTP/1.1 client sends FIN: interop/README.md).
 * A real h2c session on 127.0.0.1; the client side ends its stream each way.
 */
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import net, { type AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { http2Stream, TCP } from '../../src/core/transport.js';

let server: http2.Http2Server;
let port = 0;
const reasons: string[] = [];

before(async () => {
  server = http2.createServer({ settings: { enableConnectProtocol: true } });
  server.on('stream', (stream) => {
    const transport = http2Stream();
    transport.attach(stream);
    stream.on('error', () => undefined);
    stream.respond({ ':status': 200 });
    stream.on('close', () => reasons.push(transport.peerLostReason(stream)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(() => server.close());

/** Opens an extended CONNECT stream, ends it as `end` says, and resolves with the server's reason. */
async function reasonAfter(end: (stream: http2.ClientHttp2Stream, socket: net.Socket) => void): Promise<string> {
  const socket = net.connect(port, '127.0.0.1');
  const session = http2.connect(`http://127.0.0.1:${port}`, { createConnection: () => socket });
  session.on('error', () => undefined);
  await new Promise((resolve) => session.once('remoteSettings', resolve));
  const stream = session.request(
    { ':method': 'CONNECT', ':protocol': 'websocket', ':scheme': 'http', ':path': '/', ':authority': `127.0.0.1:${port}` },
    { endStream: false },
  );
  stream.on('error', () => undefined);
  await new Promise((resolve) => stream.once('response', resolve));
  const before = reasons.length;
  end(stream, socket);
  const deadline = Date.now() + 5000;
  while (reasons.length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  session.destroy();
  return reasons[before] ?? 'no close';
}

test('over TCP: Autobahn\'s "peer dropped the TCP connection"', () => {
  assert.equal(TCP.peerLostReason(new net.Socket()), 'peer dropped the TCP connection without previous WebSocket closing handshake');
});

test("a peer's END_STREAM: the stream ended", async () => {
  assert.equal(await reasonAfter((s) => s.end()), 'peer ended the HTTP/2 stream (END_STREAM) without previous WebSocket closing handshake');
});

test("a peer's RST_STREAM: the stream reset, with the code it carried", async () => {
  assert.equal(
    await reasonAfter((s) => s.close(http2.constants.NGHTTP2_INTERNAL_ERROR)),
    'peer reset the HTTP/2 stream (RST_STREAM INTERNAL_ERROR) without previous WebSocket closing handshake',
  );
  assert.equal(
    await reasonAfter((s) => s.close(http2.constants.NGHTTP2_CANCEL)),
    'peer reset the HTTP/2 stream (RST_STREAM CANCEL) without previous WebSocket closing handshake',
  );
});

test('the TCP connection under the session lost: the HTTP/2 connection dropped', async () => {
  assert.equal(await reasonAfter((_, socket) => socket.destroy()), 'peer dropped the HTTP/2 connection (TCP) without previous WebSocket closing handshake');
});
