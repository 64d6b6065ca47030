/**
 * JSON text byte-identical to what Autobahn writes: Python 2's
 * `json.dumps(obj, sort_keys=True, indent=3, separators=(',', ': '))` with the default ensure_ascii.
 */
import { pyNumber } from './python-repr.js';

const INDENT = '   ';

// Python 2's ESCAPE_ASCII class: backslash, quote, and everything outside printable ASCII (0x20-0x7e).
const ESCAPE_ASCII = /[\\"\u0000-\u001f\u007f-\uffff]/g;

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '"': '\\"',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** A JSON string literal with Python's ensure_ascii escaping (astral code points come out as surrogate pairs). */
export function pyJsonString(s: string): string {
  // JS strings are UTF-16 already, so escaping code unit by code unit yields Python's surrogate pairs.
  return `"${s.replace(ESCAPE_ASCII, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

const CANONICAL_INT = /^(?:0|[1-9]\d*)$/;

function compareCodePoints(a: string, b: string): number {
  // Python 2 (UCS-4 build) compares unicode by code point; UTF-16 code unit order differs above U+FFFF.
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done === true) return y.done === true ? 0 : -1;
    if (y.done === true) return 1;
    const cx = x.value.codePointAt(0) ?? 0;
    const cy = y.value.codePointAt(0) ?? 0;
    if (cx !== cy) return cx - cy;
  }
}

function compareIntStrings(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Python's sort_keys order. Autobahn's frame/octet statistics are dicts with int keys, which Python
 * sorts numerically before turning them into strings ("6" < "8" < "182" in the reference reports);
 * an object whose keys are all canonical integers is taken to be such a dict.
 */
function sortedKeys(keys: string[]): string[] {
  if (keys.length > 1 && keys.every((k) => CANONICAL_INT.test(k))) return keys.sort(compareIntStrings);
  return keys.sort(compareCodePoints);
}

function encode(value: unknown, depth: number, seen: Set<object>): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return pyNumber(value);
    case 'bigint':
      return value.toString();
    case 'string':
      return pyJsonString(value);
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    default:
      break;
  }
  const obj = value as object;
  if (seen.has(obj)) throw new TypeError('pythonJson: circular structure');
  seen.add(obj);
  const inner = `\n${INDENT.repeat(depth + 1)}`;
  const outer = `\n${INDENT.repeat(depth)}`;
  let out: string;
  if (Array.isArray(obj)) {
    const items = (obj as unknown[]).map((v) => encode(v, depth + 1, seen) ?? 'null');
    out = items.length === 0 ? '[]' : `[${inner}${items.join(`,${inner}`)}${outer}]`;
  } else {
    const record = obj as Record<string, unknown>;
    const parts: string[] = [];
    for (const key of sortedKeys(Object.keys(record))) {
      const encoded = encode(record[key], depth + 1, seen);
      if (encoded !== undefined) parts.push(`${pyJsonString(key)}: ${encoded}`);
    }
    out = parts.length === 0 ? '{}' : `{${inner}${parts.join(`,${inner}`)}${outer}}`;
  }
  seen.delete(obj);
  return out;
}

/** Byte-identical to Python 2's `json.dumps(v, sort_keys=True, indent=3, separators=(',', ': '))` (no trailing newline). */
export function pythonJson(value: unknown): string {
  const out = encode(value, 0, new Set());
  if (out === undefined) throw new TypeError(`pythonJson: cannot encode ${typeof value}`);
  return out;
}
