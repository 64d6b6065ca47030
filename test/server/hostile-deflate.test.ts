/**
 * Hostile permessage-deflate input against the live server (real loopback sockets): each gets what
 * the original gives it (a close code, or for data zlib cannot inflate a TCP drop), a report that
 * says why, and the server keeps serving.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';
import type { FuzzingServer } from '../../src/server/fuzzing-server.js';
import { clientFrame } from '../fixtures/clients/raw-peer.js';
import type { CaseResult } from '../../src/model/report.js';
import { entries } from '../cases/group-runs.js';
import { REFERENCE_CLIENT, fixture, resultOf, runNode, startServer } from '../support/harness.js';

/** Runs the wide-window fixture on one selected case (1.1.1, 12.1.1, 13.3.1 are indices 1-3). */
async function runGroupCase(port: number, id: string, agent: string, flags: string[]): Promise<CaseResult> {
  const index = ['1.1.1', '12.1.1', '13.3.1'].indexOf(id) + 1;
  const pending = resultOf(server, agent, id, 30_000);
  await runNode(fixture('wide-window-deflate'), [`ws://127.0.0.1:${port}/runCase?case=${index}&agent=${agent}`, ...flags], 30_000);
  return pending;
}

/** A raw client: handshake (optionally offering permessage-deflate), then the test drives it. */
function connect(port: number, target: string, offerDeflate: boolean): Promise<{ socket: net.Socket; closeCode: Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const key = randomBytes(16).toString('base64');
    const socket = net.connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    let open = false;
    let settleClose: (code: number | null) => void = () => undefined;
    const closeCode = new Promise<number | null>((r) => (settleClose = r));
    socket.on('connect', () => {
      socket.write(
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n` +
          (offerDeflate ? 'Sec-WebSocket-Extensions: permessage-deflate\r\n' : '') +
          '\r\n',
      );
    });
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (!open) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.subarray(0, end).toString('latin1');
        const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
        if (!head.includes(`Sec-WebSocket-Accept: ${accept}`)) reject(new Error(head));
        if (offerDeflate !== /permessage-deflate/i.test(head)) reject(new Error(`unexpected extension answer: ${head}`));
        open = true;
        buf = buf.subarray(end + 4);
        resolve({ socket, closeCode });
      }
      // Find the server's close frame among what follows (server frames are unmasked).
      for (;;) {
        if (buf.length < 2) return;
        const len7 = (buf[1] as number) & 0x7f;
        const off = len7 === 126 ? 4 : len7 === 127 ? 10 : 2;
        if (buf.length < off) return;
        const len = len7 === 126 ? buf.readUInt16BE(2) : len7 === 127 ? Number(buf.readBigUInt64BE(2)) : len7;
        if (buf.length < off + len) return;
        if (((buf[0] as number) & 0x0f) === 8) settleClose(len >= 2 ? buf.readUInt16BE(off) : null);
        buf = buf.subarray(off + len);
      }
    });
    socket.on('close', () => settleClose(null));
    socket.on('error', () => undefined);
  });
}

/** A masked frame with RSV bits set (rsv: 4 = RSV1). */
function frameWithRsv(opcode: number, payload: Buffer, fin: boolean, rsv: number): Buffer {
  const f = clientFrame(opcode, payload, fin);
  f[0] = (f[0] as number) | (rsv << 4);
  return f;
}

/** `size` zero bytes, raw-deflated with the final sync-flush tail stripped (RFC 7692 §7.2.1). */
async function bomb(size: number): Promise<Buffer> {
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const zeros = Buffer.alloc(1 << 20);
  for (let i = 0; i < size / zeros.length; i++) deflate.write(zeros);
  await new Promise<void>((resolve) => deflate.flush(zlib.constants.Z_SYNC_FLUSH, () => resolve()));
  const all = Buffer.concat(out);
  return all.subarray(0, all.length - 4);
}

let server: FuzzingServer;

describe('hostile permessage-deflate input', () => {
  before(async () => {
    ({ server } = await startServer(['1.1.1', '12.1.1', '13.3.1']));
  });
  after(() => server.close());

  test('a decompression bomb (256 MiB of zeros in 256 kB) is refused with 1009 and memory stays bounded', async () => {
    const compressed = await bomb(256 * 1024 * 1024);
    assert.ok(compressed.length < 512 * 1024);
    const rss0 = process.memoryUsage().rss;
    const { socket, closeCode } = await connect(server.port, '/runCase?case=2&agent=bomb', true);
    const pending = resultOf(server, 'bomb', '12.1.1');
    socket.write(frameWithRsv(2, compressed, true, 4));
    assert.equal(await closeCode, 1009);
    const r = await pending;
    assert.equal(r.failedByMe, true);
    assert.equal(r.localCloseCode, 1009);
    assert.match(r.localCloseReason ?? '', /decompressed message longer than 67108864 bytes/);
    const grown = (process.memoryUsage().rss - rss0) / 1024 / 1024;
    process.stdout.write(`# bomb: server RSS grew by ${grown.toFixed(1)} MiB (limit 64 MiB of message data)\n`);
    assert.ok(grown < 160, `RSS grew by ${grown} MiB`);
  });

  test('an invalid deflate stream drops TCP without a close frame (as the original), and the report says why', async () => {
    const { socket, closeCode } = await connect(server.port, '/runCase?case=2&agent=garbage', true);
    const pending = resultOf(server, 'garbage', '12.1.1');
    // 0xff 0xff ...: block type 3 is reserved, no inflater accepts it.
    socket.write(frameWithRsv(2, Buffer.alloc(32, 0xff), true, 4));
    // autobahn-python's zlib.error escapes its handler and Twisted closes the socket: no close frame.
    assert.equal(await closeCode, null);
    const r = await pending;
    assert.deepEqual([r.behavior, r.behaviorClose, r.remoteCloseCode, r.localCloseCode], ['FAILED', 'FAILED', null, null]);
    assert.deepEqual([r.closedByMe, r.droppedByMe, r.failedByMe, r.wasClean], [false, true, true, false]);
    assert.equal(r.resultClose, 'The connection was failed by the wrong endpoint');
    assert.match(
      r.result,
      /^Dropped the connection without a close frame: the client's compressed binary message 1 could not be inflated: invalid compressed data \(zlib: invalid block type\)\.$/,
    );
    assert.match(r.wasNotCleanReason ?? '', /I dropped the TCP connection without a close frame: .*invalid block type/);
    assert.ok(!entries(r, 'TF').some((e) => e[2] === 8), 'no close frame sent');
  });

  // RFC 7692 §7.1.2.2: a client that received client_max_window_bits "MUST NOT use an LZ77 sliding
  // window longer than" that. 13.3.1 answers client_max_window_bits=9 (a 512-byte window).
  test('a client that compresses with a larger window than negotiated: FAILED/FAILED, no close code, the cause named', async () => {
    const wide = await runGroupCase(server.port, '13.3.1', 'wide-window', []);
    assert.deepEqual([wide.behavior, wide.behaviorClose, wide.remoteCloseCode, wide.localCloseCode, wide.closedByMe], ['FAILED', 'FAILED', null, null, false]);
    assert.match(
      wide.result,
      /^Dropped the connection without a close frame: the client's compressed text message \d+ could not be inflated: a back-reference reaches further back than the 512-byte window negotiated with client_max_window_bits=9 \(zlib: invalid distance too far back\)\.$/,
    );
    assert.match(wide.httpResponse, /client_max_window_bits=9/);
    // The same client honouring the window passes: the fixture is wrong in that one way only.
    const honest = await runGroupCase(server.port, '13.3.1', 'honest-window', ['--honour']);
    assert.deepEqual([honest.behavior, honest.behaviorClose, honest.remoteCloseCode], ['OK', 'OK', 1000]);
  });

  test('RSV1 on a continuation frame is a protocol error (1002)', async () => {
    const { socket, closeCode } = await connect(server.port, '/runCase?case=2&agent=rsv1cont', true);
    const pending = resultOf(server, 'rsv1cont', '12.1.1');
    const part = zlib.deflateRawSync(Buffer.from('hello hello hello'), { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    socket.write(Buffer.concat([frameWithRsv(2, part.subarray(0, 4), false, 4), frameWithRsv(0, part.subarray(4, part.length - 4), true, 4)]));
    assert.equal(await closeCode, 1002);
    const r = await pending;
    assert.equal(r.localCloseCode, 1002);
    assert.match(r.localCloseReason ?? '', /continuation data frame with compress bit set/);
  });

  test('RSV1 without a negotiated extension is a protocol error (1002)', async () => {
    const { socket, closeCode } = await connect(server.port, '/runCase?case=1&agent=rsv1plain', false);
    const pending = resultOf(server, 'rsv1plain', '1.1.1');
    socket.write(frameWithRsv(1, Buffer.from('x'), true, 4));
    assert.equal(await closeCode, 1002);
    assert.match((await pending).localCloseReason ?? '', /RSV = 4 and no extension negotiated/);
  });

  test('a malformed offer is refused with 400 before the case starts', async () => {
    const reply = await new Promise<string>((resolve) => {
      const s = net.connect(server.port, '127.0.0.1', () => {
        s.write(
          'GET /runCase?case=2&agent=badoffer HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=7\r\n\r\n',
        );
      });
      let out = '';
      s.on('data', (d: Buffer) => (out += d.toString('latin1')));
      s.on('close', () => resolve(out));
    });
    assert.match(reply, /^HTTP\/1\.1 400 /);
    assert.match(reply, /server_max_window_bits/);
    assert.equal(server.results.get('badoffer'), undefined);
  });

  test('the server still serves a well-behaved client afterwards', async () => {
    const pending = resultOf(server, 'after', '1.1.1');
    await runNode(REFERENCE_CLIENT, [`ws://127.0.0.1:${server.port}/runCase?case=1&agent=after`]);
    assert.equal((await pending).behavior, 'OK');
  });
});
