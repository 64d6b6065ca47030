/**
 * The tables of groups 12 and 13 (Autobahn's case/case12_x_x.py): the 18 message-size rows every
 * subgroup runs, the test data of 12.1-12.5, and the server's seven permessage-deflate accept rules of
 * 13.1-13.7.
 */
import type { DeflateAccept, DeflateOffer } from '../../protocol/deflate/params.js';
import type { CorpusKind } from './deflate-corpus.js';

/** One row of MSG_SIZES: case 12.j.<row> and 13.j.<row> use it. */
export interface MessageSizeRow {
  /** The last part of the case id. */
  readonly row: string;
  /** Payload size of every message: bytes, or code points for text data. */
  readonly length: number;
  /** How many messages the case sends, one after the other's echo. */
  readonly count: number;
  /** The case gives up (and closes) after this many seconds. */
  readonly waitSeconds: number;
  /** The server's frame size for the compressed payload (0: one frame per message). */
  readonly fragmentSize: number;
}

/** MSG_SIZES: 1000 messages each; sizes 16 B-128 KiB unfragmented, then fragmented to 256 B-32 KiB. */
export const messageSizeRows: readonly MessageSizeRow[] = [
  { row: '1', length: 16, count: 1000, waitSeconds: 60, fragmentSize: 0 },
  { row: '2', length: 64, count: 1000, waitSeconds: 60, fragmentSize: 0 },
  { row: '3', length: 256, count: 1000, waitSeconds: 120, fragmentSize: 0 },
  { row: '4', length: 1024, count: 1000, waitSeconds: 240, fragmentSize: 0 },
  { row: '5', length: 4096, count: 1000, waitSeconds: 480, fragmentSize: 0 },
  { row: '6', length: 8192, count: 1000, waitSeconds: 480, fragmentSize: 0 },
  { row: '7', length: 16384, count: 1000, waitSeconds: 480, fragmentSize: 0 },
  { row: '8', length: 32768, count: 1000, waitSeconds: 480, fragmentSize: 0 },
  { row: '9', length: 65536, count: 1000, waitSeconds: 480, fragmentSize: 0 },
  { row: '10', length: 131072, count: 1000, waitSeconds: 480, fragmentSize: 0 },
  { row: '11', length: 8192, count: 1000, waitSeconds: 480, fragmentSize: 256 },
  { row: '12', length: 16384, count: 1000, waitSeconds: 480, fragmentSize: 256 },
  { row: '13', length: 32768, count: 1000, waitSeconds: 480, fragmentSize: 256 },
  { row: '14', length: 65536, count: 1000, waitSeconds: 480, fragmentSize: 256 },
  { row: '15', length: 131072, count: 1000, waitSeconds: 480, fragmentSize: 256 },
  { row: '16', length: 131072, count: 1000, waitSeconds: 480, fragmentSize: 1024 },
  { row: '17', length: 131072, count: 1000, waitSeconds: 480, fragmentSize: 4096 },
  { row: '18', length: 131072, count: 1000, waitSeconds: 480, fragmentSize: 32768 },
];

/** What a subgroup sends. */
export interface TestData {
  readonly corpus: CorpusKind;
  /** Sent as binary messages (Autobahn sends the Faust text as binary too). */
  readonly binary: boolean;
  /** How descriptions name it. */
  readonly what: string;
  /**
   * wsgate compresses it as Huffman literals only: zlib level 1 gets the bitmap's noise to 0.880 of
   * its size, literals alone to 0.883, at about a quarter of the CPU (measured with streaming sync
   * flushes of 16-128 KiB messages). The other documents keep LZ77: it halves prose and shrinks
   * JSON/HTML tenfold, and the PDF loses 10 % without it.
   */
  readonly literalsOnly?: boolean;
}

/** The test data of 12.1-12.5, in Autobahn's order (json, bitmap, Faust, html, pdf). */
export const payloadSubgroups: ReadonlyArray<{ readonly subgroup: string; readonly data: TestData }> = [
  { subgroup: '12.1', data: { corpus: 'json', binary: false, what: 'a 194056-byte JSON document' } },
  { subgroup: '12.2', data: { corpus: 'bitmap', binary: true, what: 'a 263222-byte 512×512 grayscale bitmap', literalsOnly: true } },
  { subgroup: '12.3', data: { corpus: 'prose', binary: true, what: 'a 222218-byte German verse text (UTF-8, sent as binary)' } },
  { subgroup: '12.4', data: { corpus: 'html', binary: false, what: 'a 263647-byte HTML page (263620 code points)' } },
  { subgroup: '12.5', data: { corpus: 'pdf', binary: true, what: 'a 1042328-byte PDF document' } },
];

/** 13.x always sends the JSON document. */
export const paramTestData: TestData = payloadSubgroups[0]?.data ?? { corpus: 'json', binary: false, what: '' };

/**
 * One thing the server may ask of the client's compressor: client_no_context_takeover, and
 * client_max_window_bits (0: not asked).
 */
export interface DeflateRequest {
  readonly noContextTakeover: boolean;
  readonly maxWindowBits: number;
}

/**
 * The server's accept rule of a 13.x subgroup: the requests it tries in order; for each, the first
 * offer that allows it (an offer always allows nothing asked; client_no_context_takeover and
 * client_max_window_bits only when offered) is accepted with it. Nothing fits: no compression, and
 * the case is UNIMPLEMENTED. Autobahn's accept1..accept7 are all of this form.
 */
export interface AcceptRule {
  readonly subgroup: string;
  /**
   * Also the offers Autobahn makes when it is the client (fuzzingclient mode, not ours); the
   * subcategory name shows both lists.
   */
  readonly requests: readonly DeflateRequest[];
}

const plain: DeflateRequest = { noContextTakeover: false, maxWindowBits: 0 };
const noContext: DeflateRequest = { noContextTakeover: true, maxWindowBits: 0 };
const bits9: DeflateRequest = { noContextTakeover: false, maxWindowBits: 9 };
const bits15: DeflateRequest = { noContextTakeover: false, maxWindowBits: 15 };
const noContextBits9: DeflateRequest = { noContextTakeover: true, maxWindowBits: 9 };
const noContextBits15: DeflateRequest = { noContextTakeover: true, maxWindowBits: 15 };

/** accept1..accept7 (RFC 7692 §7.1.1.2 client_no_context_takeover, §7.1.2.2 client_max_window_bits). */
export const acceptRules: readonly AcceptRule[] = [
  { subgroup: '13.1', requests: [plain] },
  { subgroup: '13.2', requests: [noContext] },
  { subgroup: '13.3', requests: [bits9] },
  { subgroup: '13.4', requests: [bits15] },
  { subgroup: '13.5', requests: [noContextBits9] },
  { subgroup: '13.6', requests: [noContextBits15] },
  { subgroup: '13.7', requests: [noContextBits9, noContext, plain] },
];

/** The accept rule of 12.x: the first permessage-deflate offer, asking nothing of the client. */
export const acceptFirstOffer: readonly DeflateRequest[] = [plain];

/** Applies an accept rule to the client's offers. */
export function acceptOffer(requests: readonly DeflateRequest[], offers: readonly DeflateOffer[]): DeflateAccept | null {
  for (const request of requests) {
    for (const offer of offers) {
      if (request.noContextTakeover && !offer.acceptNoContextTakeover) continue;
      if (request.maxWindowBits !== 0 && !offer.acceptMaxWindowBits) continue;
      return { offer, requestNoContextTakeover: request.noContextTakeover, requestMaxWindowBits: request.maxWindowBits };
    }
  }
  return null;
}

/** A request list as Python prints a list of tuples: "[(True, 9), (False, 0)]" (for names). */
export function pyTuples(requests: readonly DeflateRequest[]): string {
  const py = (b: boolean): string => (b ? 'True' : 'False');
  return `[${requests.map((r) => `(${py(r.noContextTakeover)}, ${r.maxWindowBits})`).join(', ')}]`;
}
