/**
 * The gate for servers (`wsgate run --role server | --server-url URL | --server CMD`): wsgate is the
 * fuzzing client. It starts the server under test (or waits for one running elsewhere), connects to it
 * once per selected case, up to --jobs at once (group 9 alone), writes Autobahn's report set for
 * servers, applies the gate rule and returns the exit status. The server is stopped at the end and on
 * SIGINT/SIGTERM, its whole process tree; one that dies mid-run fails the remaining cases with that
 * reason, or is started again with --restart-server.
 */
import { fileURLToPath } from 'node:url';
import { catalogueFor } from '../cases/registry.js';
import type { CatalogueCase } from '../cases/types.js';
import { REFERENCE_SERVER_COMMAND, type RunConfig, type ServerUnderTest } from '../config/schema.js';
import { agentCaseExcluder } from '../config/spec.js';
import { UsageError } from '../errors.js';
import { playCase, type PlaySettings, type ServerTarget } from '../fuzzing-client/play-case.js';
import { probeServerHeader } from '../fuzzing-client/probe.js';
import { seededBytes, systemBytes } from '../fuzzing-client/randomness.js';
import type { CaseResult, GateCase, GateRun } from '../model/report.js';
import { writeReports } from '../report/writer.js';
import { collisionNotice } from '../report/files.js';
import { VERSION } from '../version.js';
import { applyBaseline, loadBaseline, type Baseline } from './baseline.js';
import { caseTimeoutFor, conclude, excludedReason, notRun } from './case-outcome.js';
import { shellQuote } from './client-runner.js';
import { finishRun } from './finish-run.js';
import { Progress } from './progress.js';
import { freePort, ServerProcess, waitForListen } from './server-process.js';
import { caseFields } from './rule.js';
import { checkOutputs, resourcesSince, type GateIo } from './run-common.js';
import { runCasesScheduled } from './schedule.js';
import { catalogueInfo, defaultSessionOptions, selectForRun } from './start-server.js';
import { isAborted } from './waiting.js';
import { prepareTls, type TlsSetup } from './tls-setup.js';

/** The command of the bundled reference server (ws's WebSocketServer, echoing everything). */
export function referenceServerCommand(): string {
  const script = fileURLToPath(new URL('../clients/reference-server.js', import.meta.url));
  return `${shellQuote(process.execPath)} ${shellQuote(script)} {port}`;
}

/** What the cases of one server need while they run. */
interface ServerRun {
  config: RunConfig;
  io: GateIo;
  target: ServerTarget;
  agent: string;
  process: ServerProcess | null;
  progress: Progress;
  baseline: Baseline | null;
  results: Map<string, CaseResult>;
  /** Places of the cases in the whole catalogue (Autobahn's `case` field as a fuzzing client). */
  globalIndex: Map<string, number>;
  /** Why the remaining cases cannot run (the server died and is not restarted), or null. */
  gone: string | null;
  /** The run tests several servers: each case names its agent. */
  several: boolean;
}

/** Runs the gate against the server(s) under test; returns the exit status. Throws UsageError for bad configuration. */
export async function runServerGate(config: RunConfig, io: GateIo): Promise<number> {
  const { cases, selected } = selectForRun({ ...config, role: 'server' });
  const baseline: Baseline | null = config.baseline === null ? null : loadBaseline(config.baseline);
  await checkOutputs(config);
  const startedAt = new Date();
  const t0 = performance.now();
  const usage0 = process.cpuUsage();
  const tested: TestedServer[] = [];
  // A server wsgate starts gets a certificate from a throwaway CA (files in a private temporary directory) unless --cert gives one.
  const starts = config.servers.some((s) => s.command !== null);
  const secure = config.tls === null ? null : await prepareTls(config.tls, { hosts: config.servers.map((s) => s.host), outdir: config.outdir, serverFiles: true, needCertificate: starts });
  try {
    // Several servers (a fuzzingclient.json listing more than one) run one after another, each its own agent.
    for (const sut of config.servers) {
      if (isAborted(io.signal)) break;
      tested.push(await testServer(config, io, sut, { cases, selected, baseline, several: config.servers.length > 1, taken: new Set(tested.map((t) => t.agent)), secure }));
    }
  } finally {
    secure?.dispose();
  }
  const byAgent = new Map(tested.map((t) => [t.agent, t.results]));
  const collisions = await writeReports(config.outdir, byAgent, catalogueInfo(config.extended, 'server'), { generatedAt: new Date().toISOString(), toolVersion: VERSION });
  for (const c of collisions) process.stderr.write(`${collisionNotice(c)}\n`);
  for (const w of tested.flatMap((t) => t.warnings)) io.out.write(`wsgate: warning: ${w}\n`);
  const cpu = tested.map((t) => t.serverCpuMs).filter((ms): ms is number => ms !== null);
  const gateRun: GateRun = {
    agent: tested.map((t) => t.agent).join(', ') || config.agent,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - t0),
    strict: config.strict,
    cases: tested.flatMap((t) => t.gateCases),
    interrupted: io.signal?.aborted === true ? String(io.signal.reason ?? 'interrupted') : null,
    resources: { ...resourcesSince(usage0, null), clientCpuMs: cpu.length === 0 ? null : cpu.reduce((a, b) => a + b, 0) },
    shard: config.shard,
    failOn: config.failOn,
    role: 'server',
    ...(baseline !== null ? { baselineFile: baseline.file } : {}),
    ...(secure !== null ? { tls: secure.summary } : {}),
  };
  return finishRun(gateRun, config, {
    tell: (r) => progress(io, gateRun.cases.length).summary(r, { outdir: config.outdir, junit: config.junit, json: config.json }),
    github: config.github,
    env: io.env ?? process.env,
    out: io.out,
  });
}

/** What testing one server gave. */
interface TestedServer {
  agent: string;
  gateCases: GateCase[];
  results: Map<string, CaseResult>;
  warnings: string[];
  /** CPU time of the server process wsgate started, or null. */
  serverCpuMs: number | null;
}

/** One server: started (or waited for), named, every selected case, stopped. */
async function testServer(
  config: RunConfig,
  io: GateIo,
  sut: ServerUnderTest,
  run: { cases: CatalogueCase[]; selected: number; baseline: Baseline | null; several: boolean; taken: ReadonlySet<string>; secure: TlsSetup | null },
): Promise<TestedServer> {
  const port = sut.port === 0 ? await freePort(sut.host) : sut.port;
  const { secure } = run;
  const overTls = secure !== null && sut.url.startsWith('wss:');
  const target: ServerTarget = { host: sut.host, port, resource: sut.resource, tls: overTls ? { ca: secure.caPem, insecure: secure.summary.insecure } : null };
  const command = sut.command === REFERENCE_SERVER_COMMAND ? referenceServerCommand() : sut.command;
  const serverProcess = command === null ? null : await ServerProcess.launch(command, sut.host, port, sut.startTimeout * 1000, io.signal, overTls ? certificateFiles(secure) : {});
  const tested: TestedServer = { agent: sut.agent ?? config.agent, gateCases: [], results: new Map(), warnings: [], serverCpuMs: null };
  // The server's CPU is read from /proc while it lives (a process its shell does not reap is never counted as a child).
  const sampler = setInterval(() => serverProcess?.sampleCpu(), 2000);
  try {
    if (serverProcess === null) await awaitRemoteServer(target, sut, io.signal);
    if (sut.agent === null && config.agentFromServer) tested.agent = (await probeServerHeader(target)) ?? `${target.host}:${target.port}`;
    // Two servers of one run that name themselves alike are told apart by their address.
    if (run.taken.has(tested.agent)) tested.agent = `${tested.agent} (${target.host}:${target.port})`;
    const progress = new Progress(io.out, io.isTty, run.cases.length);
    progress.header(headerLine(config, run.cases.length, run.selected, command, target, tested.agent, sut));
    const globalIndex = new Map(catalogueFor(config.extended, 'server').map((c, i) => [c.id, i + 1]));
    const state: ServerRun = { config, io, target, agent: tested.agent, process: serverProcess, progress, baseline: run.baseline, results: tested.results, globalIndex, gone: null, several: run.several };
    const gateCases = await runCases(state, run.cases);
    tested.gateCases = run.baseline === null ? gateCases : applyBaseline(gateCases, tested.agent, run.baseline);
  } finally {
    clearInterval(sampler);
    const stopWarning = await serverProcess?.stop();
    if (stopWarning) tested.warnings.push(stopWarning);
    tested.serverCpuMs = serverProcess?.cpuMs() ?? null;
  }
  return tested;
}

/** What a server command is told of its certificate: {cert} and {key}, WSGATE_CERT_FILE and WSGATE_KEY_FILE. */
function certificateFiles(secure: TlsSetup): Record<string, string> {
  if (secure.certFile === null || secure.keyFile === null) return {};
  return { cert: secure.certFile, key: secure.keyFile };
}

function progress(io: GateIo, total: number): Progress {
  return new Progress(io.out, io.isTty, total);
}

/** A server running elsewhere: waited for until it accepts TCP connections. */
async function awaitRemoteServer(target: ServerTarget, sut: ServerUnderTest, signal: AbortSignal | undefined): Promise<void> {
  const why = await waitForListen(target.host, target.port, sut.startTimeout * 1000, null, signal);
  if (why === 'timeout') throw new UsageError(`nothing accepts connections at ${target.host}:${target.port} (${sut.url}); waited ${sut.startTimeout} s`);
}

/** The run's first line: how many cases, how many at once, against what. */
function headerLine(config: RunConfig, count: number, selected: number, command: string | null, target: ServerTarget, agent: string, sut: ServerUnderTest): string {
  const shardNote = config.shard === null ? '' : ` (shard ${config.shard.index}/${config.shard.count} of ${selected} selected)`;
  const what = sut.command === REFERENCE_SERVER_COMMAND ? 'the bundled ws server' : command === null ? 'the server' : JSON.stringify(command);
  const url = `${target.tls ? 'wss' : 'ws'}://${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}${target.resource}`;
  return `wsgate: ${count} case${count === 1 ? '' : 's'}${shardNote}${config.jobs > 1 ? `, up to ${config.jobs} at once,` : ', one at a time,'} against ${what} at ${url} (agent ${JSON.stringify(agent)})`;
}

/** Every selected case, in the schedule's order; cases not run because of a signal are reported as such. */
async function runCases(run: ServerRun, cases: CatalogueCase[]): Promise<GateCase[]> {
  const { config, io } = run;
  const excluded = agentCaseExcluder(config.excludeAgentCases);
  const done: GateCase[] = [];
  await runCasesScheduled(
    cases,
    config.jobs,
    () => isAborted(io.signal),
    async (i) => {
      const def = cases[i] as CatalogueCase;
      const gc = excluded(run.agent, def.id) ? notRun(def, i + 1, excludedReason({ ...config, agent: run.agent })) : await runOne(run, def, i + 1);
      // A case cut short by a signal has no verdict: it is reported as not run, like the rest.
      if (isAborted(io.signal) && gc.status !== 'skipped') {
        run.results.delete(def.id);
        return;
      }
      if (run.several) gc.agent = run.agent;
      const shown = run.baseline === null ? gc : (applyBaseline([gc], run.agent, run.baseline)[0] ?? gc);
      done.push(shown);
      run.progress.caseDone(shown);
      io.logger.info({ case: gc.id, index: gc.index, status: gc.status, reason: gc.reason, ms: gc.timeMs }, 'case done');
    },
  );
  if (io.signal?.aborted === true) {
    const why = `not run: the run was interrupted (${String(io.signal.reason ?? 'interrupted')})`;
    const ran = new Set(done.map((c) => c.index));
    for (const [i, def] of cases.entries()) if (!ran.has(i + 1)) done.push({ ...notRun(def, i + 1, why), ...(run.several ? { agent: run.agent } : {}) });
  }
  return done.sort((a, b) => a.index - b.index);
}

/** One case: the server checked (restarted if asked), one connection, the gate's conclusion. */
async function runOne(run: ServerRun, def: CatalogueCase, index: number): Promise<GateCase> {
  const t0 = performance.now();
  const failed = (reason: string): GateCase => ({ index, ...caseFields(def), status: 'failed', reason, warnings: [], timeMs: Math.round(performance.now() - t0), result: null, client: null, reportBase: null });
  const down = await serverDown(run);
  if (down !== null) return failed(down);
  const seed = run.config.seed;
  const bytes = seed === null ? systemBytes() : seededBytes(seed, def.id);
  const settings: PlaySettings = {
    session: { ...defaultSessionOptions, ...run.config.session, serverDropTimeoutMs: 1000 },
    deflateLevel: defaultSessionOptions.deflateLevel,
    newMask: () => bytes(4),
    randomBytes: bytes,
    userAgent: `wsgate/${VERSION}`,
  };
  const limitMs = caseTimeoutFor(def, run.config) * 1000;
  const { io } = run;
  const { signal } = io;
  const outcome = await playCase(run.target, def, { agent: run.agent, index: run.globalIndex.get(def.id) ?? index, limitMs, ...(signal ? { signal } : {}) }, settings);
  if (outcome.result === null) {
    // The server may have died meanwhile: say so rather than "connection refused".
    return failed((await serverDown(run)) ?? outcome.error ?? 'no result');
  }
  run.results.set(def.id, outcome.result);
  const warnings = outcome.timedOut ? [`the case did not end within ${limitMs / 1000} s; wsgate dropped the connection`] : [];
  const gc = conclude(def, index, outcome.result, null, true, run.config, warnings, performance.now() - t0);
  // A server that died during the case: the reason says so (the verdicts alone would not tell why).
  if (gc.status === 'failed' && run.process !== null && (await run.process.exitsWithin(DIED_GRACE_MS))) {
    gc.reason += `; the server under test ${run.process.describeExit()} during the case`;
  }
  return gc;
}

/** How long a failed case waits to see whether the server process is exiting. */
const DIED_GRACE_MS = 200;

/**
 * Null while the server can take the next case. A server wsgate started that has exited is started
 * again with --restart-server; otherwise it stays down and every later case fails with the reason.
 */
async function serverDown(run: ServerRun): Promise<string | null> {
  const proc = run.process;
  if (run.gone !== null) return run.gone;
  if (proc === null || !proc.hasExited) return null;
  const how = `the server under test ${proc.describeExit()} (last output: ${proc.lastOutput()})`;
  const { io } = run;
  const { signal, out } = io;
  if (run.config.server?.restart !== true || isAborted(signal)) {
    run.gone = `${how}; not restarted (--restart-server restarts it)`;
    return run.gone;
  }
  try {
    await proc.restart(run.target.host, run.target.port, (run.config.server?.startTimeout ?? 30) * 1000, signal);
    out.write(`wsgate: ${how}; restarted it (start ${proc.starts})\n`);
    return null;
  } catch (err) {
    run.gone = `${how}; restarting it failed: ${err instanceof Error ? err.message : String(err)}`;
    return run.gone;
  }
}
