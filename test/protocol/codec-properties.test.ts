/**
 * The codec under hostile input (fast-check): the frame reader against an independent whole-buffer
 * model of RFC 6455 §5 (test/support/codec-oracle.ts) on legal, random and mutated streams cut at any
 * points; the incremental UTF-8 validator against TextDecoder(fatal) at every split; the
 * permessage-deflate decoder on random, mutated and bomb input within its limit.
 * A longer campaign over the same checks: `npm run fuzz -- --seconds N` (bench/fuzz.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import zlib from 'node:zlib';
import fc from 'fast-check';
import type { FrameReaderOptions } from '../../src/protocol/frame-reader.js';
import { closePayload } from '../../src/protocol/frame-writer.js';
import { encodeFrame } from '../support/frame-encoder.js';
import { chop } from '../support/chop.js';
import { checkFrameStream, checkInflate, checkUtf8Splits, deflateAccept, lengthFieldHeader, oracle, readStrict } from '../support/codec-oracle.js';

const STRICT: FrameReaderOptions = { requireMask: true, compressionNegotiated: false, maxFramePayload: 64 * 1024 * 1024 };

const maskArb = fc.uint8Array({ minLength: 4, maxLength: 4 });
const cutsArb = fc.array(fc.nat(), { maxLength: 25 });
const optionsArb: fc.Arbitrary<FrameReaderOptions> = fc.record({
  requireMask: fc.boolean(),
  compressionNegotiated: fc.boolean(),
  maxFramePayload: fc.constantFrom(0, 1, 125, 126, 1000, 65535, 65536, 64 * 1024 * 1024),
});

/** A legal message: text or binary in 1-4 fragments, control frames (ping, pong) between them. */
const legalMessageArb = fc.record({
  opcode: fc.constantFrom(1, 2),
  fragments: fc.array(fc.uint8Array({ maxLength: 200 }), { minLength: 1, maxLength: 4 }),
  controls: fc.array(fc.tuple(fc.constantFrom(9, 10), fc.uint8Array({ maxLength: 125 })), { maxLength: 3 }),
  compressed: fc.boolean(),
});

/** Legal frames of a client (masked), ending with a close frame; and what a reader must report. */
const legalStreamArb = fc
  .tuple(
    fc.array(legalMessageArb, { maxLength: 5 }),
    maskArb,
    fc.option(fc.tuple(fc.constantFrom(1000, 1001, 3000, 4999), fc.string({ maxLength: 40 })), { nil: null }),
    fc.boolean(),
  )
  .map(([messages, mask, close, deflate]) => {
    const wire: Buffer[] = [];
    const expected: Array<{ opcode: number; fin: boolean; rsv: number; payload: string }> = [];
    const put = (opcode: number, fin: boolean, rsv: number, payload: Uint8Array): void => {
      wire.push(encodeFrame({ opcode, fin, rsv, payload, mask }));
      expected.push({ opcode, fin, rsv, payload: Buffer.from(payload).toString('hex') });
    };
    for (const m of messages) {
      m.fragments.forEach((frag, i) => {
        const last = i === m.fragments.length - 1;
        // RFC 7692 §6: RSV1 only on the first frame of a compressed message.
        put(i === 0 ? m.opcode : 0, last, i === 0 && deflate && m.compressed ? 4 : 0, frag);
        // §5.4: control frames MAY be injected in the middle of a fragmented message.
        const ctl = m.controls[i];
        if (!last && ctl !== undefined) put(ctl[0], true, 0, ctl[1]);
      });
    }
    const reason = close === null ? null : Buffer.from(close[1], 'utf8').subarray(0, 123);
    put(8, true, 0, close === null ? Buffer.alloc(0) : closePayload(close[0], reason));
    return { stream: Buffer.concat(wire), expected, options: { ...STRICT, compressionNegotiated: deflate } };
  });

describe('frame reader: legal frames', () => {
  test('property: encode → decode round-trips every legal frame, under any split, without an error', () => {
    fc.assert(
      fc.property(legalStreamArb, cutsArb, ({ stream, expected, options }, cuts) => {
        const { outcome, problems } = readStrict(chop(stream, cuts), options);
        assert.deepEqual(problems, []);
        assert.equal(outcome.error, null);
        assert.equal(outcome.partial, null);
        assert.deepEqual(outcome.frames, expected);
      }),
      { numRuns: 300 },
    );
  });

  test('the oracle itself reads the RFC 6455 §5.7 examples', () => {
    // 0x81 0x85 + mask 37 fa 21 3d + masked "Hello"
    const hello = Buffer.from('818537fa213d7f9f4d5158', 'hex');
    assert.deepEqual(oracle(hello, STRICT), {
      frames: [{ opcode: 1, fin: true, rsv: 0, payload: Buffer.from('Hello').toString('hex') }],
      partial: null,
      error: null,
    });
    // The same frame unmasked is refused by a server (§5.1): 1002.
    assert.equal(oracle(Buffer.from('810548656c6c6f', 'hex'), STRICT).error, 1002);
    // 0x82 0xff + 2^63 + mask: "the most significant bit MUST be 0".
    assert.equal(oracle(Buffer.from('82ff800000000000000001020304', 'hex'), STRICT).error, 1002);
    // 0x82 0xfe 00 7d + mask: a 16-bit length of 125 is not minimal.
    assert.equal(oracle(Buffer.from('82fe007d01020304', 'hex'), STRICT).error, 1002);
    // 0x82 0xff + 2^26 + 1 + mask, over a 64 MiB limit: 1009.
    assert.equal(oracle(Buffer.from('82ff000000000400000101020304', 'hex'), STRICT).error, 1009);
    // The header is not complete without its mask: nothing to say yet.
    assert.deepEqual(oracle(Buffer.from('82ff0000000004000001', 'hex'), STRICT), { frames: [], partial: null, error: null });
  });
});

/** Byte-level edits of a stream: what a broken or hostile peer's bugs look like. */
const editArb = fc.oneof(
  fc.record({ op: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ op: fc.constant('set' as const), at: fc.nat(), value: fc.constantFrom(0x00, 0x7e, 0x7f, 0x80, 0xfe, 0xff, 0x88, 0x0f, 0x70) }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
);
type Edit = typeof editArb extends fc.Arbitrary<infer T> ? T : never;

function applyEdits(data: Buffer, edits: readonly Edit[]): Buffer {
  const arr = Array.from(data);
  for (const e of edits) {
    const at = arr.length === 0 ? 0 : e.at % arr.length;
    if (e.op === 'flip' && arr.length > 0) arr[at] = arr[at]! ^ (1 << e.bit);
    else if (e.op === 'set' && arr.length > 0) arr[at] = e.value;
    else if (e.op === 'insert') arr.splice(at, 0, e.value);
    else if (e.op === 'delete') arr.splice(at, 1);
    else if (e.op === 'truncate') arr.length = at;
  }
  return Buffer.from(arr);
}

/** A header with a chosen length field (any encoding, minimal or not), then a payload of up to 300 bytes. */
const headerArb = fc
  .tuple(
    fc.integer({ min: 0, max: 255 }),
    fc.boolean(),
    fc.constantFrom(0n, 1n, 125n, 126n, 127n, 65535n, 65536n, 2n ** 32n, 2n ** 53n, 2n ** 63n - 1n, 2n ** 63n, 2n ** 64n - 1n),
    fc.constantFrom(7, 16, 64),
    maskArb,
    fc.uint8Array({ maxLength: 300 }),
  )
  .map(([b0, masked, length, field, mask, payload]) => {
    const head = lengthFieldHeader(b0, masked, length, field);
    return Buffer.concat([head, masked ? Buffer.from(mask) : Buffer.alloc(0), Buffer.from(payload)]);
  });

describe('frame reader: hostile streams end in frames or exactly one error with the RFC close code', () => {
  test('property: random bytes, cut anywhere, agree with the model (no throw, bounded, one error at most)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 800 }), cutsArb, optionsArb, (bytes, cuts, options) => {
        assert.deepEqual(checkFrameStream(bytes, chop(bytes, cuts), options), []);
      }),
      { numRuns: 500 },
    );
  });

  test('property: mutated legal streams (bit flips, inserted, deleted, truncated bytes) agree with the model', () => {
    fc.assert(
      fc.property(legalStreamArb, fc.array(editArb, { minLength: 1, maxLength: 4 }), cutsArb, optionsArb, ({ stream }, edits, cuts, options) => {
        const data = applyEdits(stream, edits);
        assert.deepEqual(checkFrameStream(data, chop(data, cuts), options), []);
      }),
      { numRuns: 500 },
    );
  });

  test('property: headers with any length encoding (up to 2^64 - 1) agree with the model at any limit', () => {
    fc.assert(
      fc.property(fc.array(headerArb, { minLength: 1, maxLength: 4 }), cutsArb, optionsArb, (frames, cuts, options) => {
        const data = Buffer.concat(frames);
        assert.deepEqual(checkFrameStream(data, chop(data, cuts), options), []);
      }),
      { numRuns: 500 },
    );
  });

  test('property: the same stream gives the same frames and error whatever the split (1-byte chunks too)', () => {
    fc.assert(
      fc.property(legalStreamArb, fc.array(editArb, { maxLength: 2 }), cutsArb, ({ stream, options }, edits, cuts) => {
        const data = applyEdits(stream, edits);
        const whole = readStrict([data], options).outcome;
        assert.deepEqual(readStrict(chop(data, cuts), options).outcome, whole);
        assert.deepEqual(
          readStrict(
            Array.from(data, (b) => Buffer.from([b])),
            options,
          ).outcome,
          whole,
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe('UTF-8 validator against TextDecoder(fatal)', () => {
  const validArb = fc.string({ unit: 'binary', maxLength: 60 }).map((s) => Buffer.from(s, 'utf8'));
  const utf8Arb = fc.oneof(
    validArb,
    fc.tuple(validArb, fc.array(editArb, { minLength: 1, maxLength: 3 })).map(([b, e]) => applyEdits(b, e)),
    fc.uint8Array({ maxLength: 60 }).map((b) => Buffer.from(b)),
    // Surrogates, overlongs, the edges of U+10FFFF, and ASCII runs long enough for the native path.
    fc
      .array(fc.constantFrom('eda080', 'edbfbf', 'c080', 'e08080', 'f08f8080', 'f48fbfbf', 'f4908080', 'efbfbf', 'c2', 'e282', '41'.repeat(70)), {
        maxLength: 6,
      })
      .map((h) => Buffer.from(h.join(''), 'hex')),
  );

  test('property: agrees at every single split point, and at random multi-way splits', () => {
    fc.assert(
      fc.property(utf8Arb, fc.array(fc.nat(), { maxLength: 6 }), (bytes, cuts) => {
        for (let i = 0; i <= bytes.length; i++) assert.deepEqual(checkUtf8Splits(bytes, [i]), []);
        assert.deepEqual(checkUtf8Splits(bytes, cuts), []);
        assert.deepEqual(
          checkUtf8Splits(
            bytes,
            Array.from({ length: bytes.length }, (_, i) => i),
          ),
          [],
        );
      }),
      { numRuns: 400 },
    );
  });
});

/** What a client sends for a message: raw deflate with a sync flush, the 00 00 ff ff tail removed (RFC 7692 §7.2.1). */
function compress(data: Uint8Array, windowBits: number): Buffer {
  const out = zlib.deflateRawSync(data, { windowBits, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  return out.subarray(0, out.length - 4);
}

describe('permessage-deflate decoder under hostile input', () => {
  const limitArb = fc.constantFrom(1, 100, 1000, 64 * 1024);
  const windowArb = fc.integer({ min: 9, max: 15 });

  test('property: random bytes are data or 1007/1009, never more than the limit, never another error', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 300 }), { minLength: 1, maxLength: 3 }),
        cutsArb,
        limitArb,
        windowArb,
        fc.boolean(),
        (messages, cuts, limit, w, nct) => {
          const r = checkInflate(
            messages.map((m) => chop(m, cuts)),
            deflateAccept(w, nct),
            limit,
          );
          assert.deepEqual(r.problems, []);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('property: mutated compressed messages are data or 1007/1009 within the limit', () => {
    const textArb = fc.string({ maxLength: 400 }).map((s) => Buffer.from(s.repeat(3), 'utf8'));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(textArb, fc.array(editArb, { maxLength: 3 })), { minLength: 1, maxLength: 3 }),
        cutsArb,
        limitArb,
        fc.boolean(),
        (messages, cuts, limit, nct) => {
          const wire = messages.map(([text, edits]) => chop(applyEdits(compress(text, 15), edits), cuts));
          const r = checkInflate(wire, deflateAccept(15, nct), limit);
          assert.deepEqual(r.problems, []);
          // Untouched messages within the limit inflate without an error.
          if (messages.every(([text, edits]) => edits.length === 0 && text.length <= limit) && nct) assert.equal(r.error, null);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('property: bombs (up to 8 MiB of zeros) stop with 1009 at any limit, having produced no more than it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.constantFrom(1, 4096, 65536, 1024 * 1024 - 1), cutsArb, (mib, limit, cuts) => {
        const bomb = compress(Buffer.alloc(mib * 1024 * 1024), 15);
        const r = checkInflate([chop(bomb, cuts)], deflateAccept(15, true), limit);
        assert.deepEqual(r.problems, []);
        assert.equal(r.error, 1009);
        assert.ok(r.produced <= limit);
      }),
      { numRuns: 40 },
    );
  });
});
