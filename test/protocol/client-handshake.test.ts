import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { test } from 'node:test';
import { WebSocketServer } from 'ws';
import { buildUpgradeRequest, checkUpgradeResponse, newClientKey } from '../../src/protocol/client-handshake.js';
import { computeAccept, findHeadEnd } from '../../src/protocol/handshake.js';

const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';
/** RFC 6455 §1.3's example: this key's accept value. */
const ACCEPT = 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=';

function response(lines: string[]): Buffer {
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

const GOOD = ['HTTP/1.1 101 Switching Protocols', 'Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Accept: ${ACCEPT}`];

test('the request: RFC 6455 §4.1 header fields, an offer when given, CRLF-terminated', () => {
  assert.equal(
    buildUpgradeRequest({ host: '127.0.0.1:9001', target: '/runCase?case=1', key: KEY, extensions: 'permessage-deflate' }),
    'GET /runCase?case=1 HTTP/1.1\r\nHost: 127.0.0.1:9001\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      `Sec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n`,
  );
  const key = newClientKey(randomBytes);
  assert.match(key, /^[A-Za-z0-9+/]{22}==$/);
  assert.equal(computeAccept(KEY), ACCEPT);
});

test('a valid 101 is accepted, its extensions returned; any letter case of the header names and tokens', () => {
  const r = checkUpgradeResponse(response([...GOOD, 'Sec-WebSocket-Extensions: permessage-deflate']), KEY);
  assert.deepEqual(r.ok && [r.status, r.extensions], [101, 'permessage-deflate']);
  const odd = checkUpgradeResponse(
    response(['HTTP/1.1 101 Web Socket Protocol Handshake', 'UPGRADE: WebSocket', 'connection: keep-alive, upgrade', `sec-websocket-accept: ${ACCEPT}`]),
    KEY,
  );
  assert.equal(odd.ok, true);
});

test('each thing a client MUST refuse gives a one-line reason', () => {
  const reasons: Array<[string[], RegExp]> = [
    [['HTTP/1.1 200 OK', ...GOOD.slice(1)], /answered 200, not 101/],
    [[GOOD[0] as string, 'Connection: Upgrade', `Sec-WebSocket-Accept: ${ACCEPT}`], /Upgrade is not "websocket"/],
    [[GOOD[0] as string, 'Upgrade: websocket', 'Connection: keep-alive', `Sec-WebSocket-Accept: ${ACCEPT}`], /Connection has no "Upgrade" token/],
    [[...GOOD.slice(0, 3), `Sec-WebSocket-Accept: ${computeAccept(`${'x'.repeat(22)}==`)}`], /Sec-WebSocket-Accept is .* not "s3pPLMBiTxaQ9kYGzzhZRbK\+xOo="/],
    [[...GOOD.slice(0, 3), `Sec-WebSocket-Accept: ${ACCEPT.toLowerCase()}`], /Sec-WebSocket-Accept is/],
    [GOOD.slice(0, 3), /Sec-WebSocket-Accept is "\(none\)"/],
    [[...GOOD, 'Sec-WebSocket-Protocol: chat'], /subprotocol the client did not request/],
    [['HTTP/1.0 101 Switching Protocols', ...GOOD.slice(1)], /bad HTTP status line/],
  ];
  for (const [lines, reason] of reasons) {
    const r = checkUpgradeResponse(response(lines), KEY);
    assert.equal(r.ok, false, lines.join(' | '));
    if (!r.ok) {
      assert.match(r.reason, reason);
      assert.doesNotMatch(r.reason, /[\r\n]/);
    }
  }
  assert.deepEqual(checkUpgradeResponse(Buffer.from('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n'), KEY), {
    ok: false,
    reason: 'the response head is not complete (no empty line)',
  });
});

test("ws's WebSocketServer accepts the request and its response passes the checks, with permessage-deflate", async () => {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: true });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const { port } = wss.address() as net.AddressInfo;
  try {
    const key = newClientKey(randomBytes);
    const head = await new Promise<Buffer>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write(buildUpgradeRequest({ host: `127.0.0.1:${port}`, target: '/', key, extensions: 'permessage-deflate; client_max_window_bits' })),
      );
      let data = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        data = Buffer.concat([data, chunk]);
        if (findHeadEnd(data) >= 0) {
          socket.destroy();
          resolve(data);
        }
      });
      socket.on('error', reject);
    });
    const r = checkUpgradeResponse(head, key);
    assert.equal(r.ok, true, r.ok ? '' : r.reason);
    assert.match(r.ok ? (r.extensions ?? '') : '', /^permessage-deflate/);
    // The same response checked against another key is refused: the accept value is bound to the key.
    assert.equal(checkUpgradeResponse(head, newClientKey(randomBytes)).ok, false);
  } finally {
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  }
});
