/**
 * The matrix's badges, DIR/badges/NAME-ROLE.json: one shields.io endpoint document per row
 * (https://img.shields.io/endpoint?url=… renders it), so an implementation's README can show how
 * it fares where the matrix is published. A run and a merge both write them, from matrix.json's rows.
 *
 *   passed, nothing failed          "301/301 passed"            green
 *   some failed                     "509/517 passed"            red
 *   … and cases it cannot play      "301/301 passed, 216 unsupported"
 *   it can play none of them        "unsupported"               lightgrey
 *   not installed                   "not installed"             lightgrey
 *   it could not run                "could not run"             lightgrey
 */
import { mkdir, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../report/files.js';
import type { MatrixFile, MatrixRow } from './result.js';
import { rowKey } from './result.js';

/** A shields.io endpoint badge (its schema version 1). */
export interface Badge {
  schemaVersion: 1;
  label: string;
  message: string;
  color: 'green' | 'red' | 'lightgrey';
}

/** The badge of one row. */
export function badgeOf(row: MatrixRow): Badge {
  const label = `wsgate ${row.role}`;
  const c = row.counts;
  if (row.error !== null) return { schemaVersion: 1, label, message: 'could not run', color: 'lightgrey' };
  if (!row.installed || c === null) return { schemaVersion: 1, label, message: 'not installed', color: 'lightgrey' };
  const played = c.total - c.unsupported;
  if (played === 0) return { schemaVersion: 1, label, message: c.unsupported > 0 ? 'unsupported' : 'no cases', color: 'lightgrey' };
  const unsupported = c.unsupported > 0 ? `, ${c.unsupported} unsupported` : '';
  return { schemaVersion: 1, label, message: `${c.passed}/${played} passed${unsupported}`, color: c.failed === 0 && c.passed > 0 ? 'green' : 'red' };
}

/** The badges' folder under the matrix's directory. */
export const BADGES_DIR = 'badges';

/** Writes DIR/badges/NAME-ROLE.json for every row, and removes badges of rows the matrix no longer has. */
export async function writeBadges(dir: string, file: MatrixFile): Promise<void> {
  const into = path.join(dir, BADGES_DIR);
  await mkdir(into, { recursive: true });
  const keep = new Set(file.rows.map((r) => `${rowKey(r)}.json`));
  for (const old of await readdir(into)) if (old.endsWith('.json') && !keep.has(old)) await unlink(path.join(into, old));
  for (const row of file.rows) await writeFileAtomic(path.join(into, `${rowKey(row)}.json`), `${JSON.stringify(badgeOf(row))}\n`);
}
