import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KeyedWaiters } from '../../src/util/keyed-waiters.js';

test('keyed waiters: a value answers every caller of its key once; a time that runs out and the end answer null', async () => {
  const w = new KeyedWaiters<number>();
  const got: string[] = [];
  w.wait('a', 5_000, (v) => got.push(`a1=${v}`));
  w.wait('a', 5_000, (v) => got.push(`a2=${v}`));
  w.wait('b', 10, (v) => got.push(`b=${v}`));
  w.give('a', 1);
  w.give('a', 2);
  await new Promise((resolve) => setTimeout(resolve, 50));
  w.give('b', 3);
  w.wait('c', 5_000, (v) => got.push(`c=${v}`));
  w.end();
  w.end();
  assert.deepEqual(got, ['a1=1', 'a2=1', 'b=null', 'c=null']);
});
