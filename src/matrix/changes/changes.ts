/**
 * What changed between two rows of the matrix, in one place: the cases whose verdict differs
 * between consecutive releases of a `--versions` matrix (changes.html) and between the rows of two
 * matrices (`--compare`: compare.json, compare.html, the command's text). A regression is passed →
 * failed, an improvement failed → passed; any other change of verdict (skipped, unsupported) is
 * listed as other. Only cases both rows have are compared.
 */
import { compareIds } from '../../cases/select.js';
import type { MatrixCase, MatrixFile, MatrixRow, MatrixVerdict } from '../result.js';
import { rowKey } from '../result.js';

export type ChangeKind = 'regression' | 'improvement' | 'other';

/** One side of a changed case: its verdict pair, its cause, its page in the row's report directory. */
export interface CaseSide {
  verdict: MatrixVerdict;
  behavior: string | null;
  cause: string | null;
  page: string | null;
}

export interface CaseChange {
  id: string;
  kind: ChangeKind;
  before: CaseSide;
  after: CaseSide;
}

/** The cases whose verdict differs from OLDER to NEWER, in catalogue order. */
export function caseChanges(older: MatrixRow, newer: MatrixRow): CaseChange[] {
  const before = new Map(older.cases.map((c) => [c.id, c]));
  const out: CaseChange[] = [];
  for (const now of newer.cases) {
    const then = before.get(now.id);
    if (then === undefined || then.verdict === now.verdict) continue;
    out.push({ id: now.id, kind: kindOf(then.verdict, now.verdict), before: side(then), after: side(now) });
  }
  return out.sort((a, b) => compareIds(a.id, b.id));
}

function kindOf(from: MatrixVerdict, to: MatrixVerdict): ChangeKind {
  if (from === 'passed' && to === 'failed') return 'regression';
  if (from === 'failed' && to === 'passed') return 'improvement';
  return 'other';
}

function side(c: MatrixCase): CaseSide {
  return { verdict: c.verdict, behavior: c.behavior, cause: c.cause, page: c.page ?? null };
}

/** A row that ran: it has cases to compare (a row not installed has none). */
function ran(row: MatrixRow): boolean {
  return row.counts !== null;
}

/** One step of a series of releases: the release before, the release after, what changed. */
export interface ReleaseStep {
  older: MatrixRow;
  newer: MatrixRow;
  changes: CaseChange[];
}

/** The releases of one implementation in one role, oldest first (as the matrix lists them). */
export interface ReleaseSeries {
  name: string;
  role: MatrixRow['role'];
  title: string;
  /** Releases listed but not installed (not run): between their neighbours, the step skips them. */
  notInstalled: MatrixRow[];
  steps: ReleaseStep[];
}

/** The `--versions` rows of a matrix as series, each step between consecutive releases that ran. */
export function releaseSeries(rows: readonly MatrixRow[]): ReleaseSeries[] {
  const by = new Map<string, MatrixRow[]>();
  for (const r of rows) {
    if ((r.release ?? null) === null) continue;
    const key = `${r.name}-${r.role}`;
    by.set(key, [...(by.get(key) ?? []), r]);
  }
  return [...by.values()].map((series) => {
    const played = series.filter(ran);
    const first = series[0] as MatrixRow;
    const steps = played.slice(1).map((newer, i): ReleaseStep => {
      const older = played[i] as MatrixRow;
      return { older, newer, changes: caseChanges(older, newer) };
    });
    return { name: first.name, role: first.role, title: first.title, notInstalled: series.filter((r) => !ran(r)), steps };
  });
}

/** One row of two matrices (matched by its key): its versions, its report directories, its changes by kind. */
export interface RowComparison {
  key: string;
  old: { version: string | null; reportDir: string | null };
  new: { version: string | null; reportDir: string | null };
  regressions: CaseChange[];
  improvements: CaseChange[];
  other: CaseChange[];
  /**
   * The same installed version on both sides: its changes came without a release, from timing (a
   * race, a busy machine), the machine or wsgate, so they say the verdict is unstable, not that
   * the implementation regressed.
   */
  sameVersion: boolean;
}

/** Two matrices side by side: compare.json. */
export interface Comparison {
  /** The two matrices' directories (as given) and what made them. */
  old: { dir: string; generatedAt: string; wsgate: string };
  new: { dir: string; generatedAt: string; wsgate: string };
  counts: { regressions: number; improvements: number; other: number; rows: number };
  /** Rows of both, in the new matrix's order. */
  rows: RowComparison[];
  /** Row keys of the new matrix only, and of the old one only. */
  added: string[];
  removed: string[];
}

/** The rows of OLD and NEW matched by key, each with its regressions, improvements and other changes. */
export function compareMatrices(old: { dir: string; file: MatrixFile }, now: { dir: string; file: MatrixFile }): Comparison {
  const before = new Map(old.file.rows.map((r) => [rowKey(r), r]));
  const keys = new Set(now.file.rows.map(rowKey));
  const rows: RowComparison[] = [];
  for (const r of now.file.rows) {
    const then = before.get(rowKey(r));
    if (then === undefined) continue;
    const changes = caseChanges(then, r);
    rows.push({
      key: rowKey(r),
      old: { version: then.version, reportDir: then.reportDir },
      new: { version: r.version, reportDir: r.reportDir },
      regressions: changes.filter((c) => c.kind === 'regression'),
      improvements: changes.filter((c) => c.kind === 'improvement'),
      other: changes.filter((c) => c.kind === 'other'),
      sameVersion: then.version !== null && then.version === r.version,
    });
  }
  const total = (k: 'regressions' | 'improvements' | 'other'): number => rows.reduce((n, r) => n + r[k].length, 0);
  const about = (m: { dir: string; file: MatrixFile }) => ({ dir: m.dir, generatedAt: m.file.generatedAt, wsgate: m.file.wsgate });
  return {
    old: about(old),
    new: about(now),
    counts: { regressions: total('regressions'), improvements: total('improvements'), other: total('other'), rows: rows.length },
    rows,
    added: now.file.rows.map(rowKey).filter((k) => !before.has(k)),
    removed: old.file.rows.map(rowKey).filter((k) => !keys.has(k)),
  };
}

/** The comparison as a few lines of text (the command's output): the totals, then each row that changed. */
export function comparisonText(c: Comparison): string {
  const n = (k: number, one: string, many: string): string => `${k} ${k === 1 ? one : many}`;
  const lines = [
    `compare: ${c.old.dir} → ${c.new.dir}: ${n(c.counts.regressions, 'regression', 'regressions')}, ${n(c.counts.improvements, 'improvement', 'improvements')}, ${c.counts.other} other in ${n(c.counts.rows, 'row', 'rows')}`,
  ];
  for (const r of c.rows) {
    const parts = [
      r.regressions.length > 0 ? `regressions (passed → failed): ${r.regressions.map((x) => x.id).join(' ')}` : '',
      r.improvements.length > 0 ? `improvements (failed → passed): ${r.improvements.map((x) => x.id).join(' ')}` : '',
      r.other.length > 0 ? `other: ${r.other.map((x) => `${x.id} ${x.before.verdict} → ${x.after.verdict}`).join(', ')}` : '',
    ].filter((p) => p !== '');
    if (parts.length === 0) continue;
    const versions = r.sameVersion
      ? `${r.old.version} on both sides (changed without a release: timing, the machine or wsgate)`
      : `${r.old.version ?? 'not installed'} → ${r.new.version ?? 'not installed'}`;
    lines.push(`compare: ${r.key} ${versions}: ${parts.join('; ')}`);
  }
  if (c.added.length > 0) lines.push(`compare: added (new only): ${c.added.join(' ')}`);
  if (c.removed.length > 0) lines.push(`compare: removed (old only): ${c.removed.join(' ')}`);
  return `${lines.join('\n')}\n`;
}
