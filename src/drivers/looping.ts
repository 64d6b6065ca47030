/**
 * Looping mode: the client command runs once with the base URL and drives every case itself
 * (/getCaseCount, /runCase, /updateReports), as Autobahn's client drivers do; the gate watches the
 * server, bounds the whole run by the sum of the case timeouts, and tells each case's outcome as it finishes.
 */
import type { CatalogueCase } from '../cases/types.js';
import type { ClientRunConfig } from '../config/run-config.js';
import type { CaseResult, ClientRun } from '../model/report.js';
import type { CaseRunEvent, FuzzingServer } from '../server/fuzzing-server.js';
import { caseTimeoutFor } from '../policy/case-limits.js';
import type { ClientProcess, ClientValues } from '../processes/client-process.js';
import type { PeerWatch } from '../peer/watch.js';
import { TERM_GRACE_MS, raceTimeout, sleep } from '../processes/waiting.js';
import type { CaseOutcome } from './driver.js';
import type { ClientWatch } from '../peer/client-watch.js';
import { UsageError } from '../errors.js';
import { errorLine } from '../processes/crash.js';
import { loopingNeverConnectedWords } from '../explain/peer-words.js';
import type { TransportFact } from '../model/peer.js';
import { transportSince } from './per-case.js';

/**
 * Runs the command once; it drives every case itself (Autobahn style) via /getCaseCount and /runCase.
 * Each case's outcome is handed to `settle` as it finishes; every case's, once the client is done
 * (the skeleton keeps the first it gets of each).
 */
export async function runLooping(
  server: FuzzingServer,
  cases: readonly CatalogueCase[],
  command: string,
  where: { baseUrl: string; ca: string | null; http2: boolean },
  config: ClientRunConfig,
  signal: AbortSignal | undefined,
  settle: (index: number, outcome: CaseOutcome) => void,
  peers: PeerWatch,
): Promise<void> {
  const t0 = performance.now();
  const seen: CaseRunEvent[] = [];
  // The client's watch, once it started: under --robustness, its tree is sampled for the attack cases' memory figures.
  let watch: ClientWatch | null = null;
  const onStart = (event: CaseRunEvent): void => {
    seen.push(event);
    watch?.started(event.index, event.ports);
  };
  const onFinish = (event: CaseRunEvent, result: CaseResult): void => {
    if (event.agent !== resultAgent(server, config)) return;
    const outcome = played(result, performance.now());
    if (watch?.finished(event.index, outcome) !== true) settle(event.index, outcome);
  };
  server.on('caseStarted', onStart);
  server.on('caseFinished', onFinish);
  const budgetS = cases.reduce((sum, c) => sum + caseTimeoutFor(c, config), 0);
  let clientRun: ClientRun;
  const started = (client: ClientProcess): void => {
    watch = peers.watchCases(client, cases, settle);
  };
  try {
    const values = { url: where.baseUrl, case: '', agent: config.agent, http2: where.http2, ...(where.ca !== null ? { ca: where.ca } : {}) };
    const connectMs = caseTimeoutFor(cases[0] as CatalogueCase, config) * 1000;
    clientRun = await driveClient(server, command, values, config, signal, { budgetMs: budgetS * 1000, connectMs }, seen, started, peers);
  } finally {
    server.off('caseStarted', onStart);
    server.off('caseFinished', onFinish);
    (watch as ClientWatch | null)?.stop();
  }
  const ended = watch as ClientWatch | null;
  ended?.ended(ended.crash());
  const dead = ended?.unplayed() ?? null;
  // Over TLS, a client that never got through the TLS handshake: every case it did not run says so first.
  const transport = transportSince(server, t0);
  const agent = resultAgent(server, config);
  const results = server.results.get(agent) ?? new Map<string, CaseResult>();
  // When each of these results came is not known here: the skeleton keeps them only when no signal came.
  for (const [i, def] of cases.entries()) {
    const result = results.get(def.id);
    const never = dead !== null && !seen.some((e) => e.index === i + 1) ? dead : null;
    settle(i + 1, result !== undefined ? played(result, null) : (never ?? missing(clientRun, agent, seen.length > 0, budgetS, transport)));
  }
}

/** A case the client played: its result, recorded at `at` (performance.now()) when known. */
export function played(result: CaseResult, at: number | null): CaseOutcome {
  return { result, resultAt: at, client: null, sawConnection: true, warnings: [], timeMs: result.duration, agent: result.agent };
}

/** A case the client never played: what its process did, when it never ran properly, else that it skipped this case. */
function missing(clientRun: ClientRun, agent: string, sawAny: boolean, budgetS: number, transport: TransportFact | null): CaseOutcome {
  const broken = clientRun.spawnError !== null || (!sawAny && clientRun.exitCode !== 0);
  return {
    result: null,
    resultAt: null,
    client: clientRun,
    sawConnection: false,
    warnings: [],
    timeMs: 0,
    agent,
    limitS: budgetS,
    transport,
    ...(broken ? {} : { missing: { kind: 'client-skipped', agent } }),
  };
}

/**
 * The agent whose results are the client's: the client names itself, so the configured agent when it
 * ran cases, else the only agent that did (with several agents and none configured, none).
 */
function resultAgent(server: FuzzingServer, config: ClientRunConfig): string {
  const agents = [...server.results.keys()];
  return server.results.has(config.agent) ? config.agent : agents.length === 1 ? (agents[0] as string) : config.agent;
}

/** Starts the client once, waits for it within the budget, and lets the last connection settle. */
async function driveClient(
  server: FuzzingServer,
  command: string,
  values: ClientValues,
  config: ClientRunConfig,
  signal: AbortSignal | undefined,
  limits: { budgetMs: number; connectMs: number },
  seen: readonly CaseRunEvent[],
  started: (client: ClientProcess) => void,
  peers: PeerWatch,
): Promise<ClientRun> {
  // The bundled client runs up to --jobs cases at once itself (group 9 alone); other looping clients
  // run their cases one after another, as Autobahn's drivers do. Its zlib work (ws compresses and
  // inflates in libuv's pool, one task per frame) goes faster on one pool thread than on the default
  // four, which hand each connection's tasks between cores: 12.2.15 + 12.5.15 + 12.3.15 + 12.2.14,
  // --jobs 2, 53.2 -> 41.0 s wall, client CPU 68.4 -> 42.5 s (BENCHMARKS.md).
  const env = config.client === null ? { WSGATE_JOBS: String(config.jobs), UV_THREADPOOL_SIZE: '1' } : {};
  const client = peers.startClient(command, values, env, { heading: `--- wsgate: the client under test, driving every case: ${command}` });
  started(client);
  const abort = new AbortController();
  signal?.addEventListener('abort', () => abort.abort(), { once: true });
  let timedOut = false;
  // Any request (/getCaseCount, /runCase) shows the command reaches the server.
  let asked = false;
  const reached = new Promise<'asked'>((resolve) =>
    server.once('asked', () => {
      asked = true;
      resolve('asked');
    }),
  );
  try {
    const exited = client.exited.then(() => 'exit' as const);
    // A command that cannot start, exits before it asks anything, or never dials stops the run (exit 2).
    const opening = await raceTimeout(Promise.race([exited, reached]), limits.connectMs, abort.signal);
    if (!asked && signal?.aborted !== true && (opening === 'exit' || opening === 'timeout')) {
      client.killGroup();
      throw new UsageError(neverConnected(client.snapshot(opening === 'timeout'), limits.connectMs / 1000));
    }
    const first = await raceTimeout(exited, limits.budgetMs, abort.signal);
    if (first !== 'exit') {
      timedOut = signal?.aborted !== true;
      if (timedOut) await client.stop(TERM_GRACE_MS);
      else client.killGroup();
      await raceTimeout(client.exited, 1000);
    }
    // Let the last connection's close reach the server.
    const settleUntil = performance.now() + 2000;
    while (performance.now() < settleUntil && seen.some((e) => server.isRunning(e.agent, e.index))) await sleep(20);
  } finally {
    peers.release(client);
  }
  return client.snapshot(timedOut);
}

/** The one line of a looping client command that never reached the server. */
function neverConnected(run: ClientRun, connectS: number): string {
  return loopingNeverConnectedWords(run, connectS, errorLine(run.output));
}
