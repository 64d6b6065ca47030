/**
 * Python-flavoured text renderings the reports share: float repr, `str()` of scalars, a readable
 * `repr()` of JSON-like values, and Autobahn's `limitString` cut.
 */

/** Python's `repr(float)` (shortest round-trip digits, exponent below 1e-4 and from 1e16), integers plain. */
export function pyNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  // Integral values print as Python ints: the model has no floats that happen to be whole.
  if (Number.isInteger(n)) return BigInt(n).toString();
  // toExponential() without an argument gives the shortest digits that round-trip, as Python's repr.
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(n.toExponential());
  if (m === null) return String(n);
  const sign = m[1] ?? '';
  const digits = (m[2] ?? '') + (m[3] ?? '');
  const exp = Number(m[4]);
  const decpt = exp + 1;
  if (decpt <= -4 || decpt > 16) {
    const mantissa = digits.length > 1 ? `${digits[0] ?? ''}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp).toString().padStart(2, '0');
    return `${sign}${mantissa}e${exp < 0 ? '-' : '+'}${e}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** Python's `str()` of a scalar as Autobahn's HTML prints it: True/False/None, numbers, raw text. */
export function pyStr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return pyNumber(value);
  if (typeof value === 'string') return value;
  return pyRepr(value);
}

// Characters Python 3's str.isprintable() rejects (other than the space): repr escapes them.
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function pyQuote(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch !== ' ' && NON_PRINTABLE.test(ch)) {
      if (cp < 0x100) out += `\\x${cp.toString(16).padStart(2, '0')}`;
      else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
      else out += `\\U${cp.toString(16).padStart(8, '0')}`;
    } else out += ch;
  }
  return out + quote;
}

/**
 * A readable Python-like `repr()` of a JSON-like value (`{'OK': [['message', '߿', False]]}`):
 * control and invisible characters are escaped, so the text is safe to show as one line.
 */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return pyNumber(value);
  if (typeof value === 'string') return pyQuote(value);
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map((v: unknown) => pyRepr(v)).join(', ')}]`;
  if (typeof value === 'object') {
    const parts = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${pyQuote(k)}: ${pyRepr(v)}`);
    return `{${parts.join(', ')}}`;
  }
  return pyQuote(String(value));
}

/** Autobahn's `limitString`: longer than limit minus the indicator → cut there and append " ...". */
export function limitString(s: string, limit = 1000, indicator = ' ...'): string {
  const cps = Array.from(s);
  if (cps.length > limit - indicator.length) return cps.slice(0, limit - indicator.length).join('') + indicator;
  return s;
}

/** Python's "%d" of a number (it truncates). */
export function pyInt(n: number): string {
  return Number.isFinite(n) ? String(Math.trunc(n)) : String(n);
}
