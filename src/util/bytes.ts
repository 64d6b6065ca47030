/** A Buffer view of text (UTF-8) or bytes, without copying bytes. */
export function toBuffer(data: Uint8Array | string): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** The empty buffer (shared: never write into it). */
export const EMPTY: Buffer = Buffer.alloc(0);
