/**
 * The fuzzing server over HTTP/2 at the frame level, with Node's http2 client as the peer over real
 * TCP: the SETTINGS allow extended CONNECT; a case's stream is answered 200 without
 * Sec-WebSocket-Accept; the WebSocket frames are the stream's DATA, byte for byte; after the closing
 * handshake wsgate ends the stream with END_STREAM (RFC 8441 §5's orderly close, where TCP has a FIN),
 * and when it aborts a case it resets the stream with CANCEL (§5's "RST exceptions"). A bad request
 * gets an HTTP status on its own stream and the HTTP/2 connection carries the next one.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import http2 from 'node:http2';
import path from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import { catalogue } from '../../src/catalogue/registry.js';
import { selectCases } from '../../src/cases/select.js';
import { createServer } from '../../src/server/factory.js';
import type { FuzzingServer } from '../../src/server/fuzzing-server.js';
import { encodeFrame } from '../support/frame-encoder.js';
import { resultOf, tempDir } from '../support/harness.js';

const MASK = Buffer.from([1, 2, 3, 4]);

async function h2Server(outdir?: string): Promise<FuzzingServer> {
  const server = createServer({
    host: '127.0.0.1',
    port: 0,
    outdir: outdir ?? (await tempDir()),
    cases: selectCases(catalogue, ['1.1.1']),
    statusWaitMs: 2000,
    logger: pino({ level: 'silent' }),
    http2: true,
  });
  await server.listen();
  return server;
}

/** An HTTP/2 session to the server, once its SETTINGS are in. */
function session(port: number): Promise<{ session: http2.ClientHttp2Session; settings: http2.Settings }> {
  return new Promise((resolve, reject) => {
    const s = http2.connect(`http://127.0.0.1:${port}`);
    s.once('error', reject);
    s.once('remoteSettings', (settings) => resolve({ session: s, settings }));
  });
}

/** Opens /runCase for case 1.1.1; resolves with the stream and the response fields. */
function openCase(
  s: http2.ClientHttp2Session,
  port: number,
  path = '/runCase?case=1&agent=h2',
): Promise<{ stream: http2.ClientHttp2Stream; headers: http2.IncomingHttpHeaders }> {
  const stream = s.request(
    { ':method': 'CONNECT', ':protocol': 'websocket', ':scheme': 'http', ':path': path, ':authority': `127.0.0.1:${port}`, 'sec-websocket-version': '13' },
    { endStream: false },
  );
  return new Promise((resolve) => stream.once('response', (headers) => resolve({ stream, headers })));
}

/** What the stream brought (all DATA), whether END_STREAM came, and its RST_STREAM code at close. */
function watch(stream: http2.ClientHttp2Stream, answerEnd = true): Promise<{ data: Buffer; ended: boolean; rstCode: number | undefined }> {
  const chunks: Buffer[] = [];
  let ended = false;
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => {
    ended = true;
    if (answerEnd) stream.end();
  });
  stream.on('error', () => undefined);
  return new Promise((resolve) => stream.on('close', () => resolve({ data: Buffer.concat(chunks), ended, rstCode: stream.rstCode })));
}

test('case 1.1.1 over an extended CONNECT: 200, the frames as DATA, the closing handshake, then END_STREAM', async () => {
  const server = await h2Server();
  try {
    const { session: s, settings } = await session(server.port);
    assert.equal(settings.enableConnectProtocol, true);
    const { stream, headers } = await openCase(s, server.port);
    assert.equal(headers[':status'], 200);
    assert.equal(headers['sec-websocket-accept'], undefined);
    const seen = watch(stream);
    let got = Buffer.alloc(0);
    stream.on('data', (c: Buffer) => {
      got = Buffer.concat([got, c]);
      // 0x81 0x00: the empty text message; echoed masked. Then wsgate's close (0x88 0x02 0x03e8): answered.
      if (got.equals(Buffer.from('8100', 'hex'))) stream.write(encodeFrame({ opcode: 1, mask: MASK }));
      if (got.equals(Buffer.from('8100880203e8', 'hex'))) stream.write(encodeFrame({ opcode: 8, payload: Buffer.from('03e8', 'hex'), mask: MASK }));
    });
    const end = await seen;
    assert.equal(end.data.toString('hex'), '8100880203e8');
    assert.equal(end.ended, true, 'wsgate ended its side with END_STREAM');
    assert.equal(end.rstCode, http2.constants.NGHTTP2_NO_ERROR);
    s.close();
    const result = await resultOf(server, 'h2', '1.1.1');
    assert.equal(result?.behavior, 'OK');
    assert.equal(result?.behaviorClose, 'OK');
    assert.equal(result?.wasClean, true);
    assert.equal(result?.transport, 'h2');
  } finally {
    await server.close();
  }
});

test("a closing handshake that fails ends the stream with END_STREAM, as TCP would end with FIN; the gate's abort resets it with CANCEL; the connection carries the next stream", async () => {
  const server = await h2Server();
  try {
    const { session: s } = await session(server.port);
    // 1.1.1 fails the connection 1 s after its close when no answer came: wsgate gives up the handshake and ends its side.
    const first = await openCase(s, server.port);
    first.stream.once('data', () => first.stream.write(encodeFrame({ opcode: 1, mask: MASK })));
    const ended = await watch(first.stream);
    assert.equal(ended.ended, true);
    assert.equal(ended.rstCode, http2.constants.NGHTTP2_NO_ERROR);
    const result = await resultOf(server, 'h2', '1.1.1');
    assert.equal(result.wasClean, false);
    assert.equal(result.behaviorClose, 'UNCLEAN');
    // The gate's own limit (abortRun) is an abort: RST_STREAM(CANCEL) at once, no END_STREAM awaited.
    const second = await openCase(s, server.port, '/runCase?case=1&agent=h2b');
    const t0 = performance.now();
    second.stream.once('data', () => server.abortRun('h2b', 1));
    const reset = await watch(second.stream, false);
    assert.equal(reset.rstCode, http2.constants.NGHTTP2_CANCEL);
    assert.ok(performance.now() - t0 < 900, 'reset at once, not after the close handshake timer');
    // A request the router refuses gets its HTTP status on its own stream, the session unharmed.
    const refused = await openCase(s, server.port, '/runCase?case=7&agent=h2');
    assert.equal(refused.headers[':status'], 404);
    const body = await watch(refused.stream);
    assert.match(body.data.toString('utf8'), /^case 7 not found: 1 cases are selected/);
    const again = await openCase(s, server.port, '/getCaseCount');
    assert.equal(again.headers[':status'], 200);
    assert.equal((await watch(again.stream)).data.subarray(0, 3).toString('hex'), '810131');
    s.close();
  } finally {
    await server.close();
  }
});

test('a request that is not an extended CONNECT for websocket gets 400 or 501, and no WebSocket', async () => {
  const server = await h2Server();
  try {
    const { session: s } = await session(server.port);
    const get = s.request({ ':method': 'GET', ':path': '/runCase?case=1&agent=h2' });
    const getStatus = await new Promise((resolve) => get.once('response', (h) => resolve(h[':status'])));
    assert.equal(getStatus, 400);
    const other = s.request(
      { ':method': 'CONNECT', ':protocol': 'webtransport', ':scheme': 'http', ':path': '/runCase?case=1&agent=h2', ':authority': `127.0.0.1:${server.port}` },
      { endStream: false },
    );
    const otherStatus = await new Promise((resolve) => other.once('response', (h) => resolve(h[':status'])));
    assert.equal(otherStatus, 501);
    const noVersion = s.request(
      { ':method': 'CONNECT', ':protocol': 'websocket', ':scheme': 'http', ':path': '/runCase?case=1&agent=h2', ':authority': `127.0.0.1:${server.port}` },
      { endStream: false },
    );
    const noVersionStatus = await new Promise((resolve) => noVersion.once('response', (h) => resolve(h[':status'])));
    assert.equal(noVersionStatus, 400);
    s.destroy();
    assert.equal(server.results.get('h2'), undefined, 'no case ran');
  } finally {
    await server.close();
  }
});

test('/updateReports over HTTP/2: the 200 comes once every report is on disk', async () => {
  const outdir = await tempDir();
  const server = await h2Server(outdir);
  try {
    const { session: s } = await session(server.port);
    const { stream } = await openCase(s, server.port);
    // A case cut short by a reset still has a result.
    stream.close(http2.constants.NGHTTP2_CANCEL);
    await resultOf(server, 'h2', '1.1.1');
    const { stream: reports, headers } = await openCase(s, server.port, '/updateReports?agent=h2');
    const onDisk = existsSync(path.join(outdir, 'index.json')) && existsSync(path.join(outdir, 'h2_case_1_1_1.json'));
    assert.equal(headers[':status'], 200);
    assert.ok(onDisk, 'index.json and the case report were there when the 200 arrived');
    reports.close();
    s.close();
  } finally {
    await server.close();
  }
});
