/**
 * The payload corpus of groups 12 and 13: five documents of the kinds Autobahn ships in its testdata
 * folder, with the same sizes, generated here from a seeded PRNG instead of copied. Each one is built
 * once per process, on first use (about 100 ms for all five).
 *
 * | kind    | Autobahn's file      | here                                                     | bytes   |
 * |---------|----------------------|----------------------------------------------------------|---------|
 * | json    | data1.json           | an ASCII, pretty-printed sensor log                      | 194056  |
 * | bitmap  | lena512.bmp          | a 512×512 8-bit grayscale BMP: smooth shapes plus noise  | 263222  |
 * | prose   | pg2229.txt (Faust I) | an invented German-like verse play, UTF-8 with a BOM     | 222218  |
 * | html    | data1.html           | a table report page of 263620 code points (27 bytes more) | 263647  |
 * | pdf     | 10.1.1.105.5439.pdf  | PDF objects: text content streams and FlateDecode        | 1042328 |
 * |         |                      | streams of random bytes (stored deflate blocks)          |         |
 *
 * The sizes matter (Autobahn prints them in the subcategory names, and the sliding window of the
 * cases wraps around at the end of the data); the compressibility is close to the originals'
 * (raw deflate, level 6, whole file: JSON 4 % / ours 7 %, HTML 6 % / 6 %, Faust 39 % / 34 %,
 * bitmap 85 % / 88 %, PDF 76 % / 85 %).
 */
import { endianness } from 'node:os';

/** The five kinds of test data. */
export type CorpusKind = 'json' | 'bitmap' | 'prose' | 'html' | 'pdf';

/** One generated document. */
export interface CorpusFile {
  readonly kind: CorpusKind;
  /** The bytes (UTF-8 for the text kinds). */
  readonly bytes: Buffer;
  /**
   * For text sent as text (json, html): the byte offset of every code point, plus the total length
   * at the end (length = code points + 1). Autobahn slices text by code points.
   */
  readonly codePointOffsets: Int32Array | null;
}

/** The exact sizes of Autobahn's files. */
export const CORPUS_BYTES: Readonly<Record<CorpusKind, number>> = {
  json: 194056,
  bitmap: 263222,
  prose: 222218,
  html: 263647,
  pdf: 1042328,
};

/** data1.html has 27 bytes more than code points; ours too. */
export const HTML_CODE_POINTS = 263620;

// ---- randomness ----

const LITTLE_ENDIAN = endianness() === 'LE';

/** mulberry32: a small, fast, seeded 32-bit PRNG, identical on every platform. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** Helpers over one PRNG stream. */
class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return this.next() % n;
  }
  /** A float in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }
  /** A uniformly chosen element. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
  /** An element chosen with a Zipf-like bias towards the front of the list (as words in text are). */
  zipf<T>(items: readonly T[]): T {
    const u = this.float();
    return items[Math.floor(items.length * u * u)] as T;
  }
  /** Fills a buffer with random bytes (four per draw, least significant byte first). */
  fill(out: Uint8Array): void {
    let i = 0;
    if (LITTLE_ENDIAN && out.byteOffset % 4 === 0) {
      // The same bytes as below, a 32-bit store at a time.
      const words = new Uint32Array(out.buffer, out.byteOffset, out.length >>> 2);
      for (; i < words.length; i++) words[i] = this.next();
      i *= 4;
    }
    for (; i + 4 <= out.length; ) {
      const v = this.next();
      out[i++] = v & 0xff;
      out[i++] = (v >>> 8) & 0xff;
      out[i++] = (v >>> 16) & 0xff;
      out[i++] = v >>> 24;
    }
    if (i < out.length) {
      const v = this.next();
      for (let shift = 0; i < out.length; shift += 8) out[i++] = (v >>> shift) & 0xff;
    }
  }
}

// ---- assembling a text of an exact size ----

/**
 * Collects text pieces up to a byte budget. `fits` keeps a reserve free, so the last piece (a filler
 * of exactly the missing size) always has room.
 */
class TextBuilder {
  private readonly parts: string[] = [];
  bytes = 0;
  add(text: string): void {
    this.parts.push(text);
    this.bytes += Buffer.byteLength(text, 'utf8');
  }
  fits(text: string, limit: number): boolean {
    return this.bytes + Buffer.byteLength(text, 'utf8') <= limit;
  }
  toBuffer(): Buffer {
    return Buffer.from(this.parts.join(''), 'utf8');
  }
}

/** ASCII filler of exactly n bytes: words separated by spaces (n may be 0). */
function asciiFiller(rng: Rng, words: readonly string[], n: number): string {
  let out = '';
  while (out.length < n) out += (out.length === 0 ? '' : ' ') + rng.zipf(words);
  return out.slice(0, n);
}

function exact(kind: CorpusKind, data: Buffer): Buffer {
  if (data.length !== CORPUS_BYTES[kind]) {
    throw new Error(`corpus ${kind}: generated ${data.length} bytes instead of ${CORPUS_BYTES[kind]}`);
  }
  return data;
}

// ---- json: a sensor log ----

const SENSORS = ['temperature', 'humidity', 'pressure', 'wind-speed', 'wind-direction', 'rain', 'radiation', 'dew-point'];
const UNITS: Readonly<Record<string, string>> = {
  temperature: 'degC',
  humidity: 'percent',
  pressure: 'hPa',
  'wind-speed': 'm/s',
  'wind-direction': 'deg',
  rain: 'mm',
  radiation: 'W/m2',
  'dew-point': 'degC',
};
const SITES = ['roof-north', 'roof-south', 'mast-a', 'mast-b', 'courtyard', 'garden'];
const STATUSES = ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'stale', 'calibrating', 'out-of-range'];
const NOTE_WORDS = ['sensor', 'reading', 'value', 'checked', 'station', 'interval', 'average', 'noted', 'the', 'of', 'and'];

function makeJson(): Buffer {
  const target = CORPUS_BYTES.json;
  const rng = new Rng(0x4a534f4e);
  const out = new TextBuilder();
  out.add('{\n   "source": "wsgate synthetic corpus",\n   "station": "Nordhafen weather mast",\n   "readings": [\n');
  const tail = (note: string): string => `\n   ],\n   "note": "${note}"\n}\n`;
  const reserve = Buffer.byteLength(tail(''), 'utf8');
  for (let seq = 1; ; seq++) {
    const sensor = rng.pick(SENSORS);
    const minute = seq * 5;
    const time = `2024-03-${String(1 + Math.floor(minute / 1440)).padStart(2, '0')}T${String(Math.floor(minute / 60) % 24).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00Z`;
    const record =
      `${seq === 1 ? '' : ',\n'}      {\n` +
      `         "seq": ${seq},\n` +
      `         "time": "${time}",\n` +
      `         "sensor": "${sensor}",\n` +
      `         "site": "${rng.pick(SITES)}",\n` +
      `         "value": ${(rng.int(2000) / 10).toFixed(1)},\n` +
      `         "unit": "${UNITS[sensor] ?? ''}",\n` +
      `         "status": "${rng.pick(STATUSES)}"\n` +
      `      }`;
    if (!out.fits(record, target - reserve)) break;
    out.add(record);
  }
  out.add(tail(asciiFiller(rng, NOTE_WORDS, target - reserve - out.bytes)));
  return exact('json', out.toBuffer());
}

// ---- bitmap: 512×512, 8 bits per pixel, grayscale palette ----

function makeBitmap(): Buffer {
  const size = 512;
  const headerBytes = 14 + 40 + 256 * 4; // file header, BITMAPINFOHEADER, palette: 1078
  const out = Buffer.alloc(headerBytes + size * size);
  out.write('BM', 0, 'latin1');
  out.writeUInt32LE(out.length, 2); // file size
  out.writeUInt32LE(headerBytes, 10); // offset of the pixels
  out.writeUInt32LE(40, 14); // BITMAPINFOHEADER
  out.writeInt32LE(size, 18); // width
  out.writeInt32LE(size, 22); // height (positive: bottom-up rows)
  out.writeUInt16LE(1, 26); // planes
  out.writeUInt16LE(8, 28); // bits per pixel
  out.writeUInt32LE(0, 30); // BI_RGB, uncompressed
  out.writeUInt32LE(size * size, 34); // image size
  out.writeInt32LE(2835, 38); // 72 dpi, in pixels per metre
  out.writeInt32LE(2835, 42);
  out.writeUInt32LE(256, 46); // colours used
  for (let i = 0; i < 256; i++) out.writeUInt32LE(i * 0x010101, 54 + i * 4); // blue, green, red, 0
  const rng = new Rng(0x424d5031);
  const noise = new Uint8Array(size * size);
  rng.fill(noise);
  // Smooth shading (a few overlapping waves and a bright disc), then sensor-like noise.
  const waveX = Float64Array.from({ length: size }, (_, x) => 45 * Math.sin(x / 37));
  const waveY = Float64Array.from({ length: size }, (_, y) => Math.cos(y / 53));
  const diagonal = Float64Array.from({ length: 3 * size }, (_, d) => 30 * Math.sin(d / 91));
  let at = headerBytes;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const dx = x - 300;
      const dy = y - 230;
      const disc = dx * dx + dy * dy < 120 * 120 ? 40 : 0;
      const smooth = 110 + (waveX[x] as number) * (waveY[y] as number) + (diagonal[x + 2 * y] as number) + disc;
      const n = ((noise[y * size + x] as number) % 24) - 12;
      out[at++] = Math.max(0, Math.min(255, Math.round(smooth + n)));
    }
  }
  return exact('bitmap', out);
}

// ---- prose: an invented verse play in a German-like language ----

/** Short words, frequent (a few of them very frequent, as in any language). */
const PROSE_SMALL_WORDS = [
  'und',
  'der',
  'die',
  'das',
  'ich',
  'nicht',
  'du',
  'zu',
  'mit',
  'ein',
  'in',
  'es',
  'mir',
  'so',
  'wie',
  'sich',
  'den',
  'auf',
  'ist',
  'was',
  'noch',
  'doch',
  'mich',
  'dem',
  'nur',
  'wer',
  'dich',
  'sein',
  'nun',
  'schon',
  'hier',
  'wohl',
  'gar',
  'dort',
  'auch',
  'ach',
  'über',
  'für',
  'durch',
  'vor',
  'hinter',
  'schön',
];
/** Syllables of invented longer words (nouns, verbs, adjectives): a large, German-sounding vocabulary. */
const PROSE_SYLLABLES = [
  'ber',
  'gen',
  'wal',
  'ster',
  'lich',
  'keit',
  'hau',
  'mon',
  'trä',
  'rö',
  'schl',
  'acht',
  'ung',
  'feld',
  'brun',
  'dor',
  'glü',
  'wen',
  'ka',
  'mer',
  'nel',
  'sin',
  'tal',
  'grau',
  'kü',
  'fen',
  'lau',
  'eß',
  'hei',
  'mu',
  'rin',
  'zau',
  'bern',
  'wö',
  'gel',
  'stra',
  'hen',
  'lo',
  'quel',
  'dü',
  'sam',
  'ten',
  'vo',
  'frei',
];
const SPEAKERS = ['DER WANDERER', 'DIE KRÄUTERFRAU', 'DER SCHREIBER', 'CHOR DER NEBEL', 'DER TÜRMER', 'MARGA', 'DER GAUKLER'];
const PUNCTUATION = [',', ',', '.', '.', ';', '!', '?', ':'];

function makeProse(): Buffer {
  const target = CORPUS_BYTES.prose;
  const rng = new Rng(0x46415553);
  const out = new TextBuilder();
  out.add('\ufeffDas Spiel vom Nebelhain\r\n\r\nEin erfundenes Stück in Versen (wsgate-Testtext)\r\n\r\n');
  const inventedWord = (): string => {
    let word = '';
    for (let i = 1 + rng.int(3); i >= 0; i--) word += rng.zipf(PROSE_SYLLABLES);
    // About a third are nouns, capitalized.
    return rng.int(3) === 0 ? word.charAt(0).toUpperCase() + word.slice(1) : word;
  };
  const line = (): string => {
    const n = 4 + rng.int(5);
    const words: string[] = [];
    for (let i = 0; i < n; i++) words.push(rng.int(2) === 0 ? rng.zipf(PROSE_SMALL_WORDS) : inventedWord());
    const first = words[0] ?? '';
    words[0] = first.charAt(0).toUpperCase() + first.slice(1);
    return `  ${words.join(' ')}${rng.pick(PUNCTUATION)}\r\n`;
  };
  for (let scene = 1; ; scene++) {
    let block = `\r\n${rng.pick(SPEAKERS)}.\r\n`;
    if (scene % 9 === 0) block = `\r\n\r\nSZENE ${scene / 9}\r\n(${rng.pick(SPEAKERS)} tritt auf.)\r\n${block}`;
    const lines = 2 + rng.int(9);
    for (let i = 0; i < lines; i++) block += line();
    if (!out.fits(block, target - 200)) break;
    out.add(block);
  }
  out.add(`${asciiFiller(rng, ['und', 'so', 'nun', 'ach', 'still', 'fern'], target - out.bytes - 2)}\r\n`);
  return exact('prose', out.toBuffer());
}

// ---- html: a report page with a long table ----

const CITIES = ['Aachen', 'Bergen', 'Lyon', 'Porto', 'Gent', 'Turin', 'Leeds', 'Basel', 'Brno', 'Graz', 'Split', 'Tartu'];
/**
 * Multi-byte place names, each used once: 27 extra bytes in total (data1.html has 263647 bytes for
 * 263620 code points). Extra bytes per entry in the comments.
 */
const WIDE_NAMES = [
  'Zürich', // ü: +1
  'Malmö', // ö: +1
  'Kraków', // ó: +1
  'São Paulo', // ã: +1
  'Besançon', // ç: +1
  'Þórshöfn', // Þ ó ö: +3
  'Ελλάδα', // six Greek letters: +6
  '東京', // two CJK ideographs of 3 bytes: +4
  'Rīga — Tallinn', // ī +1, em dash +2: +3
  'Köln 🙂', // ö +1, an emoji of 4 bytes: +4
  '€ Zone', // euro sign: +2
];
const RESULTS = ['passed', 'passed', 'passed', 'passed', 'passed', 'failed', 'skipped'];

function makeHtml(): Buffer {
  const target = CORPUS_BYTES.html;
  const rng = new Rng(0x48544d4c);
  const out = new TextBuilder();
  out.add(
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>wsgate synthetic report</title>\n' +
      '<style>\nbody { font-family: sans-serif; margin: 2em; }\ntable { border-collapse: collapse; }\n' +
      'td { padding: 2px 8px; border-bottom: 1px solid #ddd; }\ntd.passed { color: #060; }\n' +
      'td.failed { color: #a00; }\ntd.skipped { color: #888; }\n</style>\n</head>\n<body>\n' +
      '<h1>Synthetic test report</h1>\n<table>\n<tr><th>Run</th><th>Site</th><th>Result</th><th>Time</th></tr>\n',
  );
  const tail = (filler: string): string => `</table>\n<p class="footer">${filler}</p>\n</body>\n</html>\n`;
  const reserve = Buffer.byteLength(tail(''), 'utf8');
  let wide = 0;
  for (let row = 1; ; row++) {
    // A multi-byte name every 120 rows until all are used, the rest ASCII.
    const city = row % 120 === 0 && wide < WIDE_NAMES.length ? (WIDE_NAMES[wide++] as string) : rng.pick(CITIES);
    const result = rng.pick(RESULTS);
    const text =
      `<tr class="${row % 2 === 0 ? 'even' : 'odd'}"><td class="run">R-${String(row).padStart(5, '0')}</td>` +
      `<td class="site">${city}</td><td class="${result}">${result}</td><td class="time">${rng.int(900)} ms</td></tr>\n`;
    if (!out.fits(text, target - reserve - 40)) break;
    out.add(text);
  }
  if (wide !== WIDE_NAMES.length) throw new Error('corpus html: not every multi-byte name was placed');
  out.add(tail(asciiFiller(rng, ['report', 'generated', 'by', 'wsgate', 'for', 'testing'], target - reserve - out.bytes)));
  return exact('html', out.toBuffer());
}

// ---- pdf: text objects and compressed-looking streams ----

/** Adler-32 (RFC 1950), the zlib stream trailer. */
function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length; ) {
    const end = Math.min(i + 3800, data.length);
    for (; i < end; i++) {
      a += data[i] as number;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * A valid zlib stream (RFC 1950/1951) holding random bytes in stored blocks, as zlib itself encodes
 * incompressible data: header 0x78 0x01, blocks of at most 65535 bytes, Adler-32 at the end.
 */
function storedZlib(rng: Rng, length: number): Buffer {
  const blocks = Math.max(1, Math.ceil(length / 65535));
  const out = Buffer.alloc(2 + blocks * 5 + length + 4);
  const raw = new Uint8Array(length);
  rng.fill(raw);
  out[0] = 0x78;
  out[1] = 0x01;
  let at = 2;
  for (let i = 0; i < blocks; i++) {
    const n = Math.min(65535, length - i * 65535);
    out[at] = i === blocks - 1 ? 1 : 0; // BFINAL on the last block, BTYPE 00 (stored)
    out.writeUInt16LE(n, at + 1);
    out.writeUInt16LE(~n & 0xffff, at + 3);
    out.set(raw.subarray(i * 65535, i * 65535 + n), at + 5);
    at += 5 + n;
  }
  out.writeUInt32BE(adler32(raw), at);
  return out;
}

const PDF_WORDS = [
  'the',
  'of',
  'and',
  'model',
  'data',
  'system',
  'results',
  'we',
  'in',
  'is',
  'for',
  'figure',
  'method',
  'value',
  'table',
  'analysis',
  'section',
  'shows',
];

function makePdf(): Buffer {
  const target = CORPUS_BYTES.pdf;
  const rng = new Rng(0x50444631);
  const parts: Buffer[] = [];
  let length = 0;
  const offsets: number[] = [];
  const push = (b: Buffer): void => {
    parts.push(b);
    length += b.length;
  };
  const object = (body: Buffer[]): void => {
    offsets.push(length);
    push(Buffer.from(`${offsets.length} 0 obj\n`, 'latin1'));
    for (const b of body) push(b);
    push(Buffer.from('\nendobj\n', 'latin1'));
  };
  push(Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1'));
  object([Buffer.from('<< /Type /Catalog /Pages 2 0 R >>', 'latin1')]);
  object([Buffer.from('<< /Type /Pages >>', 'latin1')]);
  // The xref table and trailer take 20 bytes per object plus about 120: keep that much free.
  const reserve = 4096;
  for (let _page = 1; ; _page++) {
    // A page's text, drawn with uncompressed operators (compressible)...
    let text = 'BT\n/F1 10 Tf\n';
    const lines = 60 + rng.int(40);
    for (let i = 0; i < lines; i++) {
      let words = '';
      for (let w = 0; w < 10; w++) words += `${rng.zipf(PDF_WORDS)} `;
      text += `72 ${760 - i * 12} Td (${words.trimEnd()}) Tj\n`;
    }
    text += 'ET';
    // ... and an image already compressed (random bytes: deflate cannot shrink them further).
    const image = storedZlib(rng, 12000 + rng.int(20000));
    const need = text.length + image.length + 200;
    if (length + need > target - reserve) break;
    object([Buffer.from(`<< /Length ${text.length} >>\nstream\n${text}\nendstream`, 'latin1')]);
    object([
      Buffer.from(
        `<< /Type /XObject /Subtype /Image /Width 256 /Height 128 /BitsPerComponent 8 /ColorSpace /DeviceGray /Filter /FlateDecode /Length ${image.length} >>\nstream\n`,
        'latin1',
      ),
      image,
      Buffer.from('\nendstream', 'latin1'),
    ]);
  }
  const xref = (start: number): Buffer => {
    let s = `xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n`;
    for (const o of offsets) s += `${String(o).padStart(10, '0')} 00000 n \n`;
    s += `trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${start}\n%%EOF\n`;
    return Buffer.from(s, 'latin1');
  };
  // Fill up with comment lines so that the file ends exactly at the target size (startxref, the
  // offset of the xref table, then has the same number of digits as estimated here).
  const xrefLength = xref(target - xref(length).length).length;
  const fill = target - length - xrefLength;
  let comment = '';
  while (comment.length < fill) {
    const line = `% ${asciiFiller(rng, PDF_WORDS, 70)}\n`;
    comment += line;
  }
  comment = `${comment.slice(0, fill - 1)}\n`;
  push(Buffer.from(comment, 'latin1'));
  push(xref(length));
  return exact('pdf', Buffer.concat(parts));
}

// ---- code points, memoized access ----

/** Byte offsets of the code points of valid UTF-8 (continuation bytes 10xxxxxx start none). */
function codePointOffsets(bytes: Buffer): Int32Array {
  let count = 0;
  for (let i = 0; i < bytes.length; i++) if (((bytes[i] as number) & 0xc0) !== 0x80) count++;
  const offsets = new Int32Array(count + 1);
  let k = 0;
  for (let i = 0; i < bytes.length; i++) if (((bytes[i] as number) & 0xc0) !== 0x80) offsets[k++] = i;
  offsets[k] = bytes.length;
  return offsets;
}

const makers: Readonly<Record<CorpusKind, () => Buffer>> = {
  json: makeJson,
  bitmap: makeBitmap,
  prose: makeProse,
  html: makeHtml,
  pdf: makePdf,
};

/** Text kinds are sliced by code points; the others (the prose too: Autobahn sends it as binary) by bytes. */
const SLICED_AS_TEXT: ReadonlySet<CorpusKind> = new Set(['json', 'html']);

const cache = new Map<CorpusKind, CorpusFile>();

/** The generated document of a kind: built on first use, then shared. */
export function corpusFile(kind: CorpusKind): CorpusFile {
  let file = cache.get(kind);
  if (file === undefined) {
    const bytes = makers[kind]();
    file = { kind, bytes, codePointOffsets: SLICED_AS_TEXT.has(kind) ? codePointOffsets(bytes) : null };
    cache.set(kind, file);
  }
  return file;
}
