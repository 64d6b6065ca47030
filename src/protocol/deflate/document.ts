/** Documents deflated once per run in chunks, so every connection sends cuts of them cheaply (groups 12, 13). */
import { newDeflater, syncFlush, type DeflateSettings } from './sync-zlib.js';

/**
 * A document that connections send as consecutive cuts (groups 12 and 13 send 1000 messages cut in
 * turn from one document, wrapping around at its end), compressed ahead in chunks of `chunkSize`
 * bytes at fixed offsets, once per set of zlib parameters, and shared by every connection.
 *
 * Why this is valid deflate for the peer: a connection that keeps its compression context sends the
 * document's bytes in order from byte 0, so the peer's LZ77 window always ends with the document's
 * bytes just before the ones arriving (after its end, with the document's end, and its start again).
 * The chunks are made by one compressor reading the document once, with a sync flush after each
 * (byte-aligned, nothing pending): a chunk refers back only into the document before it, at most a
 * window's distance away, which the peer then holds at the same distance in every pass. A message's
 * partial chunks at its two ends are coded from an empty window, without references.
 *
 * Why: compressing the same document over and over was most of wsgate's CPU time in groups 12 and
 * 13 (the PDF deflates at about 30 MB/s); a cut of 128 KiB now costs copies and two small pieces.
 */
export class DocumentChunks {
  private readonly built = new Map<string, readonly Buffer[]>();

  constructor(
    readonly bytes: Buffer,
    readonly chunkSize = 8192,
  ) {
    if (bytes.length === 0) throw new RangeError('DocumentChunks: an empty document');
    if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError(`DocumentChunks: chunk size ${chunkSize}`);
  }

  /** Bytes [start, start + length) of the document, wrapping around at its end: one view, or two when it wraps. */
  views(start: number, length: number): Buffer[] {
    const end = start + length;
    if (end <= this.bytes.length) return [this.bytes.subarray(start, end)];
    return [this.bytes.subarray(start), this.bytes.subarray(0, end - this.bytes.length)];
  }

  /** The same bytes in one buffer (a copy only when they wrap). */
  cut(start: number, length: number): Buffer {
    const views = this.views(start, length);
    return views.length === 1 ? (views[0] as Buffer) : Buffer.concat(views, length);
  }

  /** The chunks for these zlib parameters, each ending with its sync flush's 00 00 ff ff; made on first use. */
  chunksFor(settings: DeflateSettings): readonly Buffer[] {
    const key = `${settings.level}/${settings.windowBits}/${settings.strategy}`;
    let chunks = this.built.get(key);
    if (chunks === undefined) {
      const deflater = newDeflater(settings);
      const out = Buffer.allocUnsafe(this.chunkSize + (this.chunkSize >>> 3) + 64);
      const list: Buffer[] = [];
      try {
        for (let at = 0; at < this.bytes.length; at += this.chunkSize) {
          list.push(Buffer.from(syncFlush(deflater, this.bytes, at, Math.min(this.chunkSize, this.bytes.length - at), out)));
        }
      } finally {
        deflater.close();
      }
      chunks = list;
      this.built.set(key, chunks);
    }
    return chunks;
  }
}
