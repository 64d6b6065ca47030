/**
 * A robustness case against a server under test (group 17): its attack played (a growth plan, fixed
 * probes, or a crowd beside a normal client, each a raw connection; or an HTTP/2 flood on one connection), the measured facts judged by
 * the case's own pure function, and a case report of the figures (no frame log: the requests are too
 * large to keep, and the figures are the point).
 */
import type { AttackKinds, AttackProbe, ServerAttack } from '../../cases/attack-types.js';
import { DEFAULT_BUDGETS, scaledMs, type RobustnessBudgets } from '../../cases/data/budgets.js';
import type { CatalogueCase } from '../../cases/types.js';
import type { CaseResult } from '../../model/report.js';
import { bareResult } from '../../play/bare-result.js';
import { utcNow } from '../../play/case-runner.js';
import { newClientKey, type UpgradeRequestSpec } from '../../protocol/client-handshake.js';
import type { PlaySettings, ServerTarget } from '../play-types.js';
import { targetHostPort } from '../play-case.js';
import { crowdPlayer } from './crowd.js';
import { growthPlayer } from './growth.js';
import { h2FloodPlayer } from './h2-flood-lines.js';
import type { AttackGround, AttackPlayer, Played } from './player.js';
import { probesPlayer, runProbe } from './probe.js';

/** Plays the case's attack against the server; never rejects. */
export async function playAttack(
  target: ServerTarget,
  def: CatalogueCase & { attack: ServerAttack },
  info: { agent: string; index: number; signal?: AbortSignal },
  settings: PlaySettings,
): Promise<CaseResult> {
  const started = utcNow();
  const t0 = performance.now();
  const played = await play(target, def.attack, info.signal, settings);
  return bareResult(def, played.verdict, {
    agent: info.agent,
    index: info.index,
    started,
    durationMs: performance.now() - t0,
    httpRequest: played.request,
    httpResponse: played.response,
    isServer: false,
    // An HTTP/2 flood (17.5) is one HTTP/2 connection; the other attacks are raw HTTP/1.1 ones.
    transport: playerOf(def.attack).transport ?? null,
  });
}

/** Every kind's player: the compiler asks for a new kind's line here. */
const PLAYERS: { readonly [K in keyof AttackKinds]: AttackPlayer<AttackKinds[K]> } = {
  growth: growthPlayer,
  probes: probesPlayer,
  crowd: crowdPlayer,
  'h2-flood': h2FloodPlayer,
};

function playerOf<K extends keyof AttackKinds>(attack: AttackKinds[K]): AttackPlayer<AttackKinds[K]> {
  return PLAYERS[attack.kind as K] as AttackPlayer<AttackKinds[K]>;
}

/** The attack played by its kind's player, and judged. */
function play(target: ServerTarget, attack: ServerAttack, signal: AbortSignal | undefined, settings: PlaySettings): Promise<Played> {
  // Each probe a fresh key, the fuzzing client's usual request otherwise.
  const normal = (): UpgradeRequestSpec => ({
    host: targetHostPort(target),
    target: target.resource,
    key: newClientKey(settings.randomBytes),
    headers: [['User-Agent', settings.userAgent]],
  });
  const budgets = settings.budgets ?? DEFAULT_BUDGETS;
  const scaled = (probe: AttackProbe): AttackProbe => ({ ...probe, waitMs: waitFor(probe, budgets) });
  const ground: AttackGround = {
    target,
    signal,
    settings,
    budgets,
    probe: (p, s = signal, written, from) => runProbe(from === undefined ? target : { ...target, localAddress: from }, scaled(p), normal(), s, written),
    stopped: () => signal?.aborted === true,
  };
  return playerOf(attack).play(attack, ground);
}

/** A probe's wait under the run's budgets: a trickled head waits the `stall` budget, the others their own wait times the `time` factor. */
function waitFor(probe: AttackProbe, budgets: RobustnessBudgets): number {
  return probe.delivery?.kind === 'trickle' ? budgets.stallMs : scaledMs(probe.waitMs, budgets);
}
