/**
 * Writes Autobahn's report set into an output directory: per-case JSON and HTML, then index.html
 * and index.json, each file atomically and never outside the directory.
 */
import { agentFilePrefixes, caseReportBase, makeDirectory, resolveInside, writeFileAtomic, type AgentFileCollision } from './files.js';
import { caseReportHtml } from './html/case.js';
import { indexHtml, type IndexMeta } from './html/index.js';
import { caseReportJson, indexJson } from './json.js';
import type { CaseInfo, CaseResult } from '../model/report.js';
import { releaseMemoryNow } from '../util/memory.js';

// Enough writes in flight to hide fsync latency, few enough to stay far from file-descriptor limits.
const CONCURRENCY = 8;
/** Files rendered between two full collections: rendering makes dead strings faster than V8 looks for them. */
const FILES_PER_COLLECTION = 64;

async function runBounded(tasks: readonly (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (failure === null && next < tasks.length) {
      const task = tasks[next++];
      if (task === undefined) break;
      if (next % FILES_PER_COLLECTION === 0) releaseMemoryNow();
      try {
        await task();
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  if (failure !== null) throw (failure as { err: unknown }).err;
}

/** What the pages are given beyond the results: the index's (IndexMeta), and whether recordings were kept for `wsgate repro`. */
export interface ReportMeta extends IndexMeta {
  /** The run kept recordings of its non-passing cases: their pages say how to reproduce them. */
  readonly repro?: boolean;
}

/**
 * Writes every per-case `.json`/`.html`, then `index.html` and `index.json`, into outdir (created if
 * needed); with `indexOnly`, index.html alone (the gate's cells added to a set a client already had
 * written). Returns the agents whose file names had to be told apart (see agentFilePrefixes).
 */
export async function writeReports(
  outdir: string,
  results: ReadonlyMap<string, ReadonlyMap<string, CaseResult>>,
  catalogue: readonly CaseInfo[],
  meta: ReportMeta,
  options: { indexOnly?: boolean } = {},
): Promise<AgentFileCollision[]> {
  releaseMemoryNow();
  await makeDirectory(outdir);
  const { prefixes, collisions } = agentFilePrefixes(results.keys());
  if (options.indexOnly === true) {
    await writeFileAtomic(resolveInside(outdir, 'index.html'), indexHtml(results, catalogue, meta, prefixes));
    return collisions;
  }
  const tasks: (() => Promise<void>)[] = [];
  const several = results.size > 1;
  for (const [agent, cases] of results) {
    for (const [caseId, result] of cases) {
      const base = caseReportBase(prefixes.get(agent) ?? '', caseId);
      // Rendering happens inside the task, so only the files in flight are held in memory.
      tasks.push(() => writeFileAtomic(resolveInside(outdir, `${base}.json`), caseReportJson(result)));
      tasks.push(() => writeFileAtomic(resolveInside(outdir, `${base}.html`), caseReportHtml(result, { repro: meta.repro === true, several })));
    }
  }
  await runBounded(tasks, CONCURRENCY);
  // The indexes come last, so whoever sees them can follow every link; index.json the very last:
  // its presence means the set is whole (scripts poll for it, and a SIGKILL may come at any moment).
  await writeFileAtomic(resolveInside(outdir, 'index.html'), indexHtml(results, catalogue, meta, prefixes));
  await writeFileAtomic(resolveInside(outdir, 'index.json'), indexJson(results, prefixes));
  return collisions;
}
