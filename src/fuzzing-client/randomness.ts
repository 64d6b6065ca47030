/**
 * Where a fuzzing client's random bytes come from (masking keys, Sec-WebSocket-Key): the system's
 * CSPRNG, or, with a seed (`--seed`), a stream made from the seed and the case id, so a run's bytes
 * on the wire are the same every time whatever order concurrent cases run in.
 */
import { createHash, randomFillSync } from 'node:crypto';

/** n bytes at a time. */
export type ByteSource = (n: number) => Buffer;

/** Size of the blocks system random bytes are drawn from. */
const POOL_SIZE = 4096;

/**
 * Bytes drawn from blocks filled from the CSPRNG (one system call per 4 KiB, not per mask), handed
 * out as views: a used block is replaced, never refilled, so the bytes given stay as they were.
 */
export function systemBytes(): ByteSource {
  let pool = Buffer.alloc(0);
  let at = 0;
  return (n) => {
    if (n > POOL_SIZE) return randomFillSync(Buffer.alloc(n));
    if (at + n > pool.length) {
      pool = randomFillSync(Buffer.allocUnsafeSlow(POOL_SIZE));
      at = 0;
    }
    at += n;
    return pool.subarray(at - n, at);
  };
}

/** SHA-256 in counter mode over (seed, case id): reproducible, different for every case. */
export function seededBytes(seed: number, caseId: string): ByteSource {
  let counter = 0;
  let block = Buffer.alloc(0);
  let at = 0;
  return (n) => {
    const out = Buffer.alloc(n);
    for (let filled = 0; filled < n; ) {
      if (at === block.length) {
        block = createHash('sha256').update(`wsgate:${seed}:${caseId}:${counter++}`).digest();
        at = 0;
      }
      const take = Math.min(n - filled, block.length - at);
      block.copy(out, filled, at, at + take);
      filled += take;
      at += take;
    }
    return out;
  };
}
