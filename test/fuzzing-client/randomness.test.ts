/** Random bytes of the fuzzing client: system ones stay as given, seeded ones are the seed's stream. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { seededBytes, systemBytes } from '../../src/fuzzing-client/randomness.js';

test('system bytes: the lengths asked for, and bytes given once never change as more are drawn', () => {
  const bytes = systemBytes();
  const kept: Array<[Buffer, Buffer]> = [];
  for (let i = 0; i < 5000; i++) {
    const b = bytes(i % 7 === 0 ? 16 : 4);
    assert.equal(b.length, i % 7 === 0 ? 16 : 4);
    kept.push([b, Buffer.from(b)]);
  }
  for (const [b, copy] of kept) assert.deepEqual(b, copy);
  assert.equal(bytes(10000).length, 10000);
  // 5000 draws of 4 or 16 bytes are not all one value.
  assert.ok(new Set(kept.map(([, c]) => c.toString('hex'))).size > 4000);
});

test('seeded bytes: SHA-256 of "wsgate:seed:case:counter", 32 bytes a block, whatever the draw sizes', () => {
  const stream = Buffer.concat([0, 1, 2, 3].map((k) => createHash('sha256').update(`wsgate:7:12.1.1:${k}`).digest()));
  const bytes = seededBytes(7, '12.1.1');
  const drawn = Buffer.concat([bytes(16), bytes(4), bytes(4), bytes(40), bytes(4), bytes(60)]);
  assert.deepEqual(drawn, stream.subarray(0, drawn.length));
  assert.notDeepEqual(seededBytes(7, '12.1.2')(32), stream.subarray(0, 32));
});
