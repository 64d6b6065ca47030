/** The small pattern languages of the command line and of spec and baseline files. */

/**
 * How a pattern reads: wsgate's (`*` any run, everything else literal) or, through `wstest`, the
 * original's (`.` literal, `*` any run, any other regular-expression syntax as written).
 */
export type PatternSyntax = 'wsgate' | 'autobahn';

/**
 * A RegExp for a wildcard pattern (`*`: any run of characters), anchored at the start, and at the end
 * unless `prefix`. Under the original's syntax only `.` is escaped, so the rest is a regular expression
 * and an invalid one throws a SyntaxError.
 */
export function wildcard(pattern: string, options: { prefix?: boolean; syntax?: PatternSyntax } = {}): RegExp {
  const special = options.syntax === 'autobahn' ? /\./g : /[.+?^${}()|[\]\\]/g;
  const source = pattern.replace(special, (c) => `\\${c}`).replace(/\*/g, '.*');
  return new RegExp(options.prefix === true ? `^${source}` : `^${source}$`);
}

/**
 * A case id pattern, Autobahn's rule in both syntaxes: an entry with `*` is matched at the start only
 * ("1*" is 1.x, 10.x, 12.x, 13.x; "1.*" is 1.x), an entry without is the exact id.
 */
export function caseIdMatcher(pattern: string, syntax: PatternSyntax = 'wsgate'): (id: string) => boolean {
  if (!pattern.includes('*')) return (id) => id === pattern;
  const re = wildcard(pattern, { prefix: true, syntax });
  return (id) => re.test(id);
}

/** Splits "6.*,7.1.1" style lists given to repeated flags: trimmed, empty items dropped. */
export function splitList(values: readonly string[]): string[] {
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}
