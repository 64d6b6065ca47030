/**
 * Groups 12 and 13 (permessage-deflate): the generated payload corpus, the catalogue against
 * Autobahn's list, the accept rules, the echo judging on its own, and real runs: the ws client gets the
 * original's verdicts, a client without compression gets UNIMPLEMENTED, a client that corrupts its
 * binary echoes gets FAILED with Autobahn's SHA-1 text.
 *
 * All 216 cases against ws take a few minutes; `WSGATE_DEFLATE_ALL=1` runs them all instead of the subset.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';
import type { DeflateOffer } from '../../src/protocol/deflate/params.js';
import type { DocumentChunks } from '../../src/protocol/deflate/document.js';
import { CORPUS_BYTES, HTML_CODE_POINTS, corpusFile, type CorpusKind } from '../../src/cases/data/deflate-corpus.js';
import { acceptRules, messageSizeRows, pyTuples } from '../../src/cases/data/deflate-cases.js';
import { catalogue } from '../../src/catalogue/registry.js';
import { selectCases } from '../../src/cases/select.js';
import { deflatePayloadCases } from '../../src/cases/s12-deflate-payloads.js';
import { deflateParamCases } from '../../src/cases/s13-deflate-params.js';
import type { CaseContext, ScriptedCase } from '../../src/cases/types.js';
import type { CaseResult } from '../../src/model/report.js';
import type { FuzzingServer } from '../../src/server/fuzzing-server.js';
import type { PreparedMessage } from '../../src/cases/types.js';
import { REFERENCE_CLIENT, fixture, resultOf, runNode, startServer } from '../support/harness.js';
import { entries, frameKinds, verdictOf, wsVerdict } from './group-runs.js';
import { referenceCaseRows } from '../support/autobahn-reference.js';
import { DEFAULT_BUDGETS } from '../../src/cases/data/budgets.js';

const KINDS: readonly CorpusKind[] = ['json', 'bitmap', 'prose', 'html', 'pdf'];
const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const sha1 = (b: Buffer): string => createHash('sha1').update(b).digest('hex');
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function caseById(id: string): ScriptedCase {
  const c = catalogue.find((x) => x.id === id);
  if (c === undefined) throw new Error(`no case ${id}`);
  return c;
}

// ---------------------------------------------------------------------------------------------------

describe('the generated corpus', () => {
  test("each document has the exact size of Autobahn's file", () => {
    for (const kind of KINDS) assert.equal(corpusFile(kind).bytes.length, CORPUS_BYTES[kind], kind);
    assert.deepEqual(CORPUS_BYTES, { json: 194056, bitmap: 263222, prose: 222218, html: 263647, pdf: 1042328 });
  });

  test('the text documents are valid UTF-8; JSON is ASCII, HTML has 263620 code points', () => {
    for (const kind of ['json', 'prose', 'html'] as const) assert.doesNotThrow(() => strictUtf8.decode(corpusFile(kind).bytes), kind);
    const json = corpusFile('json');
    assert.ok(json.bytes.every((b) => b < 0x80));
    assert.equal(json.codePointOffsets?.length, 194056 + 1);
    const html = corpusFile('html');
    assert.equal([...strictUtf8.decode(html.bytes)].length, HTML_CODE_POINTS);
    assert.equal(html.codePointOffsets?.length, HTML_CODE_POINTS + 1);
    assert.equal(html.codePointOffsets?.[HTML_CODE_POINTS], html.bytes.length);
    assert.doesNotThrow(() => JSON.parse(json.bytes.toString('utf8')));
    // The prose is sliced as bytes (sent as binary), so it has no code point table.
    assert.equal(corpusFile('prose').codePointOffsets, null);
    assert.deepEqual([...corpusFile('prose').bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  });

  test('the bitmap is a 512×512 8-bit grayscale BMP, the PDF a PDF with valid zlib streams', () => {
    const bmp = corpusFile('bitmap').bytes;
    assert.equal(bmp.toString('latin1', 0, 2), 'BM');
    assert.equal(bmp.readUInt32LE(2), 263222);
    assert.equal(bmp.readUInt32LE(10), 1078);
    assert.deepEqual([bmp.readInt32LE(18), bmp.readInt32LE(22), bmp.readUInt16LE(28)], [512, 512, 8]);
    assert.equal(bmp.readUInt32LE(54 + 255 * 4), 0x00ffffff);
    const pdf = corpusFile('pdf').bytes;
    assert.equal(pdf.toString('latin1', 0, 8), '%PDF-1.4');
    assert.ok(pdf.toString('latin1', pdf.length - 6).endsWith('%%EOF\n'));
    const text = pdf.toString('latin1');
    const m = /\/Filter \/FlateDecode \/Length (\d+) >>\nstream\n/.exec(text);
    assert.ok(m !== null);
    const start = m.index + m[0].length;
    const inflated = zlib.inflateSync(pdf.subarray(start, start + Number(m[1])));
    assert.ok(inflated.length >= 12000);
    // startxref points at the xref table.
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
    assert.equal(text.slice(startxref, startxref + 5), 'xref\n');
  });

  test('generation is deterministic: fixed SHA-256s, and a fresh module instance builds the same bytes', async (t) => {
    const expected: Record<CorpusKind, string> = {
      json: '896da5b366bd411c21040bfeb9c9a9aadb96ffdf08b5347ea5a6822d7b72dbb6',
      bitmap: '305b29553e8f9871225992e29152fe3607069e9c9ad6eb289dff173db2d037a0',
      prose: '1b29368b2747e95f2925d02a953f63b7b574fcb8d852dbe643ccfb5279c92976',
      html: 'ca2390ec535866111f4bef5f07f6a13102180ca219b867c18e7ce1ed009222a7',
      pdf: '557ff99ca8e920d3fc723398f78eb587b6072266998f7e4dc67f801223dd700a',
    };
    for (const kind of KINDS) assert.equal(sha256(corpusFile(kind).bytes), expected[kind], kind);
    // The same file under another URL is a second module instance with an empty cache.
    const fresh = (await import(`../../src/cases/data/deflate-corpus.js?fresh=${Date.now()}`)) as {
      corpusFile: typeof corpusFile;
    };
    const t0 = performance.now();
    for (const kind of KINDS) fresh.corpusFile(kind);
    const ms = performance.now() - t0;
    for (const kind of KINDS) assert.ok(fresh.corpusFile(kind).bytes.equals(corpusFile(kind).bytes), kind);
    assert.equal(corpusFile('json'), corpusFile('json'), 'memoized');
    // About 100 ms on an idle machine: a figure, not a bound (speed is the bench's business).
    t.diagnostic(`generation took ${ms.toFixed(0)} ms`);
  });

  test("compressibility is close to the originals' (raw deflate, level 6)", () => {
    // The originals: JSON 0.043, HTML 0.055, Faust 0.389, Lena 0.851, PDF 0.758.
    const ranges: Record<CorpusKind, [number, number]> = {
      json: [0.03, 0.12],
      html: [0.03, 0.12],
      prose: [0.28, 0.45],
      bitmap: [0.78, 0.93],
      pdf: [0.72, 0.93],
    };
    for (const kind of KINDS) {
      const b = corpusFile(kind).bytes;
      const ratio = zlib.deflateRawSync(b, { level: 6 }).length / b.length;
      const [lo, hi] = ranges[kind];
      assert.ok(ratio >= lo && ratio <= hi, `${kind}: ratio ${ratio.toFixed(3)} outside [${lo}, ${hi}]`);
    }
  });
});

// ---------------------------------------------------------------------------------------------------

describe('the catalogue of groups 12 and 13', () => {
  const rows = referenceCaseRows()
    .filter((r) => /^1[23]\./.test(r.id))
    .map((r) => [String(r.index), r.id, r.category, r.subcategory]);

  test("216 cases with Autobahn's ids, order, categories and subcategories", () => {
    assert.equal(rows.length, 216);
    const ours = catalogue.filter((c) => /^1[23]\./.test(c.id));
    assert.deepEqual(
      ours.map((c) => [c.id, c.category, c.subcategory]),
      rows.map((r) => [r[1], r[2], r[3]]),
    );
    assert.equal(deflatePayloadCases.length, 90);
    assert.equal(deflateParamCases.length, 126);
  });

  test("the 13.x names print the rule's own requests", () => {
    for (const rule of acceptRules) {
      const name = caseById(`${rule.subgroup}.1`).subcategory;
      assert.ok(name.endsWith(`server accept (requestNoContextTakeover, requestMaxWindowBits): ${pyTuples(rule.requests)}`), name);
    }
  });

  test('every case reports time and compression, and may run WAITSECS + 2 seconds', () => {
    for (const c of [...deflatePayloadCases, ...deflateParamCases]) {
      const row = messageSizeRows.find((r) => c.id.split('.')[2] === r.row);
      assert.ok(row !== undefined, c.id);
      assert.equal(c.reportTime, true);
      assert.equal(c.reportCompressionRatio, true);
      assert.equal(c.schedule?.maxSeconds, row.waitSeconds + 2, c.id);
      assert.deepEqual(c.close, { closedByMe: true, closeCode: [1000], requireClean: true });
      assert.deepEqual(c.expect, {});
    }
    assert.match(caseById('12.5.15').description, /1000 binary messages of 131072 bytes each.*frames of at most 256 bytes/);
    assert.match(caseById('12.4.1').description, /1000 text messages of 16 code points each/);
    assert.match(caseById('13.3.1').expectation, /within 60 seconds/);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('the accept rules', () => {
  /** What ws offers with clientMaxWindowBits: `permessage-deflate; client_max_window_bits`. */
  const wsOffer: DeflateOffer = { acceptNoContextTakeover: true, acceptMaxWindowBits: true, requestNoContextTakeover: false, requestMaxWindowBits: 0 };
  /** A bare `permessage-deflate` (Autobahn's parser always allows client_no_context_takeover). */
  const bareOffer: DeflateOffer = { acceptNoContextTakeover: true, acceptMaxWindowBits: false, requestNoContextTakeover: false, requestMaxWindowBits: 0 };
  const accept = (id: string, offers: DeflateOffer[]): unknown => caseById(id).deflate?.(offers) ?? null;

  test('12.x and 13.1 take the first offer and ask nothing; no offer, no compression', () => {
    assert.deepEqual(accept('12.3.7', [bareOffer, wsOffer]), { offer: bareOffer, requestNoContextTakeover: false, requestMaxWindowBits: 0 });
    assert.deepEqual(accept('13.1.1', [wsOffer]), { offer: wsOffer, requestNoContextTakeover: false, requestMaxWindowBits: 0 });
    assert.equal(accept('12.1.1', []), null);
  });

  test('13.2 asks for client_no_context_takeover', () => {
    assert.deepEqual(accept('13.2.5', [bareOffer]), { offer: bareOffer, requestNoContextTakeover: true, requestMaxWindowBits: 0 });
    assert.equal(accept('13.2.5', [{ ...bareOffer, acceptNoContextTakeover: false }]), null);
  });

  test('13.3-13.6 need client_max_window_bits in the offer, and decline without it', () => {
    for (const [id, nct, bits] of [
      ['13.3.1', false, 9],
      ['13.4.1', false, 15],
      ['13.5.1', true, 9],
      ['13.6.1', true, 15],
    ] as const) {
      assert.equal(accept(id, [bareOffer]), null, id);
      assert.deepEqual(accept(id, [bareOffer, wsOffer]), { offer: wsOffer, requestNoContextTakeover: nct, requestMaxWindowBits: bits }, id);
    }
  });

  test('13.7 tries (True, 9) on every offer, then (True, 0), then (False, 0)', () => {
    assert.deepEqual(accept('13.7.1', [bareOffer, wsOffer]), { offer: wsOffer, requestNoContextTakeover: true, requestMaxWindowBits: 9 });
    assert.deepEqual(accept('13.7.1', [bareOffer]), { offer: bareOffer, requestNoContextTakeover: true, requestMaxWindowBits: 0 });
    const noNct = { ...bareOffer, acceptNoContextTakeover: false };
    assert.deepEqual(accept('13.7.1', [noNct]), { offer: noNct, requestNoContextTakeover: false, requestMaxWindowBits: 0 });
  });
});

// ---------------------------------------------------------------------------------------------------

/** A CaseContext that records what a case does, for judging without sockets. */
class FakeContext implements CaseContext {
  readonly sent: Array<{ data: Buffer; binary: boolean; fragmentSize: number }> = [];
  readonly log: string[] = [];
  outcome: [string, string] | null = null;
  /** Messages prepared (sent or not). */
  prepared = 0;
  isOpen = true;
  readonly scriptedHandshake = false;
  readonly budgets = DEFAULT_BUDGETS;
  readRate(): void {
    throw new Error('not used by these cases');
  }
  flushed(): Promise<boolean> {
    throw new Error('not used by these cases');
  }
  holdClose(): void {
    throw new Error('not used by these cases');
  }
  unreadByPeer(): number | null {
    throw new Error('not used by these cases');
  }
  peerRead(): number | null {
    throw new Error('not used by these cases');
  }
  constructor(readonly deflateActive: boolean) {}
  dropConnection(): void {
    throw new Error('groups 12 and 13 never drop the connection themselves');
  }
  sendFrame(): void {
    throw new Error('not used by groups 12/13');
  }
  sendMessage(): void {
    throw new Error('groups 12/13 prepare their messages');
  }
  prepareMessage(payload: Uint8Array | string, options: { binary?: boolean; fragmentSize?: number } = {}): PreparedMessage {
    const data = Buffer.from(payload);
    this.prepared += 1;
    return { opcode: options.binary === true ? 2 : 1, data, compressed: false, fragmentSize: options.fragmentSize ?? 0, sync: false, appLength: data.length };
  }
  /** Document cuts prepared (prepareCut): first byte, length and whether from chunks, in order. */
  readonly cuts: Array<{ start: number; length: number; fromChunks: boolean }> = [];
  prepareCut(
    document: DocumentChunks,
    start: number,
    length: number,
    options: { binary?: boolean; fragmentSize?: number; fromChunks?: boolean } = {},
  ): PreparedMessage {
    this.cuts.push({ start, length, fromChunks: options.fromChunks ?? true });
    return this.prepareMessage(document.cut(start, length), options);
  }
  sendPrepared(m: PreparedMessage): void {
    this.sent.push({ data: m.data, binary: m.opcode === 2, fragmentSize: m.fragmentSize });
  }
  sendPing(): void {
    throw new Error('not used by groups 12/13');
  }
  sendClose(code: number | null = null): void {
    this.log.push(`close ${code}`);
    this.isOpen = false;
  }
  sendCloseFrame(): void {
    throw new Error('not used by groups 12/13');
  }
  sendRaw(): void {
    throw new Error('not used by groups 12/13');
  }
  beginFrame(): never {
    throw new Error('not used by groups 12/13');
  }
  killAfter(s: number): void {
    this.log.push(`killAfter ${s}`);
  }
  closeAfter(s: number): void {
    this.log.push(`closeAfter ${s}`);
  }
  continueLater(): void {
    throw new Error('not used by groups 12/13');
  }
  pause(): Promise<void> {
    throw new Error('not used by groups 12/13');
  }
  record(): void {
    throw new Error('not used by groups 12/13');
  }
  setOutcome(behavior: string, result: string): void {
    this.outcome = [behavior, result];
  }
  setWirelog(enabled: boolean, options: { silent?: boolean } = {}): void {
    this.log.push(`wirelog ${enabled}${options.silent === true ? ' silent' : ''}`);
  }
  captureTrafficStats(): void {
    this.log.push('stats');
  }
  /** The last message sent. */
  get last(): { data: Buffer; binary: boolean; fragmentSize: number } {
    const m = this.sent.at(-1);
    if (m === undefined) throw new Error('nothing sent');
    return m;
  }
}

/** Plays a well-behaved client: echoes n messages. */
function echo(c: ScriptedCase, t: FakeContext, n: number): void {
  for (let i = 0; i < n; i++) c.onMessage?.(t, t.last.data, t.last.binary, t.last.data.length);
}

describe('judging the echoes (no sockets)', () => {
  test('without permessage-deflate: UNIMPLEMENTED and an immediate close 1000, frame log off', () => {
    const t = new FakeContext(false);
    void caseById('12.1.1').run(t);
    assert.deepEqual(t.outcome, ['UNIMPLEMENTED', 'Actual events differ from any expected.']);
    assert.deepEqual(t.log, ['wirelog false', 'close 1000']);
    assert.equal(t.sent.length, 0);
  });

  test('1000 correct echoes: OK, statistics taken, frame log back on, close 1000', () => {
    const c = caseById('12.2.1');
    const t = new FakeContext(true);
    void c.run(t);
    assert.deepEqual(t.outcome, ['FAILED', 'Case did not finish within 60 seconds.']);
    assert.deepEqual(t.log, ['wirelog false', 'closeAfter 60']);
    // The bitmap, 16 bytes at a time from its start.
    assert.deepEqual(t.last, { data: corpusFile('bitmap').bytes.subarray(0, 16), binary: true, fragmentSize: 0 });
    // The next message is ready before the echo comes.
    assert.equal(t.prepared, 2);
    echo(c, t, 999);
    assert.equal(t.sent.length, 1000);
    assert.equal(t.prepared, 1000);
    assert.ok(t.last.data.equals(corpusFile('bitmap').bytes.subarray(999 * 16, 1000 * 16)));
    assert.deepEqual(t.outcome, ['FAILED', 'Case did not finish within 60 seconds.']);
    echo(c, t, 1);
    assert.equal(t.sent.length, 1000);
    assert.deepEqual(t.outcome, ['OK', "Ok, received all echo'ed messages in time."]);
    assert.deepEqual(t.log, ['wirelog false', 'closeAfter 60', 'stats', 'wirelog true', 'close 1000']);
  });

  test('text is cut on code points and wraps around the end of the document', () => {
    // 12.4.10: 131072 code points of the 263620-code-point HTML; the third message wraps.
    const c = caseById('12.4.10');
    const html = corpusFile('html');
    const offsets = html.codePointOffsets;
    assert.ok(offsets !== null);
    const t = new FakeContext(true);
    void c.run(t);
    echo(c, t, 2);
    const third = t.last;
    assert.equal(third.binary, false);
    const wrapEnd = 3 * 131072 - HTML_CODE_POINTS;
    const expected = Buffer.concat([html.bytes.subarray(offsets[2 * 131072]), html.bytes.subarray(0, offsets[wrapEnd])]);
    assert.ok(third.data.equals(expected));
    assert.equal([...strictUtf8.decode(third.data)].length, 131072);
    // The three messages hold the whole document and its start again.
    assert.equal(Buffer.concat(t.sent.map((m) => m.data)).length, html.bytes.length + (offsets[wrapEnd] ?? 0));
    echo(c, t, 1);
    assert.ok(t.last.data.equals(html.bytes.subarray(offsets[wrapEnd], offsets[wrapEnd + 131072])));
  });

  test('messages are document cuts, contiguous from byte 0: from chunks at 32768 units and more, each compressed whole below', () => {
    for (const row of messageSizeRows) {
      const t = new FakeContext(true);
      const c = caseById(`12.4.${row.row}`);
      void c.run(t);
      echo(c, t, 5);
      // Six messages sent and the seventh prepared, each starting where the last ended.
      assert.equal(t.cuts.length, 7, `12.4.${row.row}`);
      let at = 0;
      for (const [i, cut] of t.cuts.entries()) {
        assert.equal(cut.start, at % corpusFile('html').bytes.length, `12.4.${row.row} cut ${i}`);
        assert.equal(cut.fromChunks, row.length >= 32768, `12.4.${row.row} cut ${i}`);
        at += cut.length;
      }
      if (row.length >= 32768) assert.match(c.description, /from 8 KiB chunks of the document deflated once per run/);
      else assert.doesNotMatch(c.description, /chunks/);
    }
  });

  test('13.x sends the JSON document, fragmented as its row says', () => {
    const t = new FakeContext(true);
    void caseById('13.6.15').run(t);
    assert.deepEqual(t.last, { data: corpusFile('json').bytes.subarray(0, 131072), binary: false, fragmentSize: 256 });
  });

  test("a wrong echo fails the case in Autobahn's words: type first, then length, then contents", () => {
    const c = caseById('12.1.3');
    const failWith = (mutate: (m: { data: Buffer; binary: boolean }) => { data: Buffer; binary: boolean }): [string, string] | null => {
      const t = new FakeContext(true);
      void c.run(t);
      echo(c, t, 5);
      const m = mutate(t.last);
      c.onMessage?.(t, m.data, m.binary, m.data.length);
      assert.deepEqual(t.log.slice(-2), ['wirelog true', 'close 1000']);
      assert.equal(t.sent.length, 6);
      return t.outcome;
    };
    assert.deepEqual(
      failWith((m) => ({ data: m.data, binary: true })),
      ['FAILED', "Echo'ed message type differs from what I sent (got binary True, expected binary False)."],
    );
    assert.deepEqual(
      failWith((m) => ({ data: m.data.subarray(1), binary: false })),
      ['FAILED', "Echo'ed message length differs from what I sent (got length 255, expected length 256)."],
    );
    // Length counts code points: 'é' for 'a' keeps 256 of them in 257 bytes.
    const expected = corpusFile('json').bytes.subarray(5 * 256, 6 * 256);
    const changed = Buffer.concat([Buffer.from('é'), expected.subarray(1)]);
    assert.deepEqual(
      failWith(() => ({ data: changed, binary: false })),
      ['FAILED', `Echo'ed message contents differs from what I sent (got SHA1 ${sha1(changed)}, expected SHA1 ${sha1(expected)}).`],
    );
  });
});

// ---------------------------------------------------------------------------------------------------

/** Runs cases with a client script, `batch` connections at a time; one process per case. */
async function runCases(
  server: FuzzingServer,
  base: string,
  ids: readonly string[],
  script: string,
  agent: string,
  batch = 4,
): Promise<Map<string, CaseResult>> {
  const selected = selectCases(catalogue, ['12.*', '13.*']).map((c) => c.id);
  const out = new Map<string, CaseResult>();
  for (let i = 0; i < ids.length; i += batch) {
    const part = ids.slice(i, i + batch);
    const results = await Promise.all(
      part.map(async (id) => {
        const pending = resultOf(server, agent, id, 600_000);
        await runNode(script, [`${base}/runCase?case=${selected.indexOf(id) + 1}&agent=${encodeURIComponent(agent)}`], 600_000);
        return pending;
      }),
    );
    for (const r of results) out.set(r.id, r);
  }
  return out;
}

function get(results: ReadonlyMap<string, CaseResult>, id: string): CaseResult {
  const r = results.get(id);
  if (r === undefined) throw new Error(`no result for ${id}`);
  return r;
}

/** The Sec-WebSocket-Extensions line of our handshake response, if any. */
function extensionsOf(r: CaseResult): string | null {
  return /\r\nSec-WebSocket-Extensions: ([^\r]*)\r\n/i.exec(r.httpResponse)?.[1] ?? null;
}

const ALL = process.env.WSGATE_DEFLATE_ALL === '1';
/** Every 12.x.1 and 13.x.1, plus bigger and fragmented ones: 128 KiB text that wraps, 256-byte fragments. */
const SUBSET = [
  '12.1.1',
  '12.2.1',
  '12.3.1',
  '12.4.1',
  '12.5.1',
  '13.1.1',
  '13.2.1',
  '13.3.1',
  '13.4.1',
  '13.5.1',
  '13.6.1',
  '13.7.1',
  '12.1.10',
  '12.4.11',
  '13.2.11',
];

describe('over sockets', () => {
  let server: FuzzingServer;
  let base: string;
  let ws: Map<string, CaseResult>;
  before(async () => {
    ({ server, base } = await startServer(['12.*', '13.*']));
    server.setMaxListeners(100);
    const ids = ALL ? selectCases(catalogue, ['12.*', '13.*']).map((c) => c.id) : SUBSET;
    ws = await runCases(server, base, ids, REFERENCE_CLIENT, 'ws', ALL ? 2 : 4);
  });
  after(() => server.close());

  test('the ws client gets the verdicts the original gave it', () => {
    assert.ok(ws.size >= SUBSET.length);
    for (const [id, r] of ws) assert.deepEqual(verdictOf(r), wsVerdict(id), id);
  });

  test('a passed case: statistics of 1000 messages each way, frame log only around the transfer', () => {
    const r = get(ws, '12.2.1');
    assert.equal(r.result, "Ok, received all echo'ed messages in time.");
    assert.equal(r.reportTime, true);
    assert.equal(r.reportCompressionRatio, true);
    const stats = r.trafficStats;
    assert.ok(stats !== null);
    assert.equal(stats.outgoingWebSocketMessages, 1000);
    assert.equal(stats.incomingWebSocketMessages, 1000);
    assert.equal(stats.outgoingOctetsAppLevel, 16000);
    assert.equal(stats.incomingOctetsAppLevel, 16000);
    // The transfer leaves no frames in the log: it is off from the start until the last echo.
    assert.deepEqual(
      frameKinds(r).filter((k) => k !== 'TI'),
      ['WLM', 'WLM', 'TF', 'RF'],
    );
    assert.deepEqual(entries(r, 'WLM'), [
      ['WLM', false],
      ['WLM', true],
    ]);
    assert.deepEqual(entries(r, 'TF'), [['TF', [2, '0x03e8'], 8, true, 0, null, null, null, false]]);
    // 1000 binary data frames (each message in one frame) and the close.
    assert.deepEqual(r.txFrameStats, { '2': 1000, '8': 1 });
  });

  test("the close timer is logged though the frame log is off (Autobahn's closeAfter logs TI unconditionally)", () => {
    assert.deepEqual(frameKinds(get(ws, '12.2.1')), ['WLM', 'TI', 'WLM', 'TF', 'RF']);
    assert.deepEqual(entries(get(ws, '12.2.1'), 'TI'), [['TI', 60]]);
  });

  test('fragmented cases send continuation frames of the compressed payload', () => {
    const r = get(ws, '12.4.11');
    assert.equal(r.txFrameStats['1'], 1000);
    assert.ok((r.txFrameStats['0'] ?? 0) >= 1000, JSON.stringify(r.txFrameStats));
    // 8192 code points of HTML, 8192 + (multi-byte extra) bytes each: at least 8192000 bytes in all.
    assert.ok((r.trafficStats?.outgoingOctetsAppLevel ?? 0) >= 8192000);
  });

  test('each 13.x subgroup answers the ws offer with its own parameters', () => {
    const expected: Record<string, string> = {
      '12.1.1': 'permessage-deflate',
      '13.1.1': 'permessage-deflate',
      '13.2.1': 'permessage-deflate; client_no_context_takeover',
      '13.3.1': 'permessage-deflate; client_max_window_bits=9',
      '13.4.1': 'permessage-deflate; client_max_window_bits=15',
      '13.5.1': 'permessage-deflate; client_no_context_takeover; client_max_window_bits=9',
      '13.6.1': 'permessage-deflate; client_no_context_takeover; client_max_window_bits=15',
      '13.7.1': 'permessage-deflate; client_no_context_takeover; client_max_window_bits=9',
    };
    for (const [id, header] of Object.entries(expected)) assert.equal(extensionsOf(get(ws, id)), header, id);
  });

  test('a client without permessage-deflate: UNIMPLEMENTED, closed at once and cleanly', async () => {
    const ids = ['12.1.1', '12.5.18', '13.3.1', '13.7.10'];
    const results = await runCases(server, base, ids, fixture('ws-no-deflate'), 'no-deflate');
    for (const id of ids) {
      const r = get(results, id);
      assert.deepEqual(verdictOf(r), { behavior: 'UNIMPLEMENTED', behaviorClose: 'OK', remoteCloseCode: 1000 }, id);
      assert.equal(r.result, 'Actual events differ from any expected.');
      assert.equal(extensionsOf(r), null);
      assert.equal(r.trafficStats, null);
      // The close went out with the frame log already off.
      assert.deepEqual(frameKinds(r), ['WLM']);
      assert.deepEqual(r.txFrameStats, { '8': 1 });
    }
  });

  test('a client that corrupts its binary echoes: FAILED with both SHA-1s', async () => {
    const results = await runCases(server, base, ['12.2.1', '12.5.3', '12.1.1'], fixture('corrupting-echo'), 'corrupting-echo');
    const corrupt = (b: Buffer): Buffer => {
      const out = Buffer.from(b);
      out[out.length >>> 1] = (out[out.length >>> 1] as number) ^ 0xff;
      return out;
    };
    for (const [id, kind, length] of [
      ['12.2.1', 'bitmap', 16],
      ['12.5.3', 'pdf', 256],
    ] as const) {
      const r = get(results, id);
      const sent = corpusFile(kind).bytes.subarray(0, length);
      assert.deepEqual(verdictOf(r), { behavior: 'FAILED', behaviorClose: 'OK', remoteCloseCode: 1000 }, id);
      assert.equal(r.result, `Echo'ed message contents differs from what I sent (got SHA1 ${sha1(corrupt(sent))}, expected SHA1 ${sha1(sent)}).`);
      assert.equal(r.trafficStats, null);
      // The first echo failed: one message sent, then the close with the frame log on again.
      assert.deepEqual(r.txFrameStats, { '2': 1, '8': 1 });
      assert.deepEqual(entries(r, 'WLM'), [
        ['WLM', false],
        ['WLM', true],
      ]);
    }
    // Text is echoed unchanged by this client.
    assert.equal(get(results, '12.1.1').behavior, 'OK');
  });
});
