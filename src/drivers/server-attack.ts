/**
 * A robustness case against a server under test (group 17): the attack played by the fuzzing
 * client's engine, then the liveness check: the server process (when wsgate started it) still
 * alive, and a normal case on a fresh connection passing. A server that died or stopped serving
 * fails the case whatever the attack's own verdict, with the reason in the case report too.
 */
import { livenessCase } from '../cases/s17-robustness-server.js';
import type { CatalogueCase } from '../cases/types.js';
import { playAttack } from '../fuzzing-client/attacks/play-attack.js';
import { playCase, type PlaySettings, type ServerTarget } from '../fuzzing-client/play-case.js';
import type { CaseResult } from '../model/report.js';
import { Behavior } from '../model/verdicts.js';
import type { ServerProcess } from '../processes/server-process.js';

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
 * The attack, then the liveness check; `down` says why the server failed it (null: it passed). A
 * case with an `attack` is played over raw connections; one with only an attack budget is a scripted
 * connection like any case (its figures stated by the case runner). Null result: the scripted case
 * never got a connection (`error` says why).
 */
export async function playAttackCase(def: CatalogueCase, run: AttackRun): Promise<{ result: CaseResult | null; error: string | null; down: string | null }> {
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
    const down = await liveness(run);
    const result = outcome.result;
    if (result !== null) noteLiveness(result, down, run);
    return { result, error: outcome.error ?? null, down };
  }
  const result = await playAttack(run.target, { ...def, attack }, { agent: run.agent, index: run.index, signal }, run.settings(def));
  if (limit.aborted && run.signal?.aborted !== true) {
    result.behavior = Behavior.Failed;
    result.result = `The attack did not end within the case's limit of ${run.limitMs / 1000} s: the server answered too slowly. ${result.result}`;
  }
  const down = await liveness(run);
  noteLiveness(result, down, run);
  return { result, error: null, down };
}

/** The liveness check's outcome after the case's own result; a server that failed it fails the case. */
function noteLiveness(result: CaseResult, down: string | null, run: AttackRun): void {
  if (down === null) {
    const alive = run.process === null ? '' : ', and the server process is alive';
    result.result = `${result.result} Afterwards a normal case on a fresh connection passed (echoed)${alive}.`;
  } else {
    result.behavior = Behavior.Failed;
    result.result = `${result.result} Afterwards ${down}.`;
  }
}

/** Null while the server lives and serves; otherwise what it did (died, or failed a normal case). */
async function liveness(run: AttackRun): Promise<string | null> {
  const proc = run.process;
  const died = async (): Promise<string | null> =>
    proc !== null && (await proc.exitsWithin(EXIT_GRACE_MS)) ? `the server under test ${proc.describeExit()} (last output: ${proc.lastOutput()})` : null;
  const dead = await died();
  if (dead !== null) return dead;
  const limitMs = ((livenessCase.schedule?.maxSeconds ?? 4) + 2) * 1000;
  const info = { agent: run.agent, index: run.index, limitMs, ...(run.signal ? { signal: run.signal } : {}) };
  const outcome = await playCase(run.target, livenessCase, info, run.settings(livenessCase));
  if (outcome.result === null) return (await died()) ?? `a normal case on a fresh connection found no server (${outcome.error ?? 'no result'})`;
  if (outcome.result.behavior !== Behavior.Ok) return (await died()) ?? `a normal case on a fresh connection failed: ${outcome.result.result}`;
  return null;
}
