/**
 * How far apart a server's frames reach a client: `npm run build && node dist/bench/pacing.js
 * [--url ws://HOST:PORT] [--case 3.3] [--runs 30]`. Without --url it starts `wsgate serve` as a child
 * process on a free port (never in this process: the client must not share the server's event loop);
 * with one it measures any Autobahn-compatible fuzzing server (the original too).
 *
 * A raw TCP client asks for the case (/runCase?casetuple=ID), notes the time every socket read
 * arrives, cuts the stream into the 101 response and frames, and drops the connection once the
 * case's first three frames are in (it never answers). Its event loop has nothing else to do, so a
 * gap of a few microseconds between two server writes still shows as two reads. Printed per run:
 * the delay from the 101 to each frame and how many reads the frames took; then the medians.
 *
 * Why it matters: a client that reads ahead fails the connection on 3.3's second frame before its
 * application echoes the first message (NON-STRICT) only when that frame is already there.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { takeServerFrame } from '../test/fixtures/clients/raw-peer.js';

interface Run {
  /** Microseconds from the read that completed the 101 head to the read that completed each frame. */
  frameDelays: number[];
  /** Socket reads that brought the head and the first three frames. */
  reads: number;
  /** Whether the head and the first frame arrived in one read. */
  headWithFirstFrame: boolean;
}

const FRAMES = 3;

/** One connection: the arrival times of the 101 and the first three frames. */
function measure(base: string, id: string): Promise<Run> {
  const u = new URL(`${base}/runCase?casetuple=${id}&agent=pacing`);
  const key = randomBytes(16).toString('base64');
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname);
    socket.setNoDelay(true);
    let buf: Buffer = Buffer.alloc(0);
    let headAt: bigint | null = null;
    let headRead = -1;
    let reads = 0;
    const frameAt: bigint[] = [];
    const frameRead: number[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${id}: fewer than ${FRAMES} frames within 5 s`));
    }, 5000);
    socket.on('connect', () => {
      socket.write(
        `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    socket.on('data', (chunk: Buffer) => {
      const now = process.hrtime.bigint();
      reads += 1;
      buf = Buffer.concat([buf, chunk]);
      if (headAt === null) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
        if (!buf.subarray(0, end).toString('latin1').includes(accept)) {
          socket.destroy();
          reject(new Error(`${id}: no 101 with the right accept key`));
          return;
        }
        headAt = now;
        headRead = reads;
        buf = buf.subarray(end + 4);
      }
      for (let next = takeServerFrame(buf); next !== null && frameAt.length < FRAMES; next = takeServerFrame(buf)) {
        buf = next.rest;
        frameAt.push(now);
        frameRead.push(reads);
      }
      if (frameAt.length < FRAMES) return;
      clearTimeout(timer);
      socket.destroy();
      const start = headAt;
      resolve({
        frameDelays: frameAt.map((t) => Number(t - start) / 1000),
        reads: reads - headRead + 1,
        headWithFirstFrame: frameRead[0] === headRead,
      });
    });
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    case: { type: 'string', default: '3.3' },
    runs: { type: 'string', default: '30' },
  },
});
const id = values.case;
const runs = Number(values.runs);
let base = values.url?.replace(/\/+$/, '');
let stop: (() => void) | null = null;
if (base === undefined) {
  const cli = fileURLToPath(new URL('../src/cli.js', import.meta.url));
  const outdir = await mkdtemp(path.join(tmpdir(), 'wsgate-pacing-'));
  const child = spawn(process.execPath, [cli, 'serve', '--url', 'ws://127.0.0.1:0', '--cases', id, '--outdir', outdir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  stop = () => child.kill('SIGTERM');
  // The first line names the port: "wsgate 0.1.0 Fuzzing Server (Port 45909)".
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /\(Port (\d+)\)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.on('exit', () => reject(new Error(`wsgate serve exited: ${out}`)));
  });
  base = `ws://127.0.0.1:${port}`;
}

const results: Run[] = [];
for (let i = 0; i < runs; i++) {
  results.push(await measure(base, id));
  // Let the server's kill timer end the case before the next connection.
  await new Promise((r) => setTimeout(r, 50));
}
stop?.();

const us = (n: number): string => `${n.toFixed(0)} µs`;
for (const [i, r] of results.entries()) {
  process.stdout.write(
    `run ${String(i + 1).padStart(2)}: frames at ${r.frameDelays.map(us).join(', ')} after the 101; ${r.reads} reads; 101 and frame 1 ${r.headWithFirstFrame ? 'together' : 'apart'}\n`,
  );
}
const col = (k: number): number[] => results.map((r) => r.frameDelays[k] as number);
process.stdout.write(
  `\n${id} on ${values.url ?? 'wsgate serve'}, ${runs} runs: median 101→frame 1 ${us(median(col(0)))}, frame 1→2 ${us(median(results.map((r) => (r.frameDelays[1] as number) - (r.frameDelays[0] as number))))}, ` +
    `frame 2→3 ${us(median(results.map((r) => (r.frameDelays[2] as number) - (r.frameDelays[1] as number))))}; ` +
    `frames 1 and 2 in one read in ${results.filter((r) => r.frameDelays[0] === r.frameDelays[1]).length} of ${runs}; ` +
    `101 with frame 1 in ${results.filter((r) => r.headWithFirstFrame).length} of ${runs}\n`,
);
