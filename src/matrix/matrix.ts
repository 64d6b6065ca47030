/**
 * `wsgate matrix`: every selected implementation in each of its roles, each row a run of the gate
 * (one report directory per row, DIR/NAME-ROLE), then DIR/matrix.json and the site DIR/index.html.
 * A row's conformance failures are the matrix's content, not its failure: a matrix that ran every
 * row passes (0). Shards cut the cases of every row (--shard goes to each row's run), so each shard
 * tests every implementation and they take about as long; `--merge` joins each row's shards with
 * `wsgate merge` and builds matrix.json from the merged summaries as a run builds it from its own;
 * given whole matrices of other rows instead (one per implementation, CI's jobs), it joins them
 * (join.ts). Both write the badges (badges.ts) beside matrix.json.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../report/files.js';
import path from 'node:path';
import { Writable } from 'node:stream';
import { mergeConfig } from '../config/judge-merge.js';
import { matrixJobs } from '../config/parallel.js';
import { ExitCode, UsageError } from '../errors.js';
import { mergeRuns } from '../finish/merge.js';
import { writeBadges } from './badges.js';
import { renderReleaseChanges } from './changes/pages.js';
import { releaseSeries } from './changes/changes.js';
import { readMatrixAt, writeComparison } from './changes/compare.js';
import { isJoin, joinMatrices } from './join.js';
import { readRegistry } from './registry.js';
import { failedRow, matrixFile, notInstalledRow, ranRow, rowHead, rowKey, selectedCases, unsupportedCases, type MatrixFile, type MatrixRow } from './result.js';
import { isBrowserRow, type PlannedRow, planRows, rowArgs, type Role } from './rows.js';
import { renderSite } from './site.js';

export interface MatrixOptions {
  /** The registry folder (interop/implementations). */
  implementations: string;
  /** Where versions are read from and relative commands run (the checkout's root). */
  root: string;
  only: readonly string[];
  role: Role | null;
  cases: readonly string[] | null;
  quick: boolean;
  jobs: number | null;
  shard: string | null;
  /** Releases of the one --only implementation, each a row of its own (empty: the registry's install). */
  versions?: readonly string[];
  /** Where those releases are installed (default interop/.versions), relative to the root. */
  versionsDir?: string;
  /** A matrix (its matrix.json or directory) to compare this one with: DIR/compare.json and compare.html. */
  compare?: string | null;
  /** The browser rows in a lane of their own beside the others (default true). */
  browsersBeside?: boolean;
  outdir: string;
  signal?: AbortSignal;
}

/** Runs one row: `wsgate run` with these arguments, through the same engine; resolves with its exit status. */
export type RowRunner = (args: string[], signal: AbortSignal | undefined) => Promise<number>;

/** Runs the matrix; resolves with its exit status (0: every row that is installed ran). */
export async function runMatrix(o: MatrixOptions, runRow: RowRunner, out: NodeJS.WritableStream): Promise<number> {
  const shard = parseShard(o.shard);
  const rows = planRows(readRegistry(o.implementations), o, o.root);
  // The old matrix is read before anything runs: a wrong path is a usage error, not a lost run.
  const old = (o.compare ?? null) === null ? null : await readMatrixAt(o.compare as string);
  await mkdir(o.outdir, { recursive: true });
  const common = [
    ...(o.cases === null ? [] : ['--cases', ...o.cases]),
    ...(o.quick ? ['--quick'] : []),
    '--jobs',
    String(o.jobs ?? matrixJobs()),
    ...(o.shard === null ? [] : ['--shard', o.shard]),
    '--quiet',
    '--no-github',
  ];
  const selection = { cases: o.cases === null ? null : [...o.cases], quick: o.quick, shard };
  // A fault in one lane stops the other: nothing runs on unobserved once the matrix fails.
  const fault = new AbortController();
  const matrixSignal = o.signal === undefined ? fault.signal : AbortSignal.any([o.signal, fault.signal]);
  const done: Array<MatrixRow | undefined> = new Array(rows.length);

  /** Runs row I and records it; false once the matrix is interrupted. */
  const runOne = async (i: number): Promise<boolean> => {
    const row = rows[i] as PlannedRow;
    if (matrixSignal.aborted) return false;
    if (row.version === null) {
      out.write(`matrix: ${row.key}: not installed; install: ${row.install}\n`);
      done[i] = notInstalledRow(rowHead(row));
      return true;
    }
    out.write(`matrix: ${row.key}: ${row.impl.title} ${row.version}\n`);
    // A row that can play none of the selection has nothing to run: its cells say unsupported.
    if (unsupportedCases(rowHead(row), selection).length === selectedCases(row.role, selection).length) {
      done[i] = ranRow(rowHead(row), o.outdir, selection);
      return true;
    }
    // A row that cannot run (its command never connected, bad arguments in its entry) is recorded
    // with its reason and the matrix goes on: one broken row hides no other.
    let error: string | null = null;
    // Each row's run listens on a signal of its own, which follows the matrix's: what a run leaves
    // listening on it goes with the row, not onto the matrix's signal row after row.
    const rowSignal = AbortSignal.any([matrixSignal]);
    try {
      const status = await runRow(rowArgs(row, o.outdir, common), rowSignal);
      if (isAborted(matrixSignal)) return false;
      if (status !== ExitCode.Pass && status !== ExitCode.Failure) error = `its run ended with exit status ${status}`;
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      error = err.message;
    }
    if (error !== null) {
      out.write(`matrix: ${row.key}: could not run: ${error}\n`);
      done[i] = failedRow(rowHead(row), error);
      return true;
    }
    done[i] = ranRow(rowHead(row), o.outdir, selection);
    return true;
  };

  // The browser rows run one after another beside the other rows (which also run one after
  // another): a browser plays one case at a time, waiting between its own processes (Chromium's
  // whole catalogue on 2 cores: 759 s of wall for 508 s of CPU, wsgate's and the browser's: two
  // thirds of one core), so its lane fills the cores the others leave idle.
  const indices = rows.map((_, i) => i);
  const lanes =
    o.browsersBeside === false
      ? [indices]
      : [indices.filter((i) => !isBrowserRow(rows[i] as PlannedRow)), indices.filter((i) => isBrowserRow(rows[i] as PlannedRow))];
  const completed = await runLanes(lanes, runOne, () => fault.abort());
  if (!completed || isAborted(o.signal)) return ExitCode.Interrupted;
  const matrixRows = done.filter((r): r is MatrixRow => r !== undefined);
  await writeMatrix(o.outdir, matrixFile(selection, matrixRows), out, old);
  return couldNotRun(matrixRows.filter((r) => r.error !== null).map(rowKey), o.outdir);
}

/**
 * Runs the lanes side by side, each its items one after another; resolves true when every item
 * ran, false when one said the run was interrupted (the lane stops there). On a fault, `stop()` is
 * called (the other lanes' running items end) and, once every lane has ended, the fault is thrown.
 */
export async function runLanes(lanes: readonly (readonly number[])[], task: (i: number) => Promise<boolean>, stop: () => void): Promise<boolean> {
  let faulted = false;
  const results = await Promise.allSettled(
    lanes.map(async (lane) => {
      for (const i of lane) {
        if (faulted) return false;
        try {
          if (!(await task(i))) return false;
        } catch (err) {
          faulted = true;
          stop();
          throw err;
        }
      }
      return true;
    }),
  );
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
  return results.every((r) => r.status === 'fulfilled' && r.value);
}

/** 0 when every row that is installed ran; else, the matrix written whole, a usage error naming the rows that could not. */
function couldNotRun(keys: readonly string[], dir: string): number {
  if (keys.length === 0) return ExitCode.Pass;
  throw new UsageError(`matrix: ${keys.length} ${keys.length === 1 ? 'row' : 'rows'} could not run (${keys.join(', ')}): see ${path.join(dir, 'matrix.json')}`);
}

/** Joins the shards of a matrix (their --outdirs, each with matrix.json) into one, as one unsharded run would have written it. */
export async function mergeMatrix(inputs: readonly string[], outdir: string, env: NodeJS.ProcessEnv, out: NodeJS.WritableStream): Promise<number> {
  if (inputs.length === 0) throw new UsageError('matrix --merge: name the shards\u2019 directories');
  const shards = await Promise.all(inputs.map(readMatrix));
  // Whole matrices of other rows (one per implementation, from CI's jobs): their union (join.ts).
  if (isJoin(shards)) {
    const joined = await joinMatrices(inputs, shards, outdir);
    await writeMatrix(outdir, joined, out);
    return couldNotRun(joined.rows.filter((r) => r.error !== null).map(rowKey), outdir);
  }
  checkShards(inputs, shards);
  const first = shards[0] as MatrixFile;
  const rows: MatrixRow[] = [];
  for (const head of first.rows) {
    const key = rowKey(head);
    const ran = shards.map((s) => s.rows.find((r) => rowKey(r) === key)?.reportDir ?? null);
    if (!head.installed) {
      rows.push(notInstalledRow(head));
      continue;
    }
    const error = shards.map((s) => s.rows.find((r) => rowKey(r) === key)?.error ?? null).find((e) => e !== null);
    if (error !== undefined) {
      rows.push(failedRow(head, error));
      continue;
    }
    if (ran.some((d) => d !== ran[0])) throw new UsageError(`matrix --merge: row ${key} ran in some shards only`);
    // A row that could play none of the selection ran in no shard: nothing to merge.
    if (ran[0] === null) {
      rows.push(ranRow(head, outdir, first.selection));
      continue;
    }
    const config = mergeConfig({ inputs: inputs.map((d) => path.join(d, key)), outdir: path.join(outdir, key), github: false }, env);
    await mergeRuns(config, discard());
    rows.push(ranRow(head, outdir, first.selection));
  }
  await writeMatrix(outdir, matrixFile({ ...first.selection, shard: null }, rows, first.machine), out);
  return couldNotRun(rows.filter((r) => r.error !== null).map(rowKey), outdir);
}

async function writeMatrix(dir: string, file: MatrixFile, out: NodeJS.WritableStream, old: { dir: string; file: MatrixFile } | null = null): Promise<void> {
  await mkdir(dir, { recursive: true });
  // The site first, matrix.json last: its presence means the set is whole (as index.json for a run's reports).
  const series = releaseSeries(file.rows);
  if (series.length > 0) await writeFileAtomic(path.join(dir, 'changes.html'), renderReleaseChanges(series, file.generatedAt));
  if (old !== null) await writeComparison(old, { dir, file }, dir, out);
  await writeFileAtomic(path.join(dir, 'index.html'), renderSite(file, { changes: series.length > 0, compare: old !== null }));
  await writeBadges(dir, file);
  await writeFileAtomic(path.join(dir, 'matrix.json'), `${JSON.stringify(file, null, 2)}\n`);
  const changed = series.flatMap((s) =>
    s.steps
      .filter((st) => st.changes.length > 0)
      .map((st) => `${s.name}-${s.role} ${st.older.release ?? ''} → ${st.newer.release ?? ''}: ${st.changes.map((c) => c.id).join(' ')}`),
  );
  if (series.length > 0)
    out.write(changed.length === 0 ? 'matrix: no verdict changed between consecutive releases\n' : changed.map((l) => `matrix: changed: ${l}\n`).join(''));
  out.write(
    `matrix: ${file.rows.length} row${file.rows.length === 1 ? '' : 's'}: ${dir}/matrix.json, ${dir}/index.html${series.length > 0 ? `, ${dir}/changes.html` : ''}, ${dir}/badges/\n`,
  );
}

async function readMatrix(dir: string): Promise<MatrixFile> {
  const file = path.join(dir, 'matrix.json');
  if (!existsSync(file)) throw new UsageError(`matrix --merge: ${dir}: no matrix.json (is it the --outdir of a wsgate matrix?)`);
  return JSON.parse(await readFile(file, 'utf8')) as MatrixFile;
}

/** Shards of one N, each once, of the same rows. */
function checkShards(inputs: readonly string[], shards: readonly MatrixFile[]): void {
  const count = shards[0]?.selection.shard?.count;
  const seen = new Set<number>();
  for (const [i, s] of shards.entries()) {
    const sh = s.selection.shard;
    if (sh === null || sh.count !== count) throw new UsageError(`matrix --merge: ${inputs[i] ?? ''} is not a shard of ${count ?? '?'}`);
    if (seen.has(sh.index)) throw new UsageError(`matrix --merge: shard ${sh.index}/${sh.count} is given twice`);
    seen.add(sh.index);
    if (s.rows.map(rowKey).join() !== shards[0]?.rows.map(rowKey).join()) throw new UsageError(`matrix --merge: ${inputs[i] ?? ''} has other rows`);
  }
  if (seen.size !== count) throw new UsageError(`matrix --merge: ${seen.size} of ${count ?? '?'} shards given`);
}

function parseShard(shard: string | null): MatrixFile['selection']['shard'] {
  if (shard === null) return null;
  const m = /^(\d+)\/(\d+)$/.exec(shard);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (m === null || index < 1 || index > count) throw new UsageError(`matrix: --shard ${shard}: give K/N with 1 <= K <= N`);
  return { index, count };
}

/** Read through a call: a signal checked once before a row's run is read afresh after it. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function discard(): NodeJS.WritableStream {
  return new Writable({ write: (_c, _e, done) => done() });
}
