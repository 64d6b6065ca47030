/**
 * HAProxy and nghttpx as RFC 8441 proxies (test/support/proxies.ts), each way, with a real round trip:
 * the upgrade (200 on the extended CONNECT stream, 101 over HTTP/1.1), one masked text frame echoed
 * byte for byte, then the closing handshake and the end of the stream or connection. A proxy that is
 * not installed is skipped (.ci/install-proxies.sh installs both).
 */
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { before, describe, test } from 'node:test';
import { WebSocket, WebSocketServer } from 'ws';
import { FrameReader, type FrameHeader, type FrameSink } from '../../src/protocol/frame-reader.js';
import { generatePki, type GeneratedPki } from '../../src/tls/certificates.js';
import { encodeFrame } from '../support/frame-encoder.js';
import { startProxy, type ProxyKind } from '../support/proxies.js';
import { needs } from '../support/requirements.js';

const MASK = Buffer.from([0x37, 0xfa, 0x21, 0x3d]);
const HELLO = Buffer.from('hello');
const CLOSE_1000 = Buffer.from([0x03, 0xe8]);
/** What a server sends back: unmasked text "hello", then a close frame with code 1000. */
const ECHO_BYTES = Buffer.concat([Buffer.from([0x81, 0x05]), HELLO]);
const CLOSE_BYTES = Buffer.concat([Buffer.from([0x88, 0x02]), CLOSE_1000]);

/** An HTTP/1.1 WebSocket echo server (ws), the backend of h2-to-h1. */
async function h1Backend(): Promise<{ port: number; headers: Array<Record<string, unknown>>; close(): Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  const headers: Array<Record<string, unknown>> = [];
  wss.on('connection', (ws, req) => {
    headers.push(req.headers);
    ws.on('message', (data, isBinary) => ws.send(data as Buffer, { binary: isBinary }));
  });
  return {
    port: (wss.address() as AddressInfo).port,
    headers,
    close: () => new Promise((resolve) => wss.close(() => resolve())),
  };
}

/** An h2c server answering extended CONNECT (:protocol websocket) with 200 and echoing frames on the stream, the backend of h1-to-h2. */
async function h2Backend(): Promise<{ port: number; seen: Array<{ headers: http2.IncomingHttpHeaders; frames: string[] }>; close(): Promise<void> }> {
  const server = http2.createServer({ settings: { enableConnectProtocol: true } });
  const seen: Array<{ headers: http2.IncomingHttpHeaders; frames: string[] }> = [];
  // A 'stream' listener, not 'request': with the compat API alone Node answers extended CONNECT 405 (nodejs/node#36977).
  server.on('stream', (stream, headers) => {
    if (headers[':method'] !== 'CONNECT' || headers[':protocol'] !== 'websocket') {
      stream.respond({ ':status': 400 }, { endStream: true });
      return;
    }
    const record = { headers, frames: [] as string[] };
    seen.push(record);
    stream.respond({ ':status': 200 });
    let payload: Buffer[] = [];
    const reader = new FrameReader({ requireMask: true, compressionNegotiated: false, maxFramePayload: 0 });
    const sink: FrameSink = {
      onViolation: (code, reason) => record.frames.push(`violation ${code} ${reason}`),
      onFrameBegin: () => (payload = []),
      onFrameData: (chunk) => payload.push(Buffer.from(chunk)),
      onFrameEnd: (h: FrameHeader) => {
        const body = Buffer.concat(payload);
        record.frames.push(`${h.opcode} masked=${h.masked} ${body.toString('hex')}`);
        stream.write(encodeFrame({ opcode: h.opcode, payload: body }));
        if (h.opcode === 0x8) stream.end();
      },
    };
    stream.on('data', (chunk: Buffer) => reader.push(chunk, sink));
    stream.on('error', () => {});
  });
  server.on('sessionError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The client side of h2-to-h1: extended CONNECT, "hello", then close; resolves with what came back. */
async function h2Client(
  port: number,
  ca?: string,
): Promise<{ enableConnectProtocol: boolean | undefined; status: number | undefined; received: Buffer; ended: boolean }> {
  const session = http2.connect(
    ca === undefined ? `http://127.0.0.1:${port}` : `https://127.0.0.1:${port}`,
    ca === undefined ? {} : { ca, ALPNProtocols: ['h2'] },
  );
  try {
    session.on('error', () => {});
    const settings = await new Promise<http2.Settings>((resolve) => session.once('remoteSettings', resolve));
    const stream = session.request(
      {
        ':method': 'CONNECT',
        ':protocol': 'websocket',
        ':scheme': ca === undefined ? 'http' : 'https',
        ':path': '/',
        ':authority': `127.0.0.1:${port}`,
        'sec-websocket-version': '13',
      },
      { endStream: false },
    );
    stream.on('error', () => {});
    const chunks: Buffer[] = [];
    let ended = false;
    const closed = new Promise<void>((resolve) => stream.once('close', resolve));
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const all = Buffer.concat(chunks);
      // The echo in: start the closing handshake. The close frame in: end our side too.
      if (all.length === ECHO_BYTES.length) stream.write(encodeFrame({ opcode: 0x8, payload: CLOSE_1000, mask: MASK }));
      if (all.length === ECHO_BYTES.length + CLOSE_BYTES.length) stream.end();
    });
    stream.on('end', () => (ended = true));
    const headers = await new Promise<http2.IncomingHttpHeaders>((resolve, reject) => {
      stream.once('response', resolve);
      stream.once('close', () => reject(new Error(`stream closed before a response (RST_STREAM ${stream.rstCode})`)));
    });
    const status = Number(headers[':status']);
    if (status === 200) stream.write(encodeFrame({ opcode: 0x1, payload: HELLO, mask: MASK }));
    else stream.close();
    await closed;
    return { enableConnectProtocol: settings.enableConnectProtocol, status, received: Buffer.concat(chunks), ended };
  } finally {
    session.destroy();
  }
}

/** The client side of h1-to-h2: ws's client, "hello", then close 1000; resolves with what came back. */
function h1Client(port: number): Promise<{ status: number | undefined; messages: Buffer[]; closeCode: number; socketEnded: boolean }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`);
    let status: number | undefined;
    let socketEnded = false;
    const messages: Buffer[] = [];
    ws.on('upgrade', (res) => {
      status = res.statusCode;
      res.socket.once('end', () => (socketEnded = true));
    });
    ws.on('open', () => ws.send(HELLO.toString()));
    ws.on('message', (data: Buffer, isBinary) => {
      messages.push(Buffer.concat([Buffer.from(isBinary ? 'binary:' : 'text:'), data]));
      ws.close(1000);
    });
    ws.on('close', (closeCode) => resolve({ status, messages, closeCode, socketEnded }));
    ws.on('error', reject);
  });
}

for (const kind of ['haproxy', 'nghttpx'] as const satisfies readonly ProxyKind[]) {
  describe(`${kind} as an RFC 8441 proxy`, { skip: needs(kind) }, () => {
    let pki: GeneratedPki;
    before(async () => {
      pki = await generatePki(['127.0.0.1']);
    });

    test("h2 front, h1 back: extended CONNECT to ws's server, echo and close", async () => {
      const backend = await h1Backend();
      const proxy = await startProxy(kind, 'h2-to-h1', { host: '127.0.0.1', port: backend.port });
      try {
        const r = await h2Client(proxy.port);
        assert.equal(r.enableConnectProtocol, true, 'SETTINGS_ENABLE_CONNECT_PROTOCOL=1');
        assert.equal(r.status, 200, proxy.logs());
        assert.deepEqual(r.received, Buffer.concat([ECHO_BYTES, CLOSE_BYTES]));
        assert.equal(r.ended, true, 'END_STREAM after the closing handshake');
        assert.equal(backend.headers[0]?.upgrade, 'websocket');
      } finally {
        await proxy.stop();
        await backend.close();
      }
    });

    test('h2 front over TLS (ALPN h2), h1 back', async () => {
      const backend = await h1Backend();
      const proxy = await startProxy(kind, 'h2-to-h1', { host: '127.0.0.1', port: backend.port }, { tls: { cert: pki.cert, key: pki.key } });
      try {
        const r = await h2Client(proxy.port, pki.caCert);
        assert.equal(r.enableConnectProtocol, true);
        assert.equal(r.status, 200, proxy.logs());
        assert.deepEqual(r.received, Buffer.concat([ECHO_BYTES, CLOSE_BYTES]));
      } finally {
        await proxy.stop();
        await backend.close();
      }
    });

    test("h1 front, h2 back: ws's client through extended CONNECT to an h2c echo, echo and close", async () => {
      const backend = await h2Backend();
      const proxy = await startProxy(kind, 'h1-to-h2', { host: '127.0.0.1', port: backend.port });
      try {
        const r = await h1Client(proxy.port);
        assert.equal(r.status, 101, proxy.logs());
        assert.deepEqual(r.messages, [Buffer.from('text:hello')]);
        assert.equal(r.closeCode, 1000);
        assert.equal(r.socketEnded, true, 'FIN after the backend ended its stream');
        const seen = backend.seen[0];
        assert.equal(seen?.headers[':method'], 'CONNECT');
        assert.equal(seen.headers[':protocol'], 'websocket');
        assert.deepEqual(seen.frames, [`1 masked=true ${HELLO.toString('hex')}`, `8 masked=true ${CLOSE_1000.toString('hex')}`]);
      } finally {
        await proxy.stop();
        await backend.close();
      }
    });
  });
}
