import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { closePayload, encodeFrameHeader, encodeMaskedFrame, maskInPlace, repeatPayload } from '../../src/protocol/frame-writer.js';
import { encodeFrame } from '../support/frame-encoder.js';

const MASK = Buffer.from([0x37, 0xfa, 0x21, 0x3d]);
const hello = Buffer.from('Hello');

function naiveMask(data: Uint8Array, mask: Uint8Array, offset: number): Buffer {
  const out = Buffer.from(data);
  for (let i = 0; i < out.length; i++) out[i] = out[i]! ^ mask[(offset + i) % 4]!;
  return out;
}

test('RFC 6455 §5.7: single-frame unmasked text "Hello"', () => {
  // 0x81 0x05: FIN, text, length 5; then "Hello"
  assert.deepEqual(encodeFrame({ opcode: 1, payload: hello }), Buffer.from([0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]));
});

test('RFC 6455 §5.7: single-frame masked text "Hello"', () => {
  // 0x81 0x85: FIN, text, MASK, length 5; mask 37 fa 21 3d; masked "Hello"
  const expected = Buffer.from([0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]);
  assert.deepEqual(encodeFrame({ opcode: 1, payload: hello, mask: MASK }), expected);
  assert.equal(hello.toString(), 'Hello', 'the input payload is not modified');
});

test('RFC 6455 §5.7: fragmented unmasked text "Hel" + "lo"', () => {
  // 0x01 0x03: no FIN, text, length 3, "Hel"
  assert.deepEqual(encodeFrame({ opcode: 1, payload: Buffer.from('Hel'), fin: false }), Buffer.from([0x01, 0x03, 0x48, 0x65, 0x6c]));
  // 0x80 0x02: FIN, continuation, length 2, "lo"
  assert.deepEqual(encodeFrame({ opcode: 0, payload: Buffer.from('lo') }), Buffer.from([0x80, 0x02, 0x6c, 0x6f]));
});

test('RFC 6455 §5.7: unmasked Ping and masked Pong "Hello"', () => {
  // 0x89 0x05: FIN, ping, length 5
  assert.deepEqual(encodeFrame({ opcode: 9, payload: hello }), Buffer.from([0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]));
  // 0x8a 0x85: FIN, pong, MASK, length 5; mask 37 fa 21 3d
  assert.deepEqual(encodeFrame({ opcode: 10, payload: hello, mask: MASK }), Buffer.from([0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]));
});

test('RFC 6455 §5.7: 256-byte binary uses the 16-bit length', () => {
  const frame = encodeFrame({ opcode: 2, payload: Buffer.alloc(256, 0xab) });
  // 0x82 0x7e 0x01 0x00: FIN, binary, 16-bit length follows, 256
  assert.deepEqual(frame.subarray(0, 4), Buffer.from([0x82, 0x7e, 0x01, 0x00]));
  assert.equal(frame.length, 4 + 256);
  assert.deepEqual(frame.subarray(4), Buffer.alloc(256, 0xab));
});

test('RFC 6455 §5.7: 64 KiB binary uses the 64-bit length', () => {
  const frame = encodeFrame({ opcode: 2, payload: Buffer.alloc(65536, 0x5a) });
  // 0x82 0x7f then 00 00 00 00 00 01 00 00: FIN, binary, 64-bit length 65536
  assert.deepEqual(frame.subarray(0, 10), Buffer.from([0x82, 0x7f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00]));
  assert.equal(frame.length, 10 + 65536);
  assert.deepEqual(frame.subarray(10), Buffer.alloc(65536, 0x5a));
});

test('encodeFrameHeader: minimal length encoding at every boundary', () => {
  // 0x82 0x7d: length 125 fits in 7 bits
  assert.deepEqual(encodeFrameHeader(2, true, 0, 125, null), Buffer.from([0x82, 0x7d]));
  // 0x82 0x7e 0x00 0x7e: 126 needs the 16-bit form
  assert.deepEqual(encodeFrameHeader(2, true, 0, 126, null), Buffer.from([0x82, 0x7e, 0x00, 0x7e]));
  // 0x82 0x7e 0xff 0xff: 65535 still 16-bit
  assert.deepEqual(encodeFrameHeader(2, true, 0, 65535, null), Buffer.from([0x82, 0x7e, 0xff, 0xff]));
  // 0x82 0x7f 00 00 00 01 00 00 00 05: 2^32 + 5 needs both 32-bit halves
  assert.deepEqual(encodeFrameHeader(2, true, 0, 2 ** 32 + 5, null), Buffer.from([0x82, 0x7f, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x05]));
  // 0x82 0x7f 00 1f ff ff ff ff ff ff: 2^53 - 1, the largest representable length
  assert.deepEqual(encodeFrameHeader(2, true, 0, Number.MAX_SAFE_INTEGER, null), Buffer.from([0x82, 0x7f, 0x00, 0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]));
  assert.throws(() => encodeFrameHeader(2, true, 0, -1, null), RangeError);
  assert.throws(() => encodeFrameHeader(2, true, 0, 2 ** 53, null), RangeError);
  assert.throws(() => encodeFrameHeader(2, true, 0, 1.5, null), RangeError);
});

test('encodeFrameHeader: FIN, RSV, reserved opcodes and the mask key', () => {
  // 0x7b 0x00: no FIN, RSV 7, opcode 11 (reserved control), length 0
  assert.deepEqual(encodeFrameHeader(11, false, 7, 0, null), Buffer.from([0x7b, 0x00]));
  // 0xc1 0x80 + mask: FIN, RSV1, text, MASK, length 0
  assert.deepEqual(encodeFrameHeader(1, true, 4, 0, MASK), Buffer.from([0xc1, 0x80, 0x37, 0xfa, 0x21, 0x3d]));
  // 0x82 0xfe 0x01 0x00 + mask: MASK bit with the 16-bit length
  assert.deepEqual(encodeFrameHeader(2, true, 0, 256, MASK), Buffer.from([0x82, 0xfe, 0x01, 0x00, 0x37, 0xfa, 0x21, 0x3d]));
  // Out-of-range values wrap (rsv % 8, opcode % 16) rather than corrupt other bits: 0x93 = FIN, RSV 1, opcode 3
  assert.deepEqual(encodeFrameHeader(19, true, 9, 0, null), Buffer.from([0x93, 0x00]));
  assert.throws(() => encodeFrameHeader(1, true, 0, 0, Buffer.from([1, 2, 3])), RangeError);
});

test('repeatPayload repeats the pattern and cuts it to the length', () => {
  assert.equal(repeatPayload(Buffer.from('abc'), 7).toString(), 'abcabca');
  assert.equal(repeatPayload(Buffer.from('abc'), 2).toString(), 'ab');
  assert.equal(repeatPayload(Buffer.from('*'), 0).length, 0);
  assert.equal(repeatPayload(Buffer.alloc(0), 0).length, 0);
  assert.throws(() => repeatPayload(Buffer.alloc(0), 1), RangeError);
  const big = repeatPayload(Buffer.from('BAsd7&jh23'), 16 * 1024 * 1024);
  assert.equal(big.length, 16 * 1024 * 1024);
  for (const i of [0, 9, 10, 12345, big.length - 1]) assert.equal(big[i], 'BAsd7&jh23'.charCodeAt(i % 10), `byte ${i}`);
});

test('encodeFrame with payloadLen repeats the pattern, then masks', () => {
  const frame = encodeFrame({ opcode: 1, payload: Buffer.from('*'), payloadLen: 130, mask: MASK });
  // 0x81 0xfe 0x00 0x82: FIN, text, MASK, 16-bit length 130, then the mask key
  assert.deepEqual(frame.subarray(0, 8), Buffer.from([0x81, 0xfe, 0x00, 0x82, 0x37, 0xfa, 0x21, 0x3d]));
  assert.deepEqual(naiveMask(frame.subarray(8), MASK, 0), Buffer.alloc(130, '*'));
  assert.throws(() => encodeFrame({ opcode: 1, payloadLen: 3 }), RangeError);
  // 0x89 0x00: FIN, ping, length 0 (no payload at all is fine)
  assert.deepEqual(encodeFrame({ opcode: 9 }), Buffer.from([0x89, 0x00]));
});

test('closePayload: 2-byte big-endian code then the reason', () => {
  // 03 e8 = 1000, then "bye"
  assert.deepEqual(closePayload(1000, Buffer.from('bye')), Buffer.from([0x03, 0xe8, 0x62, 0x79, 0x65]));
  // ff ff = 65535 (invalid on purpose, the fuzzer sends it)
  assert.deepEqual(closePayload(65535), Buffer.from([0xff, 0xff]));
  assert.equal(closePayload().length, 0);
  assert.equal(closePayload(null, Buffer.from('ignored')).length, 0);
  assert.throws(() => closePayload(70000), RangeError);
});

test('maskInPlace: known vector, offsets and involution', () => {
  const data = Buffer.from('Hello');
  maskInPlace(data, MASK);
  assert.deepEqual(data, Buffer.from([0x7f, 0x9f, 0x4d, 0x51, 0x58]));
  maskInPlace(data, MASK);
  assert.equal(data.toString(), 'Hello');
  // Offset 3: "lo" is the 4th and 5th byte of the masked "Hello" above (mask bytes 3 and 0).
  const tail = Buffer.from('lo');
  maskInPlace(tail, MASK, 3);
  assert.deepEqual(tail, Buffer.from([0x51, 0x58]));
  // Offsets beyond 2^32 keep the right phase.
  const far = Buffer.from([0, 0, 0, 0]);
  maskInPlace(far, MASK, 2 ** 40 + 1);
  assert.deepEqual(far, Buffer.from([0xfa, 0x21, 0x3d, 0x37]));
  assert.throws(() => maskInPlace(Buffer.alloc(1), Buffer.alloc(3)), RangeError);
});

test('property: maskInPlace equals the byte-by-byte definition at any alignment and offset', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ maxLength: 300 }),
      fc.uint8Array({ minLength: 4, maxLength: 4 }),
      fc.integer({ min: 0, max: 7 }),
      fc.nat(),
      (bytes, mask, skew, offset) => {
        // Put the data at an arbitrary byteOffset so the aligned word path sees every phase.
        const backing = Buffer.alloc(bytes.length + 8);
        const data = backing.subarray(skew, skew + bytes.length);
        data.set(bytes);
        const expected = naiveMask(bytes, mask, offset);
        maskInPlace(data, mask, offset);
        assert.deepEqual(Buffer.from(data), expected);
        // Bytes around the view are untouched.
        assert.ok(backing.subarray(0, skew).every((b) => b === 0));
        assert.ok(backing.subarray(skew + bytes.length).every((b) => b === 0));
      },
    ),
    { numRuns: 300 },
  );
});

test('maskInPlace on large buffers (the native path when bufferutil is present) equals bytewise XOR at every offset', () => {
  const mask = Buffer.from([0x9a, 0x01, 0xfe, 0x42]);
  const data = Buffer.alloc(5000);
  for (let i = 0; i < data.length; i++) data[i] = (i * 7 + 3) & 0xff;
  for (const offset of [0, 1, 2, 3, 4097]) {
    const got = Buffer.from(data);
    maskInPlace(got, mask, offset);
    const want = Buffer.from(data.map((b, i) => b ^ (mask[(offset + i) % 4] as number)));
    assert.ok(got.equals(want), `offset ${offset}`);
  }
});

test('encodeMaskedFrame: the header then the masked payload, in one buffer; the payload untouched', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 1, maxLength: 70000 }).chain((bytes) => fc.tuple(fc.constant(bytes), fc.integer({ min: 0, max: bytes.length - 1 }))),
      fc.uint8Array({ minLength: 4, maxLength: 4 }),
      fc.integer({ min: 0, max: 15 }),
      fc.boolean(),
      fc.integer({ min: 0, max: 7 }),
      ([bytes, skip], mask, opcode, fin, rsv) => {
        // A view at any byte offset, as a fragment of a bigger message is.
        const payload = Buffer.from(bytes).subarray(skip);
        const before = Buffer.from(payload);
        const frame = encodeMaskedFrame(opcode, fin, rsv, payload, mask);
        const expected = Buffer.concat([encodeFrameHeader(opcode, fin, rsv, payload.length, mask), naiveMask(payload, mask, 0)]);
        assert.deepEqual(frame, expected);
        assert.deepEqual(payload, before);
      },
    ),
    { numRuns: 200 },
  );
  for (const n of [1, 31, 32, 33, 1023, 1024, 1025, 65535, 65536, 70001]) {
    const payload = Buffer.alloc(n, 0xa5);
    assert.deepEqual(
      encodeMaskedFrame(2, true, 0, payload, MASK),
      Buffer.concat([encodeFrameHeader(2, true, 0, n, MASK), naiveMask(payload, MASK, 0)]),
      `${n} bytes`,
    );
  }
  assert.throws(() => encodeMaskedFrame(1, true, 0, hello, Buffer.from([1, 2, 3])), RangeError);
});
