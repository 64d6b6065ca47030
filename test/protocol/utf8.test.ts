import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Utf8Validator, isValidUtf8 } from '../../src/protocol/utf8.js';
import type { Utf8State } from '../../src/protocol/utf8.js';
import { chop } from '../support/chop.js';

function validateWhole(bytes: Uint8Array): Utf8State {
  return new Utf8Validator().validate(bytes);
}

function validateChunks(chunks: Uint8Array[]): Utf8State {
  const v = new Utf8Validator();
  let state: Utf8State = { valid: true, endsOnCodePoint: true, index: 0 };
  for (const c of chunks) state = v.validate(c);
  return state;
}

/** Reference: does the WHATWG fatal decoder accept the complete input? */
function decoderAccepts(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Reference: the first byte a streaming fatal decoder rejects (it, too, fails as early as possible), or -1. */
function decoderFirstBad(bytes: Uint8Array): number {
  const d = new TextDecoder('utf-8', { fatal: true });
  for (let i = 0; i < bytes.length; i++) {
    try {
      d.decode(bytes.subarray(i, i + 1), { stream: true });
    } catch {
      return i;
    }
  }
  return -1;
}

const b = (...bytes: number[]): Buffer => Buffer.from(bytes);

test('valid text: ASCII, 2/3/4-byte sequences and the extremes', () => {
  // ce ba e1 bd b9 cf 83 ce bc ce b5: "κόσμε" (Autobahn case 6.2.x)
  assert.deepEqual(validateWhole(b(0xce, 0xba, 0xe1, 0xbd, 0xb9, 0xcf, 0x83, 0xce, 0xbc, 0xce, 0xb5)), {
    valid: true,
    endsOnCodePoint: true,
    index: 11,
  });
  // 00 / 7f / c2 80 / df bf / e0 a0 80 / ef bf bf / f0 90 80 80 / f4 8f bf bf: boundaries of each length
  for (const seq of [[0x00], [0x7f], [0xc2, 0x80], [0xdf, 0xbf], [0xe0, 0xa0, 0x80], [0xef, 0xbf, 0xbf], [0xf0, 0x90, 0x80, 0x80], [0xf4, 0x8f, 0xbf, 0xbf]]) {
    assert.deepEqual(validateWhole(b(...seq)), { valid: true, endsOnCodePoint: true, index: seq.length }, seq.join(' '));
    assert.equal(isValidUtf8(b(...seq)), true);
  }
  // ed 9f bf / ee 80 80: just below and above the surrogate range
  assert.equal(validateWhole(b(0xed, 0x9f, 0xbf)).valid, true);
  assert.equal(validateWhole(b(0xee, 0x80, 0x80)).valid, true);
  assert.deepEqual(validateWhole(b()), { valid: true, endsOnCodePoint: true, index: 0 });
});

test('invalid sequences fail at the first impossible byte', () => {
  const cases: Array<[string, number[], number]> = [
    ['f4 90: above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 1],
    ['ed a0: UTF-16 surrogate U+D800', [0xed, 0xa0, 0x80], 1],
    ['ed bf bf: surrogate U+DFFF', [0xed, 0xbf, 0xbf], 1],
    ['e0 80: overlong 3-byte', [0xe0, 0x80, 0xaf], 1],
    ['f0 8f: overlong 4-byte', [0xf0, 0x8f, 0xbf, 0xbf], 1],
    ['c0 / c1: always overlong', [0xc0, 0xaf], 0],
    ['c1 bf', [0xc1, 0xbf], 0],
    ['f5: would be above U+10FFFF', [0xf5, 0x80, 0x80, 0x80], 0],
    ['f8: 5-byte form', [0xf8, 0x88, 0x80, 0x80, 0x80], 0],
    ['fc: 6-byte form', [0xfc, 0x84, 0x80, 0x80, 0x80, 0x80], 0],
    ['fe / ff', [0xfe], 0],
    ['stray continuation', [0x61, 0x80], 1],
    ['lead byte followed by ASCII', [0xe2, 0x82, 0x41], 2],
    ['lead byte followed by lead byte', [0xc2, 0xc2], 1],
    ['valid text then an error', [0xce, 0xba, 0xe1, 0xbd, 0xb9, 0xcf, 0x83, 0xce, 0xbc, 0xce, 0xb5, 0xed, 0xa0, 0x80, 0x65, 0x64, 0x69, 0x74, 0x65, 0x64], 12],
  ];
  for (const [name, bytes, index] of cases) {
    assert.deepEqual(validateWhole(Buffer.from(bytes)), { valid: false, endsOnCodePoint: false, index }, name);
    assert.equal(isValidUtf8(Buffer.from(bytes)), false, name);
  }
});

test('a code point split across chunks: endsOnCodePoint tracks the boundary', () => {
  const v = new Utf8Validator();
  // e2 82 ac: "€" one byte per chunk
  assert.deepEqual(v.validate(b(0xe2)), { valid: true, endsOnCodePoint: false, index: 1 });
  assert.deepEqual(v.validate(b(0x82)), { valid: true, endsOnCodePoint: false, index: 2 });
  assert.deepEqual(v.validate(b(0xac)), { valid: true, endsOnCodePoint: true, index: 3 });
  assert.deepEqual(v.validate(b()), { valid: true, endsOnCodePoint: true, index: 3 });
  // f0 9d 84 9e: "𝄞" split 2 + 2, then a bad continuation in the next chunk
  assert.deepEqual(v.validate(b(0xf0, 0x9d)), { valid: true, endsOnCodePoint: false, index: 5 });
  assert.deepEqual(v.validate(b(0x84, 0x9e, 0xf4)), { valid: true, endsOnCodePoint: false, index: 8 });
  assert.deepEqual(v.validate(b(0x90)), { valid: false, endsOnCodePoint: false, index: 8 });
});

test('once invalid it stays invalid at the same index until reset', () => {
  const v = new Utf8Validator();
  assert.deepEqual(v.validate(b(0x61, 0x62, 0xff, 0x63)), { valid: false, endsOnCodePoint: false, index: 2 });
  assert.deepEqual(v.validate(b(0x61)), { valid: false, endsOnCodePoint: false, index: 2 });
  v.reset();
  assert.deepEqual(v.validate(b(0x61)), { valid: true, endsOnCodePoint: true, index: 1 });
});

test('long chunks (native fast path) still report exact indexes and cut code points', () => {
  const ascii = Buffer.alloc(5000, 0x61);
  // 5000 × 'a', then ed a0 80 (a surrogate): fails at 5001
  assert.deepEqual(validateWhole(Buffer.concat([ascii, b(0xed, 0xa0, 0x80)])), { valid: false, endsOnCodePoint: false, index: 5001 });
  // 5000 × 'a' then f0 9d: a chunk ending inside "𝄞"
  const v = new Utf8Validator();
  assert.deepEqual(v.validate(Buffer.concat([ascii, b(0xf0, 0x9d)])), { valid: true, endsOnCodePoint: false, index: 5002 });
  assert.deepEqual(v.validate(Buffer.concat([b(0x84, 0x9e), ascii])), { valid: true, endsOnCodePoint: true, index: 10004 });
  // a stray continuation deep inside multi-byte text
  const text = Buffer.from('κόσμε€𝄞'.repeat(500));
  const bad = Buffer.concat([text, b(0x80), text]);
  assert.deepEqual(validateWhole(bad), { valid: false, endsOnCodePoint: false, index: text.length });
  assert.deepEqual(validateChunks(chop(bad, [7, 1000, 3333])), { valid: false, endsOnCodePoint: false, index: text.length });
});

test('isValidUtf8 (native) agrees with TextDecoder on the hard cases', () => {
  const cases = [
    [0xed, 0xa0, 0x80],
    [0xef, 0xbf, 0xbf],
    [0xf4, 0x8f, 0xbf, 0xbf],
    [0xf4, 0x90, 0x80, 0x80],
    [0xe2, 0x82],
    [0xc0, 0x80],
    [0xef, 0xbb, 0xbf],
  ];
  for (const c of cases) assert.equal(isValidUtf8(Buffer.from(c)), decoderAccepts(Buffer.from(c)), c.join(' '));
});

// Random bytes rarely look like UTF-8, so also mutate valid encodings (flip, insert, delete, truncate).
const validBytes = fc.string({ unit: 'grapheme', maxLength: 80 }).map((s) => Buffer.from(s, 'utf8'));
const mutated = fc
  .tuple(validBytes, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('set', 'insert', 'delete')), { maxLength: 3 }))
  .map(([bytes, edits]) => {
    const arr = Array.from(bytes);
    for (const [pos, value, op] of edits) {
      const p = arr.length === 0 ? 0 : pos % arr.length;
      if (op === 'set' && arr.length > 0) arr[p] = value;
      else if (op === 'insert') arr.splice(p, 0, value);
      else arr.splice(p, 1);
    }
    return Buffer.from(arr);
  });
const anyBytes = fc.oneof(
  fc.uint8Array({ maxLength: 120 }).map((x) => Buffer.from(x)),
  validBytes,
  mutated,
  // long enough for the native fast path, with a mutation somewhere
  fc.tuple(mutated, fc.integer({ min: 64, max: 400 })).map(([m, n]) => Buffer.concat([Buffer.alloc(n, 0x7a), m, Buffer.from('é€𝄞'.repeat(30))])),
);

test('property: any split agrees with TextDecoder (fatal) and with whole-buffer validation', () => {
  fc.assert(
    fc.property(anyBytes, fc.array(fc.nat(), { maxLength: 12 }), (bytes, cuts) => {
      const whole = validateWhole(bytes);
      const split = validateChunks(chop(bytes, cuts));
      assert.deepEqual(split, whole);
      const accepted = decoderAccepts(bytes);
      assert.equal(whole.valid && whole.endsOnCodePoint, accepted);
      assert.equal(isValidUtf8(bytes), accepted);
      // Fails exactly where a streaming WHATWG decoder fails (the earliest possible byte).
      const firstBad = decoderFirstBad(bytes);
      if (firstBad < 0) assert.deepEqual(whole, { valid: true, endsOnCodePoint: accepted, index: bytes.length });
      else assert.deepEqual(whole, { valid: false, endsOnCodePoint: false, index: firstBad });
    }),
    { numRuns: 300 },
  );
});

test('property: every split of a mutated valid string, byte by byte, agrees too', () => {
  fc.assert(
    fc.property(mutated, (bytes) => {
      const single = validateChunks(Array.from(bytes, (x) => Buffer.from([x])));
      assert.deepEqual(single, validateWhole(bytes));
    }),
    { numRuns: 200 },
  );
});
