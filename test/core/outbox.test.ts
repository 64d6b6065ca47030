/**
 * The outbox's pacing, on a real TCP connection on 127.0.0.1: the socket the outbox writes to is a
 * real net.Socket whose write/cork/uncork calls are recorded on their way through (a thin wrapper,
 * nothing mocked), and the far end's reads show what arrived. Checked: the exact bytes, how they are
 * cut into socket writes and into system calls (writes made while corked leave together), one queued
 * piece per loop turn, what each logical write reports to its connection, ordering across timers,
 * backpressure, and what a closed connection or socket does to a sequence under way.
 *
 * Timing is asserted as loop turns (setImmediate, which runs in the order it was called), never as
 * durations: waits are polls with a generous deadline that only fails a test that would hang.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { Outbox } from '../../src/core/outbox.js';

type SocketEvent = { kind: 'write'; bytes: Buffer; corked: boolean; accepted: boolean } | { kind: 'uncorked' };

interface Probe {
  outbox: Outbox;
  near: net.Socket;
  far: net.Socket;
  /** What the socket's methods were called with, in order (an uncork that released the last cork too). */
  events: SocketEvent[];
  /** What the outbox reported of each logical write (the head's first 64 bytes, latin1). */
  logged: Array<{ head: string; sync: boolean; length: number }>;
  /** What the link answers the outbox. */
  link: { closed: boolean; reading: boolean };
  /** Bytes the far end has read so far (kept only with keep: true). */
  received(): Buffer;
  farBytes(): number;
  close(): void;
}

/** Records a real socket's write, cork and uncork calls, then makes them. */
function recordCalls(socket: net.Socket): SocketEvent[] {
  const events: SocketEvent[] = [];
  const write = socket.write.bind(socket) as (chunk: Buffer, cb?: (err?: Error | null) => void) => boolean;
  const uncork = socket.uncork.bind(socket);
  socket.write = ((chunk: Buffer, cb?: (err?: Error | null) => void) => {
    const corked = socket.writableCorked > 0;
    const accepted = write(chunk, cb);
    events.push({ kind: 'write', bytes: chunk, corked, accepted });
    return accepted;
  }) as typeof socket.write;
  socket.uncork = () => {
    uncork();
    if (socket.writableCorked === 0) events.push({ kind: 'uncorked' });
  };
  return events;
}

/** A TCP connection on 127.0.0.1: the outbox writes to `near`, `far` reads. */
async function probe(keep = true): Promise<Probe> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  const near = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => near.once('connect', () => resolve()));
  const far = await accepted;
  server.close();
  near.setNoDelay(true);
  // A peer's reset shows as an error, then 'close' (as on a Connection's socket).
  near.on('error', () => undefined);
  far.on('error', () => undefined);
  const chunks: Buffer[] = [];
  let farBytes = 0;
  far.on('data', (chunk: Buffer) => {
    farBytes += chunk.length;
    if (keep) chunks.push(chunk);
  });
  const events = recordCalls(near);
  const link = { closed: false, reading: false };
  const logged: Probe['logged'] = [];
  const outbox = new Outbox(near, {
    isClosed: () => link.closed,
    isReading: () => link.reading,
    wrote: (head, sync, length) => logged.push({ head: head.subarray(0, 64).toString('latin1'), sync, length }),
  });
  const close = (): void => {
    near.destroy();
    far.destroy();
  };
  return { outbox, near, far, events, logged, link, received: () => Buffer.concat(chunks), farBytes: () => farBytes, close };
}

/** Runs a test on a fresh probe, closed whatever happens. */
async function withProbe(run: (p: Probe) => Promise<void>, keep = true): Promise<void> {
  const p = await probe(keep);
  try {
    await run(p);
  } finally {
    p.close();
  }
}

/** One turn of the event loop: resolves after every setImmediate callback queued before it. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await turn();
};

/** Polls until `ready`, failing (not hanging) after a generous 20 s. */
async function until(ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!ready()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const bytes = (s: string): Buffer => Buffer.from(s, 'latin1');
/** The socket write calls, as latin1 strings. */
const writes = (p: Probe): string[] => p.events.flatMap((e) => (e.kind === 'write' ? [e.bytes.toString('latin1')] : []));
const writeCount = (p: Probe): number => p.events.filter((e) => e.kind === 'write').length;

/** The socket writes grouped into what leaves together: an uncorked write alone, corked ones up to the last uncork. */
function batches(p: Probe): string[] {
  const out: string[] = [];
  let pending: string | null = null;
  for (const e of p.events) {
    if (e.kind === 'uncorked') {
      if (pending !== null) out.push(pending);
      pending = null;
    } else if (e.corked) {
      pending = (pending ?? '') + e.bytes.toString('latin1');
    } else {
      out.push(e.bytes.toString('latin1'));
    }
  }
  assert.equal(pending, null, 'no write is left corked');
  return out;
}

async function arrived(p: Probe, expected: string): Promise<void> {
  await until(() => p.farBytes() >= expected.length, `${expected.length} bytes at the far end`);
  assert.equal(p.received().toString('latin1'), expected);
}

test('a chopped write: one piece per socket write, the first at once, each next one a loop turn later, each logged as sync', () =>
  withProbe(async (p) => {
    p.outbox.send([bytes('abcdefghij')], false, 3);
    assert.deepEqual(writes(p), ['abc']);
    await turn();
    assert.deepEqual(writes(p), ['abc', 'def']);
    await turn();
    assert.deepEqual(writes(p), ['abc', 'def', 'ghi']);
    await turns(3);
    assert.deepEqual(batches(p), ['abc', 'def', 'ghi', 'j']);
    assert.deepEqual(p.logged, [
      { head: 'abc', sync: true, length: 3 },
      { head: 'def', sync: true, length: 3 },
      { head: 'ghi', sync: true, length: 3 },
      { head: 'j', sync: true, length: 1 },
    ]);
    await arrived(p, 'abcdefghij');
  }));

test('one-octet chops: a head sent a byte at a time is one socket write per octet; an empty chopped write is one empty piece', () =>
  withProbe(async (p) => {
    const head = 'HTTP/1.1 101 Switching Protocols\r\n\r\n';
    p.outbox.send([bytes(head)], false, 1);
    p.outbox.send([Buffer.alloc(0)], false, 1);
    await until(() => writeCount(p) === head.length + 1, 'every piece written');
    await turns(3);
    assert.deepEqual(batches(p), [...head.split(''), '']);
    assert.equal(p.logged.length, head.length + 1);
    assert.ok(p.logged.every((l, i) => l.sync && l.length === (i < head.length ? 1 : 0)));
    await arrived(p, head);
  }));

test('a direct write made while pieces are queued waits its turn behind them, and so does a sync write', () =>
  withProbe(async (p) => {
    p.outbox.send([bytes('0123')], false, 2);
    p.outbox.send([bytes('XY')], false, null);
    p.outbox.send([bytes('Z')], true, null);
    assert.deepEqual(writes(p), ['01']);
    await turns(5);
    assert.deepEqual(batches(p), ['01', '23', 'XY', 'Z']);
    assert.deepEqual(
      p.logged.map((l) => [l.head, l.sync]),
      [
        ['01', true],
        ['23', true],
        ['XY', false],
        ['Z', true],
      ],
    );
    await arrived(p, '0123XYZ');
  }));

test('small direct writes of one turn leave in one socket write, each logged on its own; a big one takes them along in one writev', () =>
  withProbe(async (p) => {
    p.outbox.send([bytes('ab')], false, null);
    p.outbox.send([bytes('cd')], false, null);
    p.outbox.send([bytes('ef')], false, null);
    assert.equal(writeCount(p), 0, 'gathered, not written yet');
    await turn();
    assert.deepEqual(batches(p), ['abcdef']);
    const big = 'x'.repeat(2000);
    p.outbox.send([bytes('gh')], false, null);
    p.outbox.send([bytes(big)], false, null);
    p.outbox.send([bytes('ij')], false, null);
    p.outbox.writeNow([bytes('KL')]);
    p.outbox.send([bytes('mn')], false, null);
    await turn();
    assert.deepEqual(batches(p), ['abcdef', `gh${big}`, 'ijKL', 'mn']);
    assert.deepEqual(
      p.logged.map((l) => l.length),
      [2, 2, 2, 2, 2000, 2, 2, 2],
    );
    await arrived(p, `abcdefgh${big}ijKLmn`);
  }));

test('a frame given as header and payload is one logical write and leaves in one writev, uncopied', () =>
  withProbe(async (p) => {
    const header = Buffer.from([0x82, 0x7e, 0x05, 0xdc]);
    const payload = Buffer.alloc(1500, 0x61);
    p.outbox.send([header, payload], false, null);
    assert.deepEqual(
      p.events.map((e) => (e.kind === 'write' ? [e.bytes.length, e.corked] : e.kind)),
      [[4, true], [1500, true], 'uncorked'],
    );
    const written = p.events.flatMap((e) => (e.kind === 'write' ? [e.bytes] : []));
    assert.ok(written[0] === header && written[1] === payload, 'the caller buffers themselves');
    assert.deepEqual(p.logged, [{ head: Buffer.concat([header, payload]).subarray(0, 64).toString('latin1'), sync: false, length: 1504 }]);
    await arrived(p, Buffer.concat([header, payload]).toString('latin1'));
  }));

test("while the peer's bytes are handled, a queued burst's first two pieces leave in one system call, the rest one per turn", () =>
  withProbe(async (p) => {
    p.link.reading = true;
    p.outbox.send([bytes('aabbccdd')], false, 2);
    p.link.reading = false;
    assert.equal(p.near.writableCorked, 1, 'held back until the second piece joins');
    await turns(5);
    assert.deepEqual(batches(p), ['aabb', 'cc', 'dd']);
    await arrived(p, 'aabbccdd');
  }));

test('ordering across timers: what is sent later, from a timer, follows what was queued before it', () =>
  withProbe(async (p) => {
    p.outbox.send([bytes('abcd')], false, 1);
    setTimeout(() => p.outbox.send([bytes('Q')], false, null), 0);
    const later = new Promise<void>((resolve) =>
      setTimeout(() => {
        p.outbox.send([bytes('1234')], false, 2);
        resolve();
      }, 30),
    );
    await later;
    await until(() => writeCount(p) === 7, 'seven writes');
    await turns(3);
    assert.deepEqual(writes(p), ['a', 'b', 'c', 'd', 'Q', '12', '34']);
    assert.deepEqual(
      p.logged.map((l) => l.sync),
      [true, true, true, true, false, true, true],
    );
    await arrived(p, 'abcdQ1234');
  }));

/** Byte i of the test pattern (a period prime to every chop size used). */
const patternByte = (i: number): number => (i * 7 + 3) % 251;

/** Checks what the far end reads against `expectedAt` as it arrives (huge transfers are not kept). */
function verifyArrivals(p: Probe, expectedAt: (offset: number) => number): { bad: () => number | null } {
  let offset = 0;
  let bad: number | null = null;
  p.far.on('data', (chunk: Buffer) => {
    for (let i = 0; i < chunk.length && bad === null; i++) if (chunk[i] !== expectedAt(offset + i)) bad = offset + i;
    offset += chunk.length;
  });
  return { bad: () => bad };
}

test('backpressure: queued pieces keep being handed to the socket a turn apart while the peer reads nothing; all arrive, in order, once it does', () =>
  withProbe(async (p) => {
    const chop = 1024 * 1024;
    const total = 48 * chop;
    const data = Buffer.alloc(total);
    for (let i = 0; i < total; i++) data[i] = patternByte(i);
    const check = verifyArrivals(p, patternByte);
    p.far.pause();
    p.outbox.send([data], false, chop);
    // 48 MiB is more than the kernel's buffers on both ends can hold (at most 32 + 4 MiB here).
    await until(() => writeCount(p) === 48, 'all 48 pieces handed to the socket');
    assert.ok(p.farBytes() < total, 'the peer has not read them all');
    assert.ok(
      p.events.some((e) => e.kind === 'write' && !e.accepted),
      'a write was refused (backpressure)',
    );
    assert.ok(p.near.writableLength > 0, 'bytes wait in the socket');
    assert.equal(p.logged.length, 48);
    p.far.resume();
    await until(() => p.farBytes() === total, 'every byte at the far end');
    assert.equal(check.bad(), null, 'every byte as sent, in order');
    assert.equal(writeCount(p), 48);
  }, false));

test('backpressure: a streamed repeated payload waits for the socket block by block, and a write queued behind it waits for all of it', () =>
  withProbe(async (p) => {
    const header = Buffer.from([0x82, 0x7f, 0, 0, 0, 0, 4, 0, 0, 0]);
    const pattern = bytes('wsgate');
    const length = 64 * 1024 * 1024;
    const tail = header.length + length;
    const check = verifyArrivals(p, (i) => (i < header.length ? header[i] : i < tail ? pattern[(i - header.length) % 6] : bytes('tail')[i - tail]) as number);
    p.far.pause();
    p.outbox.sendRepeated([header], pattern, length);
    p.outbox.send([bytes('tail')], false, null);
    await until(() => p.near.writableLength > 0, 'the socket to hold bytes back');
    await turns(20);
    const handed = p.events.reduce((n, e) => n + (e.kind === 'write' ? e.bytes.length : 0), 0);
    assert.ok(handed < header.length + length, `the stream waits for the socket (${handed} bytes handed over)`);
    assert.ok(!writes(p).includes('tail'), 'the write behind it waits');
    const head = Buffer.concat([header, bytes('wsgate'.repeat(11))])
      .subarray(0, 64)
      .toString('latin1');
    assert.deepEqual(p.logged, [{ head, sync: false, length: header.length + length }], 'logged once, whole, before it is all written');
    p.far.resume();
    await until(() => p.farBytes() === header.length + length + 4, 'the stream and the tail at the far end');
    assert.equal(check.bad(), null, 'every byte as sent, in order');
    assert.deepEqual(
      p.logged.map((l) => l.length),
      [header.length + length, 4],
    );
  }, false));

test('end() during a stream ends the socket only once the whole stream is written', () =>
  withProbe(async (p) => {
    const length = 3 * 1024 * 1024 + 5;
    const check = verifyArrivals(p, (i) => (i < 2 ? (bytes('HH')[i] as number) : (bytes('ab')[(i - 2) % 2] as number)));
    const ended = new Promise<void>((resolve) => p.far.once('end', resolve));
    p.outbox.sendRepeated([bytes('HH')], bytes('ab'), length);
    p.outbox.end();
    await ended;
    assert.equal(p.farBytes(), 2 + length);
    assert.equal(check.bad(), null);
  }, false));

test('the connection closed mid-sequence: the queued pieces left are dropped, the socket is left open, later queued writes go nowhere', () =>
  withProbe(async (p) => {
    p.outbox.send([bytes('abcdef')], false, 1);
    await turns(2);
    assert.deepEqual(writes(p), ['a', 'b', 'c']);
    p.link.closed = true;
    await turns(5);
    p.outbox.send([bytes('XY')], false, 1);
    p.outbox.send([bytes('Z')], true, null);
    await turns(5);
    assert.deepEqual(writes(p), ['a', 'b', 'c']);
    assert.equal(p.logged.length, 3, 'nothing more reported as written');
    assert.equal(p.near.destroyed, false);
    await arrived(p, 'abc');
  }));

test('the socket destroyed mid-sequence: nothing more is written, and what was written before still arrives', () =>
  withProbe(async (p) => {
    const ended = new Promise<void>((resolve) => p.far.once('end', resolve));
    p.outbox.send([bytes('abcdef')], false, 1);
    await turn();
    p.near.destroy();
    await turns(5);
    assert.deepEqual(writes(p), ['a', 'b']);
    assert.equal(p.logged.length, 2);
    await ended;
    assert.equal(p.received().toString('latin1'), 'ab');
  }));

test('the peer gone mid-sequence: the outbox stops once the socket closes, with no write after that and none unreported', () =>
  withProbe(async (p) => {
    const pieces = 1000;
    p.outbox.send([Buffer.alloc(pieces, 0x41)], false, 1);
    await turns(2);
    const closed = new Promise<number>((resolve) => p.near.once('close', () => resolve(writeCount(p))));
    p.far.destroy();
    const atClose = await closed;
    await turns(10);
    assert.equal(writeCount(p), atClose, 'no write after the socket closed');
    assert.ok(atClose < pieces, `the rest was dropped (${atClose} of ${pieces} written)`);
    assert.equal(p.logged.length, atClose, 'every write reported, no more');
  }));
