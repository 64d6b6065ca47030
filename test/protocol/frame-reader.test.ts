import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FrameReader } from '../../src/protocol/frame-reader.js';
import type { FrameHeader, FrameReaderOptions, FrameSink } from '../../src/protocol/frame-reader.js';
import { encodeFrame } from '../support/frame-encoder.js';
import { chop } from '../support/chop.js';

type Event =
  | ['violation', number, string]
  | ['begin', { opcode: number; fin: boolean; rsv: number; masked: boolean; mask: string | null; length: number }]
  | ['data', string]
  | ['end', number];

const SERVER: FrameReaderOptions = { requireMask: true, compressionNegotiated: false, maxFramePayload: 0 };
const DEFLATE: FrameReaderOptions = { requireMask: true, compressionNegotiated: true, maxFramePayload: 0 };
const LAX: FrameReaderOptions = { requireMask: false, compressionNegotiated: false, maxFramePayload: 0 };
const MASK = [0x37, 0xfa, 0x21, 0x3d] as const;

/** Records every callback; `stopAt` makes the sink call reader.stop() during its n-th callback. */
class Recorder implements FrameSink {
  readonly events: Event[] = [];
  reader: FrameReader | null = null;
  stopAt = -1;
  onViolation(code: number, reason: string): void {
    this.record(['violation', code, reason]);
  }
  onFrameBegin(h: FrameHeader): void {
    const mask = h.mask === null ? null : h.mask.toString('hex');
    this.record(['begin', { opcode: h.opcode, fin: h.fin, rsv: h.rsv, masked: h.masked, mask, length: h.length }]);
  }
  onFrameData(chunk: Buffer): void {
    this.record(['data', chunk.toString('hex')]);
  }
  onFrameEnd(h: FrameHeader): void {
    this.record(['end', h.opcode]);
  }
  private record(e: Event): void {
    this.events.push(e);
    if (this.events.length === this.stopAt) this.reader?.stop();
  }
}

/** Push the chunks in order through a fresh reader; returns the recorder and reader. */
function run(options: FrameReaderOptions, ...chunks: Buffer[]): { events: Event[]; reader: FrameReader } {
  const reader = new FrameReader(options);
  const rec = new Recorder();
  rec.reader = reader;
  for (const c of chunks) reader.push(c, rec);
  return { events: rec.events, reader };
}

/** The same events with each frame's data pieces joined (what any split of the stream must give). */
function merged(events: Event[]): Event[] {
  const out: Event[] = [];
  for (const e of events) {
    const last = out[out.length - 1];
    if (e[0] === 'data' && last !== undefined && last[0] === 'data') last[1] += e[1];
    else out.push(e[0] === 'begin' ? ['begin', { ...e[1] }] : ([...e] as Event));
  }
  return out;
}

function violations(events: Event[]): Array<[number, string]> {
  return events.flatMap((e) => (e[0] === 'violation' ? [[e[1], e[2]] as [number, string]] : []));
}

function bytewise(data: Buffer): Buffer[] {
  return Array.from(data, (b) => Buffer.from([b]));
}

// 0x81 0x85: FIN, text, MASK, length 5; mask 37 fa 21 3d; masked "Hello" (RFC 6455 §5.7)
const MASKED_HELLO = Buffer.from([0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]);
const HELLO_EVENTS: Event[] = [
  ['begin', { opcode: 1, fin: true, rsv: 0, masked: true, mask: '37fa213d', length: 5 }],
  ['data', Buffer.from('Hello').toString('hex')],
  ['end', 1],
];

test('reads the RFC 6455 §5.7 masked "Hello" and unmasks it', () => {
  const input = Buffer.from(MASKED_HELLO);
  const { events, reader } = run(SERVER, input);
  assert.deepEqual(events, HELLO_EVENTS);
  assert.deepEqual(input, MASKED_HELLO, 'the pushed chunk is not modified');
  assert.equal(reader.bufferedBytes, 0);
  assert.equal(reader.insideMessage, false);
});

test('one byte at a time gives the same frames, payload unmasked with the right offsets', () => {
  const { events } = run(SERVER, ...bytewise(MASKED_HELLO));
  assert.deepEqual(
    events.filter((e) => e[0] === 'data').map((e) => e[1]),
    ['48', '65', '6c', '6c', '6f'], // H e l l o, one byte per push
  );
  assert.deepEqual(merged(events), HELLO_EVENTS);
});

test('frames split across several writes, and several frames in one write', () => {
  // 0x01 0x83 + mask + "Hel": no FIN, text, MASK, length 3
  const f1 = encodeFrame({ opcode: 1, fin: false, payload: Buffer.from('Hel'), mask: Buffer.from(MASK) });
  // 0x89 0x80 + mask: FIN, ping, MASK, length 0
  const ping = encodeFrame({ opcode: 9, mask: Buffer.from([1, 2, 3, 4]) });
  // 0x80 0x82 + mask + "lo": FIN, continuation, MASK, length 2
  const f2 = encodeFrame({ opcode: 0, payload: Buffer.from('lo'), mask: Buffer.from([9, 8, 7, 6]) });
  assert.deepEqual(f1.subarray(0, 2), Buffer.from([0x01, 0x83]));
  const stream = Buffer.concat([f1, ping, f2]);
  const expected: Event[] = [
    ['begin', { opcode: 1, fin: false, rsv: 0, masked: true, mask: '37fa213d', length: 3 }],
    ['data', '48656c'],
    ['end', 1],
    ['begin', { opcode: 9, fin: true, rsv: 0, masked: true, mask: '01020304', length: 0 }],
    ['data', ''],
    ['end', 9],
    ['begin', { opcode: 0, fin: true, rsv: 0, masked: true, mask: '09080706', length: 2 }],
    ['data', '6c6f'],
    ['end', 0],
  ];
  assert.deepEqual(run(SERVER, stream).events, expected);
  assert.deepEqual(merged(run(SERVER, ...bytewise(stream)).events), expected);
  // Cuts inside the header, inside the mask, inside the payload.
  assert.deepEqual(merged(run(SERVER, ...chop(stream, [1, 4, 7, 9, 12, 15, 20])).events), expected);
});

test('an empty payload gives begin, one empty data, end', () => {
  // 0x82 0x80 + mask: FIN, binary, MASK, length 0
  const { events } = run(SERVER, Buffer.from([0x82, 0x80, 1, 2, 3, 4]));
  assert.deepEqual(events, [
    ['begin', { opcode: 2, fin: true, rsv: 0, masked: true, mask: '01020304', length: 0 }],
    ['data', ''],
    ['end', 2],
  ]);
});

test('unmasked frames are read as-is when masks are not required', () => {
  // 0x82 0x7e 0x01 0x00: FIN, binary, 16-bit length 256 (RFC 6455 §5.7)
  const frame = Buffer.concat([Buffer.from([0x82, 0x7e, 0x01, 0x00]), Buffer.alloc(256, 0xab)]);
  const { events } = run(LAX, frame.subarray(0, 3), frame.subarray(3, 100), frame.subarray(100));
  assert.deepEqual(merged(events), [
    ['begin', { opcode: 2, fin: true, rsv: 0, masked: false, mask: null, length: 256 }],
    ['data', 'ab'.repeat(256)],
    ['end', 2],
  ]);
});

test('64 KiB binary with the 64-bit length (RFC 6455 §5.7)', () => {
  // 0x82 0x7f 00 00 00 00 00 01 00 00: FIN, binary, 64-bit length 65536
  const header = Buffer.from([0x82, 0x7f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00]);
  const { events } = run(LAX, header, Buffer.alloc(65536, 0x11));
  assert.equal(violations(events).length, 0);
  assert.deepEqual(events[0], ['begin', { opcode: 2, fin: true, rsv: 0, masked: false, mask: null, length: 65536 }]);
  assert.deepEqual(events.at(-1), ['end', 2]);
});

test('bufferedBytes holds only header bytes, at most 14', () => {
  const reader = new FrameReader(SERVER);
  const rec = new Recorder();
  // 0x82 0xff 00 00 00 00 00 01 00 00 + mask: FIN, binary, MASK, 64-bit length 65536 (a 14-byte header)
  const header = Buffer.from([0x82, 0xff, 0, 0, 0, 0, 0, 1, 0, 0, 1, 2, 3, 4]);
  reader.push(header.subarray(0, 5), rec);
  assert.equal(reader.bufferedBytes, 5);
  reader.push(header.subarray(5, 13), rec);
  assert.equal(reader.bufferedBytes, 13);
  assert.equal(rec.events.length, 0);
  reader.push(header.subarray(13), rec);
  assert.equal(reader.bufferedBytes, 0);
  assert.equal(rec.events[0]?.[0], 'begin');
  reader.push(Buffer.alloc(1000), rec);
  assert.equal(reader.bufferedBytes, 0, 'payload bytes are passed on, not buffered');
});

test('insideMessage follows autobahn: opened by a data frame, closed after the FIN data frame ends', () => {
  const reader = new FrameReader(SERVER);
  const seen: boolean[] = [];
  const sink: FrameSink = {
    onViolation: () => assert.fail('no violation expected'),
    onFrameBegin: () => seen.push(reader.insideMessage),
    onFrameData: () => {},
    onFrameEnd: () => seen.push(reader.insideMessage),
  };
  const m = Buffer.from([1, 2, 3, 4]);
  reader.push(encodeFrame({ opcode: 1, fin: false, payload: Buffer.from('a'), mask: m }), sink);
  assert.equal(reader.insideMessage, true);
  reader.push(encodeFrame({ opcode: 9, payload: Buffer.from('p'), mask: m }), sink);
  assert.equal(reader.insideMessage, true, 'a ping between fragments does not touch the state');
  reader.push(encodeFrame({ opcode: 0, payload: Buffer.from('b'), mask: m }), sink);
  assert.equal(reader.insideMessage, false);
  // begin/end of text, ping, continuation: still true during the final onFrameEnd
  assert.deepEqual(seen, [true, true, true, true, true, true]);
});

/** One frame's first bytes and the violations they must produce, in order. */
interface ViolationCase {
  name: string;
  options: FrameReaderOptions;
  /** Frames pushed before (to set up message state); must produce no violation. */
  before?: Buffer[];
  frame: Buffer;
  expected: Array<[number, string]>;
}

const M = [0x01, 0x02, 0x03, 0x04];
const violationCases: ViolationCase[] = [
  {
    name: 'RSV1 without an extension',
    options: SERVER,
    // 0xc1 0x80 + mask: FIN, RSV1, text, MASK, length 0
    frame: Buffer.from([0xc1, 0x80, ...M]),
    expected: [[1002, 'RSV = 4 and no extension negotiated']],
  },
  {
    name: 'RSV2 even with permessage-deflate',
    options: DEFLATE,
    // 0xa1 0x80 + mask: FIN, RSV2, text, MASK, length 0
    frame: Buffer.from([0xa1, 0x80, ...M]),
    expected: [[1002, 'RSV = 2 and no extension negotiated']],
  },
  {
    name: 'RSV1 on a first data frame with permessage-deflate is fine',
    options: DEFLATE,
    // 0xc1 0x80 + mask: FIN, RSV1, text, MASK, length 0
    frame: Buffer.from([0xc1, 0x80, ...M]),
    expected: [],
  },
  {
    name: 'unmasked client frame',
    options: SERVER,
    // 0x81 0x00: FIN, text, no MASK, length 0
    frame: Buffer.from([0x81, 0x00]),
    expected: [[1002, 'unmasked client-to-server frame']],
  },
  {
    name: 'masked server frame, read by a client',
    options: { requireMask: false, refuseMask: true, compressionNegotiated: false, maxFramePayload: 0 },
    // 0x81 0x80 + mask: FIN, text, MASK, length 0
    frame: Buffer.from([0x81, 0x80, ...M]),
    expected: [[1002, 'masked server-to-client frame']],
  },
  {
    name: 'fragmented control frame',
    options: SERVER,
    // 0x09 0x80 + mask: no FIN, ping, MASK, length 0
    frame: Buffer.from([0x09, 0x80, ...M]),
    expected: [[1002, 'fragmented control frame']],
  },
  {
    name: 'control frame longer than 125',
    options: SERVER,
    // 0x89 0xfe 0x00 0x7e + mask + 126 bytes: FIN, ping, MASK, 16-bit length 126
    frame: Buffer.concat([Buffer.from([0x89, 0xfe, 0x00, 0x7e, ...M]), Buffer.alloc(126)]),
    expected: [[1002, 'control frame with payload length > 125 octets']],
  },
  {
    name: 'reserved control opcode',
    options: SERVER,
    // 0x8b 0x80 + mask: FIN, opcode 11, MASK, length 0
    frame: Buffer.from([0x8b, 0x80, ...M]),
    expected: [[1002, 'control frame using reserved opcode 11']],
  },
  {
    name: 'close frame with a 1-byte body',
    options: SERVER,
    // 0x88 0x81 + mask + 1 byte: FIN, close, MASK, length 1
    frame: Buffer.from([0x88, 0x81, ...M, 0x00]),
    expected: [[1002, 'received close control frame with payload len 1']],
  },
  {
    name: 'compressed control frame',
    options: DEFLATE,
    // 0xc9 0x80 + mask: FIN, RSV1, ping, MASK, length 0
    frame: Buffer.from([0xc9, 0x80, ...M]),
    expected: [[1002, 'received compressed control frame']],
  },
  {
    name: 'reserved data opcode',
    options: SERVER,
    // 0x83 0x80 + mask: FIN, opcode 3, MASK, length 0
    frame: Buffer.from([0x83, 0x80, ...M]),
    expected: [[1002, 'data frame using reserved opcode 3']],
  },
  {
    name: 'continuation outside a message',
    options: SERVER,
    // 0x80 0x80 + mask: FIN, continuation, MASK, length 0
    frame: Buffer.from([0x80, 0x80, ...M]),
    expected: [[1002, 'received continuation data frame outside fragmented message']],
  },
  {
    name: 'new data frame inside a fragmented message',
    options: SERVER,
    // 0x01 0x80 + mask: no FIN, text, MASK, length 0 (opens the message)
    before: [Buffer.from([0x01, 0x80, ...M])],
    // 0x81 0x80 + mask: FIN, text, MASK, length 0
    frame: Buffer.from([0x81, 0x80, ...M]),
    expected: [[1002, 'received non-continuation data frame while inside fragmented message']],
  },
  {
    name: 'compress bit on a continuation frame',
    options: DEFLATE,
    // 0x41 0x80 + mask: no FIN, RSV1, text, MASK, length 0 (a compressed message starts)
    before: [Buffer.from([0x41, 0x80, ...M])],
    // 0xc0 0x80 + mask: FIN, RSV1, continuation, MASK, length 0
    frame: Buffer.from([0xc0, 0x80, ...M]),
    expected: [[1002, 'received continuation data frame with compress bit set']],
  },
  {
    name: 'non-minimal 16-bit length',
    options: SERVER,
    // 0x82 0xfe 0x00 0x7d + mask + 125 bytes: FIN, binary, MASK, 16-bit length 125
    frame: Buffer.concat([Buffer.from([0x82, 0xfe, 0x00, 0x7d, ...M]), Buffer.alloc(125)]),
    expected: [[1002, 'invalid data frame length (not using minimal length encoding)']],
  },
  {
    name: 'non-minimal 64-bit length',
    options: SERVER,
    // 0x82 0xff 00 00 00 00 00 00 ff ff + mask + 65535 bytes: FIN, binary, MASK, 64-bit length 65535
    frame: Buffer.concat([Buffer.from([0x82, 0xff, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...M]), Buffer.alloc(65535)]),
    expected: [[1002, 'invalid data frame length (not using minimal length encoding)']],
  },
  {
    name: 'several violations on one frame, in autobahn order',
    options: SERVER,
    // 0x3b 0x7e 0x00 0x05 + 5 bytes: no FIN, RSV 3, opcode 11, no MASK, 16-bit length 5
    frame: Buffer.from([0x3b, 0x7e, 0x00, 0x05, 1, 2, 3, 4, 5]),
    expected: [
      [1002, 'RSV = 3 and no extension negotiated'],
      [1002, 'unmasked client-to-server frame'],
      [1002, 'fragmented control frame'],
      [1002, 'control frame with payload length > 125 octets'],
      [1002, 'control frame using reserved opcode 11'],
      [1002, 'invalid data frame length (not using minimal length encoding)'],
    ],
  },
  {
    name: 'close with length 1, compressed, under deflate',
    options: DEFLATE,
    // 0xc8 0x81 + mask + 1 byte: FIN, RSV1, close, MASK, length 1
    frame: Buffer.from([0xc8, 0x81, ...M, 0x03]),
    expected: [
      [1002, 'received close control frame with payload len 1'],
      [1002, 'received compressed control frame'],
    ],
  },
];

for (const c of violationCases) {
  test(`violation: ${c.name}`, () => {
    const reader = new FrameReader(c.options);
    const rec = new Recorder();
    for (const b of c.before ?? []) reader.push(b, rec);
    assert.deepEqual(violations(rec.events), [], 'setup frames are clean');
    const start = rec.events.length;
    reader.push(c.frame, rec);
    const events = rec.events.slice(start);
    assert.deepEqual(violations(events), c.expected);
    // Reported before the frame begins, and the frame is then still read to its end.
    const firstBegin = events.findIndex((e) => e[0] === 'begin');
    assert.equal(firstBegin, c.expected.length, 'all violations come before onFrameBegin');
    assert.equal(events.at(-1)?.[0], 'end');
    assert.equal(reader.stopped, false);
    // The same violations when the frame arrives one byte at a time (each reported once).
    const slow = new FrameReader(c.options);
    const rec2 = new Recorder();
    for (const b of c.before ?? []) slow.push(b, rec2);
    // (header and first payload bytes one at a time, the long rest in one go)
    for (const piece of [...bytewise(c.frame.subarray(0, 20)), c.frame.subarray(20)]) slow.push(piece, rec2);
    assert.deepEqual(violations(rec2.events.slice(start)), c.expected);
  });
}

test('a data frame with a reserved opcode opens a message like any data frame', () => {
  // 0x03 0x80 + mask: no FIN, opcode 3, MASK, length 0
  const { reader } = run(SERVER, Buffer.from([0x03, 0x80, ...M]));
  assert.equal(reader.insideMessage, true);
});

test('length >= 2^63 is fatal: reported, then the reader stops', () => {
  // 0x82 0xff 80 00 00 00 00 00 00 00 + mask: FIN, binary, MASK, 64-bit length with the top bit set
  const frame = Buffer.from([0x82, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0, ...M, 0xaa]);
  const { events, reader } = run(SERVER, frame, MASKED_HELLO);
  assert.deepEqual(events, [['violation', 1002, 'invalid data frame length (>2^63)']]);
  assert.equal(reader.stopped, true);
});

test('lengths beyond 2^53 (but < 2^63) exceed any limit: 1009 and stop', () => {
  // 0x82 0xff 7f ff ff ff ff ff ff ff + mask: FIN, binary, MASK, 64-bit length 2^63 - 1
  const huge = run(SERVER, Buffer.from([0x82, 0xff, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, ...M]), MASKED_HELLO);
  assert.deepEqual(huge.events, [['violation', 1009, `frame exceeds payload limit of ${Number.MAX_SAFE_INTEGER} octets`]]);
  assert.equal(huge.reader.stopped, true);
  // 0x82 0xff 00 20 00 00 00 00 00 00 + mask: 64-bit length 2^53, one past the largest safe integer
  const limited = run({ ...SERVER, maxFramePayload: 1000 }, Buffer.from([0x82, 0xff, 0, 0x20, 0, 0, 0, 0, 0, 0, ...M]));
  assert.deepEqual(limited.events, [['violation', 1009, 'frame exceeds payload limit of 1000 octets']]);
  // 0x82 0xff 00 1f ff ff ff ff ff ff + mask: 2^53 - 1 itself is representable: accepted without a limit
  const max = run(SERVER, Buffer.from([0x82, 0xff, 0, 0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, ...M]));
  assert.deepEqual(max.events, [['begin', { opcode: 2, fin: true, rsv: 0, masked: true, mask: '01020304', length: Number.MAX_SAFE_INTEGER }]]);
});

test('maxFramePayload: a frame over the limit gets 1009 and stops the reader; at the limit is fine', () => {
  const options = { ...SERVER, maxFramePayload: 100 };
  const at = run(options, encodeFrame({ opcode: 2, payload: Buffer.alloc(100), mask: Buffer.from(M) }));
  assert.deepEqual(violations(at.events), []);
  assert.equal(at.events.at(-1)?.[0], 'end');
  // 0x82 0xe5 + mask: FIN, binary, MASK, length 101
  const over = run(options, Buffer.from([0x82, 0xe5, ...M]), Buffer.alloc(101), MASKED_HELLO);
  assert.deepEqual(over.events, [['violation', 1009, 'frame exceeds payload limit of 100 octets']]);
  assert.equal(over.reader.stopped, true);
  // The limit applies to the announced length, before any payload arrives.
  const early = run(options, Buffer.from([0x82, 0xfe, 0x10, 0x00, ...M]));
  assert.deepEqual(early.events, [['violation', 1009, 'frame exceeds payload limit of 100 octets']]);
});

test('stop() from a sink callback ends all callbacks, in this push and later ones', () => {
  const stream = Buffer.concat([MASKED_HELLO, MASKED_HELLO, MASKED_HELLO]);
  // Every event of the full run, then stop at each position in turn.
  const all = run(SERVER, stream).events;
  assert.equal(all.length, 9);
  for (let k = 1; k <= all.length; k++) {
    const reader = new FrameReader(SERVER);
    const rec = new Recorder();
    rec.reader = reader;
    rec.stopAt = k;
    reader.push(stream, rec);
    reader.push(MASKED_HELLO, rec);
    assert.deepEqual(rec.events, all.slice(0, k), `stop at event ${k}`);
    assert.equal(reader.stopped, true);
  }
  // Stopping in the first of several violations suppresses the rest.
  const reader = new FrameReader(SERVER);
  const rec = new Recorder();
  rec.reader = reader;
  rec.stopAt = 1;
  // 0x3b 0x00: no FIN, RSV 3, opcode 11, no MASK, length 0 (four violations)
  reader.push(Buffer.from([0x3b, 0x00]), rec);
  assert.deepEqual(rec.events, [['violation', 1002, 'RSV = 3 and no extension negotiated']]);
});

test('stop() by the caller: later pushes are ignored', () => {
  const reader = new FrameReader(SERVER);
  const rec = new Recorder();
  reader.push(MASKED_HELLO.subarray(0, 8), rec); // 6 header bytes + "He"
  reader.stop();
  reader.push(MASKED_HELLO.subarray(8), rec);
  assert.deepEqual(rec.events, [
    ['begin', { opcode: 1, fin: true, rsv: 0, masked: true, mask: '37fa213d', length: 5 }],
    ['data', '4865'], // "He"
  ]);
});

// ---- properties ----

const frameArb = fc.record({
  opcode: fc.integer({ min: 0, max: 15 }),
  fin: fc.boolean(),
  rsv: fc.integer({ min: 0, max: 7 }),
  mask: fc.option(fc.uint8Array({ minLength: 4, maxLength: 4 }), { nil: null }),
  payload: fc.oneof(
    { weight: 4, arbitrary: fc.uint8Array({ maxLength: 140 }).map((b) => Buffer.from(b)) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(0, 1, 125, 126, 127, 65535, 65536, 65537), fc.integer({ min: 0, max: 255 })).map(([n, v]) => Buffer.alloc(n, v)),
    },
  ),
});
type FrameArb = typeof frameArb extends fc.Arbitrary<infer T> ? T : never;

function encode(f: FrameArb): Buffer {
  return encodeFrame({ opcode: f.opcode, fin: f.fin, rsv: f.rsv, mask: f.mask, payload: f.payload });
}

test('property: encode → read round-trips any frame (header fields and payload)', () => {
  fc.assert(
    fc.property(frameArb, (f) => {
      const { events, reader } = run(LAX, encode(f));
      const m = merged(events).filter((e) => e[0] !== 'violation');
      const mask = f.mask === null ? null : Buffer.from(f.mask).toString('hex');
      assert.deepEqual(m, [
        ['begin', { opcode: f.opcode, fin: f.fin, rsv: f.rsv, masked: f.mask !== null, mask, length: f.payload.length }],
        ['data', f.payload.toString('hex')],
        ['end', f.opcode],
      ]);
      assert.equal(reader.bufferedBytes, 0);
    }),
    { numRuns: 300 },
  );
});

/** A stream of frames, where to cut it, and the reader's options: what the split properties draw. */
const splitStream = [fc.array(frameArb, { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 30 }), fc.constantFrom(SERVER, DEFLATE, LAX)] as const;

test('property: any split of the byte stream gives the same frames, payloads and violations', () => {
  fc.assert(
    fc.property(...splitStream, (frames, cuts, options) => {
      const stream = Buffer.concat(frames.map(encode));
      const whole = run(options, stream).events;
      const split = run(options, ...chop(stream, cuts)).events;
      assert.deepEqual(merged(split), merged(whole));
    }),
    { numRuns: 200 },
  );
});

test('property: unmaskInPlace gives the same events at any split, unmasking only the payload bytes of the pushed chunks', () => {
  fc.assert(
    fc.property(...splitStream, (frames, cuts, options) => {
      const stream = Buffer.concat(frames.map(encode));
      const copied = chop(Buffer.from(stream), cuts);
      const inPlace = chop(Buffer.from(stream), cuts);
      const byCopy = run(options, ...copied).events;
      const byInPlace = run({ ...options, unmaskInPlace: true }, ...inPlace).events;
      assert.deepEqual(merged(byInPlace), merged(byCopy));
      // Copying leaves the chunks as they were; in place, the stream reads as if every frame were
      // sent unmasked (mask bit and key still there): headers untouched, payloads in the clear.
      assert.ok(Buffer.concat(copied).equals(stream));
      const clear = Buffer.concat(
        frames.map((f) => {
          const masked = encode(f);
          return Buffer.concat([masked.subarray(0, masked.length - f.payload.length), f.payload]);
        }),
      );
      if (!run(options, stream).reader.stopped) assert.ok(Buffer.concat(inPlace).equals(clear));
    }),
    { numRuns: 200 },
  );
});

test('property: valid masked messages with interleaved control frames read back without violations', () => {
  const messageArb = fc.record({
    opcode: fc.constantFrom(1, 2),
    fragments: fc.array(fc.uint8Array({ maxLength: 300 }), { minLength: 1, maxLength: 4 }),
    pings: fc.array(fc.boolean(), { maxLength: 4 }),
  });
  fc.assert(
    fc.property(
      fc.array(messageArb, { maxLength: 5 }),
      fc.uint8Array({ minLength: 4, maxLength: 4 }),
      fc.array(fc.nat(), { maxLength: 20 }),
      (messages, mask, cuts) => {
        const wire: Buffer[] = [];
        for (const msg of messages) {
          msg.fragments.forEach((frag, i) => {
            const last = i === msg.fragments.length - 1;
            wire.push(encodeFrame({ opcode: i === 0 ? msg.opcode : 0, fin: last, payload: frag, mask }));
            // 0x89: a ping between fragments is legal (§5.4)
            if (!last && msg.pings[i] === true) wire.push(encodeFrame({ opcode: 9, payload: Buffer.from('p'), mask }));
          });
        }
        const reader = new FrameReader(SERVER);
        const got: Array<{ opcode: number; data: Buffer }> = [];
        let current: Buffer[] = [];
        let first = -1;
        const sink: FrameSink = {
          onViolation: (code, reason) => assert.fail(`unexpected violation ${code} ${reason}`),
          onFrameBegin: (h) => {
            if (h.opcode !== 0 && h.opcode < 8) first = h.opcode;
          },
          onFrameData: (chunk) => {
            current.push(Buffer.from(chunk));
          },
          onFrameEnd: (h) => {
            if (h.opcode >= 8) {
              current.pop();
              return;
            }
            if (h.fin) {
              got.push({ opcode: first, data: Buffer.concat(current) });
              current = [];
            }
          },
        };
        for (const piece of chop(Buffer.concat(wire), cuts)) reader.push(piece, sink);
        assert.deepEqual(
          got,
          messages.map((m) => ({ opcode: m.opcode, data: Buffer.concat(m.fragments) })),
        );
        assert.equal(reader.insideMessage, false);
      },
    ),
    { numRuns: 200 },
  );
});

test('property: random byte streams never throw, never buffer more than 14 bytes, and stop means silence', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ maxLength: 600 }),
      fc.array(fc.nat(), { maxLength: 20 }),
      fc.record({
        requireMask: fc.boolean(),
        compressionNegotiated: fc.boolean(),
        maxFramePayload: fc.constantFrom(0, 10, 125, 1000),
      }),
      (bytes, cuts, options) => {
        const reader = new FrameReader(options);
        let open: FrameHeader | null = null;
        let received = 0;
        let afterStop = 0;
        const sink: FrameSink = {
          onViolation: (code) => {
            if (reader.stopped) afterStop++;
            assert.ok(code === 1002 || code === 1009);
          },
          onFrameBegin: (h) => {
            if (reader.stopped) afterStop++;
            assert.equal(open, null, 'frames do not nest');
            assert.ok(options.maxFramePayload === 0 || h.length <= options.maxFramePayload);
            open = h;
            received = 0;
          },
          onFrameData: (chunk) => {
            if (reader.stopped) afterStop++;
            assert.ok(open !== null);
            received += chunk.length;
            assert.ok(received <= open.length);
          },
          onFrameEnd: (h) => {
            if (reader.stopped) afterStop++;
            assert.equal(h, open);
            assert.equal(received, h.length);
            open = null;
          },
        };
        for (const piece of chop(Buffer.from(bytes), cuts)) {
          reader.push(piece, sink);
          assert.ok(reader.bufferedBytes <= 14);
        }
        assert.equal(afterStop, 0);
      },
    ),
    { numRuns: 300 },
  );
});
