/**
 * Failures grouped by cause: many cases break one requirement in one way (every invalid UTF-8 case
 * accepted, every invalid close code answered with 1000), so a run's red lines become a short list
 * of things to fix, each with its cases and the requirement it breaks.
 */
import type { CauseGroup, Explanation } from '../model/explanation.js';

/** One explained case: its label (id, or "agent id") and its explanation. */
export interface ExplainedCase {
  label: string;
  explanation: Explanation;
}

/** The causes of a run's explained cases, most cases first (ties in first-seen order). */
export function groupCauses(cases: readonly ExplainedCase[]): CauseGroup[] {
  const groups = new Map<string, CauseGroup>();
  for (const { label, explanation: e } of cases) {
    let g = groups.get(e.cause.key);
    if (g === undefined) {
      g = { ...e.cause, requirement: e.requirement, cases: [], ranges: '' };
      groups.set(e.cause.key, g);
    }
    g.cases.push(label);
  }
  const out = [...groups.values()];
  for (const g of out) g.ranges = idRanges(g.cases);
  // A stable sort keeps first-seen order among equals.
  return out.sort((a, b) => b.cases.length - a.cases.length);
}

/**
 * Case labels as ranges: consecutive ids that differ only in their last number join ("6.4.1–6.4.4");
 * others are listed one by one, in the order given.
 */
export function idRanges(labels: readonly string[]): string {
  const parts: string[] = [];
  let start: string | null = null;
  let prev: string | null = null;
  const flush = (): void => {
    if (start === null || prev === null) return;
    parts.push(start === prev ? start : `${start}–${prev}`);
  };
  for (const label of labels) {
    if (prev !== null && follows(prev, label)) {
      prev = label;
      continue;
    }
    flush();
    start = label;
    prev = label;
  }
  flush();
  return parts.join(', ');
}

/** Whether `b` is the id right after `a` (same prefix, last number one more). */
function follows(a: string, b: string): boolean {
  const cut = (s: string): [string, number] => {
    const i = s.lastIndexOf('.');
    return [s.slice(0, i + 1), Number(s.slice(i + 1))];
  };
  const [pa, na] = cut(a);
  const [pb, nb] = cut(b);
  return pa === pb && Number.isInteger(na) && nb === na + 1;
}

/** "invalid UTF-8 in a text message accepted — 68 cases: 6.3.1, 6.4.1–6.4.4, …" (at most `width` ids' worth). */
export function causeLine(g: CauseGroup, maxChars = 160): string {
  const n = g.cases.length;
  const ranges = g.ranges.length > maxChars ? `${g.ranges.slice(0, g.ranges.lastIndexOf(', ', maxChars))}, …` : g.ranges;
  return `${g.title} — ${n} case${n === 1 ? '' : 's'}: ${ranges}`;
}
