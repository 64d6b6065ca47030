/**
 * `wsgate merge DIR... --outdir DIR`: joins the output directories of several runs (the shards of a
 * CI matrix) into one report set, as if one run had covered every case: index.json/index.html and
 * the per-case reports, one JUnit file, one summary, one exit status. It re-judges nothing: each
 * shard's gate statuses are taken as they were written, its per-case reports are read back. Runs of
 * different agents (one job per browser engine, say) become one report set of several agents, as a
 * run testing several servers writes; a case may appear once per agent.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { catalogueFor, everyCase } from '../catalogue/registry.js';
import { agentFilePrefixes, caseReportBase, makeDirectory, resolveInside } from '../report/files.js';
import type { BaselineMark, CaseResult, GateCase, GateRun, GateView } from '../model/report.js';
import { gateView } from '../explain/run.js';
import { writeReports } from '../report/writer.js';
import { VERSION } from '../version.js';
import { UsageError } from '../errors.js';
import { checkDirectories } from '../report/files.js';
import { finishRun } from './finish-run.js';
import { caseFields } from '../policy/rule.js';
import { readJsonFile, zodValidator } from '../config/json-file.js';
import type { MergeOptions } from '../config/judge-merge.js';

/** The parts of a run's summary.json that merging reads (other keys are allowed and ignored). */
const summarySchema = z.object({
  agent: z.string(),
  // Absent in summaries of wsgate before the server role: the client.
  role: z.enum(['client', 'server']).default('client'),
  // Present when the run was over TLS.
  tls: z.object({ caFile: z.string().nullable(), generated: z.boolean(), insecure: z.boolean() }).optional(),
  startedAt: z.string(),
  durationMs: z.number(),
  strict: z.boolean(),
  failOn: z.array(z.string()).nullable().optional(),
  baseline: z.string().nullable().optional(),
  interrupted: z.string().nullable(),
  shard: z.object({ index: z.number().int(), count: z.number().int() }).nullable().optional(),
  resources: z.object({ cpuUserMs: z.number(), cpuSystemMs: z.number(), maxRssKiB: z.number(), clientCpuMs: z.number().nullable() }).nullable(),
  cases: z.array(
    z.object({
      id: z.string(),
      // Present when the run tested several agents (a merge of several, a spec file's servers).
      agent: z.string().optional(),
      status: z.enum(['passed', 'failed', 'skipped']),
      timeMs: z.number(),
      reason: z.string(),
      warnings: z.array(z.string()),
      reportfile: z.string().nullable(),
      baseline: z
        .object({
          state: z.enum(['accepted', 'passing']),
          pattern: z.string(),
          reason: z.string(),
          failure: z.string().nullable(),
          cause: z.string().optional(),
        })
        .nullable()
        .optional(),
      client: z
        .object({
          exitCode: z.number().nullable(),
          signal: z.string().nullable(),
          timedOut: z.boolean(),
          spawnError: z.string().nullable(),
          command: z.string().default(''),
          output: z.string().default(''),
          outputTruncated: z.boolean().default(false),
        })
        .nullable(),
    }),
  ),
});

type Summary = z.infer<typeof summarySchema>;

function readSummary(dir: string): Summary {
  const file = path.join(dir, 'summary.json');
  if (!existsSync(file)) throw new UsageError(`${dir}: no summary.json (is it the --outdir of a wsgate run?)`);
  return readJsonFile(file, 'the run summary', zodValidator(file, summarySchema));
}

async function readCaseResult(dir: string, reportfile: string): Promise<CaseResult> {
  try {
    // A summary names its reports relative to its directory; one pointing outside it is refused.
    return JSON.parse(await readFile(resolveInside(dir, reportfile), 'utf8')) as CaseResult;
  } catch (err) {
    throw new UsageError(`${path.join(dir, reportfile)}: cannot read the case report (${(err as Error).message.split('\n')[0] ?? ''})`);
  }
}

/** Checks that shards of one N are all present, once each. */
function checkShards(inputs: readonly string[], summaries: readonly Summary[]): void {
  const shards = summaries.map((s) => s.shard ?? null);
  if (shards.every((s) => s === null)) return;
  if (shards.some((s) => s === null)) throw new UsageError('some inputs are shards and some are not: merge the shards of one run');
  const count = (shards[0] as { count: number }).count;
  const seen = new Map<number, string>();
  for (const [i, s] of shards.entries()) {
    if (s === null) continue;
    if (s.count !== count) throw new UsageError(`${inputs[i] ?? ''} is shard ${s.index}/${s.count}, the others are of ${count}`);
    const other = seen.get(s.index);
    if (other !== undefined) throw new UsageError(`shard ${s.index}/${count} is given twice: ${other} and ${inputs[i] ?? ''}`);
    seen.set(s.index, inputs[i] ?? '');
  }
  const missing = Array.from({ length: count }, (_, k) => k + 1).filter((k) => !seen.has(k));
  if (missing.length > 0) throw new UsageError(`shard${missing.length > 1 ? 's' : ''} ${missing.map((k) => `${k}/${count}`).join(', ')} missing`);
}

/** Merges the runs; returns the exit status the merged run would have had. Throws UsageError on bad input. */
export async function mergeRuns(options: MergeOptions, out: NodeJS.WritableStream): Promise<number> {
  if (options.inputs.length === 0) throw new UsageError('merge: name at least one run directory');
  if (options.inputs.includes(options.outdir)) throw new UsageError('merge: --outdir must not be one of the inputs');
  await checkDirectories(
    [
      ['--outdir', options.outdir],
      ['the --junit directory', path.dirname(options.junit)],
      ['the --json directory', path.dirname(options.json)],
    ],
    'merge: ',
  );
  const summaries = await Promise.all(options.inputs.map(readSummary));
  const role = (summaries[0] as Summary).role;
  for (const [i, s] of summaries.entries()) {
    if (s.role !== role) throw new UsageError(`${options.inputs[i] ?? ''}: a run of the ${s.role} role, the first input's is of the ${role} role`);
  }
  checkShards(options.inputs, summaries);
  const { merged, results } = await mergeCases(summaries, options.inputs, role);
  const run = {
    ...mergedRun([...results.keys()].join(', '), summaries, merged, options.inputs),
    ...(role === 'server' ? { role } : {}),
    ...mergedTls(summaries),
  };
  await makeDirectory(options.outdir);
  await writeReports(
    options.outdir,
    results,
    everyCase.filter((c) => merged.some((m) => m.id === c.id)),
    {
      generatedAt: new Date().toISOString(),
      toolVersion: VERSION,
      ...mergedView(merged, [...results.keys()]),
    },
  );
  const count = (st: string): number => merged.filter((c) => c.status === st).length;
  return finishRun(
    run,
    { ...options, writeBaseline: null },
    {
      tell: () =>
        out.write(
          `merged ${summaries.length} run${summaries.length === 1 ? '' : 's'}: ${merged.length} cases: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped\n` +
            `reports: ${options.outdir}/index.html\njunit:   ${options.junit}\nsummary: ${options.json}\n`,
        ),
      github: options.github,
      env: options.env,
      out,
    },
  );
}

/** Over TLS: the runs' TLS settings (a CA file only when every run names the same one: shards made their own). */
function mergedTls(summaries: readonly Summary[]): { tls?: NonNullable<Summary['tls']> } {
  const first = summaries.find((s) => s.tls !== undefined)?.tls;
  if (first === undefined) return {};
  const sameCa = summaries.every((s) => s.tls?.caFile === first.caFile);
  return { tls: { ...first, caFile: sameCa ? first.caFile : null, insecure: summaries.some((s) => s.tls?.insecure === true) } };
}

/**
 * Every case of every run, each once per agent: the agents in the order the inputs name them, each
 * agent's cases in catalogue order and numbered as one run would number them; with several agents
 * each case names its agent, and the report files are named as one run of them all would name them.
 */
/** The gate's cells and causes of the merged cases, per agent (a lone agent's cases labelled by id alone, as the run's were). */
function mergedView(merged: readonly GateCase[], agents: readonly string[]): GateView {
  const unlabelled = (c: GateCase): GateCase => {
    const { agent: _agent, ...rest } = c;
    return rest;
  };
  return gateView(agents.map((agent) => ({ agent, cases: merged.filter((c) => c.agent === agent).map((c) => (agents.length > 1 ? c : unlabelled(c))) })));
}

async function mergeCases(
  summaries: readonly Summary[],
  inputs: readonly string[],
  role: 'client' | 'server',
): Promise<{ merged: GateCase[]; results: Map<string, Map<string, CaseResult>> }> {
  // wsgate's own cases (--extended) may be among them: look ids up in the role's extended catalogue.
  // Group 16 (runs over --http2) follows them.
  const h2Group = catalogueFor(true, role, 'h2').filter((c) => c.id.startsWith('16.'));
  // The robustness profile's group (17 or 18) comes last, its HTTP/2 floods (17.5) after the rest.
  const robustness = [...catalogueFor(false, role, 'http/1.1', true), ...catalogueFor(false, role, 'h2', true)];
  const order = new Map([...catalogueFor(true, role), ...h2Group, ...robustness].map((c, i) => [c.id, { i, def: c }]));
  const owner = new Map<string, string>();
  const results = new Map<string, Map<string, CaseResult>>();
  const merged: GateCase[] = [];
  for (const [n, s] of summaries.entries()) {
    const dir = inputs[n] as string;
    for (const c of s.cases) {
      const entry = order.get(c.id);
      if (entry === undefined) throw new UsageError(`${dir}: case ${JSON.stringify(c.id)} is not in wsgate ${VERSION}'s catalogue`);
      const agent = c.agent ?? s.agent;
      const key = `${agent}\u0000${c.id}`;
      const before = owner.get(key);
      if (before !== undefined) throw new UsageError(`case ${c.id} of agent ${JSON.stringify(agent)} is in both ${before} and ${dir}`);
      owner.set(key, dir);
      if (!results.has(agent)) results.set(agent, new Map());
      const result = c.reportfile === null ? null : await readCaseResult(dir, c.reportfile);
      if (result !== null) results.get(agent)?.set(c.id, result);
      merged.push({
        index: 0,
        agent,
        ...caseFields(entry.def),
        status: c.status,
        reason: c.reason,
        warnings: c.warnings,
        timeMs: c.timeMs,
        result,
        client: c.client,
        reportBase: c.reportfile === null ? null : c.reportfile.replace(/\.json$/, ''),
        ...(c.baseline != null ? { baseline: baselineMark(c.baseline) } : {}),
        ...recordedNotRun(c, result),
      });
    }
  }
  const agents = [...results.keys()];
  const place = (c: GateCase): number => agents.indexOf(c.agent ?? '') * order.size + (order.get(c.id)?.i ?? 0);
  merged.sort((a, b) => place(a) - place(b));
  const { prefixes } = agentFilePrefixes(agents);
  const counted = new Map<string, number>();
  for (const c of merged) {
    const agent = c.agent ?? '';
    const n = (counted.get(agent) ?? 0) + 1;
    counted.set(agent, n);
    c.index = n;
    if (c.result !== null) c.reportBase = caseReportBase(prefixes.get(agent) ?? agent, c.id);
    if (agents.length === 1) delete c.agent;
  }
  return { merged, results };
}

/**
 * A case the run kept from running (not excluded), as its summary.json recorded it: the summary
 * keeps the reason only (its bytes are the run's), so that is where the fact is read back.
 */
function recordedNotRun(c: Summary['cases'][number], result: CaseResult | null): Pick<GateCase, 'notRun'> {
  return c.status === 'skipped' && result === null && c.reason.startsWith('not run:') ? { notRun: { kind: 'recorded', reason: c.reason } } : {};
}

/** The merged run: the earliest start, the longest duration (shards run side by side), summed CPU. */
function mergedRun(agent: string, summaries: readonly Summary[], merged: GateCase[], inputs: readonly string[]): GateRun {
  const interrupted = summaries.map((s, i) => (s.interrupted === null ? null : `${inputs[i] ?? ''}: ${s.interrupted}`)).filter((x) => x !== null);
  const resources = summaries.every((s) => s.resources !== null)
    ? {
        cpuUserMs: summaries.reduce((t, s) => t + (s.resources?.cpuUserMs ?? 0), 0),
        cpuSystemMs: summaries.reduce((t, s) => t + (s.resources?.cpuSystemMs ?? 0), 0),
        maxRssKiB: Math.max(...summaries.map((s) => s.resources?.maxRssKiB ?? 0)),
        clientCpuMs: summaries.every((s) => s.resources?.clientCpuMs != null) ? summaries.reduce((t, s) => t + (s.resources?.clientCpuMs ?? 0), 0) : null,
      }
    : null;
  return {
    agent,
    startedAt: summaries.map((s) => s.startedAt).sort()[0] ?? new Date().toISOString(),
    durationMs: Math.max(...summaries.map((s) => s.durationMs)),
    strict: summaries.some((s) => s.strict),
    cases: merged,
    interrupted: interrupted.length > 0 ? interrupted.join('; ') : null,
    resources,
    shard: null,
    ...(summaries[0]?.failOn != null ? { failOn: summaries[0].failOn } : {}),
    ...(summaries[0]?.baseline != null ? { baselineFile: summaries[0].baseline } : {}),
  };
}

/** A case's baseline mark as read: its cause's title only when the summary has one (older ones do not). */
function baselineMark(b: NonNullable<Summary['cases'][number]['baseline']>): BaselineMark {
  const { cause, ...mark } = b;
  return cause === undefined ? mark : { ...mark, cause };
}
