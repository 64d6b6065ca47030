/**
 * The server under test: wsgate is the fuzzing client. Each peer is a server (started by its
 * command, or running elsewhere at its URL), connected to once per case; one that dies mid-run fails
 * the remaining cases with that reason, or is started again with --restart-server. It is stopped at
 * the end and on SIGINT/SIGTERM, its whole process tree. Several servers (a fuzzingclient.json listing
 * more than one) are tested one after another, each its own agent.
 */
import { fileURLToPath } from 'node:url';
import { scriptedCase } from '../cases/define.js';
import { catalogueFor } from '../catalogue/registry.js';
import type { CatalogueCase } from '../cases/types.js';
import { REFERENCE_SERVER_COMMAND, type ServerRunConfig, type ServerUnderTest } from '../config/run-config.js';
import { UsageError } from '../errors.js';
import { playCase, type PlaySettings, type ServerTarget } from '../fuzzing-client/play-case.js';
import { probeServerHeader } from '../fuzzing-client/probe.js';
import { seededBytes, systemBytes } from '../fuzzing-client/randomness.js';
import type { CaseResult } from '../model/report.js';
import { caseTimeoutFor } from '../policy/case-limits.js';
import { shellQuote } from '../processes/client-process.js';
import { freePort, type ServerProcess, waitForListen } from '../processes/server-process.js';
import { judgeEnded } from '../peer/pool.js';
import { HANDOVER_MS } from '../processes/tree-memory.js';
import type { PeerWatch } from '../peer/watch.js';
import { isAborted } from '../processes/waiting.js';
import { isRobustness, type PeerFacts } from '../play/attack-figures.js';
import { AUTOBAHN_DEFAULTS } from '../protocol/constants.js';
import { collisionNotice } from '../report/files.js';
import { writeReports } from '../report/writer.js';
import type { TlsSetup } from '../tls/setup.js';
import { hostPort } from '../util/host-port.js';
import { VERSION } from '../version.js';
import type { CaseOutcome, Peer, PeerContext, RoleDriver } from './driver.js';
import { diedDuring, REFUSED_TRIES, serverUp, type CaseWindow, type ServerWatchState } from '../peer/server-watch.js';
import { playAttackCase } from './server-attack.js';
import { SHIPPED_LIMITS_ENV } from '../config/shipped-limits.js';
import type { LivenessDown, LivenessNext, MissingFact, PeerFailureFact, ServerDownHow, ServerGone } from '../model/peer.js';
import { restartedBeforeAttackWords, unreachableLine } from '../explain/peer-words.js';

/**
 * The command of the bundled reference server (ws's WebSocketServer, echoing everything); for the
 * robustness profile, with ws's limits as shipped (bundled/ws-echo.ts).
 */
export function referenceServerCommand(profile = false): string {
  const script = fileURLToPath(new URL('../bundled/reference-server.js', import.meta.url));
  return `${profile ? `${SHIPPED_LIMITS_ENV}=shipped ` : ''}${shellQuote(process.execPath)} ${shellQuote(script)} {port}`;
}

/** The server role's driver: the servers under test, one after another. */
export function serverRoleDriver(config: ServerRunConfig): RoleDriver {
  const results = new Map<string, Map<string, CaseResult>>();
  // index.html lists the selected cases only (every peer is given the same).
  let selected: readonly CatalogueCase[] = [];
  return {
    // A server wsgate starts gets a certificate from a throwaway CA (files in a private temporary directory) unless --cert gives one.
    tlsNeeds: { hosts: config.servers.map((s) => s.host), serverFiles: true, needCertificate: config.servers.some((s) => s.command !== null) },
    peerCount: config.servers.length,
    async startPeer(n, context) {
      selected = context.cases;
      const peer = await startServerPeer(config, config.servers[n] as ServerUnderTest, context);
      results.set(peer.agent, peer.results);
      return peer;
    },
    async writeReports(concluded, view) {
      for (const r of concluded) if (results.get(r.agent)?.has(r.id) === true) results.get(r.agent)?.set(r.id, r);
      // A server with no result (unreachable, or every case excluded for it) has no entry, as in Autobahn.
      const recorded = new Map([...results].filter(([, byCase]) => byCase.size > 0));
      const meta = { generatedAt: new Date().toISOString(), toolVersion: VERSION, ...view, repro: config.repro.record };
      const collisions = await writeReports(config.outdir, recorded, selected, meta);
      for (const c of collisions) process.stderr.write(`${collisionNotice(c)}\n`);
      return [...recorded.keys()];
    },
    recordRole: { role: 'server' },
  };
}

/** One server: started through the run's watch (or waited for), named; the skeleton plays its cases, then its watch stops it. */
async function startServerPeer(config: ServerRunConfig, sut: ServerUnderTest, context: PeerContext): Promise<Peer & { results: Map<string, CaseResult> }> {
  const { secure, io, watch } = context;
  const port = sut.port === 0 ? await freePort(sut.host) : sut.port;
  const overTls = secure !== null && sut.url.startsWith('wss:');
  const target: ServerTarget = {
    host: sut.host,
    port,
    resource: sut.resource,
    tls: overTls ? { ca: secure.caPem, insecure: secure.summary.insecure } : null,
    http2: config.http2,
  };
  const command = sut.command === REFERENCE_SERVER_COMMAND ? referenceServerCommand(config.robustness) : sut.command;
  const proc =
    command === null
      ? null
      : await watch.startServer({
          command,
          host: sut.host,
          port,
          timeoutMs: sut.startTimeout * 1000,
          signal: io.signal,
          certificate: overTls ? certificateFiles(secure) : {},
          http2: config.http2,
        });
  if (proc === null && !(await awaitRemoteServer(target, sut, io.signal, config.unreachable ?? 'error'))) {
    return unreachablePeer(sut, config.unknownAgent ?? hostPort(target.host, target.port), io.out);
  }
  const agent = await agentOf(config, sut, target, context.taken);
  const globalIndex = new Map(catalogueFor(config.extended, 'server', config.http2 ? 'h2' : 'http/1.1', config.robustness).map((c, i) => [c.id, i + 1]));
  const state: ServerState = {
    config,
    sut,
    target,
    agent,
    process: proc,
    results: new Map(),
    globalIndex,
    signal: io.signal,
    out: io.out,
    watch,
    gone: null,
    stale: null,
    windows: [],
    deaths: new Map(),
    restarting: null,
    incidents: [],
  };
  const what = sut.command === REFERENCE_SERVER_COMMAND ? 'the bundled ws server' : command === null ? 'the server' : JSON.stringify(command);
  const url = `${target.tls ? 'wss' : 'ws'}://${hostPort(target.host, target.port)}${target.resource}`;
  return {
    agent,
    against: `${what} at ${url} (agent ${JSON.stringify(agent)})`,
    atOnce: config.jobs,
    notes: [],
    play: { kind: 'each', playCase: (def, index) => playOne(state, def, index) },
    incidents: () => state.incidents,
    results: state.results,
    forget: (id) => state.results.delete(id),
    // The watch stops the server (its whole tree) once the skeleton has played its cases.
    stop: async () => null,
  };
}

/** The agent of a server: its spec entry's or --agent, else its Server header or host:port; told apart from those before it. */
async function agentOf(config: ServerRunConfig, sut: ServerUnderTest, target: ServerTarget, taken: ReadonlySet<string>): Promise<string> {
  let agent = sut.agent ?? config.agent;
  if (sut.agent === null && config.agentFromServer) agent = (await probeServerHeader(target)) ?? config.unknownAgent ?? hostPort(target.host, target.port);
  // Two servers of one run that name themselves alike are told apart by their address.
  return taken.has(agent) ? `${agent} (${hostPort(target.host, target.port)})` : agent;
}

/** What a server command is told of its certificate: {cert} and {key}, WSGATE_CERT_FILE and WSGATE_KEY_FILE. */
function certificateFiles(secure: TlsSetup): Record<string, string> {
  if (secure.certFile === null || secure.keyFile === null) return {};
  return { cert: secure.certFile, key: secure.keyFile };
}

/** A server running elsewhere: waited for until it accepts TCP connections; false when it never did and `unreachable` says skip. */
async function awaitRemoteServer(target: ServerTarget, sut: ServerUnderTest, signal: AbortSignal | undefined, unreachable: 'error' | 'skip'): Promise<boolean> {
  const why = await waitForListen(target.host, target.port, sut.startTimeout * 1000, null, signal);
  if (why !== 'timeout') return true;
  const message = `nothing accepts connections at ${target.host}:${target.port} (${sut.url}); waited ${sut.startTimeout} s`;
  if (unreachable === 'error') throw new UsageError(message);
  return false;
}

/** A server that never accepted a connection, under `unreachable: 'skip'`: its cases are left out, with the reason. */
function unreachablePeer(sut: ServerUnderTest, fallbackAgent: string, out: NodeJS.WritableStream): Peer & { results: Map<string, CaseResult> } {
  const reason = { kind: 'unreachable', url: sut.url, waitedS: sut.startTimeout } as const;
  out.write(`${unreachableLine(reason)}\n`);
  return {
    agent: sut.agent ?? fallbackAgent,
    against: `the server at ${sut.url} (unreachable)`,
    atOnce: 1,
    notes: [],
    play: {
      kind: 'each',
      playCase: async () => ({ result: null, resultAt: null, client: null, sawConnection: false, warnings: [], timeMs: 0, notRun: reason }),
    },
    results: new Map(),
    forget: () => undefined,
    stop: async () => null,
  };
}

/** What the cases of one server share while they run. */
interface ServerState extends ServerWatchState {
  config: ServerRunConfig;
  sut: ServerUnderTest;
  target: ServerTarget;
  agent: string;
  process: ServerProcess | null;
  results: Map<string, CaseResult>;
  /** Places of the cases in the whole catalogue (Autobahn's `case` field as a fuzzing client). */
  globalIndex: ReadonlyMap<string, number>;
  /** Why the server, alive, is restarted before the next case (it stopped serving after an attack), or null. */
  stale: LivenessDown | null;
  /** The run's watch on the server (its memory around an attack). */
  watch: PeerWatch;
}

/** One case: the server checked (restarted if asked), one connection, what came of it. */
async function playOne(state: ServerState, def: CatalogueCase, index: number): Promise<CaseOutcome> {
  const t0 = performance.now();
  const failed = (why: Pick<CaseOutcome, 'missing' | 'notRun'>): CaseOutcome => ({
    result: null,
    resultAt: null,
    client: null,
    sawConnection: false,
    warnings: [],
    timeMs: performance.now() - t0,
    ...why,
  });
  if (isRobustness(def)) {
    const down = await serverDown(state);
    if (down !== null) return failed({ notRun: { kind: 'server-down', gone: down } });
    return playAttackOne(state, def, index, t0);
  }
  const limitMs = caseTimeoutFor(def, state.config) * 1000;
  const { signal } = state;
  // A case that found the server dead (it died during an earlier case, or, with --jobs, during a
  // case beside it) is played again on the restarted server: no case fails for a restart in progress.
  for (let attempt = 0; ; attempt++) {
    const unplayable = await serverUp(state);
    if (unplayable !== null) return failed({ notRun: { kind: 'server-gone', gone: unplayable } });
    const proc = state.process;
    let ended!: () => void;
    const settled = new Promise<void>((resolve) => (ended = resolve));
    const window: CaseWindow = {
      id: def.id,
      at: index,
      start: performance.now(),
      end: null,
      startNo: proc?.starts ?? 0,
      answered: false,
      heard: false,
      settled,
    };
    state.windows.push(window);
    const onAnswer = (): void => {
      window.heard = true;
    };
    const outcome = await playCase(
      state.target,
      scriptedCase(def),
      { agent: state.agent, index: state.globalIndex.get(def.id) ?? index, limitMs, onAnswer, ...(signal ? { signal } : {}) },
      playSettings(state.config, state.sut, def),
    );
    const end = performance.now();
    // Autobahn records "?" as the response of a server that sent nothing.
    const answered = outcome.result !== null && outcome.result.httpResponse !== '' && outcome.result.httpResponse !== '?';
    // No answer from the server: dead (then not this case's doing, the first time), or failing it as before.
    // A refused connection waits longer for the exit to be told than a connection a dying kernel reset.
    const grace = outcome.result === null ? REFUSED_GRACE_MS : DIED_GRACE_MS;
    const dead = !answered && proc !== null && !isAborted(signal) && (await proc.startExitsWithin(window.startNo, grace));
    // A restarted server that dies again on this case's request, unanswered, died of it.
    window.answered = answered || (dead && attempt > 0 && outcome.result !== null);
    window.end = end;
    ended();
    if (dead && !window.answered) {
      // Refused (it had died before this case connected): never this case's doing, tried on a few starts.
      if (state.sut.restart && (attempt === 0 || (outcome.result === null && attempt < REFUSED_TRIES))) continue;
      const gone = await serverUp(state);
      if (gone !== null) return failed({ notRun: { kind: 'server-gone', gone } });
    }
    if (outcome.result === null) return failed({ missing: { kind: 'no-answer', error: outcome.error ?? null } });
    state.results.set(def.id, outcome.result);
    return {
      result: outcome.result,
      resultAt: performance.now(),
      client: null,
      sawConnection: true,
      warnings: outcome.timedOut ? [{ kind: 'case-overran', limitS: limitMs / 1000 }] : [],
      timeMs: performance.now() - t0,
      // Told once the server has stayed up a moment after the case, or has died.
      ...(proc === null || !window.answered ? {} : { died: diedDuring(state, proc, window) }),
    };
  }
}

/**
 * A robustness case (group 17): the attack, then the liveness check. A server that failed it is
 * restarted before the next case when wsgate started it (the robustness profile's default), or the
 * remaining cases are not run.
 */
async function playAttackOne(state: ServerState, def: CatalogueCase, index: number, t0: number): Promise<CaseOutcome> {
  const proc = state.process;
  const run = {
    target: state.target,
    agent: state.agent,
    index: state.globalIndex.get(def.id) ?? index,
    signal: state.signal,
    process: proc,
    settings: (d: CatalogueCase) => playSettings(state.config, state.sut, d),
    limitMs: caseTimeoutFor(def, state.config) * 1000,
  };
  // The server's tree from before the attack to after the liveness check (the sample now is the baseline).
  // Found as the command's tree, or by the socket listening on the server's port (a detached server, one at --server-url).
  const measuring = state.watch.sampleServer(proc, state.target.port);
  const sampler = measuring?.sampler ?? null;
  // A server loses no process to an attack: a worker that ended is a crash its supervisor hid.
  const window = sampler?.window({ watch: await sampler.settled() }) ?? null;
  const outputMark = proc?.outputMark() ?? null;
  const { result, error, down, cutAtS } = await playAttackCase(def, run);
  // A pool replacing a worker at the case's end: its old worker's drain is the case's, not the next one's.
  await window?.handedOver(HANDOVER_MS);
  // A worker that ended is told from one a pool retired by the output the case drew from the server.
  const closed = judgeEnded(window?.close() ?? null, proc !== null && outputMark !== null ? proc.outputSince(outputMark) : null);
  const memory = closed?.measured === true && measuring?.found != null ? { ...closed, found: measuring.found } : closed;
  sampler?.stop();
  let liveness: NonNullable<PeerFacts['liveness']> = { down: null, processAlive: proc !== null };
  let peerFailure: PeerFailureFact | null = null;
  if (down !== null) {
    const restarts = proc !== null && state.sut.restart;
    const next: LivenessNext = restarts ? 'restarted' : proc === null ? 'not-started-by-wsgate' : 'not-restarted';
    if (!restarts) state.gone = { kind: 'failed-liveness', down };
    else if (!proc.hasExited) state.stale = down;
    liveness = { down, next };
    peerFailure = { kind: 'liveness', down, next };
  }
  const base = { client: null, warnings: [], timeMs: performance.now() - t0, ...(peerFailure === null ? {} : { peerFailure }) };
  if (result === null) {
    const missing: MissingFact = down === null ? { kind: 'no-answer', error } : { kind: 'liveness-down', down };
    return { ...base, result: null, resultAt: null, sawConnection: false, missing };
  }
  state.results.set(def.id, result);
  const peer: PeerFacts = { memory, liveness, ...(cutAtS === null ? {} : { cutAtS }) };
  return { ...base, result, resultAt: performance.now(), sawConnection: true, peer };
}

/** The fuzzing client's settings for one case: Autobahn's timers and limits, the spec file's options, masks and keys (seeded per case). */
function playSettings(config: ServerRunConfig, sut: ServerUnderTest, def: CatalogueCase): PlaySettings {
  const bytes = config.seed === null ? systemBytes() : seededBytes(config.seed, def.id);
  return {
    protocolOptions: { ...AUTOBAHN_DEFAULTS, ...config.protocolOptions, ...sut.protocolOptions, serverDropTimeoutMs: AUTOBAHN_DEFAULTS.serverDropTimeoutMs },
    deflateLevel: AUTOBAHN_DEFAULTS.deflateLevel,
    newMask: () => bytes(4),
    randomBytes: bytes,
    userAgent: `wsgate/${VERSION}`,
    keepRecording: config.repro.record,
    budgets: config.budgets,
  };
}

/** How long a case the server never answered waits to see whether the server process is exiting. */
const DIED_GRACE_MS = 300;
/** The same, for a case whose connection was refused (nothing listens: a dead server, most likely). */
const REFUSED_GRACE_MS = 1500;

/**
 * Null while the server can take the next case. A server wsgate started that has exited is started
 * again when its --restart-server says so, within its own start timeout; otherwise it stays down and
 * every later case fails with the reason.
 */
async function serverDown(state: ServerState): Promise<ServerGone | null> {
  const proc = state.process;
  if (state.gone !== null) return state.gone;
  if (proc === null || (!proc.hasExited && state.stale === null)) return null;
  const how: ServerDownHow = proc.hasExited
    ? { kind: 'exited', exit: proc.exit(), lastOutput: proc.lastOutput() }
    : { kind: 'stopped-serving', down: state.stale as LivenessDown };
  state.stale = null;
  if (!state.sut.restart || isAborted(state.signal)) {
    state.gone = { kind: 'down', how, restartError: null };
    return state.gone;
  }
  try {
    await proc.restart(state.target.host, state.target.port, state.sut.startTimeout * 1000, state.signal);
    state.out.write(`${restartedBeforeAttackWords(how, proc.starts)}\n`);
    return null;
  } catch (err) {
    state.gone = { kind: 'down', how, restartError: err instanceof Error ? err.message : String(err) };
    return state.gone;
  }
}
