/**
 * A crowd attack's plan: many connections at once, each writing the crowd's request (whole, or a
 * head that never ends), then, once they are all written, a normal client's upgrade request beside
 * them, timed. Held crowds are closed by wsgate once the normal client is done (no connection
 * outlives the case); the others wait for their own answers. wsgate holds one request head per
 * connection, nothing more.
 */
import { setMaxListeners } from 'node:events';
import type { AttackProbe, CrowdAttack, CrowdFacts, ProbeFacts } from '../../cases/attack-types.js';
import { answerText, count } from '../../robustness/attack-judges.js';
import type { AttackPlayer } from './player.js';

/** How the plan plays a probe (the engine's runProbe, bound to the target): `written` once its request is out. */
export type PlayCrowdProbe = (probe: AttackProbe, signal: AbortSignal | undefined, written?: () => void) => Promise<ProbeFacts>;

/** The longest wait for the crowd's requests to be written before the normal client connects anyway (ms). */
const READY_WITHIN_MS = 5000;

/** Plays the crowd, then the normal client; `signal` ends everything at once. */
export async function runCrowd(attack: CrowdAttack, normal: AttackProbe, play: PlayCrowdProbe, signal?: AbortSignal): Promise<CrowdFacts> {
  const held = new AbortController();
  const crowdSignal = signal === undefined ? held.signal : AbortSignal.any([signal, held.signal]);
  // Every connection of the crowd listens to this one signal, which is the crowd's alone: without
  // this, Node warns of a listener leak (MaxListenersExceededWarning) past 10 connections.
  setMaxListeners(attack.connections + 1, crowdSignal);
  let ready = 0;
  let allReady = (): void => undefined;
  const readyAll = new Promise<void>((resolve) => (allReady = resolve));
  const crowd = Array.from({ length: attack.connections }, () =>
    play(attack.crowd, crowdSignal, () => {
      ready++;
      if (ready === attack.connections) allReady();
    }),
  );
  let cap: NodeJS.Timeout | null = null;
  const capped = new Promise<void>((resolve) => (cap = setTimeout(resolve, READY_WITHIN_MS)));
  await Promise.race([readyAll, capped, Promise.all(crowd)]);
  if (cap !== null) clearTimeout(cap);
  const readyWhenNormal = ready;
  const normalFacts = await play(normal, signal);
  if (attack.hold) held.abort();
  return { crowd: await Promise.all(crowd), ready: readyWhenNormal, normal: normalFacts };
}

/** The report's request and response lines of a crowd: counted, not one line per connection. */
export function crowdLines(facts: CrowdFacts): { request: string; response: string } {
  const bytes = facts.crowd.reduce((sum, p) => sum + p.requestBytes, 0);
  const answers = new Map<string, number>();
  for (const p of facts.crowd) {
    const what = p.status !== null ? `HTTP ${p.status}` : p.ending === 'timeout' ? 'held open until wsgate closed it' : answerText(p);
    answers.set(what, (answers.get(what) ?? 0) + 1);
  }
  const told = [...answers].map(([what, n]) => `${count(n)}: ${what}`).join('; ');
  return {
    request: `${count(facts.crowd.length)} connections (${count(facts.ready)} written when the normal client connected): ${count(bytes)} request bytes in all\nthe normal client: ${count(facts.normal.requestBytes)} request bytes`,
    response: `the crowd: ${told}\nthe normal client: ${answerText(facts.normal)}`,
  };
}

/** A crowd of connections, then a normal client beside them. */
export const crowdPlayer: AttackPlayer<CrowdAttack> = {
  async play(attack, on) {
    const facts = await runCrowd(attack, { label: 'the normal client', size: 0, waitMs: attack.normalWaitMs }, on.probe, on.signal);
    return { verdict: attack.judge(facts, on.budgets), ...crowdLines(facts) };
  },
};
