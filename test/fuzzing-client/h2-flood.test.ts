/**
 * The HTTP/2 floods of 17.5 (fuzzing-client/attacks/h2-flood.ts) against a scripted server on
 * loopback, for what they measure at the server's end: a GOAWAY written just before a TCP reset is
 * read (with its last stream, the streams taken), a reset without one is judged on what the server
 * read rather than what wsgate wrote, and a server that stops reading the ping flood without ending
 * the connection is judged NON-STRICT within the grace, not at its own idle timeout.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import type { H2Flood, H2FloodAttack, H2FloodFacts } from '../../src/cases/attack-types.js';
import { judgeH2Flood } from '../../src/robustness/s17-5-h2.js';
import { runH2Flood } from '../../src/fuzzing-client/attacks/h2-flood.js';

/** The client preface and wsgate's empty SETTINGS: what the server reads ahead of the flood. */
const AHEAD = 24 + 9;
const GRACE_MS = 500;

/** What the scripted server does once it has read `after` bytes of the flood: a GOAWAY (its last stream) and a reset, a reset, or nothing more. */
type Ending = { after: number; goaway?: number; next: 'reset' | 'hold' };

/**
 * The scripted server, a process of its own (as a real one is: wsgate's writes do not hold it up):
 * SETTINGS with SETTINGS_ENABLE_CONNECT_PROTOCOL, then it reads until `after`, stops reading (the
 * flood waits unread in the kernel, so closing now is a reset, as HAProxy and nghttpx close) and
 * prints how many bytes its handlers were given.
 */
const SERVER = `
const net = require('node:net');
const fs = require('node:fs');
const ending = JSON.parse(process.argv[1]);
// Bytes of the connection waiting unread in this machine's kernel (Linux: rx_queue in /proc/net/tcp), or -1.
function unread(s) {
  const hex = (n) => ':' + n.toString(16).toUpperCase().padStart(4, '0');
  for (const line of fs.readFileSync('/proc/net/tcp', 'utf8').split('\\n').slice(1)) {
    const f = line.split(' ').filter((x) => x !== '');
    if (f[1] !== undefined && f[1].endsWith(hex(s.localPort)) && f[2].endsWith(hex(s.remotePort))) return parseInt(f[4].split(':')[1], 16);
  }
  return -1;
}
// The reset once wsgate has written well past what this process read (64 KiB wait in the kernel, which holds
// about 128 KiB for a socket not read): on a busy machine wsgate may take long to write that much, and a
// reset before it leaves nothing to tell apart.
function resetOnceAhead(s, until) {
  if (unread(s) >= 64 * 1024 || Date.now() > until) return s.resetAndDestroy();
  setTimeout(() => resetOnceAhead(s, until), 20);
}
const server = net.createServer((s) => {
  s.on('error', () => undefined);
  s.write(Buffer.from([0, 0, 6, 4, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 1]));
  let read = 0;
  s.on('data', (chunk) => {
    read += chunk.length;
    if (read < ${AHEAD} + ending.after || s.isPaused()) return;
    s.pause();
    console.log('read ' + read);
    if (ending.next === 'hold') return;
    if (ending.goaway === undefined) return resetOnceAhead(s, Date.now() + 30000);
    const goaway = Buffer.from([0, 0, 8, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
    goaway.writeUInt32BE(ending.goaway, 9);
    // The reset a few ms after the GOAWAY has left (a reset discards what the server's kernel has not sent yet).
    s.write(goaway, () => setTimeout(() => s.resetAndDestroy(), 5));
  });
});
server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));
`;

/** The scripted server started, its port read; `read` is what it printed when it stopped reading. */
async function scripted(ending: Ending): Promise<{ port: number; read: () => number; close: () => Promise<void> }> {
  const child = spawn(process.execPath, ['-e', SERVER, JSON.stringify(ending)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', () => reject(new Error(`the scripted server exited: ${out}`)));
    child.stdout.on('data', () => {
      const m = /port (\d+)/.exec(out);
      if (m !== null) resolve(Number(m[1]));
    });
  });
  const close = async (): Promise<void> => {
    child.kill();
    await exited;
  };
  return { port, read: () => Number(/read (\d+)/.exec(out)?.[1] ?? Number.NaN), close };
}

/** A flood played against the scripted server; the facts, the verdict, and how long it took. */
async function flood(kind: H2Flood, units: number, batch: number, ending: Ending): Promise<{ facts: H2FloodFacts; ms: number; serverRead: number }> {
  const server = await scripted(ending);
  try {
    const attack: H2FloodAttack = { kind: 'h2-flood', flood: kind, units, batch, graceMs: GRACE_MS, judge: (f) => judgeH2Flood(f, GRACE_MS) };
    const t0 = performance.now();
    const facts = await runH2Flood({ host: '127.0.0.1', port: server.port, resource: '/', http2: true }, attack, GRACE_MS, undefined);
    return { facts, ms: performance.now() - t0, serverRead: server.read() };
  } finally {
    await server.close();
  }
}

/** A figure of the verdict by name. */
function figure(facts: H2FloodFacts, name: string): number | undefined {
  return judgeH2Flood(facts, GRACE_MS).figures?.find((f) => f.name === name)?.value;
}

test('a GOAWAY written just before a TCP reset is read: Rapid Reset is judged by its last stream, not by what wsgate wrote', async () => {
  const { facts } = await flood('rapid-reset', 10_000, 100, { after: 40_000, goaway: 2_067, next: 'reset' });
  assert.equal(facts.refused, null);
  assert.deepEqual(facts.end?.goaway, { code: 2, lastStreamId: 2_067 }, JSON.stringify(facts));
  const verdict = judgeH2Flood(facts, GRACE_MS);
  assert.equal(verdict.behavior, 'OK');
  assert.match(
    verdict.result,
    /^The server ended the connection with GOAWAY INTERNAL_ERROR \(0x2\) \(last stream 2,067\) [\d,]+ ms into the flood, having taken 1,034 of 10,000 reset streams \(by its GOAWAY's last stream id;/,
  );
  assert.equal(figure(facts, 'units-taken'), 1_034);
  // Timed before the kernel's table was read (tens of ms), from the flood's first write.
  assert.ok((figure(facts, 'ended-ms') ?? Number.NaN) < 2_000);
});

test("a TCP reset without GOAWAY: the units taken are what the server read at wsgate's last look, not what wsgate had written", async () => {
  const { facts, serverRead } = await flood('ping', 2_000_000, 2_000, { after: 40_000, next: 'reset' });
  assert.equal(facts.end?.goaway, null, JSON.stringify(facts));
  assert.notEqual(facts.ending, 'open');
  const taken = figure(facts, 'units-taken') ?? Number.NaN;
  assert.equal(taken, facts.unitsRead);
  // The server's process read its handlers' bytes and what Node buffered past its pause (a read or two of 64 KiB), not the
  // megabytes wsgate wrote in the 300 ms it waited.
  assert.ok(taken <= Math.ceil((serverRead + 128 * 1024) / facts.unitBytes), `${taken} taken, the server read ${serverRead} bytes`);
  assert.ok(taken < (facts.end?.unitsWritten ?? 0), `${taken} taken of ${facts.end?.unitsWritten} written`);
  assert.match(judgeH2Flood(facts, GRACE_MS).result, /\(read by its process at wsgate's last look before its end: at least that many/);
});

// Ended by the grace and the looks: the server has no idle timeout and the flood no case limit, so
// without them it would run until the test's own timeout (how long it takes is the bench's).
test('a server that stops reading the ping flood and holds the connection is NON-STRICT within the grace', { timeout: 120_000 }, async () => {
  const { facts } = await flood('ping', 2_000_000, 2_000, { after: 40_000, next: 'hold' });
  assert.equal(facts.end, null, JSON.stringify(facts));
  assert.equal(facts.ending, 'open');
  assert.ok(facts.unitsWritten < facts.units && facts.unitsRead !== null && facts.unitsRead < facts.unitsWritten, JSON.stringify(facts));
  const verdict = judgeH2Flood(facts, GRACE_MS);
  assert.equal(verdict.behavior, 'NON-STRICT');
  assert.match(
    verdict.result,
    /^The server stopped reading after [\d,]+ of [\d,]+ PINGs written \(read by its process, then nothing more for 500 ms\), without ending the connection/,
  );
  assert.equal(figure(facts, 'units-taken'), facts.unitsRead);
});

test('judgeH2Flood: a flood stopped short with the server elsewhere is NON-STRICT on what was written; taken whole, FAILED', () => {
  const base: H2FloodFacts = {
    flood: 'ping',
    units: 2_000_000,
    refused: null,
    unitsWritten: 300_000,
    headBytes: 0,
    unitBytes: 17,
    unitsRead: null,
    end: null,
    lastStreamId: 0,
    resetsIn: 0,
    responsesIn: 0,
    ending: 'open',
    writingMs: 900,
    answers: null,
  };
  const stopped = judgeH2Flood(base, 2_000);
  assert.equal(stopped.behavior, 'NON-STRICT');
  assert.match(
    stopped.result,
    /^The server stopped reading after 300,000 of 300,000 PINGs written \(at most: written by wsgate, whose write the socket did not take for 2,000 ms/,
  );
  const whole = judgeH2Flood({ ...base, unitsWritten: 2_000_000 }, 2_000);
  assert.equal(whole.behavior, 'FAILED');
  assert.match(whole.result, /^The server took all 2,000,000 PINGs \(written by wsgate/);
});

test('judgeH2Flood, requests: the answers held beyond the kernel, in bytes at their size, decide; at the budget OK, a byte over FAILED', () => {
  // 100,000 answers of 32 bytes in the kernel; the server read 100,000 + held requests.
  const facts = (held: number): H2FloodFacts => ({
    flood: 'requests',
    units: 500_000,
    refused: null,
    unitsWritten: 200_000,
    headBytes: 0,
    unitBytes: 75,
    unitsRead: 100_000 + held,
    end: null,
    lastStreamId: 399_999,
    resetsIn: 0,
    responsesIn: 0,
    ending: 'open',
    writingMs: 900,
    answers: { kernelBytes: 3_200_000, inKernel: 100_000, read: 200_000 },
  });
  const held = (f: H2FloodFacts): number | undefined => judgeH2Flood(f).figures?.find((x) => x.name === 'answer-bytes-held')?.value;
  const atBudget = facts((1024 * 1024) / 32);
  assert.equal(held(atBudget), 1024 * 1024);
  assert.equal(judgeH2Flood(atBudget).behavior, 'OK');
  assert.match(
    judgeH2Flood(atBudget).result,
    /^The server read [\d,]+ of 200,000 requests written, then stopped reading while their answers could not leave: 100,000 of their answers/,
  );
  const over = facts((1024 * 1024) / 32 + 1);
  assert.equal(judgeH2Flood(over).behavior, 'FAILED');
  assert.match(
    judgeH2Flood(over).result,
    /queueing them: 100,000 of their answers were in the kernel's buffers \(3,200,000 bytes\), 32,769 held by the server itself, about 1,048,608 bytes/,
  );
  // The last look older than the server's last read: it read at least the requests it answered.
  const stale = { ...facts(0), unitsRead: 90_000 };
  assert.equal(judgeH2Flood(stale).figures?.find((x) => x.name === 'units-taken')?.value, 100_000);
  assert.equal(held(stale), 0);
  // The server ended the connection first: judged as every flood, on what it took before.
  const ended = { ...facts(0), answers: null, end: { ms: 30, unitsWritten: 4000, unitsRead: 0, goaway: null }, ending: 'reset' as const };
  assert.equal(judgeH2Flood(ended).behavior, 'OK');
});
