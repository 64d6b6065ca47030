/**
 * Case selection with Autobahn's pattern rules: an entry with `*` is a regular expression anchored at
 * the start only (`.` literal, `*` any run), so "1*" matches 1.x, 10.x, 12.x and 13.x while "1.*"
 * matches only 1.x; an entry without `*` is an exact id. Unlike Autobahn, an exact id that names no
 * case is an error instead of a crash at run time.
 */
import { UsageError } from '../errors.js';
import { caseIdMatcher } from '../util/patterns.js';
import { isWsgateCase } from './categories.js';
import type { CatalogueCase } from './types.js';

/** Compares dotted ids as integer tuples ("6.9.2" < "6.12.7" < "10.1.1"). */
export function compareIds(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

/** A selection pattern that matches nothing the user could have meant. */
export class SelectionError extends UsageError {}

function resolve(patterns: readonly string[], ids: readonly string[], known: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const raw of patterns) {
    const pattern = raw.trim();
    if (pattern === '') continue;
    if (!/^[0-9.*]+$/.test(pattern)) throw new SelectionError(`bad case pattern ${JSON.stringify(pattern)}`);
    if (!pattern.includes('*') && !known.has(pattern)) {
      throw new SelectionError(
        isWsgateCase(pattern)
          ? `${JSON.stringify(pattern)} is one of wsgate's own cases (group 14): add --extended`
          : `no case has the id ${JSON.stringify(pattern)}`,
      );
    }
    const match = caseIdMatcher(pattern);
    for (const id of ids) if (match(id)) out.add(id);
  }
  return out;
}

/** Selected cases in Autobahn's order: included minus excluded. */
export function selectCases<T extends CatalogueCase>(catalogue: readonly T[], include: readonly string[], exclude: readonly string[] = []): T[] {
  const ids = catalogue.map((c) => c.id);
  const known = new Set(ids);
  const inc = resolve(include.length === 0 ? ['*'] : include, ids, known);
  const exc = resolve(exclude, ids, known);
  return catalogue.filter((c) => inc.has(c.id) && !exc.has(c.id)).sort((a, b) => compareIds(a.id, b.id));
}
