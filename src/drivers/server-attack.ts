/**
 * A robustness case against a server under test (group 17): the attack played by the fuzzing
 * client's engine, then the liveness check: the server process (when wsgate started it) still
 * alive, and a normal case on a fresh connection passing. A server that died or stopped serving
 * fails the case whatever the attack's own verdict (play/attack-figures.ts says so in its report).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { livenessCase } from '../robustness/index.js';
import type { CatalogueCase } from '../cases/types.js';
import { playAttack } from '../fuzzing-client/attacks/play-attack.js';
import { playCase, type PlaySettings, type ServerTarget } from '../fuzzing-client/play-case.js';
import type { CaseResult } from '../model/report.js';
import { Behavior } from '../model/verdicts.js';
import type { ServerProcess } from '../processes/server-process.js';
import type { LivenessDown } from '../model/peer.js';
import { DEFAULT_BUDGETS, scaledMs } from '../cases/data/budgets.js';

/** What an attack case needs of its server's run. */
export interface AttackRun {
  target: ServerTarget;
  agent: string;
  /** The case's place in the catalogue (the report's `case`). */
  index: number;
  signal: AbortSignal | undefined;
  settings: (def: CatalogueCase) => PlaySettings;
  /** The server process wsgate started, or null (a server at --server-url). */
  process: ServerProcess | null;
  /** The case's hard time limit, in ms (the attack is cut there, and fails). */
  limitMs: number;
}

/** How long a server that failed the liveness check is watched for its exit. */
const EXIT_GRACE_MS = 500;
/**
 * How long a server that failed the case's connection (a close with an error code, or TCP dropped
 * without one) is watched for its exit before the liveness check, in ms, times the run's `time`
 * budget. A server may die of a failed connection a moment after it: a timer that throws on the
 * failed socket, an error handler's cleanup. 5 s catches such a death up to 4 s after the case, so
 * it is charged to the case that caused it, not to the next; it costs only the cases in which the
 * server failed the connection (8 of group 17's 30 against ws).
 */
export const FAILED_CONNECTION_WATCH_MS = 5000;
/** How long a server whose listener is gone (its supervisor replacing a worker) has to listen again, and how often it is tried. */
const LISTEN_AGAIN_MS = 3000;
const REFUSED_RETRY_MS = 100;

/** What an attack case left: its result (null: the scripted case never got a connection, `error` says why), and the facts around it. */
export interface AttackPlayed {
  result: CaseResult | null;
  error: string | null;
  /** What the server did instead of passing the liveness check, or null: it passed. */
  down: LivenessDown | null;
  /** The attack was cut at the case's hard limit (its seconds), or null. */
  cutAtS: number | null;
}

/**
 * The attack, then the liveness check. A case with an `attack` is played over raw connections; one
 * with only an attack budget is a scripted connection like any case. The verdict is not amended
 * here: the facts go to the run's one verdict (play/attack-figures.ts).
 */
export async function playAttackCase(def: CatalogueCase, run: AttackRun): Promise<AttackPlayed> {
  const limit = AbortSignal.timeout(run.limitMs);
  const signal = run.signal === undefined ? limit : AbortSignal.any([run.signal, limit]);
  const attack = def.attack;
  if (attack === undefined) {
    const outcome = await playCase(
      run.target,
      def,
      { agent: run.agent, index: run.index, limitMs: run.limitMs, ...(run.signal ? { signal: run.signal } : {}) },
      run.settings(def),
    );
    const watchMs =
      outcome.result !== null && serverFailed(outcome.result)
        ? scaledMs(FAILED_CONNECTION_WATCH_MS, run.settings(def).budgets ?? DEFAULT_BUDGETS)
        : EXIT_GRACE_MS;
    return { result: outcome.result, error: outcome.error ?? null, down: await liveness(run, watchMs), cutAtS: null };
  }
  const result = await playAttack(run.target, { ...def, attack }, { agent: run.agent, index: run.index, signal }, run.settings(def));
  const cut = limit.aborted && run.signal?.aborted !== true;
  return { result, error: null, down: await liveness(run), cutAtS: cut ? run.limitMs / 1000 : null };
}

/** The server failed the case's connection: it closed with an error code, or dropped TCP without a close. */
function serverFailed(result: CaseResult): boolean {
  const code = result.remoteCloseCode;
  return (code !== null && code !== 1000 && code !== 1001) || (!result.wasClean && !result.droppedByMe);
}

/**
 * Null while the server lives and serves; otherwise what it did (died, or failed a normal case).
 * `watchMs`: how long its exit is waited for first.
 */
async function liveness(run: AttackRun, watchMs = EXIT_GRACE_MS): Promise<LivenessDown | null> {
  const proc = run.process;
  const died = async (ms = EXIT_GRACE_MS): Promise<LivenessDown | null> =>
    proc !== null && (await proc.exitsWithin(ms)) ? { kind: 'exited', exit: proc.exit(), lastOutput: proc.lastOutput() } : null;
  const dead = await died(watchMs);
  if (dead !== null) return dead;
  const limitMs = ((livenessCase.schedule?.maxSeconds ?? 4) + 2) * 1000;
  const info = { agent: run.agent, index: run.index, limitMs, ...(run.signal ? { signal: run.signal } : {}) };
  let outcome = await playCase(run.target, livenessCase, info, run.settings(livenessCase));
  // A supervisor that lives on (Node's cluster, a process manager) may be listening again in a moment,
  // its dead worker replaced: a refused connection is tried again for a while before it counts.
  const until = performance.now() + LISTEN_AGAIN_MS;
  while (outcome.result === null && /ECONNREFUSED/.test(outcome.error ?? '') && performance.now() < until && run.signal?.aborted !== true) {
    if ((await died()) !== null) break;
    await delay(REFUSED_RETRY_MS);
    outcome = await playCase(run.target, livenessCase, info, run.settings(livenessCase));
  }
  if (outcome.result === null) return (await died()) ?? { kind: 'no-server', error: outcome.error ?? null };
  if (outcome.result.behavior !== Behavior.Ok) return (await died()) ?? { kind: 'case-failed', result: outcome.result.result };
  return null;
}
