/**
 * The tape of wsgate's writes (core/tape.ts): runs of writes are one entry, chopped pieces a run of
 * one size, small writes copied and large ones kept by reference, and the peer's progress and the
 * handshake keep entries apart.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Tape } from '../../src/core/tape.js';

test('writes of one moment with nothing from the peer between are one entry, their bytes in order', () => {
  let rx = 0;
  const tape = new Tape(
    () => rx,
    () => 5,
  );
  tape.write([Buffer.from('GET / HTTP/1.1\r\n\r\n')], null, false, 18, true);
  tape.write([Buffer.from([0x81, 0x02]), Buffer.from('hi')], null, false, 4, false);
  tape.write([Buffer.from([0x82, 0x00])], null, false, 2, false);
  rx = 8;
  tape.write([Buffer.from([0x88, 0x00])], null, false, 2, false);
  assert.equal(tape.writes.length, 3, 'the handshake and the peer having sent more start new entries');
  assert.deepEqual(Buffer.concat(tape.writes[1]?.segments ?? []), Buffer.from([0x81, 0x02, 0x68, 0x69, 0x82, 0x00]));
  assert.equal(tape.writes[1]?.total, 6);
  assert.equal(tape.writes[2]?.rx, 8);
  assert.equal(tape.octetsOut, 26);
});

test('a write more than a millisecond after the last one starts a new entry', () => {
  let now = 0;
  const tape = new Tape(
    () => 0,
    () => now,
  );
  tape.write([Buffer.from([0x89, 0x00])], null, false, 2, false);
  now = 0.9;
  tape.write([Buffer.from([0x89, 0x00])], null, false, 2, false);
  now = 2;
  tape.write([Buffer.from([0x89, 0x00])], null, false, 2, false);
  assert.deepEqual(
    tape.writes.map((w) => [w.t, w.total]),
    [
      [0, 4],
      [2, 2],
    ],
  );
});

test('sync pieces of one size are a chopped run; a longer piece starts a new entry', () => {
  const tape = new Tape(
    () => 0,
    () => 5,
  );
  const frame = Buffer.alloc(10, 7);
  for (let i = 0; i < 10; i += 4) tape.write([frame.subarray(i, Math.min(i + 4, 10))], null, true, Math.min(4, 10 - i), false);
  tape.write([Buffer.alloc(6)], null, true, 6, false);
  assert.equal(tape.writes.length, 2);
  assert.equal(tape.writes[0]?.chop, 4);
  assert.equal(tape.writes[0]?.total, 10);
  assert.equal(tape.writes[1]?.chop, 0);
});

test('a large write is kept by reference, a small one copied', () => {
  const tape = new Tape(() => 0);
  const big = Buffer.alloc(4096, 1);
  const small = Buffer.from([1, 2, 3]);
  tape.write([small, big], null, false, 4099, false);
  small[0] = 9;
  const segments = tape.writes[0]?.segments ?? [];
  assert.equal(segments[1], big);
  assert.deepEqual(segments[0], Buffer.from([1, 2, 3]));
});

test('a streamed repeated payload is kept as its pattern and length; ending TCP is noted once', () => {
  const tape = new Tape(() => 3);
  tape.write([Buffer.from([0x82, 0x7f])], { pattern: Buffer.from([0xfe]), length: 1 << 24 }, false, 2 + (1 << 24), false);
  tape.ended('after-flush', null);
  tape.ended('abort', 'later');
  assert.deepEqual(tape.writes[0]?.repeat, { pattern: Buffer.from([0xfe]), length: 1 << 24 });
  assert.deepEqual(tape.end && { how: tape.end.how, rx: tape.end.rx, unclean: tape.end.unclean }, { how: 'after-flush', rx: 3, unclean: null });
});
