/**
 * `wsgate judge`: applies the gate (verdicts to fail on, baseline) to reports that already exist,
 * Autobahn's `index.json` and per-case JSON files, written by `wsgate serve` or by Autobahn itself.
 * It is the judging step of setups where the server ran elsewhere (a CI service container), and it
 * replaces the hand-written index.json scripts projects use today. Nothing is run; no socket opened.
 */
import { readFile } from 'node:fs/promises';
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
import { failingVerdicts } from '../model/verdicts.js';
import { splitList } from '../util/patterns.js';
import { Progress } from '../run/progress.js';
import { caseFields, ruleForResult } from '../policy/rule.js';

/** What `wsgate judge` needs. */
export interface JudgeConfig {
  /** The report directory holding index.json. */
  outdir: string;
  /** The agent to judge; null: the only agent in index.json. */
  agent: string | null;
  /** Case patterns that must have results; empty: the cases index.json holds for the agent. */
  cases: string[];
  /** Patterns may name wsgate's own group 14 (as --extended does for run, serve and list). */
  extended: boolean;
  excludeCases: string[];
  failOn: string[];
  strict: boolean;
  baseline: string | null;
  writeBaseline: string | null;
  github: boolean | null;
  junit: string;
  json: string;
}

/** What `judge` is given (the command's flags, the API's options): paths relative to the working directory. */
export interface JudgeInput {
  /** Default: ./reports/clients. */
  outdir?: string | undefined;
  agent?: string | undefined;
  cases?: readonly string[] | undefined;
  excludeCases?: readonly string[] | undefined;
  extended?: boolean | undefined;
  strict?: boolean | undefined;
  failOn?: readonly string[] | undefined;
  baseline?: string | undefined;
  writeBaseline?: string | undefined;
  github?: boolean | null | undefined;
  junit?: string | undefined;
  json?: string | undefined;
}

/** The judge's settings from its input: absolute paths, the verdicts that fail, the defaults. */
export function judgeConfig(input: JudgeInput): JudgeConfig {
  const outdir = path.resolve(input.outdir ?? './reports/clients');
  const strict = input.strict ?? false;
  return {
    outdir,
    agent: input.agent ?? null,
    cases: splitList(input.cases ?? []),
    excludeCases: splitList(input.excludeCases ?? []),
    extended: input.extended === true,
    failOn: [...failingVerdicts(input.failOn === undefined ? null : splitList(input.failOn), strict)],
    strict,
    baseline: input.baseline === undefined ? null : path.resolve(input.baseline),
    writeBaseline: input.writeBaseline === undefined ? null : path.resolve(input.writeBaseline),
    github: input.github ?? null,
    junit: path.resolve(input.junit ?? path.join(outdir, 'junit.xml')),
    json: path.resolve(input.json ?? path.join(outdir, 'summary.json')),
  };
}

type IndexFile = Record<string, Record<string, { behavior?: unknown; reportfile?: unknown }>>;

async function readJson(file: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`${file}: cannot read ${what}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${file}: ${what} is not valid JSON: ${(err as Error).message.split('\n')[0] ?? ''}`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Judges the reports in config.outdir; returns the exit status. */
export async function judgeReports(config: JudgeConfig, io: GateIo): Promise<number> {
  const indexFile = path.join(config.outdir, 'index.json');
  const index = await readJson(indexFile, 'the report index (write it with /updateReports first)');
  if (!isObject(index) || !Object.values(index).every(isObject)) throw new UsageError(`${indexFile}: not an Autobahn index.json ({agent: {case: {...}}})`);
  const agent = agentToJudge(index, config.agent, indexFile);
  const results = (index as IndexFile)[agent] ?? {};
  const baseline = config.baseline === null ? null : loadBaseline(config.baseline);
  // Without patterns, every case the index holds that wsgate knows, its own groups included (as merge does).
  const everything = everyCase;
  const selected =
    config.cases.length > 0 || config.excludeCases.length > 0
      ? selectCases(config.extended ? everyCase : catalogue, config.cases, config.excludeCases)
      : selectCases(everything, Object.keys(results).filter((id) => everything.some((c) => c.id === id)));
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
      const progress = new Progress(io.out, io.isTty, r.cases.length);
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
    if (!(named in index)) throw new UsageError(`${indexFile}: no results for agent ${JSON.stringify(named)} (agents: ${agents.map((a) => JSON.stringify(a)).join(', ') || 'none'})`);
    return named;
  }
  if (agents.length === 1 && agents[0] !== undefined) return agents[0];
  throw new UsageError(`${indexFile}: ${agents.length === 0 ? 'holds no results' : `holds several agents (${agents.map((a) => JSON.stringify(a)).join(', ')}): name one with --agent`}`);
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
  if (entry === undefined) return { ...base, status: 'failed', reason: 'no result in index.json: the client did not run this case', timeMs: 0, result: null, reportBase: null };
  if (typeof entry.reportfile !== 'string') throw new UsageError(`${indexFile}: case ${def.id} has no "reportfile"`);
  let file: string;
  try {
    file = resolveInside(outdir, entry.reportfile);
  } catch (err) {
    throw new UsageError(`${indexFile}: case ${def.id}: ${(err as Error).message}`);
  }
  const result = (await readJson(file, `the report of case ${def.id}`)) as CaseResult;
  if (!isObject(result) || typeof result.behavior !== 'string' || typeof result.behaviorClose !== 'string') {
    throw new UsageError(`${file}: not an Autobahn case report (no behavior/behaviorClose)`);
  }
  const verdict = ruleForResult(result, failing);
  return { ...base, status: verdict.status, reason: verdict.reason, warnings: verdict.warnings, timeMs: Number(result.duration) || 0, result, reportBase: entry.reportfile.replace(/\.json$/, '') };
}
