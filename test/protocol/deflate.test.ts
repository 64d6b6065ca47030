/**
 * permessage-deflate (RFC 7692): offer parsing and the response string against autobahn-python
 * 0.10.9's rules, the compressor's window and context guarantees checked by an independent decoder,
 * decompression limits, and interoperability with ws's implementation in the client role.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import fc from 'fast-check';
import { DocumentChunks } from '../../src/protocol/deflate/document.js';
import { DeflateError, PerMessageDeflate } from '../../src/protocol/deflate/codec.js';
import { acceptExtensionString, parseDeflateOffers, serverAgreement, type DeflateAccept, type DeflateOffer } from '../../src/protocol/deflate/params.js';
import { parseExtensionsHeader } from '../../src/protocol/handshake.js';
import { payloadSubgroups } from '../../src/cases/data/deflate-cases.js';
import { corpusFile } from '../../src/cases/data/deflate-corpus.js';
import { chop } from '../support/chop.js';

const TAIL = Buffer.from([0x00, 0x00, 0xff, 0xff]);
const MiB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Helpers

/** The offer a bare "permessage-deflate" parses to. */
const PLAIN_OFFER: DeflateOffer = {
  acceptNoContextTakeover: true,
  acceptMaxWindowBits: false,
  requestNoContextTakeover: false,
  requestMaxWindowBits: 0,
} as const;

/** An accept built from offer fields and what the server asks of the client. */
function makeAccept(offer: Partial<DeflateOffer> = {}, requestNoContextTakeover = false, requestMaxWindowBits = 0): DeflateAccept {
  return {
    offer: { ...PLAIN_OFFER, acceptMaxWindowBits: requestMaxWindowBits !== 0, ...offer },
    requestNoContextTakeover,
    requestMaxWindowBits,
  };
}

/** parseDeflateOffers on a header value, through the real header parser. */
function parseHeader(value: string): ReturnType<typeof parseDeflateOffers> {
  return parseDeflateOffers(parseExtensionsHeader(value));
}

/** A seeded xorshift PRNG: the same data on every run. */
function prng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

/**
 * Messages with repeats at every distance (words from a small vocabulary, copies of bytes from
 * 100 B to 30 KB back, also across messages) plus random bytes, so that a compressor that ignored
 * its window limit would show it.
 */
function mixedMessages(count: number, size: number, seed = 7): Buffer[] {
  const rnd = prng(seed);
  const words = ['deflate', 'window', 'context', 'takeover', 'autobahn', 'wsgate', '{"id":', '"value":', '0.125,', '\n'];
  const history: number[] = [];
  const messages: Buffer[] = [];
  for (let m = 0; m < count; m++) {
    const bytes: number[] = [];
    while (bytes.length < size) {
      const kind = rnd() % 4;
      if (kind === 0) {
        for (const c of Buffer.from(words[rnd() % words.length]!)) bytes.push(c);
      } else if (kind === 1) {
        const all = history.length + bytes.length;
        const back = [100, 300, 700, 1500, 5000, 12000, 30000][rnd() % 7]!;
        if (all > back) {
          for (let i = 0; i < 40; i++) {
            const at = all - back + i;
            bytes.push(at < history.length ? history[at]! : bytes[at - history.length]!);
          }
        }
      } else if (kind === 2) {
        for (let i = 0; i < 8; i++) bytes.push(rnd() & 0xff);
      } else {
        bytes.push(0x41 + (rnd() % 26));
      }
    }
    const message = Buffer.from(bytes.slice(0, size));
    for (const b of message) history.push(b);
    messages.push(message);
  }
  return messages;
}

/** Inflates one whole compressed message through startMessage/push/endMessage. */
function inflateMessage(pmd: PerMessageDeflate, compressed: Buffer, pieces: Buffer[] = [compressed]): Buffer {
  pmd.startMessage();
  const out = pieces.map((p) => pmd.push(p));
  out.push(pmd.endMessage());
  return Buffer.concat(out);
}

/** Runs fn and returns the DeflateError it throws. */
function deflateErrorOf(fn: () => unknown): DeflateError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof DeflateError, `expected a DeflateError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a DeflateError');
}

/**
 * A small RFC 1951 decoder (after zlib's puff.c), independent of zlib: returns the output and the
 * longest back-reference distance used, so that a window limit can be checked exactly (zlib's
 * inflate with a small window also accepts a distance into its current output buffer).
 */
function inflateChecked(data: Uint8Array): { output: Buffer; maxDistance: number } {
  let bit = 0;
  const bits = (n: number): number => {
    let v = 0;
    for (let i = 0; i < n; i++) {
      if (bit >= data.length * 8) throw new Error('truncated deflate data');
      v |= ((data[bit >>> 3]! >>> (bit & 7)) & 1) << i;
      bit++;
    }
    return v;
  };
  let out = new Uint8Array(1 << 16);
  let outLen = 0;
  const put = (b: number): void => {
    if (outLen === out.length) {
      const bigger = new Uint8Array(out.length * 2);
      bigger.set(out);
      out = bigger;
    }
    out[outLen++] = b;
  };
  let maxDistance = 0;
  type Huffman = { counts: number[]; symbols: number[] };
  const build = (lengths: number[]): Huffman => {
    const counts = new Array<number>(16).fill(0);
    for (const l of lengths) counts[l]!++;
    counts[0] = 0;
    const offsets = [0, 0];
    for (let len = 1; len < 15; len++) offsets[len + 1] = offsets[len]! + counts[len]!;
    const symbols = new Array<number>(lengths.length).fill(0);
    lengths.forEach((l, sym) => {
      if (l !== 0) symbols[offsets[l]!++] = sym;
    });
    return { counts, symbols };
  };
  const decode = (h: Huffman): number => {
    let code = 0;
    let first = 0;
    let index = 0;
    for (let len = 1; len <= 15; len++) {
      code |= bits(1);
      const count = h.counts[len]!;
      if (code - count < first) return h.symbols[index + (code - first)]!;
      index += count;
      first = (first + count) << 1;
      code <<= 1;
    }
    throw new Error('invalid Huffman code');
  };
  const LBASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
  const LEXT = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
  const DBASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
  const DEXT = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
  const codes = (lit: Huffman, dist: Huffman): void => {
    for (;;) {
      const sym = decode(lit);
      if (sym < 256) put(sym);
      else if (sym === 256) return;
      else {
        const l = sym - 257;
        if (l >= 29) throw new Error('invalid length symbol');
        const len = LBASE[l]! + bits(LEXT[l]!);
        const d = decode(dist);
        if (d >= 30) throw new Error('invalid distance symbol');
        const distance = DBASE[d]! + bits(DEXT[d]!);
        if (distance > outLen) throw new Error('distance too far back');
        maxDistance = Math.max(maxDistance, distance);
        for (let i = 0; i < len; i++) put(out[outLen - distance]!);
      }
    }
  };
  const fixedLit = build([...Array<number>(144).fill(8), ...Array<number>(112).fill(9), ...Array<number>(24).fill(7), ...Array<number>(8).fill(8)]);
  const fixedDist = build(Array<number>(30).fill(5));
  const ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
  for (;;) {
    const last = bits(1);
    const type = bits(2);
    if (type === 0) {
      bit = (bit + 7) & ~7;
      const len = bits(16);
      const nlen = bits(16);
      if ((len ^ 0xffff) !== nlen) throw new Error('invalid stored block lengths');
      for (let i = 0; i < len; i++) put(bits(8));
    } else if (type === 1) {
      codes(fixedLit, fixedDist);
    } else if (type === 2) {
      const nlen = bits(5) + 257;
      const ndist = bits(5) + 1;
      const ncode = bits(4) + 4;
      const clen = new Array<number>(19).fill(0);
      for (let i = 0; i < ncode; i++) clen[ORDER[i]!] = bits(3);
      const lencode = build(clen);
      const lengths: number[] = [];
      while (lengths.length < nlen + ndist) {
        const sym = decode(lencode);
        if (sym < 16) lengths.push(sym);
        else {
          const repeat = sym === 16 ? 3 + bits(2) : sym === 17 ? 3 + bits(3) : 11 + bits(7);
          const value = sym === 16 ? lengths[lengths.length - 1] : 0;
          if (value === undefined) throw new Error('repeat without a previous length');
          for (let i = 0; i < repeat; i++) lengths.push(value);
        }
      }
      codes(build(lengths.slice(0, nlen)), build(lengths.slice(nlen)));
    } else {
      throw new Error('invalid block type');
    }
    // A sync-flushed stream ends byte-aligned right after its empty stored block.
    if (last === 1 || (bit + 7) >>> 3 >= data.length) break;
  }
  return { output: Buffer.from(out.subarray(0, outLen)), maxDistance };
}

// ws's permessage-deflate, in the client role, as the independent peer.
const require = createRequire(import.meta.url);
const wsDir = path.dirname(require.resolve('ws'));
type WsCallback = (err: Error | null, result?: Buffer) => void;
interface WsPerMessageDeflate {
  offer(): Record<string, number | true>;
  accept(configurations: Array<Record<string, Array<string | true>>>): Record<string, number | true>;
  compress(data: Buffer, fin: boolean, cb: WsCallback): void;
  decompress(data: Buffer, fin: boolean, cb: WsCallback): void;
  cleanup(): void;
}
interface WsClientOptions {
  serverNoContextTakeover?: boolean;
  serverMaxWindowBits?: number;
  clientNoContextTakeover?: boolean;
  clientMaxWindowBits?: number | boolean;
}
const WsPmd = require(path.join(wsDir, 'lib/permessage-deflate.js')) as new (options: object) => WsPerMessageDeflate;
const wsExtension = require(path.join(wsDir, 'lib/extension.js')) as {
  parse(header: string): Record<string, Array<Record<string, Array<string | true>>>>;
  format(extensions: Record<string, Array<Record<string, number | true>>>): string;
};

/** ws's compress/decompress as a promise. */
function wsCall(pmd: WsPerMessageDeflate, op: 'compress' | 'decompress', data: Buffer, fin = true): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    pmd[op](data, fin, (err, result) => (err ? reject(err) : resolve(result!)));
  });
}

/**
 * A full negotiation: the ws client's offer header goes through our parsers, we accept it, and our
 * response string goes through ws's parser and acceptAsClient. Returns both ends.
 */
function negotiate(
  client: WsClientOptions,
  requestNoContextTakeover: boolean,
  requestMaxWindowBits: number,
  level = 6,
): { ws: WsPerMessageDeflate; ours: PerMessageDeflate; response: string } {
  const ws = new WsPmd({ ...client, isServer: false, maxPayload: 0, threshold: 0 });
  const header = wsExtension.format({ 'permessage-deflate': [ws.offer()] });
  const parsed = parseHeader(header);
  assert.ok(parsed.ok, `offer "${header}" refused`);
  const offer = parsed.offers[0]!;
  const accept: DeflateAccept = { offer, requestNoContextTakeover, requestMaxWindowBits };
  const response = acceptExtensionString(accept);
  ws.accept(wsExtension.parse(response)['permessage-deflate']!);
  return { ws, ours: new PerMessageDeflate(serverAgreement(accept), { level, maxMessageSize: 64 * MiB }), response };
}

// ---------------------------------------------------------------------------------------------
// Decompression bombs first, while the process is still small (the memory figures are deltas).

describe('decompression limits', () => {
  test('a 1 GiB bomb stops at maxMessageSize (16 MiB) with 1009, in bounded memory', (t) => {
    // Deflate cannot beat about 1032:1, so 1 GiB of zeros is about 1 MiB compressed: one 1 MiB
    // piece that starts the stream, then a 1 MiB piece that only references the window, repeated.
    const maker = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 9, maxMessageSize: 0 });
    const zeros = Buffer.alloc(MiB);
    const head = Buffer.concat([maker.compress(zeros), TAIL]);
    const repeat = Buffer.concat([maker.compress(zeros), TAIL]);
    maker.close();
    const bomb = Buffer.concat([head, ...Array<Buffer>(1023).fill(repeat)]);
    assert.ok(bomb.length < 1.5 * MiB, `bomb is ${bomb.length} bytes`);

    const pmd = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 16 * MiB });
    const before = process.memoryUsage();
    const maxRssBefore = process.resourceUsage().maxRSS * 1024;
    const t0 = performance.now();
    let delivered = 0;
    pmd.startMessage();
    const err = deflateErrorOf(() => {
      for (let i = 0; i < bomb.length; i += 64 * 1024) delivered += pmd.push(bomb.subarray(i, i + 64 * 1024)).length;
    });
    const ms = performance.now() - t0;
    const after = process.memoryUsage();
    const maxRssAfter = process.resourceUsage().maxRSS * 1024;
    assert.equal(err.code, 1009);
    assert.ok(delivered <= 16 * MiB, `delivered ${delivered}`);
    // Stopping at the limit is what bounds the time: a figure here, not an assertion (speed is the bench's business).
    t.diagnostic(`stopped after ${ms.toFixed(0)} ms`);
    assert.ok(after.rss - before.rss < 64 * MiB, `rss grew by ${(after.rss - before.rss) / MiB} MiB`);
    assert.ok(maxRssAfter - maxRssBefore < 64 * MiB, `peak rss grew by ${(maxRssAfter - maxRssBefore) / MiB} MiB`);
    assert.ok(after.arrayBuffers - before.arrayBuffers < 40 * MiB, `buffers grew by ${(after.arrayBuffers - before.arrayBuffers) / MiB} MiB`);
    // Sticky: the connection is being failed, every later call says so again.
    assert.equal(
      deflateErrorOf(() => pmd.push(Buffer.from([0]))),
      err,
    );
    assert.equal(
      deflateErrorOf(() => pmd.endMessage()),
      err,
    );
    pmd.close();
  });

  test('the bomb in one push() also stops at the limit', () => {
    const maker = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 9, maxMessageSize: 0 });
    const first = maker.compress(Buffer.alloc(4 * MiB));
    maker.close();
    const pmd = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: MiB });
    pmd.startMessage();
    assert.equal(deflateErrorOf(() => pmd.push(first)).code, 1009);
    pmd.close();
  });

  test('maxMessageSize is counted over the whole message, across push() and endMessage()', () => {
    const msg = mixedMessages(1, 100_000, 3)[0]!;
    const maker = new PerMessageDeflate(serverAgreement(makeAccept({ requestNoContextTakeover: true })), { level: 6, maxMessageSize: 0 });
    const compressed = maker.compress(msg);
    const pieces = chop(compressed, [1000, 5000, 9000, 20000]);
    // Exactly the limit: fine.
    const exact = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 100_000 });
    assert.deepEqual(inflateMessage(exact, compressed, pieces), msg);
    // One byte less: 1009 somewhere along the pieces, never more than the limit handed out.
    const short = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 99_999 });
    short.startMessage();
    let delivered = 0;
    const err = deflateErrorOf(() => {
      for (const p of pieces) delivered += short.push(p).length;
      short.endMessage();
    });
    assert.equal(err.code, 1009);
    assert.ok(delivered <= 99_999);
    // 0 = no limit.
    const unlimited = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
    assert.deepEqual(inflateMessage(unlimited, compressed), msg);
    for (const p of [maker, exact, short, unlimited]) p.close();
  });

  test('the limit applies per message, not per connection', () => {
    const maker = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
    const pmd = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 1000 });
    for (let i = 0; i < 50; i++) {
      const msg = Buffer.alloc(1000, i);
      assert.deepEqual(inflateMessage(pmd, maker.compress(msg)), msg);
    }
    maker.close();
    pmd.close();
  });
});

// ---------------------------------------------------------------------------------------------

describe('parseDeflateOffers (PerMessageDeflateOffer.parse)', () => {
  const accepted: Array<[string, DeflateOffer[]]> = [
    ['permessage-deflate', [PLAIN_OFFER]],
    ['permessage-deflate; client_max_window_bits', [{ ...PLAIN_OFFER, acceptMaxWindowBits: true }]],
    ['permessage-deflate; client_max_window_bits=10', [{ ...PLAIN_OFFER, acceptMaxWindowBits: true }]],
    ['permessage-deflate; client_no_context_takeover', [PLAIN_OFFER]],
    ['permessage-deflate; server_no_context_takeover', [{ ...PLAIN_OFFER, requestNoContextTakeover: true }]],
    ['permessage-deflate; server_max_window_bits=8', [{ ...PLAIN_OFFER, requestMaxWindowBits: 8 }]],
    ['permessage-deflate; server_max_window_bits="12"', [{ ...PLAIN_OFFER, requestMaxWindowBits: 12 }]],
    // Python's int(): leading zeros and a sign are accepted.
    ['permessage-deflate; server_max_window_bits=010', [{ ...PLAIN_OFFER, requestMaxWindowBits: 10 }]],
    ['permessage-deflate; server_max_window_bits=+9', [{ ...PLAIN_OFFER, requestMaxWindowBits: 9 }]],
    ['PerMessage-Deflate; Server_No_Context_Takeover', [{ ...PLAIN_OFFER, requestNoContextTakeover: true }]],
    [
      'permessage-deflate; client_no_context_takeover; client_max_window_bits; server_no_context_takeover; server_max_window_bits=15',
      [{ acceptNoContextTakeover: true, acceptMaxWindowBits: true, requestNoContextTakeover: true, requestMaxWindowBits: 15 }],
    ],
    [
      'x-webkit-deflate-frame; no_context_takeover, permessage-deflate; server_max_window_bits=10, permessage-deflate',
      [{ ...PLAIN_OFFER, requestMaxWindowBits: 10 }, PLAIN_OFFER],
    ],
    // Other extensions are not checked at all.
    ['foo; bar=baz; bar, x-other', []],
    ['', []],
  ];
  for (const [header, offers] of accepted) {
    test(`accepts "${header}"`, () => {
      assert.deepEqual(parseHeader(header), { ok: true, offers });
    });
  }

  const pmd = "extension 'permessage-deflate'";
  const refused: Array<[string, string]> = [
    ['permessage-deflate; foo', `illegal extension parameter 'foo' for ${pmd}`],
    ['permessage-deflate; x=1', `illegal extension parameter 'x' for ${pmd}`],
    [
      'permessage-deflate; server_no_context_takeover; server_no_context_takeover',
      `multiple occurrence of extension parameter 'server_no_context_takeover' for ${pmd}`,
    ],
    ['permessage-deflate; client_max_window_bits; client_max_window_bits=10', `multiple occurrence of extension parameter 'client_max_window_bits' for ${pmd}`],
    ['permessage-deflate; server_no_context_takeover=1', `illegal extension parameter value '1' for parameter 'server_no_context_takeover' of ${pmd}`],
    ['permessage-deflate; client_no_context_takeover=true', `illegal extension parameter value 'true' for parameter 'client_no_context_takeover' of ${pmd}`],
    // A bare server_max_window_bits is int(True) == 1.
    ['permessage-deflate; server_max_window_bits', `illegal extension parameter value '1' for parameter 'server_max_window_bits' of ${pmd}`],
    ['permessage-deflate; server_max_window_bits=7', `illegal extension parameter value '7' for parameter 'server_max_window_bits' of ${pmd}`],
    ['permessage-deflate; server_max_window_bits=16', `illegal extension parameter value '16' for parameter 'server_max_window_bits' of ${pmd}`],
    // Out of range after int(): the converted number is shown.
    ['permessage-deflate; server_max_window_bits=016', `illegal extension parameter value '16' for parameter 'server_max_window_bits' of ${pmd}`],
    ['permessage-deflate; server_max_window_bits=abc', `illegal extension parameter value 'abc' for parameter 'server_max_window_bits' of ${pmd}`],
    ['permessage-deflate; server_max_window_bits=10.0', `illegal extension parameter value '10.0' for parameter 'server_max_window_bits' of ${pmd}`],
    ['permessage-deflate; server_max_window_bits=', `illegal extension parameter value '' for parameter 'server_max_window_bits' of ${pmd}`],
    ['permessage-deflate; client_max_window_bits=7', `illegal extension parameter value '7' for parameter 'client_max_window_bits' of ${pmd}`],
    ['permessage-deflate; client_max_window_bits=x', `illegal extension parameter value 'x' for parameter 'client_max_window_bits' of ${pmd}`],
    ['permessage-deflate; client_max_window_bits=""', `illegal extension parameter value '' for parameter 'client_max_window_bits' of ${pmd}`],
    // One bad offer among good ones fails the handshake.
    [
      'permessage-deflate, permessage-deflate; server_max_window_bits=99',
      `illegal extension parameter value '99' for parameter 'server_max_window_bits' of ${pmd}`,
    ],
  ];
  for (const [header, reason] of refused) {
    test(`refuses "${header}"`, () => {
      assert.deepEqual(parseHeader(header), { ok: false, reason });
    });
  }

  test('takes the structure parseExtensionsHeader returns, read-only', () => {
    const params: ReadonlyArray<[string, string | true]> = Object.freeze([['server_max_window_bits', '11'] as [string, string]]);
    const input = Object.freeze([Object.freeze({ name: 'permessage-deflate', params })]);
    assert.deepEqual(parseDeflateOffers(input), { ok: true, offers: [{ ...PLAIN_OFFER, requestMaxWindowBits: 11 }] });
  });
});

describe('acceptExtensionString (PerMessageDeflateOfferAccept.getExtensionString)', () => {
  const cases: Array<[DeflateAccept, string]> = [
    [makeAccept(), 'permessage-deflate'],
    [makeAccept({ requestNoContextTakeover: true }), 'permessage-deflate; server_no_context_takeover'],
    [makeAccept({ requestMaxWindowBits: 10 }), 'permessage-deflate; server_max_window_bits=10'],
    [makeAccept({}, true, 9), 'permessage-deflate; client_no_context_takeover; client_max_window_bits=9'],
    [makeAccept({}, true), 'permessage-deflate; client_no_context_takeover'],
    [makeAccept({}, false, 15), 'permessage-deflate; client_max_window_bits=15'],
    [
      makeAccept({ requestNoContextTakeover: true, requestMaxWindowBits: 8 }, true, 12),
      'permessage-deflate; server_no_context_takeover; server_max_window_bits=8; client_no_context_takeover; client_max_window_bits=12',
    ],
  ];
  for (const [accept, expected] of cases) {
    test(expected, () => assert.equal(acceptExtensionString(accept), expected));
  }

  test('Autobahn accept3 on an offer with client_max_window_bits, accept1 on one without', () => {
    const parsed = parseHeader('permessage-deflate; client_max_window_bits; server_no_context_takeover, permessage-deflate');
    assert.ok(parsed.ok);
    const [withBits, without] = parsed.offers;
    assert.equal(
      acceptExtensionString({ offer: withBits!, requestNoContextTakeover: false, requestMaxWindowBits: 9 }),
      'permessage-deflate; server_no_context_takeover; client_max_window_bits=9',
    );
    assert.equal(
      acceptExtensionString({ offer: without!, requestNoContextTakeover: true, requestMaxWindowBits: 0 }),
      'permessage-deflate; client_no_context_takeover',
    );
  });

  test('throws where Autobahn refuses the accept', () => {
    // client_max_window_bits=N without client_max_window_bits in the offer.
    assert.throws(
      () => acceptExtensionString({ offer: PLAIN_OFFER, requestNoContextTakeover: false, requestMaxWindowBits: 9 }),
      /feature unsupported by client/,
    );
    assert.throws(
      () => acceptExtensionString({ offer: { ...PLAIN_OFFER, acceptNoContextTakeover: false }, requestNoContextTakeover: true, requestMaxWindowBits: 0 }),
      /feature unsupported by client/,
    );
    assert.throws(() => acceptExtensionString(makeAccept({}, false, 16)), /permissible values/);
    assert.throws(() => acceptExtensionString(makeAccept({}, false, 7)), /permissible values/);
    assert.throws(() => acceptExtensionString(makeAccept({ requestMaxWindowBits: 3 })), /permissible values/);
    assert.throws(
      () =>
        new PerMessageDeflate(serverAgreement({ offer: PLAIN_OFFER, requestNoContextTakeover: false, requestMaxWindowBits: 9 }), {
          level: 6,
          maxMessageSize: 0,
        }),
      /feature unsupported by client/,
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('compressor', () => {
  test('context takeover: a repeated message compresses far smaller; with server_no_context_takeover it does not', () => {
    const msg = mixedMessages(1, 8000, 11)[0]!;
    const keep = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
    const first = keep.compress(msg).length;
    const second = keep.compress(msg).length;
    assert.ok(second * 10 < first, `first ${first}, second ${second}`);

    const reset = new PerMessageDeflate(serverAgreement(makeAccept({ requestNoContextTakeover: true })), { level: 6, maxMessageSize: 0 });
    const a = reset.compress(msg);
    const b = reset.compress(msg);
    assert.deepEqual(a, b);
    assert.equal(a.length, first);
    keep.close();
    reset.close();
  });

  test('output is a raw deflate stream: with 00 00 ff ff appended zlib inflates it', () => {
    const pmd = new PerMessageDeflate(serverAgreement(makeAccept({ requestNoContextTakeover: true })), { level: 6, maxMessageSize: 0 });
    for (const msg of mixedMessages(5, 3000, 5)) {
      const c = pmd.compress(msg);
      assert.notDeepEqual(c.subarray(-4), TAIL);
      assert.deepEqual(zlib.inflateRawSync(Buffer.concat([c, TAIL]), { finishFlush: zlib.constants.Z_SYNC_FLUSH }), msg);
    }
    pmd.close();
  });

  test('an empty message is the single octet 0x00 (§7.2.3.6), also after other messages', () => {
    const pmd = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
    const peer = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
    for (const msg of [Buffer.alloc(0), Buffer.from('Hello'), Buffer.alloc(0), Buffer.from('Hello')]) {
      const c = pmd.compress(msg);
      if (msg.length === 0) assert.deepEqual(c, Buffer.from([0x00]));
      assert.deepEqual(inflateMessage(peer, c), msg);
    }
    pmd.close();
    peer.close();
  });

  test('the §7.2.3.1 example: "Hello" decompresses from f2 48 cd c9 c9 07 00', () => {
    const pmd = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
    assert.equal(inflateMessage(pmd, Buffer.from('f248cdc9c90700', 'hex')).toString(), 'Hello');
    // §7.2.3.2: the same message again with context takeover is f2 00 11 00 00.
    assert.equal(inflateMessage(pmd, Buffer.from('f200110000', 'hex')).toString(), 'Hello');
    pmd.close();
  });

  for (const level of [0, 1, 6, 9]) {
    test(`level ${level} round-trips`, () => {
      const a = new PerMessageDeflate(serverAgreement(makeAccept()), { level, maxMessageSize: 0 });
      const b = new PerMessageDeflate(serverAgreement(makeAccept()), { level, maxMessageSize: 0 });
      for (const msg of mixedMessages(4, 20_000, level + 1)) assert.deepEqual(inflateMessage(b, a.compress(msg)), msg);
      a.close();
      b.close();
    });
  }

  test('a large incompressible message (output longer than the input) round-trips', () => {
    const rnd = prng(99);
    const msg = Buffer.alloc(3 * MiB);
    for (let i = 0; i < msg.length; i++) msg[i] = rnd() & 0xff;
    const a = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
    const b = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
    const c = a.compress(msg);
    assert.ok(c.length >= msg.length);
    assert.deepEqual(inflateMessage(b, c), msg);
    a.close();
    b.close();
  });

  for (let w = 8; w <= 15; w++) {
    for (const takeover of [true, false]) {
      test(`server_max_window_bits=${w}, ${takeover ? 'context takeover' : 'server_no_context_takeover'}: no back-reference beyond ${2 ** w} bytes`, () => {
        const messages = mixedMessages(12, 6000, w);
        const pmd = new PerMessageDeflate(serverAgreement(makeAccept({ requestMaxWindowBits: w, requestNoContextTakeover: !takeover })), {
          level: 9,
          maxMessageSize: 0,
        });
        const compressed = messages.map((m) => Buffer.concat([pmd.compress(m), TAIL]));
        pmd.close();
        let maxDistance = 0;
        if (takeover) {
          // One stream: every message may reach back into the earlier ones.
          const stream = Buffer.concat(compressed);
          const checked = inflateChecked(stream);
          assert.deepEqual(checked.output, Buffer.concat(messages));
          maxDistance = checked.maxDistance;
          assert.deepEqual(zlib.inflateRawSync(stream, { windowBits: w, chunkSize: 64, finishFlush: zlib.constants.Z_SYNC_FLUSH }), Buffer.concat(messages));
        } else {
          // Each message alone must decode from an empty window.
          compressed.forEach((c, i) => {
            const checked = inflateChecked(c);
            assert.deepEqual(checked.output, messages[i]);
            maxDistance = Math.max(maxDistance, checked.maxDistance);
            assert.deepEqual(zlib.inflateRawSync(c, { windowBits: w, chunkSize: 64, finishFlush: zlib.constants.Z_SYNC_FLUSH }), messages[i]);
          });
        }
        assert.ok(maxDistance <= 2 ** w, `distance ${maxDistance} > ${2 ** w}`);
        if (w === 8) assert.equal(maxDistance, 0, 'window 8 is Huffman-only: no back-references');
        else
          assert.ok(
            maxDistance > Math.min(2 ** w, takeover ? Infinity : 6000) / 4,
            `window ${w} barely used (max distance ${maxDistance}): the data does not test the limit`,
          );
      });
    }
  }

  test('literalsOnly: Huffman literals, no back-reference even in a stream full of repeats; default coding has them', () => {
    const messages = mixedMessages(8, 6000, 15);
    const distances = (literalsOnly: boolean): { maxDistance: number; size: number } => {
      const pmd = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 1, maxMessageSize: 0, literalsOnly });
      const stream = Buffer.concat(messages.map((m) => Buffer.concat([pmd.compress(m), TAIL])));
      pmd.close();
      const checked = inflateChecked(stream);
      assert.deepEqual(checked.output, Buffer.concat(messages));
      return { maxDistance: checked.maxDistance, size: stream.length };
    };
    const literal = distances(true);
    const lz77 = distances(false);
    assert.equal(literal.maxDistance, 0);
    assert.ok(lz77.maxDistance > 0);
    assert.ok(literal.size > lz77.size, `literals only ${literal.size} bytes, LZ77 ${lz77.size}`);
  });

  test('12.2 (the noisy bitmap) is coded literals only and compresses within 1 % of level-1 LZ77; the other documents keep LZ77', () => {
    const literal = payloadSubgroups.filter((g) => g.data.literalsOnly === true).map((g) => g.subgroup);
    assert.deepEqual(literal, ['12.2']);
    const bitmap = corpusFile('bitmap').bytes;
    const size = (literalsOnly: boolean): number => {
      const pmd = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 1, maxMessageSize: 0, literalsOnly });
      let n = 0;
      for (let at = 0; at + 16384 <= bitmap.length; at += 16384) n += pmd.compress(bitmap.subarray(at, at + 16384)).length;
      pmd.close();
      return n;
    };
    const ratio = size(true) / size(false);
    assert.ok(ratio < 1.01, `literals only / LZ77 = ${ratio.toFixed(4)}`);
  });

  test('the checker sees a window-15 stream break a 512-byte window', () => {
    const stream = Buffer.concat([zlib.deflateRawSync(Buffer.concat(mixedMessages(3, 6000, 1)), { finishFlush: zlib.constants.Z_SYNC_FLUSH })]);
    assert.ok(inflateChecked(stream).maxDistance > 512);
  });
});

// ---------------------------------------------------------------------------------------------

/** Sends `count` consecutive cuts of `length` bytes of the document (from byte 0) through compressCut. */
function sendCuts(pmd: PerMessageDeflate, document: DocumentChunks, length: number, count: number): { cuts: Buffer[]; compressed: Buffer[] } {
  const cuts: Buffer[] = [];
  const compressed: Buffer[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    cuts.push(document.cut(at, length));
    compressed.push(pmd.compressCut(document, at, length));
    at = (at + length) % document.bytes.length;
  }
  return { cuts, compressed };
}

describe('compressCut (a document sent as consecutive cuts, from chunks compressed once)', () => {
  test('any document, chunk size, cut length, window and level: the peer inflates exactly the cuts, within its window', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 300, max: 12000 }),
        fc.integer({ min: 64, max: 9000 }),
        fc.integer({ min: 1, max: 20000 }),
        fc.integer({ min: 8, max: 15 }),
        fc.constantFrom(1, 6),
        fc.boolean(),
        (seed, messageSize, chunkSize, length, w, level, literalsOnly) => {
          const bytes = Buffer.concat(mixedMessages(4, messageSize, seed));
          const document = new DocumentChunks(bytes, chunkSize);
          const cutLength = Math.min(length, bytes.length);
          // Three passes over the document and a bit.
          const count = Math.max(2, Math.ceil((3.2 * bytes.length) / cutLength));
          const sender = new PerMessageDeflate(serverAgreement(makeAccept({ requestMaxWindowBits: w === 15 ? 0 : w })), {
            level,
            maxMessageSize: 0,
            literalsOnly,
          });
          const { cuts, compressed } = sendCuts(sender, document, cutLength, Math.min(count, 400));
          sender.close();
          // The peer: one inflater for the connection, with the window the server announced.
          const stream = Buffer.concat(compressed.flatMap((c) => [c, TAIL]));
          const checked = inflateChecked(stream);
          assert.deepEqual(checked.output, Buffer.concat(cuts));
          assert.ok(checked.maxDistance <= 2 ** w, `distance ${checked.maxDistance} > ${2 ** w}`);
          if (w === 8 || literalsOnly) assert.equal(checked.maxDistance, 0);
          // And message by message, through the same zlib calls a receiver makes.
          const receiver = new PerMessageDeflate(serverAgreement(makeAccept({}, false, w)), { level: 1, maxMessageSize: 0 });
          for (const [i, c] of compressed.entries()) assert.deepEqual(inflateMessage(receiver, c), cuts[i], `message ${i}`);
          receiver.close();
        },
      ),
      { numRuns: 60 },
    );
  });

  test('back-references reach into earlier messages, and the size stays within 12 % of compressing each message', () => {
    const json = corpusFile('json').bytes;
    const document = new DocumentChunks(json);
    const cutPmd = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 1, maxMessageSize: 0 });
    const { cuts, compressed } = sendCuts(cutPmd, document, 131072, 12);
    cutPmd.close();
    const plainPmd = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 1, maxMessageSize: 0 });
    const plainSize = cuts.reduce((n, c) => n + plainPmd.compress(c).length, 0);
    plainPmd.close();
    const cutSize = compressed.reduce((n, c) => n + c.length, 0);
    assert.ok(cutSize < plainSize * 1.12, `cuts ${cutSize} bytes, one by one ${plainSize}`);
    // A message of the second pass inflated on its own, without the earlier ones, fails: it refers
    // back into what the peer received before it.
    assert.throws(
      () => zlib.inflateRawSync(Buffer.concat([compressed[3]!, TAIL]), { finishFlush: zlib.constants.Z_SYNC_FLUSH }),
      /invalid distance too far back/,
    );
    const receiver = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 1, maxMessageSize: 0 });
    for (const [i, c] of compressed.entries()) assert.deepEqual(inflateMessage(receiver, c), cuts[i]);
    receiver.close();
  });

  test('server_no_context_takeover: every cut inflates alone, as compress() makes it', () => {
    const document = new DocumentChunks(Buffer.concat(mixedMessages(3, 20000, 3)), 4096);
    const pmd = new PerMessageDeflate(serverAgreement(makeAccept({ requestNoContextTakeover: true })), { level: 1, maxMessageSize: 0 });
    const { cuts, compressed } = sendCuts(pmd, document, 25000, 6);
    pmd.close();
    for (const [i, c] of compressed.entries())
      assert.deepEqual(zlib.inflateRawSync(Buffer.concat([c, TAIL]), { finishFlush: zlib.constants.Z_SYNC_FLUSH }), cuts[i]);
  });

  test('cuts must start at byte 0 and follow each other; compress() in between starts afresh, and stays valid', () => {
    const bytes = Buffer.concat(mixedMessages(2, 10000, 5));
    const document = new DocumentChunks(bytes, 1024);
    const pmd = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 1, maxMessageSize: 0 });
    assert.throws(() => pmd.compressCut(document, 5, 100), /first cut of a document starts at byte 0/);
    assert.throws(() => pmd.compressCut(document, 0, bytes.length + 1), RangeError);
    const sent: Buffer[] = [];
    const wire: Buffer[] = [];
    const send = (plain: Buffer, compressed: Buffer): void => {
      sent.push(plain);
      wire.push(compressed, TAIL);
    };
    send(document.cut(0, 5000), pmd.compressCut(document, 0, 5000));
    assert.throws(() => pmd.compressCut(document, 6000, 100), /cut at byte 6000, the previous one ended at 5000/);
    send(document.cut(5000, 19000), pmd.compressCut(document, 5000, 19000));
    const other = Buffer.from('a message of its own between cuts; '.repeat(40));
    send(other, pmd.compress(other));
    send(other, pmd.compress(other));
    assert.throws(() => pmd.compressCut(document, 4000, 100), /first cut of a document starts at byte 0/);
    send(document.cut(0, 3000), pmd.compressCut(document, 0, 3000));
    send(Buffer.alloc(0), pmd.compressCut(document, 3000, 0));
    pmd.close();
    assert.deepEqual(inflateChecked(Buffer.concat(wire)).output, Buffer.concat(sent));
  });
});

// ---------------------------------------------------------------------------------------------

describe('decompressor', () => {
  test('invalid deflate data is 1007, also when only the appended tail reveals it', () => {
    const bad: Array<[string, Buffer[]]> = [
      ['reserved block type 11', [Buffer.from([0xff, 0xff])]],
      ['stored block with a wrong NLEN', [Buffer.from([0x00, 0x05, 0x00, 0x00, 0x00, 1, 2, 3, 4, 5])]],
      ['reference before the start of the stream', [Buffer.from([0x02, 0x02, 0x00])]],
    ];
    for (const [name, pieces] of bad) {
      const pmd = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
      const err = deflateErrorOf(() => inflateMessage(pmd, Buffer.alloc(0), pieces));
      assert.equal(err.code, 1007, name);
      assert.equal(err.name, 'DeflateError');
      assert.match(err.message, /invalid/);
      pmd.close();
    }
    // 00 then 12: a stored block whose LEN (12 00) only the appended 00 00 ff ff completes, and
    // whose NLEN (ff ff) is then wrong.
    const pmd = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
    pmd.startMessage();
    assert.equal(pmd.push(Buffer.from([0x00, 0x12])).length, 0);
    const err = deflateErrorOf(() => pmd.endMessage());
    assert.equal(err.code, 1007);
    assert.equal(
      deflateErrorOf(() => pmd.startMessage()),
      err,
    );
    pmd.close();
  });

  test('keeps the client context across messages, resets it per message when client_no_context_takeover was sent', () => {
    const messages = mixedMessages(6, 4000, 21);
    // A client that keeps its context (its server-side twin compresses exactly like one).
    const client = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
    const compressed = messages.map((m) => client.compress(m));
    client.close();
    const keeps = new PerMessageDeflate(serverAgreement(makeAccept({}, false)), { level: 6, maxMessageSize: 0 });
    for (const [i, c] of compressed.entries()) assert.deepEqual(inflateMessage(keeps, c), messages[i]);
    keeps.close();
    // We asked for client_no_context_takeover: the client's second message refers to the first,
    // which our reset window no longer has.
    const resets = new PerMessageDeflate(serverAgreement(makeAccept({}, true)), { level: 6, maxMessageSize: 0 });
    assert.deepEqual(inflateMessage(resets, compressed[0]!), messages[0]);
    assert.equal(deflateErrorOf(() => inflateMessage(resets, compressed[1]!)).code, 1007);
    resets.close();
  });

  test('inflates with the client_max_window_bits it asked for, as Autobahn and ws do: a client ignoring it is 1007', () => {
    const messages = mixedMessages(2, 6000, 4);
    // A client that compresses with window 15 although we asked for 9 (its twin on our side compresses like it).
    const rogue = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
    const rogueFirst = rogue.compress(messages[0]!);
    const rogueAgain = rogue.compress(messages[0]!); // refers to the first message, far more than 512 bytes back
    rogue.close();
    const honest = new PerMessageDeflate(serverAgreement(makeAccept({ requestMaxWindowBits: 9 })), { level: 6, maxMessageSize: 0 });
    const honestFirst = honest.compress(messages[0]!);
    const honestAgain = honest.compress(messages[0]!);
    honest.close();

    // Asked for nothing or for 15: the window-15 client is fine.
    for (const requested of [0, 15]) {
      const pmd = new PerMessageDeflate(serverAgreement(makeAccept({}, false, requested)), { level: 6, maxMessageSize: 0 });
      assert.deepEqual(inflateMessage(pmd, rogueFirst), messages[0]);
      assert.deepEqual(inflateMessage(pmd, rogueAgain), messages[0]);
      pmd.close();
    }
    // Asked for 9: the honest client is fine, the rogue one fails where it reaches into the earlier message.
    const strict = new PerMessageDeflate(serverAgreement(makeAccept({}, false, 9)), { level: 6, maxMessageSize: 0 });
    assert.deepEqual(inflateMessage(strict, honestFirst), messages[0]);
    assert.deepEqual(inflateMessage(strict, honestAgain), messages[0]);
    strict.close();
    const strict2 = new PerMessageDeflate(serverAgreement(makeAccept({}, false, 9)), { level: 6, maxMessageSize: 0 });
    // Within one message and one 32 KiB inflate() call zlib itself does not check the window (as in Autobahn).
    assert.deepEqual(inflateMessage(strict2, rogueFirst), messages[0]);
    assert.equal(deflateErrorOf(() => inflateMessage(strict2, rogueAgain)).code, 1007);
    strict2.close();
    // A large message: its references cross the 32 KiB call boundaries.
    const big = Buffer.concat(mixedMessages(20, 5000, 6));
    const bigRogue = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
    const strict3 = new PerMessageDeflate(serverAgreement(makeAccept({}, false, 9)), { level: 6, maxMessageSize: 0 });
    assert.equal(deflateErrorOf(() => inflateMessage(strict3, bigRogue.compress(big))).code, 1007);
    bigRogue.close();
    strict3.close();
  });

  test('a message ending with a BFINAL block: the rest of the stream is ignored until a reset, like zlib.decompressobj', () => {
    const hello = zlib.deflateRawSync(Buffer.from('Hello'));
    const world = zlib.deflateRawSync(Buffer.from('world'));
    const keeps = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
    assert.equal(inflateMessage(keeps, hello).toString(), 'Hello');
    assert.equal(inflateMessage(keeps, world).toString(), '');
    keeps.close();
    const resets = new PerMessageDeflate(serverAgreement(makeAccept({}, true)), { level: 6, maxMessageSize: 0 });
    assert.equal(inflateMessage(resets, hello).toString(), 'Hello');
    assert.equal(inflateMessage(resets, world).toString(), 'world');
    resets.close();
  });

  test('one byte per push() (chopsize=1) gives the same message', () => {
    const msg = mixedMessages(1, 30_000, 8)[0]!;
    const a = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
    const c = a.compress(msg);
    const b = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
    const pieces = Array.from({ length: c.length }, (_, i) => c.subarray(i, i + 1));
    assert.deepEqual(inflateMessage(b, c, pieces), msg);
    // Empty pieces (empty continuation frames) change nothing.
    const again = a.compress(msg);
    assert.deepEqual(inflateMessage(b, again, [Buffer.alloc(0), again, Buffer.alloc(0)]), msg);
    a.close();
    b.close();
  });

  test('returned pieces stay intact while later messages are inflated', () => {
    const messages = mixedMessages(30, 700, 13);
    const a = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
    const b = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
    const kept: Buffer[][] = [];
    for (const m of messages) {
      const c = a.compress(m);
      b.startMessage();
      const pieces = chop(c, [7, 100, 301]).map((p) => b.push(p));
      pieces.push(b.endMessage());
      kept.push(pieces);
    }
    for (const [i, pieces] of kept.entries()) assert.deepEqual(Buffer.concat(pieces), messages[i]);
    a.close();
    b.close();
  });

  test('startMessage(true): each message is inflated over the last one, in one buffer that stops growing', () => {
    const messages = mixedMessages(40, 100_000, 17);
    const a = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 1, maxMessageSize: 0 });
    const b = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 1, maxMessageSize: 0 });
    const memory = new Set<ArrayBufferLike>();
    messages.forEach((m, i) => {
      b.startMessage(true);
      const pieces = chop(a.compress(m), [3000, 9000]).map((p) => b.push(p));
      pieces.push(b.endMessage());
      const whole = Buffer.concat(pieces);
      assert.deepEqual(whole, m, `message ${i}`);
      // Back-to-back pieces of one buffer (what the session joins into one view, without a copy).
      const used = pieces.filter((p) => p.length > 0);
      for (let k = 1; k < used.length; k++) {
        if (i >= 10) assert.equal(used[k]!.byteOffset, used[k - 1]!.byteOffset + used[k - 1]!.length, `message ${i} piece ${k}`);
      }
      if (i >= 10) for (const p of used) memory.add(p.buffer);
    });
    // After a few messages every one lands in the same memory.
    assert.equal(memory.size, 1);
    a.close();
    b.close();
  });

  test('API misuse throws plain errors; close() is idempotent and later use throws instead of crashing', () => {
    const pmd = new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: 0 });
    assert.throws(() => pmd.push(Buffer.from([1])), /outside a message/);
    assert.throws(() => pmd.endMessage(), /outside a message/);
    pmd.startMessage();
    assert.throws(() => pmd.startMessage(), /inside a message/);
    pmd.close();
    pmd.close();
    assert.throws(() => pmd.compress(Buffer.from('x')), /after close/);
    assert.throws(() => pmd.push(Buffer.from([0x00])), /after close/);
    assert.throws(() => new PerMessageDeflate(serverAgreement(makeAccept()), { level: 10, maxMessageSize: 0 }), RangeError);
    assert.throws(() => new PerMessageDeflate(serverAgreement(makeAccept()), { level: 6, maxMessageSize: -1 }), RangeError);
  });
});

// ---------------------------------------------------------------------------------------------

describe('interop with ws (client role)', () => {
  test('every negotiated combination: our messages inflate in ws, ws messages inflate in ours', async () => {
    const messages = [...mixedMessages(3, 5000, 31), Buffer.from('{"same":"again"}'), Buffer.from('{"same":"again"}')];
    let combos = 0;
    for (const serverNoContextTakeover of [false, true]) {
      for (const serverMaxWindowBits of [0, 8, 9, 10, 11, 12, 13, 14, 15]) {
        for (const requestNoContextTakeover of [false, true]) {
          for (const requestMaxWindowBits of [0, 9, 10, 11, 12, 13, 14, 15]) {
            const client: WsClientOptions = { serverNoContextTakeover };
            if (serverMaxWindowBits !== 0) client.serverMaxWindowBits = serverMaxWindowBits;
            const { ws, ours, response } = negotiate(client, requestNoContextTakeover, requestMaxWindowBits);
            const label = `${response} (offer ${JSON.stringify(client)})`;
            // Server to client, the empty message included.
            for (const msg of [...messages, Buffer.alloc(0)]) {
              assert.deepEqual(await wsCall(ws, 'decompress', ours.compress(msg)), msg, label);
            }
            // Client to server.
            for (const msg of messages) {
              const c = await wsCall(ws, 'compress', msg);
              assert.deepEqual(inflateMessage(ours, c), msg, label);
            }
            ws.cleanup();
            ours.close();
            combos++;
          }
        }
      }
    }
    assert.equal(combos, 288);
  });

  test('a ws offer without client_max_window_bits and with client_no_context_takeover', async () => {
    const { ws, ours, response } = negotiate({ clientMaxWindowBits: false, clientNoContextTakeover: true }, true, 0);
    assert.equal(response, 'permessage-deflate; client_no_context_takeover');
    for (const msg of mixedMessages(4, 3000, 2)) {
      assert.deepEqual(inflateMessage(ours, await wsCall(ws, 'compress', msg)), msg);
      assert.deepEqual(await wsCall(ws, 'decompress', ours.compress(msg)), msg);
    }
    ws.cleanup();
    ours.close();
  });

  test('ws-compressed messages split into push() pieces at random points (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.uint8Array({ maxLength: 3000 }),
            fc.string({ maxLength: 2000 }).map((s) => new TextEncoder().encode(s.repeat(3))),
          ),
          { minLength: 1, maxLength: 6 },
        ),
        fc.integer({ min: 9, max: 15 }),
        fc.boolean(),
        fc.array(fc.array(fc.nat(), { maxLength: 12 }), { minLength: 6, maxLength: 6 }),
        async (payloads, bits, noContextTakeover, cuts) => {
          const { ws, ours } = negotiate({}, noContextTakeover, bits);
          try {
            for (let i = 0; i < payloads.length; i++) {
              const msg = Buffer.from(payloads[i]!);
              const c = await wsCall(ws, 'compress', msg);
              assert.deepEqual(inflateMessage(ours, c, chop(c, cuts[i]!)), msg);
            }
          } finally {
            ws.cleanup();
            ours.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  test('a message ws compresses in several fragments (fin=false pieces) inflates through push()', async () => {
    const { ws, ours } = negotiate({}, false, 0);
    for (const msg of mixedMessages(3, 20_000, 17)) {
      const parts = chop(msg, [3000, 9000, 15000]);
      const frames: Buffer[] = [];
      for (let i = 0; i < parts.length; i++) frames.push(await wsCall(ws, 'compress', parts[i]!, i === parts.length - 1));
      assert.deepEqual(inflateMessage(ours, Buffer.alloc(0), frames), msg);
    }
    ws.cleanup();
    ours.close();
  });
});
