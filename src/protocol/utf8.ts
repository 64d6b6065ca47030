/**
 * Incremental UTF-8 validation for text messages that arrive in many frames and TCP chunks,
 * where a code point can be split anywhere (RFC 6455 §8.1, Autobahn cases 6.x).
 */

import { isUtf8 } from 'node:buffer';

/** Result of the bytes validated since the last reset. */
export interface Utf8State {
  /** False once an invalid byte has been seen; stays false until reset(). */
  valid: boolean;
  /** True when the bytes so far end on a code point boundary (a complete message must). */
  endsOnCodePoint: boolean;
  /** Bytes consumed so far; on failure the index of the offending byte within the whole stream. */
  index: number;
}

// Bjoern Hoehrmann's "Flexible and Economical UTF-8 Decoder" DFA (MIT licence), the same table
// autobahn-python uses. Byte classes:
//   0: 00..7F   1: 80..8F   9: 90..9F   7: A0..BF   8: C0 C1 F5..FF (never valid)
//   2: C2..DF   10: E0   3: E1..EC EE EF   4: ED   11: F0   6: F1..F3   5: F4
// States: 0 accept, 1 reject, 2 one continuation byte left, 3 two left, 4 after E0 (needs A0..BF,
// no overlongs), 5 after ED (needs 80..9F, no surrogates), 6 after F0 (needs 90..BF, no overlongs),
// 7 after F1..F3, 8 after F4 (needs 80..8F, nothing above U+10FFFF).
// It rejects at the first byte that makes the sequence impossible (e.g. F4 90 fails at 90).
const BYTE_CLASS = [
  ...Array<number>(0x80).fill(0), // 00..7f
  ...Array<number>(0x10).fill(1), // 80..8f
  ...Array<number>(0x10).fill(9), // 90..9f
  ...Array<number>(0x20).fill(7), // a0..bf
  8,
  8, // c0 c1
  ...Array<number>(0x1e).fill(2), // c2..df
  10, // e0
  ...Array<number>(0x0c).fill(3), // e1..ec
  4, // ed
  3,
  3, // ee ef
  11, // f0
  6,
  6,
  6, // f1..f3
  5, // f4
  ...Array<number>(0x0b).fill(8), // f5..ff
];

// prettier-ignore
const STATE_CLASS = [
  0,
  1,
  2,
  3,
  5,
  8,
  7,
  1,
  1,
  1,
  4,
  6,
  1,
  1,
  1,
  1, // s0
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  1, // s1
  1,
  0,
  1,
  1,
  1,
  1,
  1,
  0,
  1,
  0,
  1,
  1,
  1,
  1,
  1,
  1, // s2
  1,
  2,
  1,
  1,
  1,
  1,
  1,
  2,
  1,
  2,
  1,
  1,
  1,
  1,
  1,
  1, // s3
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  2,
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  1, // s4
  1,
  2,
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  2,
  1,
  1,
  1,
  1,
  1,
  1, // s5
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  3,
  1,
  3,
  1,
  1,
  1,
  1,
  1,
  1, // s6
  1,
  3,
  1,
  1,
  1,
  1,
  1,
  3,
  1,
  3,
  1,
  1,
  1,
  1,
  1,
  1, // s7
  1,
  3,
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  1,
  1, // s8
];

const ACCEPT = 0;
const REJECT = 1;
const STATES = 9;

/** Flattened transitions: next = TRANSITION[(state << 8) | byte], one lookup per byte. */
const TRANSITION = ((): Uint8Array => {
  const t = new Uint8Array(STATES << 8);
  for (let s = 0; s < STATES; s++) {
    for (let b = 0; b < 256; b++) t[(s << 8) | b] = STATE_CLASS[s * 16 + BYTE_CLASS[b]!]!;
  }
  return t;
})();

/** Spans shorter than this go straight through the DFA; longer ones try the native (SIMD) check first. */
const NATIVE_MIN = 64;

/** Incremental validator: feed chunks with validate(), start a new message with reset(). */
export class Utf8Validator {
  private state = ACCEPT;
  private consumed = 0;

  /** Start over for a new message. */
  reset(): void {
    this.state = ACCEPT;
    this.consumed = 0;
  }

  /** Validate the next chunk of the stream. */
  validate(chunk: Uint8Array): Utf8State {
    let state = this.state;
    if (state === REJECT) return { valid: false, endsOnCodePoint: false, index: this.consumed };
    const n = chunk.length;
    let i = 0;
    // Finish a code point left open by the previous chunk (at most 3 bytes).
    while (state !== ACCEPT && i < n) {
      state = TRANSITION[(state << 8) | chunk[i]!]!;
      if (state === REJECT) return this.fail(i);
      i++;
    }
    if (n - i >= NATIVE_MIN) {
      // Fast path: the native validator on everything up to the last (possibly cut) code point;
      // it only answers yes/no, so on "no" the DFA below rescans to find the failing index.
      const cut = lastSequenceStart(chunk, i);
      if (cut - i >= NATIVE_MIN && isUtf8(chunk.subarray(i, cut))) i = cut;
    }
    for (; i < n; i++) {
      const b = chunk[i]!;
      // ASCII outside a sequence cannot change the state.
      if (b < 0x80 && state === ACCEPT) continue;
      state = TRANSITION[(state << 8) | b]!;
      if (state === REJECT) return this.fail(i);
    }
    this.state = state;
    this.consumed += n;
    return { valid: true, endsOnCodePoint: state === ACCEPT, index: this.consumed };
  }

  private fail(i: number): Utf8State {
    this.state = REJECT;
    this.consumed += i;
    return { valid: false, endsOnCodePoint: false, index: this.consumed };
  }
}

/**
 * Where the trailing code point starts when the chunk might end inside it: the last lead byte
 * among the final 4 bytes if only continuation bytes follow it, else the chunk's end.
 */
function lastSequenceStart(chunk: Uint8Array, from: number): number {
  const n = chunk.length;
  const stop = Math.max(from, n - 4);
  for (let j = n - 1; j >= stop; j--) {
    const b = chunk[j]!;
    if (b < 0x80) return n; // ASCII last (or before only continuations): nothing cut
    if (b >= 0xc0) return j; // a lead byte: hand it and its continuations to the DFA
  }
  return n;
}

/** Whole-buffer check: true when `data` is complete, valid UTF-8 (native simdutf check, strict like TextDecoder fatal). */
export function isValidUtf8(data: Uint8Array): boolean {
  return isUtf8(data);
}
