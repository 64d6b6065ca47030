/**
 * Compressed cuts remembered across the connections of a run, for compressors that start every
 * message from an empty window (groups 12 and 13 when the peer asked for no context takeover, as
 * the bundled ws server always does of a client that offers it).
 *
 * Such a message's deflate bytes depend only on its bytes and the zlib parameters, and the cases of
 * groups 12 and 13 send the same messages many times over: a subgroup's rows 10 and 15-18 send the
 * same 1000 cuts of 128 KiB (only the framing differs), rows 9 and 14, 8 and 13 the same cuts too,
 * and 12.1 and the seven subgroups of 13 cut the same JSON document. Compressing each of them again
 * was most of wsgate's CPU in the server role (about 11 GB deflated over the catalogue), where the
 * client role's compressor keeps its context and codes cuts from precompressed chunks.
 *
 * The memo keeps series (one per document, zlib parameters and message length), each a map from
 * the cut's first byte to its compressed bytes, up to a byte budget: the least recently used series
 * is dropped first; a series that alone outgrows the budget keeps what it has and adds no more.
 */
import type { DocumentChunks } from './document.js';
import type { DeflateSettings } from './sync-zlib.js';

/** Bytes counted per remembered message besides its data (the map entry and the Buffer object). */
const ENTRY_OVERHEAD = 128;

/**
 * The default budget: the largest series, 1000 cuts of 128 KiB of the PDF (Huffman-coded to 96.6 %
 * of their size, 121 MiB), fits; with 64 MiB the bitmap's and the PDF's did not, and rows 16-18 of
 * 12.2 and 12.5 compressed 45 % of their messages again.
 */
export const CUT_MEMO_BUDGET = 128 * 1024 * 1024;

/** The compressed cuts of one document, zlib parameters and message length. */
interface Series {
  readonly byStart: Map<number, Buffer>;
  bytes: number;
}

/** Compressed cuts, each coded from an empty window, shared by every connection of a process. */
export class CutMemo {
  /** Series in use order: the least recently used first. */
  private readonly series = new Map<string, Series>();
  private readonly documentIds = new WeakMap<DocumentChunks, number>();
  private nextDocumentId = 0;
  private used = 0;

  constructor(readonly budget = CUT_MEMO_BUDGET) {
    if (!(budget >= 0)) throw new RangeError(`CutMemo: budget ${budget}`);
  }

  /** Bytes held now (data and overhead). */
  get size(): number {
    return this.used;
  }

  /** The compressed bytes of the cut [start, start + length) remembered for these parameters, or undefined. */
  get(document: DocumentChunks, settings: DeflateSettings, start: number, length: number): Buffer | undefined {
    const key = this.key(document, settings, length);
    const series = this.series.get(key);
    if (series === undefined) return undefined;
    const data = series.byStart.get(start);
    if (data !== undefined) this.touch(key, series);
    return data;
  }

  /**
   * Remembers `data` as the compressed cut [start, start + length) (the caller must not change it
   * afterwards), within the budget; returns `data`.
   */
  remember(document: DocumentChunks, settings: DeflateSettings, start: number, length: number, data: Buffer): Buffer {
    const key = this.key(document, settings, length);
    let series = this.series.get(key);
    if (series?.byStart.has(start) === true) return data;
    const cost = data.length + ENTRY_OVERHEAD;
    // Older series make room for the one in use; it never evicts itself.
    for (const [oldKey, old] of this.series) {
      if (this.used + cost <= this.budget || oldKey === key) break;
      this.series.delete(oldKey);
      this.used -= old.bytes;
    }
    if (this.used + cost > this.budget) return data;
    if (series === undefined) series = { byStart: new Map(), bytes: 0 };
    // A small buffer may be a slice of Node's shared pool: keep a copy of its own, not the slab.
    const kept = data.buffer.byteLength > data.length * 2 ? ownCopy(data) : data;
    series.byStart.set(start, kept);
    series.bytes += cost;
    this.used += cost;
    this.touch(key, series);
    return data;
  }

  /** Forgets everything. */
  clear(): void {
    this.series.clear();
    this.used = 0;
  }

  /** Moves a series to the most recently used end. */
  private touch(key: string, series: Series): void {
    this.series.delete(key);
    this.series.set(key, series);
  }

  private key(document: DocumentChunks, settings: DeflateSettings, length: number): string {
    let id = this.documentIds.get(document);
    if (id === undefined) {
      id = this.nextDocumentId++;
      this.documentIds.set(document, id);
    }
    return `${id}/${settings.level}/${settings.windowBits}/${settings.strategy}/${length}`;
  }
}

/** A copy in memory of its own (Buffer.from would take a small one from the shared pool). */
function ownCopy(data: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(data.length);
  data.copy(copy);
  return copy;
}

/** The process's memo (groups 12 and 13 in the server role). */
export const cutMemo = new CutMemo();
