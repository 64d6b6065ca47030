/**
 * A robustness case against a server under test (group 17): its attack played (a growth plan, or
 * fixed probes, each a raw connection), the measured facts judged by the case's own pure function,
 * and a case report of the figures (no frame log: the requests are too large to keep, and the
 * figures are the point).
 */
import type { AttackProbe, GrowthFacts, ProbeFacts, ServerAttack } from '../../cases/attack-types.js';
import { DEFAULT_BUDGETS, scaledMs } from '../../cases/data/budgets.js';
import { answerText, count } from '../../cases/attack-judges.js';
import type { Judgement } from '../../cases/judgement.js';
import type { CatalogueCase } from '../../cases/types.js';
import type { CaseResult } from '../../model/report.js';
import { bareResult } from '../../play/bare-result.js';
import { utcNow } from '../../play/case-runner.js';
import { newClientKey, type UpgradeRequestSpec } from '../../protocol/client-handshake.js';
import type { PlaySettings, ServerTarget } from '../play-types.js';
import { targetHostPort } from '../play-case.js';
import { runGrowth } from './growth.js';
import { runProbe } from './probe.js';

/** Plays the case's attack against the server; never rejects. */
export async function playAttack(
  target: ServerTarget,
  def: CatalogueCase & { attack: ServerAttack },
  info: { agent: string; index: number; signal?: AbortSignal },
  settings: PlaySettings,
): Promise<CaseResult> {
  const started = utcNow();
  const t0 = performance.now();
  // Each probe a fresh key, the fuzzing client's usual request otherwise.
  const normal = (): UpgradeRequestSpec => ({
    host: targetHostPort(target),
    target: target.resource,
    key: newClientKey(settings.randomBytes),
    headers: [['User-Agent', settings.userAgent]],
  });
  const stopped = (): boolean => info.signal?.aborted === true;
  const attack = def.attack;
  const budgets = settings.budgets ?? DEFAULT_BUDGETS;
  const scaled = (probe: AttackProbe): AttackProbe => ({ ...probe, waitMs: scaledMs(probe.waitMs, budgets) });
  let probes: readonly ProbeFacts[];
  let verdict: Judgement;
  if (attack.kind === 'growth') {
    const facts: GrowthFacts = await runGrowth({ ...attack, stopAfterMs: scaledMs(attack.stopAfterMs, budgets) }, (probe) => runProbe(target, scaled(probe), normal(), info.signal), stopped);
    probes = facts.probes;
    verdict = attack.judge(facts, budgets);
  } else {
    const played: ProbeFacts[] = [];
    for (const probe of attack.probes) {
      if (stopped()) break;
      played.push(await runProbe(target, scaled(probe), normal(), info.signal));
    }
    probes = played;
    verdict = attack.judge(played, budgets);
  }
  return bareResult(def, verdict, {
    agent: info.agent,
    index: info.index,
    started,
    durationMs: performance.now() - t0,
    httpRequest: probes.map((p) => `${p.label}: ${count(p.requestBytes)} request bytes${p.trickled > 0 ? `, ${count(p.trickled)} payload bytes trickled` : ''}`).join('\n'),
    httpResponse: probes.map((p) => `${p.label}: ${answerText(p)}${p.closedMs === null ? '' : `; ended ${Math.round(p.closedMs)} ms after the frame header${p.closeCode === null ? '' : ` (close ${p.closeCode})`}`}`).join('\n'),
    isServer: false,
    transport: null,
  });
}
