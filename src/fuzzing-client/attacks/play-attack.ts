/**
 * A robustness case against a server under test (group 17): its attack played (a growth plan, fixed
 * probes, or a crowd beside a normal client, each a raw connection; or an HTTP/2 flood on one connection), the measured facts judged by
 * the case's own pure function, and a case report of the figures (no frame log: the requests are too
 * large to keep, and the figures are the point).
 */
import type { AttackProbe, ProbeFacts, ServerAttack } from '../../cases/attack-types.js';
import { DEFAULT_BUDGETS, scaledMs, type RobustnessBudgets } from '../../cases/data/budgets.js';
import { answerText, count } from '../../robustness/attack-judges.js';
import type { Judgement } from '../../cases/judgement.js';
import type { CatalogueCase } from '../../cases/types.js';
import type { CaseResult } from '../../model/report.js';
import { bareResult } from '../../play/bare-result.js';
import { utcNow } from '../../play/case-runner.js';
import { newClientKey, type UpgradeRequestSpec } from '../../protocol/client-handshake.js';
import type { PlaySettings, ServerTarget } from '../play-types.js';
import { targetHostPort } from '../play-case.js';
import { crowdLines, runCrowd } from './crowd.js';
import { runGrowth } from './growth.js';
import { runCutBlocks } from './h2-cut-blocks.js';
import { runH2Flood } from './h2-flood.js';
import { floodLines } from './h2-flood-lines.js';
import { runProbe } from './probe.js';

/** What an attack played: its verdict, and the report's request and response lines. */
interface Played {
  verdict: Judgement;
  request: string;
  response: string;
}

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
    transport: def.attack.kind === 'h2-flood' ? 'h2' : null,
  });
}

/** The attack played by its kind, and judged. */
async function play(target: ServerTarget, attack: ServerAttack, signal: AbortSignal | undefined, settings: PlaySettings): Promise<Played> {
  // Each probe a fresh key, the fuzzing client's usual request otherwise.
  const normal = (): UpgradeRequestSpec => ({
    host: targetHostPort(target),
    target: target.resource,
    key: newClientKey(settings.randomBytes),
    headers: [['User-Agent', settings.userAgent]],
  });
  const stopped = (): boolean => signal?.aborted === true;
  const budgets = settings.budgets ?? DEFAULT_BUDGETS;
  const scaled = (probe: AttackProbe): AttackProbe => ({ ...probe, waitMs: waitFor(probe, budgets) });
  const probe = (p: AttackProbe, s = signal, written?: () => void): Promise<ProbeFacts> => runProbe(target, scaled(p), normal(), s, written);
  if (attack.kind === 'growth') {
    const facts = await runGrowth({ ...attack, stopAfterMs: scaledMs(attack.stopAfterMs, budgets) }, (p) => probe(p), stopped);
    return { verdict: attack.judge(facts, budgets), ...probeLines(facts.probes) };
  }
  if (attack.kind === 'crowd') {
    const facts = await runCrowd(attack, { label: 'the normal client', size: 0, waitMs: attack.normalWaitMs }, probe, signal);
    return { verdict: attack.judge(facts, budgets), ...crowdLines(facts) };
  }
  if (attack.kind === 'h2-flood') {
    const facts =
      attack.flood === 'cut-blocks' ? await runCutBlocks(target, attack, signal) : await runH2Flood(target, attack, scaledMs(attack.graceMs, budgets), signal);
    return { verdict: attack.judge(facts, budgets), ...floodLines(facts) };
  }
  const played: ProbeFacts[] = [];
  for (const p of attack.probes) {
    if (stopped()) break;
    played.push(await probe(p));
  }
  return { verdict: attack.judge(played, budgets), ...probeLines(played) };
}

/** A probe's wait under the run's budgets: a trickled head waits the `stall` budget, the others their own wait times the `time` factor. */
function waitFor(probe: AttackProbe, budgets: RobustnessBudgets): number {
  return probe.delivery?.kind === 'trickle' ? budgets.stallMs : scaledMs(probe.waitMs, budgets);
}

/** One line per probe: what was written, what came back. */
function probeLines(probes: readonly ProbeFacts[]): { request: string; response: string } {
  return {
    request: probes
      .map((p) => `${p.label}: ${count(p.requestBytes)} request bytes${p.trickled > 0 ? `, ${count(p.trickled)} payload bytes trickled` : ''}`)
      .join('\n'),
    response: probes
      .map(
        (p) =>
          `${p.label}: ${answerText(p)}${p.closedMs === null ? '' : `; ended ${Math.round(p.closedMs)} ms after the frame header${p.closeCode === null ? '' : ` (close ${p.closeCode})`}`}`,
      )
      .join('\n'),
  };
}
