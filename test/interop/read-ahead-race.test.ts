/**
 * The server role's read-ahead race (interop/README.md, "The read-ahead race"): 3.4, 4.1.5 and 4.2.5
 * send a valid text message, then at once an invalid frame and a ping, one octet per write
 * (Autobahn's chopsize=1). Python's asyncio servers read ahead; whether they echo the message before
 * they fail the connection depends on how far they lag behind the octets, so the verdict is OK or
 * NON-STRICT from run to run, under the original fuzzing client too (measured there: both outcomes
 * against both servers; which one more often depends on the machine's load).
 *
 * Checked here: (1) the rule that makes wsgate's octets leave as the original's do: each chopped
 * piece a write (a TCP segment: TCP_NODELAY) of its own, no sooner than CHOP_PIECE_GAP_NS after the
 * previous one; (2) against the real servers (Debian's python3-websockets 10.4 and python3-aiohttp,
 * run by /usr/bin/python3), several runs of the three cases give only the original's verdicts: OK or
 * NON-STRICT, closing OK with the server's 1002, never anything else; (3) these cases never overlap
 * another (the original plays every case alone).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { CHOP_PIECE_GAP_NS, Outbox } from '../../src/core/outbox.js';
import { catalogueFor } from '../../src/catalogue/registry.js';
import { runCli, tempDir } from '../support/harness.js';
import { needs, PYTHON } from '../support/requirements.js';
import { reservedPort } from '../support/ports.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const RACES = ['3.4', '4.1.5', '4.2.5'];
const RUNS = 3;

/** A free port on 127.0.0.1 (the server under test is started on it right after). */
function freePort(): Promise<number> {
  return reservedPort();
}

test('chopped pieces: one write each, at least CHOP_PIECE_GAP_NS apart, every octet delivered in order', async () => {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const received: Buffer[] = [];
  const done = new Promise<void>((resolve) => {
    server.on('connection', (s) => {
      s.on('data', (d: Buffer) => received.push(d));
      s.on('end', () => resolve());
    });
  });
  const socket = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
  await once(socket, 'connect');
  socket.setNoDelay(true);
  const writes: Array<{ at: bigint; length: number }> = [];
  const write = socket.write.bind(socket) as (chunk: Buffer) => boolean;
  socket.write = ((chunk: Buffer) => {
    writes.push({ at: process.hrtime.bigint(), length: chunk.length });
    return write(chunk);
  }) as typeof socket.write;
  let logged = 0;
  const outbox = new Outbox(
    socket,
    {
      isClosed: () => false,
      isReading: () => false,
      wrote: () => {
        logged += 1;
      },
    },
    CHOP_PIECE_GAP_NS,
  );
  const frames = [Buffer.from('810d48656c6c6f2c20776f726c6421', 'hex'), Buffer.from('c10d48656c6c6f2c20776f726c6421', 'hex'), Buffer.from('8900', 'hex')];
  for (const f of frames) outbox.send([f], false, 1);
  const total = frames.reduce((n, f) => n + f.length, 0);
  while (logged < total) await new Promise((resolve) => setImmediate(resolve));
  socket.end();
  await done;
  server.close();
  assert.equal(writes.length, total, 'one socket write per octet');
  assert.ok(writes.every((w) => w.length === 1));
  // Timed here at the socket's write call, after the outbox's own clock reading: a write delayed
  // between the two (the process preempted) shortens the next gap as seen here, so the checks are
  // on the median gap and on the whole span (each piece waits for the previous one's time + gap).
  const gaps = writes.slice(1).map((w, i) => Number(w.at - (writes[i] as { at: bigint }).at));
  const sorted = [...gaps].sort((a, b) => a - b);
  assert.ok((sorted[sorted.length >> 1] as number) >= CHOP_PIECE_GAP_NS * 0.98, `median gap ${String(sorted[sorted.length >> 1])} ns`);
  const span = Number((writes[writes.length - 1] as { at: bigint }).at - (writes[0] as { at: bigint }).at);
  assert.ok(span >= 0.9 * (writes.length - 1) * CHOP_PIECE_GAP_NS, `${writes.length} writes over ${span} ns`);
  assert.deepEqual(Buffer.concat(received), Buffer.concat(frames));
});

test('3.4, 4.1.5 and 4.2.5 run alone (never beside another case), as every case does under the original', () => {
  for (const c of catalogueFor(false)) {
    if (RACES.includes(c.id)) assert.equal(c.schedule?.runsAlone, true, c.id);
  }
});

for (const [name, script] of [
  ['Python websockets 10.4', 'python-websockets.py'],
  ['Python aiohttp', 'python-aiohttp.py'],
] as const) {
  describe(`${name} (Debian, ${PYTHON}) as the server under test: the read-ahead race`, { skip: needs('python-clients') }, () => {
    let child: ChildProcess | null = null;
    let port = 0;
    before(async () => {
      port = await freePort();
      child = spawn(PYTHON, [path.join(ROOT, 'interop', 'servers', script), String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
    });
    after(() => {
      child?.kill('SIGTERM');
    });

    test(`${RUNS} runs of ${RACES.join(', ')}: OK or NON-STRICT (the original's two outcomes), close OK with 1002`, async () => {
      const seen: string[] = [];
      for (let run = 0; run < RUNS; run++) {
        const outdir = await tempDir();
        const res = await runCli(['run', '--server-url', `ws://127.0.0.1:${port}`, '--agent', 'srv', '--outdir', outdir, '--cases', ...RACES], 60_000);
        assert.equal(res.code, 0, res.stdout + res.stderr);
        const index = JSON.parse(await readFile(path.join(outdir, 'index.json'), 'utf8')) as Record<
          string,
          Record<string, { behavior: string; behaviorClose: string; remoteCloseCode: number | null; reportfile: string }>
        >;
        const cases = index.srv ?? {};
        assert.deepEqual(Object.keys(cases).sort(), RACES);
        for (const id of RACES) {
          const r = cases[id] as { behavior: string; behaviorClose: string; remoteCloseCode: number | null; reportfile: string };
          assert.ok(r.behavior === 'OK' || r.behavior === 'NON-STRICT', `${id}: ${r.behavior}`);
          assert.equal(r.behaviorClose, 'OK', id);
          // Failed once in 7 local .ci/runs (4.2.5 under load, remoteCloseCode null): how it ended, so a failure says why.
          if (r.remoteCloseCode !== 1002) {
            const report = JSON.parse(await readFile(path.join(outdir, r.reportfile), 'utf8')) as Record<string, unknown>;
            const ending = ['wasClean', 'wasNotCleanReason', 'droppedByMe', 'localCloseCode', 'wasServerConnectionDropTimeout'].map(
              (k) => `${k}=${JSON.stringify(report[k])}`,
            );
            assert.fail(`${id}: remoteCloseCode ${r.remoteCloseCode}, not 1002 (${ending.join(', ')})`);
          }
          seen.push(`${id} ${r.behavior}`);
        }
      }
      assert.equal(seen.length, RUNS * RACES.length);
    });
  });
}
