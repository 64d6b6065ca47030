/**
 * Per-case mode: the client command once per case, one connection, a deadline. The case ends with its
 * result, or when the client exits without one (after its connection had a moment to arrive or
 * close), or at the deadline, when the client's process group is stopped. What happened is told as
 * a raw outcome; the run skeleton concludes it.
 */
import type { CatalogueCase } from '../cases/types.js';
import type { RunSettings } from '../config/run-config.js';
import type { CaseResult } from '../model/report.js';
import type { CaseRunEvent, FuzzingServer } from '../server/fuzzing-server.js';
import { caseTimeoutFor } from '../policy/case-limits.js';
import type { ClientProcess } from '../processes/client-process.js';
import type { PeerWatch } from '../peer/watch.js';
import type { CaseOutcome } from './driver.js';
import type { RobustnessBudgets } from '../cases/data/budgets.js';
import type { CaseWarningFact, TransportFact } from '../model/peer.js';
import { EXIT_GRACE_MS, HANDSHAKE_SETTLE_MS, SETTLE_MS, TERM_GRACE_MS, caseUrl, isAborted, raceTimeout, waitForResult } from '../processes/waiting.js';

/** What the server says of one case while it runs. */
interface CaseWatch {
  readonly waiter: { promise: Promise<CaseResult>; cancel: () => void };
  sawConnection(): boolean;
  result(): CaseResult | null;
  /** When the result came (performance.now()), or null. */
  resultAt(): number | null;
  dispose(): void;
}

/** One case being run: its client, its deadline and what it has told so far. */
interface RunningCase {
  server: FuzzingServer;
  agent: string;
  index: number;
  client: ClientProcess;
  watch: CaseWatch;
  deadline: number;
  /** Aborted by the run's signal: every wait ends at once. */
  abort: AbortSignal;
  signal: AbortSignal | undefined;
  warnings: CaseWarningFact[];
}

/** Runs one case in per-case mode: one client process, one connection. */
export async function runOneCase(
  server: FuzzingServer,
  def: CatalogueCase,
  index: number,
  command: string,
  where: { baseUrl: string; ca: string | null; http2: boolean },
  config: Pick<RunSettings, 'agent' | 'caseTimeout'> & { budgets?: RobustnessBudgets },
  signal: AbortSignal | undefined,
  peers: PeerWatch,
): Promise<CaseOutcome> {
  const agent = config.agent;
  const t0 = performance.now();
  const deadline = t0 + caseTimeoutFor(def, config) * 1000;
  // Its output goes to the run's client-output.log too, each line marked with the case.
  const client = peers.startClient(
    command,
    {
      url: caseUrl(where.baseUrl, index, agent),
      case: def.id,
      agent,
      http2: where.http2,
      ...(where.ca !== null ? { ca: where.ca } : {}),
    },
    {},
    { mark: `[${def.id}] ` },
  );
  // A robustness case: the client's tree is sampled, its baseline when the case's connection opens.
  const peer = peers.watchCase(client, def, index);
  const watch = watchCase(server, agent, index, (ports) => peer.started(index, ports));
  const warnings: CaseWarningFact[] = [];
  const abort = new AbortController();
  const onAbort = (): void => abort.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  try {
    const run: RunningCase = { server, agent, index, client, watch, deadline, abort: abort.signal, signal, warnings };
    timedOut = await awaitCaseEnd(run);
    peer.close(index);
    if (!client.hasExited) await stopLingeringClient(run);
  } finally {
    // Grandchildren may outlive the client's shell: the group goes in any case.
    peers.release(client);
    peer.stop();
    signal?.removeEventListener('abort', onAbort);
    watch.dispose();
  }
  const result = watch.result();
  return {
    result,
    resultAt: watch.resultAt(),
    client: client.snapshot(timedOut),
    sawConnection: watch.sawConnection(),
    warnings,
    timeMs: performance.now() - t0,
    transport: result === null ? transportSince(server, t0) : null,
    ...peer.caseFacts(index, result),
  };
}

/** The client's connection that failed below WebSocket (TLS, HTTP/2) at or after `since`, as the fuzzing server told it, or null. */
export function transportSince(server: FuzzingServer, since: number): TransportFact | null {
  const line = server.transportFailureSince(since);
  return line === null ? null : { kind: 'transport', line };
}

/** Watches the server for the case; `opened` when its connection opens (the client watch's baseline), with its ports. */
function watchCase(server: FuzzingServer, agent: string, index: number, opened: (ports: CaseRunEvent['ports']) => void): CaseWatch {
  let saw = false;
  let result: CaseResult | null = null;
  let resultAt: number | null = null;
  const onStart = (event: CaseRunEvent): void => {
    if (event.agent !== agent || event.index !== index) return;
    saw = true;
    // The baseline: the client, started and connected, before the attack (its runtime's start-up is not the attack's).
    opened(event.ports);
  };
  server.on('caseStarted', onStart);
  const waiter = waitForResult(server, agent, index);
  void waiter.promise.then((r) => {
    result = r;
    resultAt = performance.now();
  });
  return {
    waiter,
    sawConnection: () => saw,
    result: () => result,
    resultAt: () => resultAt,
    dispose: () => {
      server.off('caseStarted', onStart);
      waiter.cancel();
    },
  };
}

/** Waits for the result, the client's exit or the deadline; true when the deadline passed (not a signal). */
async function awaitCaseEnd(run: RunningCase): Promise<boolean> {
  const { server, agent, index, client, watch } = run;
  const remaining = (): number => Math.max(0, run.deadline - performance.now());
  const first = await raceTimeout(
    Promise.race([watch.waiter.promise.then(() => 'result' as const), client.exited.then(() => 'exit' as const)]),
    remaining(),
    run.abort,
  );
  if (first === 'exit') {
    await settleAfterExit(run, remaining);
    return false;
  }
  if (first !== 'timeout') return false;
  const timedOut = run.signal?.aborted !== true;
  // A timed-out client gets SIGTERM and a grace; an interrupted run kills at once.
  if (timedOut && (await client.stop(TERM_GRACE_MS)) === 'killed') run.warnings.push({ kind: 'ignored-sigterm', graceS: TERM_GRACE_MS / 1000 });
  else client.killGroup();
  if (server.isRunning(agent, index)) {
    server.abortRun(agent, index);
    await raceTimeout(watch.waiter.promise, 2000);
  }
  return timedOut;
}

/**
 * The client is gone; its connection may still be closing, or may never have been made. A
 * handshake in flight may be its own, but with other jobs running it may be theirs: that hope lasts
 * HANDSHAKE_SETTLE_MS, while a case that is really running has until the deadline.
 */
async function settleAfterExit(run: RunningCase, remaining: () => number): Promise<void> {
  const { server, agent, index, watch } = run;
  const settleUntil = Math.min(run.deadline, performance.now() + HANDSHAKE_SETTLE_MS);
  while (watch.result() === null && performance.now() < run.deadline) {
    const running = server.isRunning(agent, index);
    if (!running && performance.now() >= settleUntil) break;
    const busy = running || server.pendingHandshakes > 0;
    const step = await raceTimeout(
      watch.waiter.promise.then(() => 'result' as const),
      busy ? Math.min(remaining(), 50) : SETTLE_MS,
      run.abort,
    );
    if (step === 'result' || (!busy && !server.isRunning(agent, index) && server.pendingHandshakes === 0)) break;
  }
}

/** A client still running after its case: EXIT_GRACE_MS to exit, then SIGTERM (SIGKILL after a grace). */
async function stopLingeringClient(run: RunningCase): Promise<void> {
  const { client } = run;
  const exit = await raceTimeout(
    client.exited.then(() => 'exit' as const),
    run.watch.result() === null ? 0 : EXIT_GRACE_MS,
    run.abort,
  );
  if (exit === 'exit') return;
  let how: 'terminated' | 'killed' = 'killed';
  if (isAborted(run.signal)) client.killGroup();
  else how = await client.stop(TERM_GRACE_MS);
  if (run.watch.result() !== null) {
    run.warnings.push({ kind: 'lingered', graceS: EXIT_GRACE_MS / 1000, how });
  }
  await raceTimeout(client.exited, 1000);
}
