/**
 * UTF-8 decoder test vectors of Autobahn's groups 6.5-6.23, one text message each: the sequences
 * Autobahn's createUtf8TestSequences (case/case6_x_x.py) takes from Markus Kuhn's UTF-8-test.txt.
 * Autobahn numbers them Case6_<i>_<j>: i counts the families from 5, j the vectors within a family
 * from 1, in the order listed here. `valid` is Autobahn's own mark for each vector (checked by a test
 * against TextDecoder): a valid one must be echoed, an invalid one must fail the connection.
 */
export interface Utf8Vector {
  /** Autobahn's case id. */
  readonly id: string;
  /** The payload, as hex. */
  readonly hex: string;
  readonly valid: boolean;
}

/** All 132 vectors, in Autobahn's order. */
export const utf8Vectors: readonly Utf8Vector[] = [
  // 6.5, some valid text: 'hello' + U+0024 / U+00A2 / U+20AC / U+24B62 (1 to 4 bytes) + 'world', then
  // 'κόσμε' (ce ba | e1 bd b9 | cf 83 | ce bc | ce b5), the Greek word of Kuhn's file.
  { id: '6.5.1', hex: '68656c6c6f24776f726c64', valid: true },
  { id: '6.5.2', hex: '68656c6c6fc2a2776f726c64', valid: true },
  { id: '6.5.3', hex: '68656c6c6fe282ac776f726c64', valid: true },
  { id: '6.5.4', hex: '68656c6c6ff0a4ada2776f726c64', valid: true },
  { id: '6.5.5', hex: 'cebae1bdb9cf83cebcceb5', valid: true },

  // 6.6, every prefix of 'κόσμε', 1 to 11 bytes. Autobahn marks each with its incremental validator
  // (valid and ending on a code point boundary), which holds for the prefixes that end after a whole
  // code point: 2, 5, 7, 9 and 11 bytes. The others end inside a sequence: an incomplete message.
  { id: '6.6.1', hex: 'ce', valid: false },
  { id: '6.6.2', hex: 'ceba', valid: true },
  { id: '6.6.3', hex: 'cebae1', valid: false },
  { id: '6.6.4', hex: 'cebae1bd', valid: false },
  { id: '6.6.5', hex: 'cebae1bdb9', valid: true },
  { id: '6.6.6', hex: 'cebae1bdb9cf', valid: false },
  { id: '6.6.7', hex: 'cebae1bdb9cf83', valid: true },
  { id: '6.6.8', hex: 'cebae1bdb9cf83ce', valid: false },
  { id: '6.6.9', hex: 'cebae1bdb9cf83cebc', valid: true },
  { id: '6.6.10', hex: 'cebae1bdb9cf83cebcce', valid: false },
  { id: '6.6.11', hex: 'cebae1bdb9cf83cebcceb5', valid: true },

  // 6.7, the first code point of each length: U+0000, U+0080, U+0800, U+10000.
  { id: '6.7.1', hex: '00', valid: true },
  { id: '6.7.2', hex: 'c280', valid: true },
  { id: '6.7.3', hex: 'e0a080', valid: true },
  { id: '6.7.4', hex: 'f0908080', valid: true },

  // 6.8, the first five- and six-byte sequences of the old 31-bit scheme (U+200000, U+4000000): beyond
  // U+10FFFF, and 0xf8-0xfd are never valid lead bytes (RFC 3629).
  { id: '6.8.1', hex: 'f888808080', valid: false },
  { id: '6.8.2', hex: 'fc8480808080', valid: false },

  // 6.9, the last code point of each length: U+007F, U+07FF, U+FFFF, U+10FFFF.
  { id: '6.9.1', hex: '7f', valid: true },
  { id: '6.9.2', hex: 'dfbf', valid: true },
  { id: '6.9.3', hex: 'efbfbf', valid: true },
  { id: '6.9.4', hex: 'f48fbfbf', valid: true },

  // 6.10, the last four-, five- and six-byte sequences of the old scheme (U+1FFFFF, U+3FFFFFF,
  // U+7FFFFFFF): beyond U+10FFFF.
  { id: '6.10.1', hex: 'f7bfbfbf', valid: false },
  { id: '6.10.2', hex: 'fbbfbfbfbf', valid: false },
  { id: '6.10.3', hex: 'fdbfbfbfbfbf', valid: false },

  // 6.11, other boundaries: U+D7FF (just below the surrogates), U+E000 (just above), U+FFFD, U+10FFFF,
  // and 0xf4 0x90 0x80 0x80, U+110000, the first code point too large.
  { id: '6.11.1', hex: 'ed9fbf', valid: true },
  { id: '6.11.2', hex: 'ee8080', valid: true },
  { id: '6.11.3', hex: 'efbfbd', valid: true },
  { id: '6.11.4', hex: 'f48fbfbf', valid: true },
  { id: '6.11.5', hex: 'f4908080', valid: false },

  // 6.12, continuation bytes (0x80-0xbf) with no lead byte. 6.12.8 is 0x80 to 0xbe in order (Autobahn's
  // range stops before 0xbf).
  { id: '6.12.1', hex: '80', valid: false },
  { id: '6.12.2', hex: 'bf', valid: false },
  { id: '6.12.3', hex: '80bf', valid: false },
  { id: '6.12.4', hex: '80bf80', valid: false },
  { id: '6.12.5', hex: '80bf80bf', valid: false },
  { id: '6.12.6', hex: '80bf80bf80', valid: false },
  { id: '6.12.7', hex: '80bf80bf80bf', valid: false },
  {
    id: '6.12.8',
    hex: '808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbe',
    valid: false,
  },

  // 6.13, lead bytes each followed by a space (0x20) instead of their continuation bytes: 0xc0-0xde,
  // 0xe0-0xee, 0xf0-0xf6, 0xf8-0xfa and 0xfc (each of Autobahn's ranges stops one byte early).
  {
    id: '6.13.1',
    hex: 'c020c120c220c320c420c520c620c720c820c920ca20cb20cc20cd20ce20cf20d020d120d220d320d420d520d620d720d820d920da20db20dc20dd20de20',
    valid: false,
  },
  { id: '6.13.2', hex: 'e020e120e220e320e420e520e620e720e820e920ea20eb20ec20ed20ee20', valid: false },
  { id: '6.13.3', hex: 'f020f120f220f320f420f520f620', valid: false },
  { id: '6.13.4', hex: 'f820f920fa20', valid: false },
  { id: '6.13.5', hex: 'fc20', valid: false },

  // 6.14, sequences of 2 to 6 bytes with the last continuation byte missing: first those of U+0000
  // (0xc0, 0xe0 0x80, ...), then those of the largest value of each length (0xdf, 0xef 0xbf, ...).
  { id: '6.14.1', hex: 'c0', valid: false },
  { id: '6.14.2', hex: 'e080', valid: false },
  { id: '6.14.3', hex: 'f08080', valid: false },
  { id: '6.14.4', hex: 'f8808080', valid: false },
  { id: '6.14.5', hex: 'fc80808080', valid: false },
  { id: '6.14.6', hex: 'df', valid: false },
  { id: '6.14.7', hex: 'efbf', valid: false },
  { id: '6.14.8', hex: 'f7bfbf', valid: false },
  { id: '6.14.9', hex: 'fbbfbfbf', valid: false },
  { id: '6.14.10', hex: 'fdbfbfbfbf', valid: false },

  // 6.15, the ten truncated sequences of 6.14 one after the other.
  { id: '6.15.1', hex: 'c0e080f08080f8808080fc80808080dfefbff7bfbffbbfbfbffdbfbfbfbf', valid: false },

  // 6.16, 0xfe and 0xff, which never occur in UTF-8.
  { id: '6.16.1', hex: 'fe', valid: false },
  { id: '6.16.2', hex: 'ff', valid: false },
  { id: '6.16.3', hex: 'fefeffff', valid: false },

  // 6.17, '/' (U+002F) in overlong forms of 2 to 6 bytes: a shortest form is required (RFC 3629 §3).
  { id: '6.17.1', hex: 'c0af', valid: false },
  { id: '6.17.2', hex: 'e080af', valid: false },
  { id: '6.17.3', hex: 'f08080af', valid: false },
  { id: '6.17.4', hex: 'f8808080af', valid: false },
  { id: '6.17.5', hex: 'fc80808080af', valid: false },

  // 6.18, the largest overlong of each length: U+007F in 2 bytes, U+07FF in 3, U+FFFF in 4, U+1FFFFF in
  // 5, U+3FFFFFF in 6.
  { id: '6.18.1', hex: 'c1bf', valid: false },
  { id: '6.18.2', hex: 'e09fbf', valid: false },
  { id: '6.18.3', hex: 'f08fbfbf', valid: false },
  { id: '6.18.4', hex: 'f887bfbfbf', valid: false },
  { id: '6.18.5', hex: 'fc83bfbfbfbf', valid: false },

  // 6.19, NUL (U+0000) in overlong forms of 2 to 6 bytes.
  { id: '6.19.1', hex: 'c080', valid: false },
  { id: '6.19.2', hex: 'e08080', valid: false },
  { id: '6.19.3', hex: 'f0808080', valid: false },
  { id: '6.19.4', hex: 'f880808080', valid: false },
  { id: '6.19.5', hex: 'fc8080808080', valid: false },

  // 6.20, single UTF-16 surrogates, which UTF-8 must not encode (RFC 3629 §3): U+D800, U+DB7F, U+DB80,
  // U+DBFF, U+DC00, U+DF80, U+DFFF (0xed followed by 0xa0-0xbf).
  { id: '6.20.1', hex: 'eda080', valid: false },
  { id: '6.20.2', hex: 'edadbf', valid: false },
  { id: '6.20.3', hex: 'edae80', valid: false },
  { id: '6.20.4', hex: 'edafbf', valid: false },
  { id: '6.20.5', hex: 'edb080', valid: false },
  { id: '6.20.6', hex: 'edbe80', valid: false },
  { id: '6.20.7', hex: 'edbfbf', valid: false },

  // 6.21, high + low surrogate pairs encoded as two three-byte sequences (CESU-8 style): U+D800, U+DB7F,
  // U+DB80, U+DBFF each followed by U+DC00 and by U+DFFF.
  { id: '6.21.1', hex: 'eda080edb080', valid: false },
  { id: '6.21.2', hex: 'eda080edbfbf', valid: false },
  { id: '6.21.3', hex: 'edadbfedb080', valid: false },
  { id: '6.21.4', hex: 'edadbfedbfbf', valid: false },
  { id: '6.21.5', hex: 'edae80edb080', valid: false },
  { id: '6.21.6', hex: 'edae80edbfbf', valid: false },
  { id: '6.21.7', hex: 'edafbfedb080', valid: false },
  { id: '6.21.8', hex: 'edafbfedbfbf', valid: false },

  // 6.22, non-characters, which are valid UTF-8: U+FFFE, U+FFFF, then U+nFFFE and U+nFFFF of planes 1 to
  // 16 (lead 0xf0-0xf4, second byte 0x8f/0x9f/0xaf/0xbf; 0xf0 0x8f would be overlong, 0xf4 above 0x8f
  // beyond U+10FFFF, so Autobahn leaves those out).
  { id: '6.22.1', hex: 'efbfbe', valid: true },
  { id: '6.22.2', hex: 'efbfbf', valid: true },
  { id: '6.22.3', hex: 'f09fbfbe', valid: true },
  { id: '6.22.4', hex: 'f09fbfbf', valid: true },
  { id: '6.22.5', hex: 'f0afbfbe', valid: true },
  { id: '6.22.6', hex: 'f0afbfbf', valid: true },
  { id: '6.22.7', hex: 'f0bfbfbe', valid: true },
  { id: '6.22.8', hex: 'f0bfbfbf', valid: true },
  { id: '6.22.9', hex: 'f18fbfbe', valid: true },
  { id: '6.22.10', hex: 'f18fbfbf', valid: true },
  { id: '6.22.11', hex: 'f19fbfbe', valid: true },
  { id: '6.22.12', hex: 'f19fbfbf', valid: true },
  { id: '6.22.13', hex: 'f1afbfbe', valid: true },
  { id: '6.22.14', hex: 'f1afbfbf', valid: true },
  { id: '6.22.15', hex: 'f1bfbfbe', valid: true },
  { id: '6.22.16', hex: 'f1bfbfbf', valid: true },
  { id: '6.22.17', hex: 'f28fbfbe', valid: true },
  { id: '6.22.18', hex: 'f28fbfbf', valid: true },
  { id: '6.22.19', hex: 'f29fbfbe', valid: true },
  { id: '6.22.20', hex: 'f29fbfbf', valid: true },
  { id: '6.22.21', hex: 'f2afbfbe', valid: true },
  { id: '6.22.22', hex: 'f2afbfbf', valid: true },
  { id: '6.22.23', hex: 'f2bfbfbe', valid: true },
  { id: '6.22.24', hex: 'f2bfbfbf', valid: true },
  { id: '6.22.25', hex: 'f38fbfbe', valid: true },
  { id: '6.22.26', hex: 'f38fbfbf', valid: true },
  { id: '6.22.27', hex: 'f39fbfbe', valid: true },
  { id: '6.22.28', hex: 'f39fbfbf', valid: true },
  { id: '6.22.29', hex: 'f3afbfbe', valid: true },
  { id: '6.22.30', hex: 'f3afbfbf', valid: true },
  { id: '6.22.31', hex: 'f3bfbfbe', valid: true },
  { id: '6.22.32', hex: 'f3bfbfbf', valid: true },
  { id: '6.22.33', hex: 'f48fbfbe', valid: true },
  { id: '6.22.34', hex: 'f48fbfbf', valid: true },

  // 6.23, the Specials block U+FFF9 to U+FFFF (U+FFFD is the replacement character): valid UTF-8.
  { id: '6.23.1', hex: 'efbfb9', valid: true },
  { id: '6.23.2', hex: 'efbfba', valid: true },
  { id: '6.23.3', hex: 'efbfbb', valid: true },
  { id: '6.23.4', hex: 'efbfbc', valid: true },
  { id: '6.23.5', hex: 'efbfbd', valid: true },
  { id: '6.23.6', hex: 'efbfbe', valid: true },
  { id: '6.23.7', hex: 'efbfbf', valid: true },
];
