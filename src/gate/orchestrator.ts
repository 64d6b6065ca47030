/**
 * The gate: starts the fuzzing server, runs the client for every selected case (or once, when the
 * client loops over the cases itself), applies the gate rule, writes the reports and returns the exit
 * status. It never parses frames and never computes a verdict: the server does.
 */
import { fileURLToPath } from 'node:url';
import type { CatalogueCase } from '../cases/types.js';
import type { RunConfig } from '../config/schema.js';
import { agentCaseExcluder } from '../config/spec.js';
import type { CaseResult, GateCase, GateRun } from '../model/report.js';
import { agentFilePrefixes, caseReportBase } from '../report/files.js';
import type { CaseRunEvent, FuzzingServer } from '../server/fuzzing-server.js';
import { applyBaseline, loadBaseline, type Baseline } from './baseline.js';
import { DEFAULT_CASE_TIMEOUT, excludedReason, notRun } from './case-outcome.js';
import { shellQuote } from './client-runner.js';
import { finishRun } from './finish-run.js';
import { checkOutputs, childrenCpuMs, resourcesSince, type GateIo } from './run-common.js';

export type { GateIo } from './run-common.js';
import { runLooping } from './looping.js';
import { runOneCase } from './per-case.js';
import { Progress } from './progress.js';
import { runCasesScheduled } from './schedule.js';
import { listenForCases, selectForRun, serverBaseUrl } from './start-server.js';
import { prepareTls } from './tls-setup.js';
import { UsageError } from '../errors.js';
import { isAborted } from './waiting.js';


/** The command of the bundled reference client (the `ws` package, echoing everything). */
export function referenceClientCommand(): string {
  const script = fileURLToPath(new URL('../clients/reference-client.js', import.meta.url));
  return `${shellQuote(process.execPath)} ${shellQuote(script)} {url}`;
}

/** Runs the gate; returns the exit status. Throws UsageError for bad configuration. */
export async function runGate(config: RunConfig, io: GateIo): Promise<number> {
  // A shard may come out empty (more shards than cases): it runs nothing and passes, so a CI
  // matrix sized for the whole catalogue still works on a narrow selection.
  const { cases, selected } = selectForRun(config);
  // Read before any case runs: a bad baseline is a usage error (exit 2), not a late surprise.
  const baseline: Baseline | null = config.baseline === null ? null : loadBaseline(config.baseline);
  await checkOutputs(config);
  const command = config.client ?? referenceClientCommand();
  const secure = config.tls === null ? null : await prepareTls(config.tls, { hosts: [config.host], outdir: config.outdir, serverFiles: false, needCertificate: true });
  if (command.includes('{ca}') && secure?.caFile == null) throw new UsageError('the client command uses {ca}, but there is no CA to give it: add --tls (wsgate makes one), or --ca FILE with your --cert');
  const server = await listenForCases(config, cases, { logger: io.logger, statusWaitMs: (config.caseTimeout ?? DEFAULT_CASE_TIMEOUT) * 1000, certificate: secure });
  const baseUrl = serverBaseUrl(config.host, server.port, secure !== null);
  const progress = new Progress(io.out, io.isTty, cases.length);
  progress.header(headerLine(config, cases.length, selected, command, baseUrl));
  if (secure?.caFile != null) io.out.write(`wsgate: TLS: the client is given the CA ${secure.caFile} (NODE_EXTRA_CA_CERTS, SSL_CERT_FILE, WSGATE_CA_FILE, {ca})\n`);

  const startedAt = new Date();
  const t0 = performance.now();
  const usage0 = process.cpuUsage();
  const clientCpu0 = childrenCpuMs();
  const gateCases = await runCases({ server, cases, command, baseUrl, config, io, progress, baseline, ca: secure?.caFile ?? null });
  // The report files' names depend on every agent the server saw (two agents cleaning to one name
  // are told apart): JUnit and the summary point at the files as written.
  const { prefixes } = agentFilePrefixes(server.results.keys());
  for (const gc of gateCases) {
    const prefix = gc.result === null ? undefined : prefixes.get(gc.result.agent);
    if (prefix !== undefined) gc.reportBase = caseReportBase(prefix, gc.id);
  }
  const run: GateRun = {
    agent: config.agent,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - t0),
    strict: config.strict,
    cases: baseline === null ? gateCases : applyBaseline(gateCases, config.agent, baseline),
    interrupted: io.signal?.aborted === true ? String(io.signal.reason ?? 'interrupted') : null,
    resources: resourcesSince(usage0, clientCpu0),
    shard: config.shard,
    failOn: config.failOn,
    ...(baseline !== null ? { baselineFile: baseline.file } : {}),
    ...(secure !== null ? { tls: secure.summary } : {}),
  };
  return finishRun(run, config, {
    tell: (r) => progress.summary(r, { outdir: config.outdir, junit: config.junit, json: config.json }),
    github: config.github,
    env: io.env ?? process.env,
    out: io.out,
  });
}

/** The run's first line: how many cases, how many at once, against what, where. */
function headerLine(config: RunConfig, count: number, selected: number, command: string, baseUrl: string): string {
  const shardNote = config.shard === null ? '' : ` (shard ${config.shard.index}/${config.shard.count} of ${selected} selected)`;
  // A client of the user's that loops over the cases runs them one after another (the bundled one runs --jobs at once).
  const atOnce = config.clientLoops && config.client !== null ? 1 : config.jobs;
  return `wsgate: ${count} case${count === 1 ? '' : 's'}${shardNote}${atOnce > 1 ? `, up to ${atOnce} at once,` : ', one at a time,'} against ${config.client === null ? 'the bundled ws client' : JSON.stringify(command)} on ${baseUrl}`;
}

/** What running the selected cases needs. */
interface CaseRun {
  server: FuzzingServer;
  cases: CatalogueCase[];
  command: string;
  baseUrl: string;
  config: RunConfig;
  io: GateIo;
  progress: Progress;
  baseline: Baseline | null;
  /** Over TLS: the CA file handed to the client, or null. */
  ca: string | null;
}

/**
 * Runs the cases (the client once per case, or once for all), then writes the case reports and
 * stops the server. Cases not run because of SIGINT/SIGTERM are reported as not run.
 */
async function runCases(r: CaseRun): Promise<GateCase[]> {
  const { server, io } = r;
  // A case that ends after SIGINT/SIGTERM was cut short by it (its client was killed on purpose): it
  // has no verdict and is reported as not run, so its result is dropped before the reports are written.
  const dropCut = (_event: CaseRunEvent, result: CaseResult): void => {
    if (isAborted(io.signal)) server.forgetResult(result.agent, result.id);
  };
  server.on('caseFinished', dropCut);
  try {
    let gateCases: GateCase[];
    if (r.config.clientLoops) {
      gateCases = await runLooping(server, r.cases, r.command, r.baseUrl, r.config, io.signal, r.progress, r.ca);
      // Interrupted: only the cases finished before the signal keep their verdict; the rest are not run (below).
      if (isAborted(io.signal)) gateCases = gateCases.filter((gc) => verdictKept(server, gc));
    } else {
      gateCases = await runEachCase(r);
    }
    if (io.signal?.aborted === true) {
      const why = `not run: the run was interrupted (${String(io.signal.reason ?? 'interrupted')})`;
      const done = new Set(gateCases.map((c) => c.index));
      for (const [i, def] of r.cases.entries()) if (!done.has(i + 1)) gateCases.push(notRun(def, i + 1, why));
    }
    return gateCases.sort((a, b) => a.index - b.index);
  } finally {
    server.off('caseFinished', dropCut);
    // Skipped when the client's own /updateReports already wrote every result (Autobahn's drivers end so).
    await server.updateReports({ onlyIfChanged: true }).catch((err: unknown) => {
      io.logger.error({ err }, 'writing the case reports failed');
    });
    await server.close();
  }
}

/** Whether a case's result is still the server's (not dropped as cut short by a signal). */
function verdictKept(server: FuzzingServer, gc: GateCase): boolean {
  return gc.result !== null && server.results.get(gc.result.agent)?.get(gc.id) === gc.result;
}

/** The client once per case, up to --jobs at once (group 9 alone), in the schedule's order. */
async function runEachCase(r: CaseRun): Promise<GateCase[]> {
  const { cases, config, io } = r;
  const excluded = agentCaseExcluder(config.excludeAgentCases);
  const done: GateCase[] = [];
  await runCasesScheduled(
    cases,
    config.jobs,
    () => isAborted(io.signal),
    async (i) => {
      const def = cases[i] as CatalogueCase;
      if (excluded(config.agent, def.id)) {
        const gc = notRun(def, i + 1, excludedReason(config));
        done.push(gc);
        r.progress.caseDone(gc);
        return;
      }
      const ran = await runOneCase(r.server, def, i + 1, r.command, { baseUrl: r.baseUrl, ca: r.ca }, config, io.signal);
      // Applied per case too, so the progress line already says "accepted" instead of FAIL.
      const gc = r.baseline === null ? ran : (applyBaseline([ran], config.agent, r.baseline)[0] ?? ran);
      // A case cut short by a signal has no verdict: it is reported as not run, like the rest.
      if (isAborted(io.signal) && !verdictKept(r.server, gc)) return;
      done.push(gc);
      r.progress.caseDone(gc);
      io.logger.info({ case: gc.id, index: gc.index, status: gc.status, reason: gc.reason, ms: gc.timeMs }, 'case done');
    },
  );
  return done;
}
