/** CutMemo: compressed cuts remembered across connections, byte for byte what compress() makes. */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { corpusFile } from '../../src/cases/data/deflate-corpus.js';
import { DocumentChunks } from '../../src/protocol/deflate/document.js';
import { CutMemo, cutMemo } from '../../src/protocol/deflate/memo.js';
import { PerMessageDeflate } from '../../src/protocol/deflate/codec.js';
import type { DeflateAgreement } from '../../src/protocol/deflate/params.js';
import type { DeflateSettings } from '../../src/protocol/deflate/sync-zlib.js';

/** A client whose peer asked for client_no_context_takeover (what the bundled ws server answers). */
function forgetful(literalsOnly = false, windowBits = 15): PerMessageDeflate {
  const agreement: DeflateAgreement = {
    compressNoContextTakeover: true,
    compressWindowBits: windowBits,
    decompressNoContextTakeover: false,
    decompressWindowBits: 15,
    decompressWindowParam: 'server_max_window_bits',
  };
  return new PerMessageDeflate(agreement, { level: 1, maxMessageSize: 0, literalsOnly });
}

/** `count` consecutive cuts of `length` bytes from byte 0, through compressCut. */
function cuts(pmd: PerMessageDeflate, document: DocumentChunks, length: number, count: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0, at = 0; i < count; i++, at = (at + length) % document.bytes.length) out.push(pmd.compressCut(document, at, length));
  return out;
}

const settings: DeflateSettings = { level: 1, windowBits: 15, strategy: zlib.constants.Z_DEFAULT_STRATEGY };

describe('CutMemo', () => {
  test('a second connection gets the same bytes as compress() of each cut, from the memo', () => {
    cutMemo.clear();
    const json = new DocumentChunks(corpusFile('json').bytes);
    for (const literalsOnly of [false, true]) {
      const first = forgetful(literalsOnly);
      const made = cuts(first, json, 40000, 12);
      first.close();
      const held = cutMemo.size;
      assert.ok(held > 0);
      const second = forgetful(literalsOnly);
      const again = cuts(second, json, 40000, 12);
      // Served from the memo: nothing was added.
      assert.equal(cutMemo.size, held);
      // Then the connection's own compress() is what a fresh compressor makes: its state is unchanged.
      const tail = Buffer.from('{"after": "the cuts"}'.repeat(30));
      assert.deepEqual(second.compress(tail), forgetful(literalsOnly).compress(tail));
      second.close();
      const plain = forgetful(literalsOnly);
      const expected = Array.from({ length: 12 }, (_, i) => plain.compress(json.cut((i * 40000) % json.bytes.length, 40000)));
      plain.close();
      assert.deepEqual(made, expected);
      assert.deepEqual(again, expected);
    }
    cutMemo.clear();
  });

  test('compressWhole is compress() of the cut, with or without context takeover', () => {
    cutMemo.clear();
    const prose = new DocumentChunks(corpusFile('prose').bytes);
    const keeps = (): PerMessageDeflate => {
      const agreement: DeflateAgreement = {
        compressNoContextTakeover: false,
        compressWindowBits: 15,
        decompressNoContextTakeover: false,
        decompressWindowBits: 15,
        decompressWindowParam: 'server_max_window_bits',
      };
      return new PerMessageDeflate(agreement, { level: 1, maxMessageSize: 0 });
    };
    for (const [make, memoised] of [
      [keeps, false],
      [() => forgetful(), true],
    ] as const) {
      for (let pass = 0; pass < 2; pass++) {
        const whole = make();
        const plain = make();
        for (let i = 0, at = 0; i < 30; i++, at = (at + 5000) % prose.bytes.length) {
          assert.deepEqual(whole.compressWhole(prose, at, 5000), plain.compress(prose.cut(at, 5000)), `message ${i}`);
        }
        whole.close();
        plain.close();
        assert.equal(cutMemo.size > 0, memoised);
      }
    }
    cutMemo.clear();
  });

  test('parameters, documents and lengths are series of their own', () => {
    const memo = new CutMemo(1 << 20);
    const a = new DocumentChunks(Buffer.alloc(1000, 1));
    const b = new DocumentChunks(Buffer.alloc(1000, 1));
    memo.remember(a, settings, 0, 100, Buffer.from([1]));
    assert.deepEqual(memo.get(a, settings, 0, 100), Buffer.from([1]));
    assert.equal(memo.get(b, settings, 0, 100), undefined);
    assert.equal(memo.get(a, settings, 0, 101), undefined);
    assert.equal(memo.get(a, settings, 100, 100), undefined);
    assert.equal(memo.get(a, { ...settings, windowBits: 9 }, 0, 100), undefined);
    assert.equal(memo.get(a, { ...settings, level: 6 }, 0, 100), undefined);
    assert.equal(memo.get(a, { ...settings, strategy: zlib.constants.Z_HUFFMAN_ONLY }, 0, 100), undefined);
  });

  test('within its budget: the least recently used series goes first, the one in use never evicts itself', () => {
    const entry = (n: number): Buffer => Buffer.alloc(n, 7);
    const doc = new DocumentChunks(Buffer.alloc(4096, 1));
    // Room for 4 entries of 1000 bytes and their overhead.
    const memo = new CutMemo(4 * 1200);
    memo.remember(doc, settings, 0, 10, entry(1000));
    memo.remember(doc, settings, 0, 20, entry(1000));
    memo.remember(doc, settings, 10, 10, entry(1000));
    // Series 10 was used last: series 20 goes when series 30 needs room.
    memo.remember(doc, settings, 0, 30, entry(1000));
    memo.remember(doc, settings, 30, 30, entry(1000));
    assert.equal(memo.get(doc, settings, 0, 20), undefined);
    assert.ok(memo.get(doc, settings, 0, 10) !== undefined);
    assert.ok(memo.size <= memo.budget);
    // A series bigger than the budget keeps what fits, evicting the others, never itself.
    for (let at = 0; at < 10; at++) memo.remember(doc, settings, at * 40, 40, entry(1000));
    assert.ok(memo.size <= memo.budget);
    assert.equal(memo.get(doc, settings, 0, 10), undefined);
    assert.ok(memo.get(doc, settings, 0, 40) !== undefined);
    assert.ok(memo.get(doc, settings, 3 * 40, 40) !== undefined);
    assert.equal(memo.get(doc, settings, 9 * 40, 40), undefined);
  });

  test('a small buffer is kept as a copy of its own, not as a slice of the shared pool', () => {
    const memo = new CutMemo(1 << 20);
    const doc = new DocumentChunks(Buffer.alloc(100, 1));
    const small = Buffer.from([1, 2, 3]);
    memo.remember(doc, settings, 0, 3, small);
    const kept = memo.get(doc, settings, 0, 3);
    assert.deepEqual(kept, small);
    assert.equal(kept?.buffer.byteLength, 3);
  });
});
