/**
 * `wsgate judge`: applies the gate (verdicts to fail on, baseline) to reports that already exist,
 * Autobahn's `index.json` and per-case JSON files, written by `wsgate serve` or by Autobahn itself.
 * It is the judging step of setups where the server ran elsewhere (a CI service container), and it
 * replaces the hand-written index.json scripts projects use today. Nothing is run; no socket opened.
 */
import path from 'node:path';
import { catalogue, everyCase } from '../cases/registry.js';
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
  // Without patterns, every case the index holds that wsgate knows, its own groups included (as merge does).
  const everything = everyCase;
  const selected =
    config.cases.length > 0 || config.excludeCases.length > 0
      ? selectCases(config.extended ? everyCase : catalogue, config.cases, config.excludeCases)
      : selectCases(
          everything,
          Object.keys(results).filter((id) => everything.some((c) => c.id === id)),
        );
  if (selected.length === 0) throw new UsageError(`${indexFile}: no case to judge for agent ${JSON.stringify(agent)}`);
  const failing = new Set(config.failOn);
  const cases: GateCase[] = [];
  for (const [i, def] of selected.entries()) cases.push(await judgeOne(def, i + 1, results[def.id], failing, config.outdir, indexFile));
  const run: GateRun = {
    agent,
    startedAt: new Date().toISOString(),
    durationMs: 0,
    strict: config.strict,
    cases: baseline === null ? cases : applyBaseline(cases, agent, baseline),
    interrupted: null,
    resources: null,
    failOn: config.failOn,
    // Reports of a fuzzing client (isServer false) judge a server.
    ...(cases.some((c) => c.result?.isServer === false) ? { role: 'server' as const } : {}),
    ...(baseline !== null ? { baselineFile: baseline.file } : {}),
  };
  return finishRun(run, config, {
    tell: (r) => {
      const progress = new Progress(io.out, io.isTty, r.cases.length, config.quiet);
      progress.header(`wsgate: judging ${r.cases.length} case${r.cases.length === 1 ? '' : 's'} of agent ${JSON.stringify(agent)} in ${indexFile}`);
      for (const c of r.cases) if (c.status !== 'passed' || c.baseline !== undefined) progress.caseDone(c);
      progress.summary(r, { outdir: config.outdir, junit: config.junit, json: config.json });
    },
    github: config.github,
    env: io.env ?? process.env,
    out: io.out,
  });
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
): Promise<GateCase> {
  const base = { index, ...caseFields(def), client: null, warnings: [] };
  if (entry === undefined)
    return { ...base, status: 'failed', reason: 'no result in index.json: the client did not run this case', timeMs: 0, result: null, reportBase: null };
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
