/**
 * Autobahn's endpoints and bad input over raw TCP: every error is a clear HTTP answer, nothing is
 * recorded for a refused request, and the server keeps serving afterwards.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import type { FuzzingServer } from '../../src/server/fuzzing-server.js';
import { encodeFrame } from '../support/frame-encoder.js';
import { REFERENCE_CLIENT, SPEC_CASES, resultOf, runNode, startServer } from '../support/harness.js';

/** Sends raw bytes, returns everything the server sent until it closed the connection. */
function rawExchange(port: number, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.setTimeout(8000, () => {
      socket.destroy();
      reject(new Error('server did not close'));
    });
  });
}

function upgrade(target: string, host = '127.0.0.1:1'): string {
  return `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;
}

/** The text messages a WebSocket endpoint sends before closing. */
function messages(url: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const out: string[] = [];
    const ws = new WebSocket(url);
    ws.on('message', (d: Buffer) => out.push(d.toString()));
    ws.on('close', () => resolve(out));
    ws.on('error', reject);
  });
}

describe('endpoints and bad input', () => {
  let server: FuzzingServer;
  let base: string;
  let outdir: string;
  before(async () => {
    ({ server, base, outdir } = await startServer(SPEC_CASES));
  });
  after(() => server.close());

  test('/getCaseCount sends the number of selected cases', async () => {
    assert.deepEqual(await messages(`${base}/getCaseCount`), ['2']);
  });

  test('/getCaseInfo sends id and description without markup', async () => {
    const [text] = await messages(`${base}/getCaseInfo?case=2`);
    assert.deepEqual(JSON.parse(text ?? ''), { id: '6.12.7', description: 'A text message whose payload is not valid UTF-8, in one frame.' });
    const [byTuple] = await messages(`${base}/getCaseInfo?casetuple=6.9.2`);
    assert.equal((JSON.parse(byTuple ?? '') as { id: string }).id, '6.9.2');
  });

  test('/getCaseStatus answers MISSING after its bounded wait, then the behavior once run', async () => {
    const t0 = Date.now();
    assert.deepEqual(await messages(`${base}/getCaseStatus?case=1&agent=status-agent`), ['{"behavior":"MISSING"}']);
    assert.ok(Date.now() - t0 < 20_000);
    const waiting = messages(`${base}/getCaseStatus?case=1&agent=status-agent2`);
    const second = messages(`${base}/getCaseStatus?case=1&agent=status-agent2`);
    await runNode(REFERENCE_CLIENT, [`${base}/runCase?case=1&agent=status-agent2`]);
    // Both waiters get the answer (Autobahn kept only the last one).
    assert.deepEqual(await waiting, ['{"behavior":"OK"}']);
    assert.deepEqual(await second, ['{"behavior":"OK"}']);
  });

  test('garbage instead of an upgrade request gets 400, and the server keeps serving', async () => {
    const reply = await rawExchange(server.port, Buffer.from('\x16\x03\x01\x02\x00garbage\r\n\r\n', 'latin1'));
    assert.match(reply, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.deepEqual(await messages(`${base}/getCaseCount`), ['2']);
  });

  test('a plain HTTP request for none of its pages gets 426 Upgrade Required with a short body', async () => {
    const reply = await rawExchange(server.port, 'GET /runCase?case=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    assert.match(reply, /^HTTP\/1\.1 426 Upgrade Required\r\n/);
    assert.match(reply, /\r\nUpgrade: websocket\r\n/i);
    const body = reply.slice(reply.indexOf('\r\n\r\n') + 4);
    assert.ok(body.length > 0 && body.length < 300);
  });

  test('an unknown case index gets 404 naming the range, and records nothing', async () => {
    const reply = await rawExchange(server.port, upgrade('/runCase?case=99&agent=bad-index'));
    assert.match(reply, /^HTTP\/1\.1 404 Not Found\r\n/);
    assert.match(reply, /case 99 not found: 2 cases are selected \(1\.\.2\)/);
    assert.equal(server.results.has('bad-index'), false);
  });

  test('runCase without an agent is refused and records nothing', async () => {
    const reply = await rawExchange(server.port, upgrade('/runCase?case=1'));
    assert.match(reply, /^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*runCase needs an agent parameter/);
    assert.equal(
      [...server.results.keys()].some((a) => a === '' || a === 'undefined'),
      false,
    );
  });

  test('an unknown path gets 404', async () => {
    const reply = await rawExchange(server.port, upgrade('/nope'));
    assert.match(reply, /^HTTP\/1\.1 404 Not Found\r\n[\s\S]*unknown path "\/nope"/);
  });

  test('a Host header naming another port is accepted (port mapping)', async () => {
    const reply = await rawExchange(server.port, upgrade('/getCaseCount', 'localhost:53701'));
    assert.match(reply, /^HTTP\/1\.1 101 Switching Protocols\r\n/);
  });

  test('a 10 kB agent name is refused; hostile and non-ASCII names stay inside the report directory', async () => {
    const outside = [path.resolve(outdir, '..', 'x'), path.resolve(outdir, '..', '..', 'x')].map((t) => [t, existsSync(t)] as const);
    const long = 'a'.repeat(10_000);
    const reply = await rawExchange(server.port, upgrade(`/runCase?case=1&agent=${long}`));
    assert.match(reply, /^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*agent name longer than 256 characters/);
    for (const agent of ['../../x', 'агент ✓', '..', '/etc/passwd']) {
      const pending = resultOf(server, agent, '6.9.2');
      await runNode(REFERENCE_CLIENT, [`${base}/runCase?case=1&agent=${encodeURIComponent(agent)}`]);
      assert.equal((await pending).behavior, 'OK');
    }
    await messages(`${base}/updateReports?agent=x`);
    const files = await readdir(outdir);
    assert.ok(files.includes('index.json') && files.includes('index.html'));
    for (const f of files) {
      assert.ok(!f.startsWith('.') && !f.includes('/') && !f.includes('..'), f);
    }
    const perCase = files.filter((f) => f.endsWith('_case_6_9_2.json'));
    // Five agents ran 6.9.2 (status-agent2 and the four above): five distinct files.
    assert.equal(new Set(perCase).size, perCase.length);
    assert.ok(perCase.length >= 5);
    // "../../x" and "../x" resolved against the report directory: nothing was created there.
    for (const [target, existed] of outside) assert.equal(existsSync(target), existed, target);
  });
});

describe('/updateReports answers once the reports are written', () => {
  let server: FuzzingServer;
  let base: string;
  let outdir: string;

  before(async () => {
    ({ server, base, outdir } = await startServer(SPEC_CASES));
    const pending = resultOf(server, 'main', '6.9.2');
    await runNode(REFERENCE_CLIENT, [`${base}/runCase?case=1&agent=main`]);
    await pending;
  });

  after(async () => {
    await server.close();
  });

  test('a client that sends its close right behind its request, without waiting for the 101, gets the 101 once the files are there, then a close', async () => {
    const closeFrame = encodeFrame({ opcode: 0x8, payload: Buffer.from([0x03, 0xe8]), mask: Buffer.from([1, 2, 3, 4]) });
    const reply = Buffer.from(
      await rawExchange(server.port, Buffer.concat([Buffer.from(upgrade('/updateReports?agent=main'), 'latin1'), closeFrame])),
      'latin1',
    );
    assert.match(reply.toString('latin1'), /^HTTP\/1\.1 101 Switching Protocols\r\n/);
    const frames = reply.subarray(reply.indexOf('\r\n\r\n') + 4);
    // The server's close (1000): the pipelined frame waited, unread, for the answer.
    assert.equal(frames[0], 0x88);
    assert.ok(existsSync(path.join(outdir, 'index.json')));
  });

  test('reports that cannot be written: 500 with the reason in one line, no 101; the next request writes them', async () => {
    await rm(outdir, { recursive: true, force: true });
    // A file where the report directory was: nothing can be written into it.
    await writeFile(outdir, 'not a directory');
    const reply = await rawExchange(server.port, upgrade('/updateReports?agent=main'));
    assert.match(reply, /^HTTP\/1\.1 500 [^\r]*\r\n[\s\S]*\r\n\r\nwriting the reports failed: [^\n]+\n?$/);
    assert.doesNotMatch(reply, /101 Switching/);
    await rm(outdir);
    const again = await rawExchange(server.port, upgrade('/updateReports?agent=main'));
    assert.match(again, /^HTTP\/1\.1 101 Switching Protocols\r\n/);
    assert.ok(existsSync(path.join(outdir, 'index.json')));
  });
});
