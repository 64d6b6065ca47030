/**
 * `wsgate matrix --compare`: two matrices' rows matched by key, their regressions and improvements
 * (src/matrix/changes/changes.ts) written as DIR/compare.json and DIR/compare.html and said in a few lines.
 * `--compare OLD NEW --outdir DIR` runs nothing; `--compare OLD` with a run compares the run's matrix.
 */
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, UsageError } from '../../errors.js';
import { writeFileAtomic } from '../../report/files.js';
import { renderComparison } from './pages.js';
import { compareMatrices, comparisonText } from './changes.js';
import type { MatrixFile } from '../result.js';

/** A matrix named by its matrix.json or its directory: the file and its directory (the report directories' base). */
export async function readMatrixAt(where: string): Promise<{ dir: string; file: MatrixFile }> {
  const file = existsSync(where) && statSync(where).isDirectory() ? path.join(where, 'matrix.json') : where;
  if (!existsSync(file)) throw new UsageError(`matrix --compare: ${where}: no matrix.json (is it the --outdir of a wsgate matrix?)`);
  let parsed: MatrixFile;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8')) as MatrixFile;
  } catch (err) {
    throw new UsageError(`matrix --compare: ${file}: ${(err as Error).message}`);
  }
  if (!Array.isArray(parsed.rows)) throw new UsageError(`matrix --compare: ${file}: not a matrix.json (no rows)`);
  return { dir: path.dirname(file), file: parsed };
}

/** Compares OLD with NEW; writes OUTDIR/compare.json and compare.html; says the result on OUT. */
export async function writeComparison(
  old: { dir: string; file: MatrixFile },
  now: { dir: string; file: MatrixFile },
  outdir: string,
  out: NodeJS.WritableStream,
): Promise<void> {
  const comparison = compareMatrices(old, now);
  await mkdir(outdir, { recursive: true });
  const base = (dir: string): string => {
    const rel = path.relative(outdir, dir);
    return rel === '' ? '' : `${rel.split(path.sep).join('/')}/`;
  };
  await writeFileAtomic(path.join(outdir, 'compare.html'), renderComparison(comparison, { old: base(old.dir), new: base(now.dir) }));
  await writeFileAtomic(path.join(outdir, 'compare.json'), `${JSON.stringify(comparison, null, 2)}\n`);
  out.write(comparisonText(comparison));
  out.write(`compare: ${outdir}/compare.json, ${outdir}/compare.html\n`);
}

/** The standalone form: `wsgate matrix --compare OLD NEW --outdir DIR` (runs nothing). */
export async function compareOnly(oldAt: string, newAt: string, outdir: string, out: NodeJS.WritableStream): Promise<number> {
  await writeComparison(await readMatrixAt(oldAt), await readMatrixAt(newAt), outdir, out);
  return ExitCode.Pass;
}
