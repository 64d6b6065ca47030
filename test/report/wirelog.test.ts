import assert from 'node:assert/strict';
import { test } from 'node:test';
import { textWrap } from '../../src/report/wirelog.js';

// Expected values are Python 2.7's textwrap.wrap(s, 100) output for the same input.
test("textWrap matches Python's textwrap.wrap(s, 100)", () => {
  const x = (n: number): string => 'x'.repeat(n);
  assert.deepEqual(textWrap(`ab ${x(128)} ...`), [`ab ${x(97)}`, `${x(31)} ...`]);
  const wk = Array.from({ length: 12 }, () => 'well-known').join(' ');
  assert.deepEqual(textWrap(wk), [Array.from({ length: 9 }, () => 'well-known').join(' '), 'well-known well-known well-known']);
  assert.deepEqual(textWrap(`a\tb\nc  ${'y'.repeat(120)}`), [`a       b c  ${'y'.repeat(87)}`, 'y'.repeat(33)]);
  assert.deepEqual(textWrap(`   lead ${'z'.repeat(99)}`), ['   lead', 'z'.repeat(99)]);
  assert.deepEqual(textWrap(''), []);
  assert.deepEqual(textWrap('0x03e8'), ['0x03e8']);
  assert.deepEqual(textWrap('ab'.repeat(130)), ['ab'.repeat(50), 'ab'.repeat(50), 'ab'.repeat(30)]);
});

test('textWrap stays fast on long hyphen-free and hyphenated data', () => {
  const start = performance.now();
  textWrap('ab'.repeat(50_000));
  textWrap(`${'a'.repeat(5_000)}-`.repeat(4));
  assert.ok(performance.now() - start < 2_000);
});
