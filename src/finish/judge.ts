/**
 * `wsgate judge`: applies the gate (verdicts to fail on, baseline) to reports that already exist,
 * Autobahn's `index.json` and per-case JSON files, written by `wsgate serve` or by Autobahn itself.
 * It is the judging step of setups where the server ran elsewhere (a CI service container), and it
 * replaces the hand-written index.json scripts projects use today. Nothing is run; no socket opened.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { autobahnSelectionFor, readSpec } from '../config/spec.js';
import { SELECTION_FILE, selectionOf } from './selection.js';
import { catalogue, everyCase } from '../catalogue/registry.js';
import { selectCases } from '../cases/select.js';
import type { CatalogueCase } from '../cases/types.js';
import { resolveInside } from '../report/files.js';
import type { CaseResult, GateCase, GateRun } from '../model/report.js';
import { applyBaseline, loadBaseline } from '../policy/baseline.js';
import { UsageError } from '../errors.js';
import { finishRun } from './finish-run.js';
import type { GateIo } from '../drivers/driver.js';
import { Progress } from '../report/progress.js';
import { caseFields, ruleForResult } from '../policy/rule.js';
import { readJsonFile } from '../config/json-file.js';
import type { JudgeConfig } from '../config/judge-merge.js';

type IndexFile = Record<string, Record<string, { behavior?: unknown; reportfile?: unknown }>>;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Judges the reports in config.outdir; returns the exit status. */
export async function judgeReports(config: JudgeConfig, io: GateIo): Promise<number> {
  const indexFile = path.join(config.outdir, 'index.json');
  const index = readJsonFile(indexFile, 'the report index (write it with /updateReports first)', (v) => v);
  if (!isObject(index) || !Object.values(index).every(isObject)) throw new UsageError(`${indexFile}: not an Autobahn index.json ({agent: {case: {...}}})`);
  const agent = agentToJudge(index, config.agent, indexFile);
  const results = (index as IndexFile)[agent] ?? {};
  const baseline = config.baseline === null ? null : loadBaseline(config.baseline);
  // Reports of a fuzzing client (isServer false) judge a server.
  const role = reportsOfServer(results, config.outdir) ? 'server' : 'client';
  const { cases: selected, from } = expectedCases(config, results, agent, indexFile);
  if (selected.length === 0) throw new UsageError(`${indexFile}: no case to judge for agent ${JSON.stringify(agent)}`);
  const failing = new Set(config.failOn);
  const cases: GateCase[] = [];
  for (const [i, def] of selected.entries()) cases.push(await judgeOne(def, i + 1, results[def.id], failing, config.outdir, indexFile, role));
  const run: GateRun = {
    agent,
    startedAt: new Date().toISOString(),
    durationMs: judgedSpanMs(cases),
    strict: config.strict,
    cases: baseline === null ? cases : applyBaseline(cases, agent, baseline),
    interrupted: null,
    resources: null,
    failOn: config.failOn,
    ...(role === 'server' ? { role: 'server' as const } : {}),
    ...(baseline !== null ? { baselineFile: baseline.file } : {}),
  };
  return finishRun(run, config, {
    tell: (r) => {
      const progress = new Progress(io.out, io.isTty, r.cases.length, config.quiet, { counter: 'index' });
      progress.header(`wsgate: judging ${r.cases.length} case${r.cases.length === 1 ? '' : 's'} of agent ${JSON.stringify(agent)} in ${indexFile} (${from})`);
      for (const c of r.cases) if (c.status !== 'passed' || c.baseline !== undefined) progress.caseDone(c);
      progress.summary(r, { outdir: config.outdir, junit: config.junit, json: config.json });
    },
    github: config.github,
    env: io.env ?? process.env,
    out: io.out,
  });
}

/**
 * The cases the reports were meant to hold, and where that selection comes from (said in the
 * header): --cases, the spec file wstest ran from, the summary.json of the wsgate run that wrote
 * them, or the whole catalogue (with any of wsgate's own groups the index holds). A case of the
 * selection missing from the index fails: a run that stopped part-way is not green.
 */
/**
 * How long the judged run took, as its reports tell it: from the first case's start to the last one's
 * end (Autobahn's reports keep each case's start and duration, not the run's). 0 when none has both.
 */
function judgedSpanMs(cases: readonly GateCase[]): number {
  const spans = cases.flatMap((c) => {
    const at = c.result === null ? Number.NaN : Date.parse(c.result.started);
    return Number.isFinite(at) && c.result !== null ? [[at, at + c.result.duration] as const] : [];
  });
  if (spans.length === 0) return 0;
  return Math.max(...spans.map(([, end]) => end)) - Math.min(...spans.map(([start]) => start));
}

function expectedCases(config: JudgeConfig, results: IndexFile[string], agent: string, indexFile: string): { cases: CatalogueCase[]; from: string } {
  if (config.cases.length > 0 || config.excludeCases.length > 0)
    return { cases: selectCases(config.extended ? everyCase : catalogue, config.cases, config.excludeCases), from: 'the cases given' };
  if (config.spec !== null) {
    const ids = new Set(autobahnSelectionFor(readSpec(config.spec, 'wstest'), agent));
    return { cases: catalogue.filter((c) => ids.has(c.id)), from: `the selection of ${config.spec}` };
  }
  const ran = runSelection(path.join(config.outdir, 'summary.json'), agent);
  if (ran !== null) return { cases: everyCase.filter((c) => ran.has(c.id)), from: 'the selection in the summary.json of the run that wrote them' };
  const served = servedSelection(path.join(config.outdir, SELECTION_FILE));
  if (served !== null) return { cases: everyCase.filter((c) => served.has(c.id)), from: `the selection wsgate serve recorded in ${SELECTION_FILE}` };
  const own = new Set(Object.keys(results));
  const catalogueIds = new Set(catalogue.map((c) => c.id));
  return {
    cases: everyCase.filter((c) => catalogueIds.has(c.id) || own.has(c.id)),
    from: `the whole catalogue: no --cases, no --spec, and no selection a wsgate run recorded in ${path.dirname(indexFile)}; give --spec FILE when the reports hold a selection`,
  };
}

/** A JSON file's content, or undefined when it cannot be read or parsed. */
function jsonOf(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The case ids wsgate serve recorded, or null. */
function servedSelection(file: string): Set<string> | null {
  const ids = selectionOf(jsonOf(file));
  return ids === null ? null : new Set(ids);
}

/**
 * The case ids a wsgate run's summary.json lists for the agent, or null (no such file, or not a
 * run's: judge's own summary, with no resources measured, says what it judged, not what ran).
 */
function runSelection(file: string, agent: string): Set<string> | null {
  const summary = jsonOf(file);
  if (!isObject(summary) || !Array.isArray(summary.cases) || summary.resources === null) return null;
  const ids = summary.cases
    .filter((c) => isObject(c) && typeof c.id === 'string' && (c.agent === undefined || c.agent === agent))
    .map((c) => (c as { id: string }).id);
  return ids.length === 0 ? null : new Set(ids);
}

/** Whether the first report the index names was written by a fuzzing client (the reports judge a server). */
function reportsOfServer(results: IndexFile[string], outdir: string): boolean {
  const first = Object.values(results).find((r) => isObject(r) && typeof r.reportfile === 'string');
  if (first === undefined) return false;
  try {
    const report = JSON.parse(readFileSync(resolveInside(outdir, first.reportfile as string), 'utf8')) as unknown;
    return isObject(report) && report.isServer === false;
  } catch {
    return false;
  }
}

/** The agent named, or the only one the index holds. */
function agentToJudge(index: Record<string, unknown>, named: string | null, indexFile: string): string {
  const agents = Object.keys(index);
  if (named !== null) {
    if (!(named in index))
      throw new UsageError(
        `${indexFile}: no results for agent ${JSON.stringify(named)} (agents: ${agents.map((a) => JSON.stringify(a)).join(', ') || 'none'})`,
      );
    return named;
  }
  if (agents.length === 1 && agents[0] !== undefined) return agents[0];
  throw new UsageError(
    `${indexFile}: ${agents.length === 0 ? 'holds no results' : `holds several agents (${agents.map((a) => JSON.stringify(a)).join(', ')}): name one with --agent`}`,
  );
}

/** One case: its report read (inside the report directory) and the gate rule applied. */
async function judgeOne(
  def: CatalogueCase,
  index: number,
  entry: IndexFile[string][string] | undefined,
  failing: ReadonlySet<string>,
  outdir: string,
  indexFile: string,
  role: 'client' | 'server',
): Promise<GateCase> {
  const base = { index, ...caseFields(def), client: null, warnings: [] };
  if (entry === undefined) {
    const why = role === 'server' ? 'the server run did not reach this case' : 'the client did not run this case';
    return { ...base, status: 'failed', reason: `no result in index.json: ${why}`, timeMs: 0, result: null, reportBase: null };
  }
  if (typeof entry.reportfile !== 'string') throw new UsageError(`${indexFile}: case ${def.id} has no "reportfile"`);
  let file: string;
  try {
    file = resolveInside(outdir, entry.reportfile);
  } catch (err) {
    throw new UsageError(`${indexFile}: case ${def.id}: ${(err as Error).message}`);
  }
  const result = readJsonFile(file, `the report of case ${def.id}`, (v) => v as CaseResult);
  if (!isObject(result) || typeof result.behavior !== 'string' || typeof result.behaviorClose !== 'string') {
    throw new UsageError(`${file}: not an Autobahn case report (no behavior/behaviorClose)`);
  }
  const verdict = ruleForResult(result, failing);
  return {
    ...base,
    status: verdict.status,
    reason: verdict.reason,
    warnings: verdict.warnings,
    timeMs: Number(result.duration) || 0,
    result,
    reportBase: entry.reportfile.replace(/\.json$/, ''),
  };
}
