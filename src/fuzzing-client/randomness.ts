/**
 * Where a fuzzing client's random bytes come from (masking keys, Sec-WebSocket-Key): the system's
 * CSPRNG, or, with a seed (`--seed`), a stream made from the seed and the case id, so a run's bytes
 * on the wire are the same every time whatever order concurrent cases run in.
 */
import { createHash, randomFillSync } from 'node:crypto';

/** n bytes at a time. */
export type ByteSource = (n: number) => Buffer;

/** Bytes drawn from a buffer refilled from the CSPRNG (one system call per 4 KiB, not per mask). */
export function systemBytes(): ByteSource {
  const pool = Buffer.alloc(4096);
  let at = pool.length;
  return (n) => {
    if (n > pool.length) return randomFillSync(Buffer.alloc(n));
    if (at + n > pool.length) {
      randomFillSync(pool);
      at = 0;
    }
    const out = Buffer.from(pool.subarray(at, at + n));
    at += n;
    return out;
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
