/**
 * Joining matrices of other rows: each a whole (unsharded) `wsgate matrix` over the same selection,
 * e.g. one per implementation, run by one CI job each (.github/workflows/matrix.yml). The union's
 * rows are in the registry's order (its files', NAME.json, then client before server), each row's
 * report directory is copied beside them, and matrix.json is what one run over all the rows would
 * have written, but for `generatedAt` and `machine` (the first input's: the jobs ran on several).
 * `wsgate matrix --merge` joins this way when no input is a shard.
 */
import { cp, rm } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { type MatrixFile, type MatrixRow, matrixFile, rowKey } from './result.js';

/** Whether these matrices are to be joined (none is a shard), not merged as shards of one. */
export function isJoin(matrices: readonly MatrixFile[]): boolean {
  return matrices.every((m) => m.selection.shard === null);
}

/** The union of `matrices` (read from `inputs`, their directories), their rows' reports copied into `outdir`. */
export async function joinMatrices(inputs: readonly string[], matrices: readonly MatrixFile[], outdir: string): Promise<MatrixFile> {
  const first = matrices[0];
  if (first === undefined) throw new UsageError('matrix --merge: name the matrices\u2019 directories');
  const from = new Map<string, string>();
  const rows: MatrixRow[] = [];
  for (const [i, m] of matrices.entries()) {
    const dir = inputs[i] ?? '';
    if (m.wsgate !== first.wsgate) throw new UsageError(`matrix --merge: ${dir} was written by wsgate ${m.wsgate}, ${inputs[0] ?? ''} by ${first.wsgate}`);
    if (!sameSelection(m.selection, first.selection))
      throw new UsageError(
        `matrix --merge: ${dir} ran another selection of cases than ${inputs[0] ?? ''} (${describe(m.selection)}, not ${describe(first.selection)})`,
      );
    for (const row of m.rows) {
      const key = rowKey(row);
      const seen = from.get(key);
      if (seen !== undefined) throw new UsageError(`matrix --merge: row ${key} is in both ${seen} and ${dir}`);
      from.set(key, dir);
      rows.push(row);
    }
  }
  rows.sort(registryOrder);
  for (const row of rows) {
    if (row.reportDir === null) continue;
    const source = path.resolve(from.get(rowKey(row)) ?? '', row.reportDir);
    const target = path.resolve(outdir, row.reportDir);
    if (source === target) continue;
    await rm(target, { recursive: true, force: true });
    await cp(source, target, { recursive: true });
  }
  return matrixFile(first.selection, rows, first.machine);
}

function sameSelection(a: MatrixFile['selection'], b: MatrixFile['selection']): boolean {
  return a.quick === b.quick && JSON.stringify(a.cases) === JSON.stringify(b.cases);
}

function describe(s: MatrixFile['selection']): string {
  return `cases ${s.cases?.join(' ') ?? 'all'}${s.quick ? ', quick' : ''}`;
}

/** readRegistry's order: by file name (NAME.json, so "ws" after "ws-bundled"), then the client before the server. */
function registryOrder(a: MatrixRow, b: MatrixRow): number {
  const fa = `${a.name}.json`;
  const fb = `${b.name}.json`;
  if (fa !== fb) return fa < fb ? -1 : 1;
  return a.role === b.role ? 0 : a.role === 'client' ? -1 : 1;
}
