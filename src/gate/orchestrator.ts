/**
 * The gate: starts the fuzzing server, runs the client for every selected case (or once, when the
 * client loops over the cases itself), applies the gate rule, writes the reports and returns the exit
 * status. It never parses frames and never computes a verdict: the server does.
 */
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { catalogueFor } from '../cases/registry.js';
import { selectCases, SelectionError } from '../cases/select.js';
import type { CatalogueCase } from '../cases/types.js';
import type { RunConfig } from '../config/schema.js';
import { agentCaseExcluder } from '../config/spec.js';
import { agentFileBase, agentFilePrefixes, caseReportBase, checkWritableDirectory, makeDirectory, writeFileAtomic } from '../report/files.js';
import { summaryJson } from '../report/json.js';
import type { CaseResult, ClientRun, GateCase, GateRun, RunResources } from '../report/model.js';
import { ListenError, type CaseRunEvent, type FuzzingServer } from '../server/fuzzing-server.js';
import { createServer } from '../server/start.js';
import { releaseMemoryNow } from '../util/memory.js';
import { applyBaseline, baselineFromRun, loadBaseline, type Baseline } from './baseline.js';
import { startClient, shellQuote, type ClientProcess } from './client-runner.js';
import { ExitCode, UsageError } from './exit-codes.js';
import { Progress } from './progress.js';
import { reasonWithoutResult, ruleForResult } from './rule.js';
import { runOrder, runPool, shardCases } from './schedule.js';

/** Seconds a case may take when --case-timeout is not given (unless its own timers need longer). */
const DEFAULT_CASE_TIMEOUT = 30;

/** The effective per-case timeout: --case-timeout as given, else 30 s or the case's own longest wait plus 5 s. */
export function caseTimeoutFor(def: CatalogueCase, config: RunConfig): number {
  if (config.caseTimeout !== null) return config.caseTimeout;
  return Math.max(DEFAULT_CASE_TIMEOUT, (def.maxSeconds ?? 0) + 5);
}

/** How long a client may linger after its case ended before its process group is stopped. */
const EXIT_GRACE_MS = 2000;
/** How long a client's process group has between SIGTERM and SIGKILL. */
const TERM_GRACE_MS = 1000;
/** How long to wait for a connection after the client exited (its TCP close may still be in flight). */
const SETTLE_MS = 300;
/** How long an exited client's handshake may still be on its way (other jobs' handshakes look alike). */
const HANDSHAKE_SETTLE_MS = 1000;

/** Where the gate writes its human output, and how it is stopped early. */
export interface GateIo {
  out: NodeJS.WritableStream;
  logger: Logger;
  /** Aborted on SIGINT/SIGTERM: no new case starts, the running client is killed. */
  signal?: AbortSignal;
  isTty: boolean;
  /** The environment (GitHub Actions variables); process.env when absent. */
  env?: NodeJS.ProcessEnv;
}

/** The command of the bundled reference client (the `ws` package, echoing everything). */
export function referenceClientCommand(): string {
  const script = fileURLToPath(new URL('../clients/reference-client.js', import.meta.url));
  return `${shellQuote(process.execPath)} ${shellQuote(script)} {url}`;
}

/** Runs the gate; returns the exit status. Throws UsageError for bad configuration. */
export async function runGate(config: RunConfig, io: GateIo): Promise<number> {
  let cases: CatalogueCase[];
  try {
    cases = selectCases(catalogueFor(config.extended), config.cases, config.excludeCases);
  } catch (err) {
    if (err instanceof SelectionError) throw new UsageError(err.message);
    throw err;
  }
  if (cases.length === 0) throw new UsageError('no case is selected: check --cases and --exclude-cases');
  // A shard may come out empty (more shards than cases): it runs nothing and passes, so a CI
  // matrix sized for the whole catalogue still works on a narrow selection.
  const selected = cases.length;
  if (config.shard !== null) cases = shardCases(cases, config.shard);
  // Read before any case runs: a bad baseline is a usage error (exit 2), not a late surprise.
  const baseline: Baseline | null = config.baseline === null ? null : loadBaseline(config.baseline);
  const excluded = agentCaseExcluder(config.excludeAgentCases);
  // Every place a report goes is checked before any case runs: a run must not end in an unwritable path.
  for (const [what, dir] of [['the report directory', config.outdir], ['the --junit directory', path.dirname(config.junit)], ['the --json directory', path.dirname(config.json)]] as const) {
    try {
      await checkWritableDirectory(dir);
    } catch (err) {
      throw new UsageError(`cannot write to ${what} ${dir}: ${(err as Error).message}`);
    }
  }
  for (const [flag, file] of [['--junit', config.junit], ['--json', config.json]] as const) {
    const isDir = await stat(file).then((s) => s.isDirectory(), () => false);
    if (isDir) throw new UsageError(`${flag} ${file} is a directory; give a file name`);
  }

  const command = config.client ?? referenceClientCommand();
  const server = createServer({
    // WSGATE_LISTEN_HOST may bind elsewhere (0.0.0.0 in a container); clients are still told the url's host.
    host: config.listenHost,
    port: config.port,
    outdir: config.outdir,
    cases,
    statusWaitMs: (config.caseTimeout ?? DEFAULT_CASE_TIMEOUT) * 1000,
    logger: io.logger,
    session: config.session,
    skipCase: excluded,
    extended: config.extended,
  });
  try {
    await server.listen();
  } catch (err) {
    if (err instanceof ListenError) throw new UsageError(err.message);
    throw err;
  }
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const baseUrl = `ws://${host}:${server.port}`;
  const progress = new Progress(io.out, io.isTty, cases.length);
  const shardNote = config.shard === null ? '' : ` (shard ${config.shard.index}/${config.shard.count} of ${selected} selected)`;
  // A client of the user's that loops over the cases runs them one after another (the bundled one runs --jobs at once).
  const atOnce = config.clientLoops && config.client !== null ? 1 : config.jobs;
  progress.header(`wsgate: ${cases.length} case${cases.length === 1 ? '' : 's'}${shardNote}${atOnce > 1 ? `, up to ${atOnce} at once,` : ', one at a time,'} against ${config.client === null ? 'the bundled ws client' : JSON.stringify(command)} on ${baseUrl}`);

  const startedAt = new Date();
  const t0 = performance.now();
  const usage0 = process.cpuUsage();
  const clientCpu0 = childrenCpuMs();
  let gateCases: GateCase[];
  let interrupted: string | null = null;
  // A case that ends after SIGINT/SIGTERM was cut short by it (its client was killed on purpose): it
  // has no verdict and is reported as not run, so its result is dropped before the reports are written.
  const dropCut = (_event: CaseRunEvent, result: CaseResult): void => {
    if (isAborted(io.signal)) server.forgetResult(result.agent, result.id);
  };
  server.on('caseFinished', dropCut);
  const verdictKept = (gc: GateCase): boolean => gc.result !== null && server.results.get(gc.result.agent)?.get(gc.id) === gc.result;
  try {
    if (config.clientLoops) {
      gateCases = await runLooping(server, cases, command, baseUrl, config, io, progress);
      // Interrupted: only the cases finished before the signal keep their verdict; the rest are not run (below).
      if (isAborted(io.signal)) gateCases = gateCases.filter(verdictKept);
    } else {
      gateCases = [];
      const done: GateCase[] = gateCases;
      await runPool(
        runOrder(cases, config.jobs),
        config.jobs,
        (i) => cases[i]?.runsAlone === true,
        () => isAborted(io.signal),
        async (i) => {
          const def = cases[i] as CatalogueCase;
          if (excluded(config.agent, def.id)) {
            const gc = notRun(def, i + 1, excludedReason(config));
            done.push(gc);
            progress.caseDone(gc);
            return;
          }
          const ran = await runOneCase(server, def, i + 1, command, baseUrl, config, io.signal);
          // Applied per case too, so the progress line already says "accepted" instead of FAIL.
          const gc = baseline === null ? ran : (applyBaseline([ran], config.agent, baseline)[0] ?? ran);
          // A case cut short by a signal has no verdict: it is reported as not run, like the rest.
          if (isAborted(io.signal) && !verdictKept(gc)) return;
          done.push(gc);
          progress.caseDone(gc);
          io.logger.info({ case: gc.id, index: gc.index, status: gc.status, reason: gc.reason, ms: gc.timeMs }, 'case done');
        },
        (i) => cases[i]?.idle === true,
      );
      gateCases.sort((a, b) => a.index - b.index);
    }
    if (io.signal?.aborted === true) {
      interrupted = String(io.signal.reason ?? 'interrupted');
      const done = new Set(gateCases.map((c) => c.index));
      for (const [i, def] of cases.entries()) {
        if (!done.has(i + 1)) gateCases.push(notRun(def, i + 1, `not run: the run was interrupted (${interrupted})`));
      }
      gateCases.sort((a, b) => a.index - b.index);
    }
  } finally {
    server.off('caseFinished', dropCut);
    // Skipped when the client's own /updateReports already wrote every result (Autobahn's drivers end so).
    await server.updateReports({ onlyIfChanged: true }).catch((err: unknown) => {
      io.logger.error({ err }, 'writing the case reports failed');
    });
    await server.close();
  }
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
    interrupted,
    resources: resourcesSince(usage0, clientCpu0),
    shard: config.shard,
    failOn: config.failOn,
    ...(baseline !== null ? { baselineFile: baseline.file } : {}),
  };
  await makeDirectory(path.dirname(config.junit));
  await makeDirectory(path.dirname(config.json));
  // Loaded only now: the JUnit builder is not needed (nor kept in memory) while cases run. Its
  // document tree is the largest thing built after the run: it starts from a collected heap.
  releaseMemoryNow();
  const { junitXml } = await import('../report/junit.js');
  await writeFileAtomic(config.junit, junitXml(run));
  releaseMemoryNow();
  await writeFileAtomic(config.json, summaryJson(run));
  if (config.writeBaseline !== null) {
    await makeDirectory(path.dirname(config.writeBaseline));
    await writeFileAtomic(config.writeBaseline, baselineFromRun(run));
  }
  progress.summary(run, { outdir: config.outdir, junit: config.junit, json: config.json });
  if (config.writeBaseline !== null) io.out.write(`baseline: ${config.writeBaseline} (edit each reason to say why the failure is accepted)\n`);

  const status = interrupted !== null || run.cases.some((c) => c.status === 'failed' || c.status === 'error') ? ExitCode.Failure : ExitCode.Pass;
  const env = io.env ?? process.env;
  if (config.github ?? env.GITHUB_ACTIONS === 'true') {
    const { publishToGithub } = await import('../github/publish.js');
    await publishToGithub(run, { outdir: config.outdir, junit: config.junit, json: config.json }, env, io.out);
  }
  return status;
}

function excludedReason(config: RunConfig): string {
  return `excluded for agent ${JSON.stringify(config.agent)} by exclude-agent-cases${config.specFile === null ? '' : ` in ${config.specFile}`}`;
}

/**
 * CPU time of the terminated, waited-for children of this process (Linux: cutime + cstime of
 * /proc/self/stat, in ms; a client's own children count once the client reaped them), or null.
 */
function childrenCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, cutime 16, cstime 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[13]) + Number(fields[14]);
    return Number.isFinite(ticks) ? ticks * 10 : null; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/** CPU time since `start`, the peak RSS of this process, and its clients' CPU time since `clientStart`. */
function resourcesSince(start: NodeJS.CpuUsage, clientStart: number | null): RunResources {
  const cpu = process.cpuUsage(start);
  const clients = childrenCpuMs();
  return {
    cpuUserMs: Math.round(cpu.user / 1000),
    cpuSystemMs: Math.round(cpu.system / 1000),
    maxRssKiB: process.resourceUsage().maxRSS,
    clientCpuMs: clients === null || clientStart === null ? null : clients - clientStart,
  };
}

/** Whether a stop was requested (a function, so TypeScript does not narrow it between awaits). */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function caseUrl(baseUrl: string, index: number, agent: string): string {
  return `${baseUrl}/runCase?case=${index}&agent=${encodeURIComponent(agent)}`;
}

/** Waits for the first of: a result for (agent, index), or the deadline. */
function waitForResult(server: FuzzingServer, agent: string, index: number): { promise: Promise<CaseResult>; cancel: () => void } {
  let cancel = (): void => undefined;
  const promise = new Promise<CaseResult>((resolve) => {
    const listener = (event: CaseRunEvent, result: CaseResult): void => {
      if (event.agent === agent && event.index === index) {
        server.off('caseFinished', listener);
        resolve(result);
      }
    };
    server.on('caseFinished', listener);
    cancel = () => server.off('caseFinished', listener);
  });
  return { promise, cancel };
}

/**
 * Resolves with p's value, or with 'timeout' after ms or when signal aborts. The timer and the abort
 * listener never outlive the race (a pending timer per case would keep a finished run alive).
 */
async function raceTimeout<T>(p: Promise<T>, ms: number, signal?: AbortSignal): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const expiry = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
    if (signal !== undefined) {
      onAbort = () => resolve('timeout');
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  try {
    return await Promise.race([p, expiry]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs one case in per-case mode: one client process, one connection. */
async function runOneCase(
  server: FuzzingServer,
  def: CatalogueCase,
  index: number,
  command: string,
  baseUrl: string,
  config: RunConfig,
  signal: AbortSignal | undefined,
): Promise<GateCase> {
  const agent = config.agent;
  const t0 = performance.now();
  const timeoutS = caseTimeoutFor(def, config);
  const deadline = t0 + timeoutS * 1000;
  let sawConnection = false;
  const onStart = (event: CaseRunEvent): void => {
    if (event.agent === agent && event.index === index) sawConnection = true;
  };
  server.on('caseStarted', onStart);
  const waiter = waitForResult(server, agent, index);
  let result: CaseResult | null = null;
  void waiter.promise.then((r) => {
    result = r;
  });
  const client: ClientProcess = startClient(command, { url: caseUrl(baseUrl, index, agent), case: def.id, agent });
  let timedOut = false;
  const warnings: string[] = [];
  const abort = new AbortController();
  const onAbort = (): void => abort.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const remaining = (): number => Math.max(0, deadline - performance.now());
    const first = await raceTimeout(
      Promise.race([waiter.promise.then(() => 'result' as const), client.exited.then(() => 'exit' as const)]),
      remaining(),
      abort.signal,
    );
    if (first === 'exit') {
      // The client is gone; its connection may still be closing, or may never have been made. A
      // handshake in flight may be its own, but with other jobs running it may be theirs: that
      // hope lasts HANDSHAKE_SETTLE_MS, while a case that is really running has until the deadline.
      const settleUntil = Math.min(deadline, performance.now() + HANDSHAKE_SETTLE_MS);
      while (result === null && performance.now() < deadline) {
        const running = server.isRunning(agent, index);
        if (!running && performance.now() >= settleUntil) break;
        const busy = running || server.pendingHandshakes > 0;
        const step = await raceTimeout(waiter.promise.then(() => 'result' as const), busy ? Math.min(remaining(), 50) : SETTLE_MS, abort.signal);
        if (step === 'result' || (!busy && !server.isRunning(agent, index) && server.pendingHandshakes === 0)) break;
      }
    } else if (first === 'timeout') {
      timedOut = signal?.aborted !== true;
      // A timed-out client gets SIGTERM and a grace; an interrupted run kills at once.
      if (timedOut && (await client.stop(TERM_GRACE_MS)) === 'killed') warnings.push(`the client ignored SIGTERM for ${TERM_GRACE_MS / 1000} s; its process group was killed with SIGKILL`);
      else client.killGroup();
      if (server.isRunning(agent, index)) {
        server.abortRun(agent, index);
        await raceTimeout(waiter.promise, 2000);
      }
    }
    if (!client.hasExited) {
      const exit = await raceTimeout(client.exited.then(() => 'exit' as const), result === null ? 0 : EXIT_GRACE_MS, abort.signal);
      if (exit !== 'exit') {
        let how: 'terminated' | 'killed' = 'killed';
        if (isAborted(signal)) client.killGroup();
        else how = await client.stop(TERM_GRACE_MS);
        if (result !== null) {
          warnings.push(
            how === 'killed'
              ? `the client was still running ${EXIT_GRACE_MS / 1000} s after its case ended and ignored SIGTERM; its process group was killed with SIGKILL`
              : `the client was still running ${EXIT_GRACE_MS / 1000} s after its case ended; its process group was stopped with SIGTERM`,
          );
        }
        await raceTimeout(client.exited, 1000);
      }
    }
  } finally {
    // Grandchildren may outlive the client's shell: the group goes in any case.
    client.killGroup();
    signal?.removeEventListener('abort', onAbort);
    server.off('caseStarted', onStart);
    waiter.cancel();
  }

  const clientRun = client.snapshot(timedOut);
  return conclude(def, index, result, clientRun, sawConnection, config, warnings, performance.now() - t0);
}

function conclude(
  def: CatalogueCase,
  index: number,
  result: CaseResult | null,
  clientRun: ClientRun | null,
  sawConnection: boolean,
  config: RunConfig,
  extraWarnings: string[],
  timeMs: number,
): GateCase {
  const base = {
    index,
    id: def.id,
    category: def.category,
    subcategory: def.subcategory,
    description: def.description,
    timeMs: Math.round(timeMs),
    client: clientRun,
  };
  if (result === null) {
    const reason = reasonWithoutResult(clientRun, caseTimeoutFor(def, config), sawConnection);
    return { ...base, status: 'failed', reason, warnings: extraWarnings, result: null, reportBase: null };
  }
  const verdict = ruleForResult(result, new Set(config.failOn));
  const warnings = [...verdict.warnings, ...extraWarnings];
  if (clientRun !== null && clientRun.exitCode !== null && clientRun.exitCode !== 0 && !clientRun.timedOut) {
    warnings.push(`the client exited with status ${clientRun.exitCode}`);
  }
  return {
    ...base,
    status: verdict.status,
    reason: verdict.reason,
    warnings,
    result,
    reportBase: caseReportBase(agentFileBase(result.agent), result.id),
  };
}

function notRun(def: CatalogueCase, index: number, reason: string): GateCase {
  return {
    index,
    id: def.id,
    category: def.category,
    subcategory: def.subcategory,
    description: def.description,
    status: 'skipped',
    reason,
    warnings: [],
    timeMs: 0,
    result: null,
    client: null,
    reportBase: null,
  };
}

/** Runs the command once; it drives every case itself (Autobahn style) via /getCaseCount and /runCase. */
async function runLooping(
  server: FuzzingServer,
  cases: readonly CatalogueCase[],
  command: string,
  baseUrl: string,
  config: RunConfig,
  io: GateIo,
  progress: Progress,
): Promise<GateCase[]> {
  const seen: CaseRunEvent[] = [];
  const onStart = (event: CaseRunEvent): void => {
    seen.push(event);
  };
  const onFinish = (event: CaseRunEvent, result: CaseResult): void => {
    // After a signal a finishing case was cut short: it is reported as not run, not printed as a verdict.
    if (!isAborted(io.signal)) progress.caseFinished(event.index, result);
  };
  server.on('caseStarted', onStart);
  server.on('caseFinished', onFinish);
  // The bundled client runs up to --jobs cases at once itself (group 9 alone); other looping clients
  // run their cases one after another, as Autobahn's drivers do. Its zlib work (ws compresses and
  // inflates in libuv's pool, one task per frame) goes faster on one pool thread than on the default
  // four, which hand each connection's tasks between cores: 12.2.15 + 12.5.15 + 12.3.15 + 12.2.14,
  // --jobs 2, 53.2 -> 41.0 s wall, client CPU 68.4 -> 42.5 s (BENCHMARKS.md).
  const env = config.client === null ? { WSGATE_JOBS: String(config.jobs), UV_THREADPOOL_SIZE: '1' } : {};
  const client = startClient(command, { url: baseUrl, case: '', agent: config.agent }, env);
  const budgetS = cases.reduce((sum, c) => sum + caseTimeoutFor(c, config), 0);
  const budgetMs = budgetS * 1000;
  const abort = new AbortController();
  io.signal?.addEventListener('abort', () => abort.abort(), { once: true });
  let timedOut = false;
  try {
    const first = await raceTimeout(client.exited.then(() => 'exit' as const), budgetMs, abort.signal);
    if (first !== 'exit') {
      timedOut = io.signal?.aborted !== true;
      if (timedOut) await client.stop(TERM_GRACE_MS);
      else client.killGroup();
      await raceTimeout(client.exited, 1000);
    }
    // Let the last connection's close reach the server.
    const settleUntil = performance.now() + 2000;
    while (performance.now() < settleUntil && seen.some((e) => server.isRunning(e.agent, e.index))) await sleep(20);
  } finally {
    client.killGroup();
    server.off('caseStarted', onStart);
    server.off('caseFinished', onFinish);
  }
  const clientRun = client.snapshot(timedOut);
  const excluded = agentCaseExcluder(config.excludeAgentCases);
  // The client names itself; prefer the configured agent, else the only agent that ran cases.
  const agents = [...server.results.keys()];
  const agent = server.results.has(config.agent) ? config.agent : agents.length === 1 ? (agents[0] as string) : config.agent;
  const results = server.results.get(agent) ?? new Map<string, CaseResult>();
  return cases.map((def, i) => {
    const result = results.get(def.id) ?? null;
    // As in Autobahn, the server closed these at once and recorded nothing.
    if (result === null && excluded(agent, def.id)) return notRun(def, i + 1, excludedReason(config));
    if (result === null) {
      const why = clientRun.spawnError !== null || (seen.length === 0 && clientRun.exitCode !== 0)
        ? reasonWithoutResult(clientRun, budgetS, false)
        : `the client did not run this case (agent ${JSON.stringify(agent)})`;
      return { ...conclude(def, i + 1, null, clientRun, false, config, [], 0), reason: why };
    }
    return conclude(def, i + 1, result, null, true, config, [], result.duration);
  });
}
