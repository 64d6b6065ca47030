/**
 * A fuzz campaign over the protocol layer, longer than the property tests (not run in CI):
 *
 *   npm run fuzz -- --seconds 300 [--seed N] [--out DIR]
 *
 * Mutational: legal streams (frames, UTF-8 text, compressed messages, upgrade requests) are built,
 * then bit-flipped, cut, spliced and given hostile length fields, and fed in random chunks. Each
 * input is checked with test/support/codec-oracle.ts (the frame reader against the independent RFC
 * model, the UTF-8 validator against TextDecoder, the deflate decoder within its limit) and the
 * handshake parsers must answer without an internal exception. A "crash" is any thrown error or
 * broken invariant; with --out each one's input is saved there as hex. Exit status 1 if any.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parseDeflateOffers } from '../src/protocol/deflate/params.js';
import type { FrameReaderOptions } from '../src/protocol/frame-reader.js';
import { closePayload } from '../src/protocol/frame-writer.js';
import { encodeFrame } from '../test/support/frame-encoder.js';
import { parseScriptArgs } from './options.js';
import { parseExtensionsHeader, parseUpgradeRequest } from '../src/protocol/handshake.js';
import { checkFrameStream, checkInflate, checkUtf8Splits, deflateAccept, lengthFieldHeader, type Problems } from '../test/support/codec-oracle.js';

const args = parseScriptArgs(
  'npm run fuzz --',
  'A mutational fuzz campaign over the protocol layer (frames, UTF-8, permessage-deflate, the upgrade parsers), each input checked against an independent model. Exit status 1 if any input broke an invariant.',
  {
    seconds: { type: 'number', default: 60, describe: 'how long to fuzz' },
    seed: { type: 'number', describe: 'the seed of the campaign, to replay one (default: from the clock)' },
    out: { type: 'string', default: '', describe: 'a directory to save each crashing input in, as hex' },
  },
);
const seconds = args.seconds;
const seed = args.seed ?? Date.now() % 0x7fffffff;
const outDir = args.out;
if (!(seconds > 0) || !Number.isInteger(seed)) {
  process.stderr.write('npm run fuzz --: --seconds must be above 0 and --seed an integer (see --help)\n');
  process.exit(2);
}

// mulberry32: small, fast, seedable; a campaign is reproducible from its seed.
let state = seed >>> 0;
function rand(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (n: number): number => Math.floor(rand() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)] as T;
const bytes = (n: number): Buffer => {
  const b = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) b[i] = int(256);
  return b;
};

const INTERESTING = [0x00, 0x01, 0x7d, 0x7e, 0x7f, 0x80, 0x81, 0x88, 0x89, 0x8a, 0xc0, 0xed, 0xef, 0xf4, 0xf8, 0xfe, 0xff];
const LENGTHS = [0n, 1n, 125n, 126n, 127n, 1000n, 65535n, 65536n, 2n ** 31n, 2n ** 32n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 63n - 1n, 2n ** 63n, 2n ** 64n - 1n];

/** 0-6 random edits: flips, interesting bytes, inserts, deletes, truncation, duplicated slices, 64-bit lengths. */
function mutate(input: Buffer): Buffer {
  let b = Buffer.from(input);
  const edits = int(7);
  for (let e = 0; e < edits; e++) {
    const at = b.length === 0 ? 0 : int(b.length);
    switch (int(7)) {
      case 0:
        if (b.length > 0) b[at] = b[at]! ^ (1 << int(8));
        break;
      case 1:
        if (b.length > 0) b[at] = pick(INTERESTING);
        break;
      case 2:
        b = Buffer.concat([b.subarray(0, at), bytes(1 + int(4)), b.subarray(at)]);
        break;
      case 3:
        b = Buffer.concat([b.subarray(0, at), b.subarray(at + 1 + int(4))]);
        break;
      case 4:
        b = b.subarray(0, at);
        break;
      case 5: {
        const len = int(Math.min(64, b.length - at) + 1);
        b = Buffer.concat([b.subarray(0, at), b.subarray(at, at + len), b.subarray(at)]);
        break;
      }
      default: {
        // A 64-bit length field with a hostile value at a random place.
        const field = Buffer.alloc(9);
        field[0] = 0x80 | 127;
        field.writeBigUInt64BE(pick(LENGTHS), 1);
        b = Buffer.concat([b.subarray(0, at), field, b.subarray(at)]);
      }
    }
  }
  return b;
}

/** Cut points: none, a few, or every byte. */
function chunks(data: Buffer): Buffer[] {
  const r = rand();
  if (r < 0.05) return Array.from(data, (x) => Buffer.from([x]));
  const n = r < 0.3 ? 0 : 1 + int(10);
  const cuts = [...new Set(Array.from({ length: n }, () => int(data.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let prev = 0;
  for (const c of cuts) {
    out.push(data.subarray(prev, c));
    prev = c;
  }
  out.push(data.subarray(prev));
  return out;
}

function payload(): Buffer {
  return rand() < 0.1 ? Buffer.alloc(pick([126, 65535, 65536, 70000]), int(256)) : bytes(int(140));
}

/** A header with any first byte and a length from LENGTHS in a 7-, 16- or 64-bit field (minimal or not), then a few bytes. */
function craftedHeader(mask: Buffer): Buffer {
  const length = pick(LENGTHS);
  const field = pick([7, 16, 64] as const);
  const masked = rand() < 0.9;
  const b0 = rand() < 0.8 ? pick([0x81, 0x82, 0x01, 0x02, 0x88, 0x89, 0x8a, 0xc1]) : int(256);
  const head = lengthFieldHeader(b0, masked, length, field);
  return Buffer.concat([head, masked ? mask : Buffer.alloc(0), bytes(int(20))]);
}

/** A legal client stream: messages in fragments with pings between, then a close. */
function legalFrames(deflate: boolean): Buffer {
  const mask = bytes(4);
  const wire: Buffer[] = [];
  for (let m = int(4); m > 0; m--) {
    // Between messages a crafted header is read with a clean state: its length field is what gets tested.
    if (rand() < 0.3) wire.push(craftedHeader(mask));
    const opcode = 1 + int(2);
    const frags = 1 + int(4);
    for (let i = 0; i < frags; i++) {
      wire.push(encodeFrame({ opcode: i === 0 ? opcode : 0, fin: i === frags - 1, rsv: i === 0 && deflate && rand() < 0.5 ? 4 : 0, payload: payload(), mask }));
      if (rand() < 0.3) wire.push(encodeFrame({ opcode: pick([9, 10]), payload: bytes(int(126)), mask }));
    }
  }
  if (rand() < 0.8)
    wire.push(
      encodeFrame({ opcode: 8, payload: rand() < 0.5 ? Buffer.alloc(0) : closePayload(pick([1000, 1002, 3000, 4999, 999, 1005]), bytes(int(30))), mask }),
    );
  return Buffer.concat(wire);
}

function frameOptions(): FrameReaderOptions {
  return { requireMask: rand() < 0.8, compressionNegotiated: rand() < 0.5, maxFramePayload: pick([0, 1, 125, 1000, 65535, 65536, 64 * 1024 * 1024]) };
}

function utf8Text(): Buffer {
  const cps: number[] = [];
  for (let n = int(40); n > 0; n--) {
    const r = rand();
    cps.push(r < 0.4 ? int(0x80) : r < 0.6 ? 0x80 + int(0x780) : r < 0.8 ? 0x800 + int(0xd000) : 0x10000 + int(0x100000));
  }
  let s = '';
  for (const cp of cps) s += String.fromCodePoint(cp >= 0xd800 && cp < 0xe000 ? 0x41 : cp);
  return Buffer.from(s, 'utf8');
}

function compressed(text: Buffer, windowBits: number): Buffer {
  const out = zlib.deflateRawSync(text, { windowBits, level: 1 + int(9), finishFlush: zlib.constants.Z_SYNC_FLUSH });
  return out.subarray(0, out.length - 4);
}

const REQUEST =
  'GET /runCase?case=1&agent=fuzz HTTP/1.1\r\nHost: 127.0.0.1:9001\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n' +
  'Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits, permessage-deflate; server_max_window_bits=10\r\n\r\n';

/** Each target builds one input and returns it with the problems found. */
const targets: Record<string, () => { input: Buffer; problems: Problems }> = {
  'frame reader vs RFC model': () => {
    const o = frameOptions();
    const input = rand() < 0.2 ? bytes(int(600)) : mutate(legalFrames(o.compressionNegotiated));
    return { input, problems: checkFrameStream(input, chunks(input), o) };
  },
  'UTF-8 validator vs TextDecoder': () => {
    const input = rand() < 0.1 ? bytes(int(80)) : rand() < 0.3 ? utf8Text() : mutate(utf8Text());
    const problems: Problems = [];
    const cuts = Array.from({ length: int(5) }, () => int(input.length + 1));
    problems.push(...checkUtf8Splits(input, cuts));
    if (input.length < 64) for (let i = 0; i <= input.length && problems.length === 0; i++) problems.push(...checkUtf8Splits(input, [i]));
    return { input, problems };
  },
  'deflate decoder within its limit': () => {
    const window = 9 + int(7);
    // A bomb (zeros compress about 1000:1), or text with a repetitive prefix, compressed then mutated.
    const text = rand() < 0.05 ? Buffer.alloc(int(4 * 1024 * 1024)) : Buffer.concat([Buffer.alloc(int(200), 0x61), utf8Text(), utf8Text()]);
    const sent = mutate(compressed(text, rand() < 0.8 ? window : 15));
    const input = rand() < 0.15 ? bytes(int(400)) : sent;
    const limit = pick([1, 100, 1000, 65536, 1024 * 1024]);
    const messages = rand() < 0.5 ? [chunks(input)] : [chunks(input), chunks(mutate(input))];
    return { input, problems: checkInflate(messages, deflateAccept(window, rand() < 0.5), limit).problems };
  },
  'handshake and extension parsers': () => {
    const input = rand() < 0.1 ? bytes(int(400)) : mutate(Buffer.from(REQUEST, 'latin1'));
    const problems: Problems = [];
    try {
      const v = parseUpgradeRequest(input);
      if (!v.ok && v.reason.startsWith('could not parse HTTP request')) problems.push(`internal exception: ${v.reason}`);
      if (!v.ok && (v.status < 400 || v.status > 599)) problems.push(`status ${v.status}`);
      const ext = v.ok ? (v.request.headers.get('sec-websocket-extensions') ?? []).join(', ') : input.toString('latin1');
      parseDeflateOffers(parseExtensionsHeader(ext));
    } catch (err) {
      problems.push(`threw ${err instanceof Error ? err.message : String(err)}`);
    }
    return { input, problems };
  },
};

const stats = new Map<string, { inputs: number; bytes: number; crashes: number }>();
for (const name of Object.keys(targets)) stats.set(name, { inputs: 0, bytes: 0, crashes: 0 });
const names = Object.keys(targets);
const t0 = performance.now();
const end = t0 + seconds * 1000;
let nextReport = t0 + 30_000;
let shown = 0;
if (outDir !== '') mkdirSync(outDir, { recursive: true });
process.stdout.write(`wsgate fuzz: ${seconds} s, seed ${seed}\n`);

while (performance.now() < end) {
  for (let batch = 0; batch < 50; batch++) {
    const name = names[int(names.length)] as string;
    const s = stats.get(name)!;
    let result: { input: Buffer; problems: Problems };
    try {
      result = targets[name]!();
    } catch (err) {
      result = { input: Buffer.alloc(0), problems: [`the target threw: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`] };
    }
    s.inputs++;
    s.bytes += result.input.length;
    if (result.problems.length > 0) {
      s.crashes++;
      if (shown++ < 10)
        process.stdout.write(`CRASH [${name}] ${result.problems[0]}\n  input (${result.input.length} bytes): ${result.input.toString('hex').slice(0, 200)}\n`);
      if (outDir !== '')
        writeFileSync(
          path.join(outDir, `crash-${s.crashes}-${name.replace(/\W+/g, '-')}.hex`),
          `${result.problems.join('\n')}\n${result.input.toString('hex')}\n`,
        );
    }
  }
  if (performance.now() >= nextReport) {
    nextReport += 30_000;
    const total = [...stats.values()].reduce((a, s) => a + s.inputs, 0);
    process.stdout.write(`  ${Math.round((performance.now() - t0) / 1000)} s: ${total} inputs\n`);
  }
}

const elapsed = (performance.now() - t0) / 1000;
let inputs = 0;
let crashes = 0;
process.stdout.write(`\n${'target'.padEnd(34)} ${'inputs'.padStart(10)} ${'MiB'.padStart(8)} ${'crashes'.padStart(8)}\n`);
for (const [name, s] of stats) {
  inputs += s.inputs;
  crashes += s.crashes;
  process.stdout.write(
    `${name.padEnd(34)} ${String(s.inputs).padStart(10)} ${(s.bytes / 1024 / 1024).toFixed(1).padStart(8)} ${String(s.crashes).padStart(8)}\n`,
  );
}
process.stdout.write(`total: ${inputs} inputs in ${elapsed.toFixed(0)} s (${Math.round(inputs / elapsed)}/s), ${crashes} crashes, seed ${seed}\n`);
process.exitCode = crashes > 0 ? 1 : 0;
