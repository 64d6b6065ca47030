/** The small pattern languages of the command line and of spec and baseline files. */

/** A RegExp for a wildcard pattern (`*`: any run of characters), anchored at the start, and at the end unless `prefix`. */
export function wildcard(pattern: string, options: { prefix?: boolean } = {}): RegExp {
  const source = pattern.replace(/[.+?^${}()|[\]\\]/g, (c) => `\\${c}`).replace(/\*/g, '.*');
  return new RegExp(options.prefix === true ? `^${source}` : `^${source}$`);
}

/** Splits "6.*,7.1.1" style lists given to repeated flags: trimmed, empty items dropped. */
export function splitList(values: readonly string[]): string[] {
  return values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}
