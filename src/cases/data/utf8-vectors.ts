/**
 * UTF-8 decoder test vectors of Autobahn's groups 6.5-6.23 (from Markus Kuhn's UTF-8-test.txt), one
 * text message each. `valid` says whether the bytes are valid UTF-8 (checked by a test against
 * TextDecoder). The foundation carries the two vectors the spec describes; the catalogue issue fills
 * in the rest of the table.
 */
export interface Utf8Vector {
  /** Autobahn's case id. */
  readonly id: string;
  /** The payload, as hex. */
  readonly hex: string;
  readonly valid: boolean;
}

export const utf8Vectors: readonly Utf8Vector[] = [
  // 6.9: last possible sequence of a certain length. 0xdf 0xbf: U+07FF, the largest two-byte code point.
  { id: '6.9.2', hex: 'dfbf', valid: true },
  // 6.12: unexpected continuation bytes. 0x80 0xbf 0x80 0xbf 0x80 0xbf: six stray continuations.
  { id: '6.12.7', hex: '80bf80bf80bf', valid: false },
];
