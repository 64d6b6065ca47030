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

/**
 * Plays the crowd, then the normal client (`playNormal`: from another address than the crowd's,
 * when there is one); `signal` ends everything at once.
 */
export async function runCrowd(
  attack: CrowdAttack,
  normal: AttackProbe,
  play: PlayCrowdProbe,
  signal?: AbortSignal,
  apart: { play: PlayCrowdProbe; from: string } | null = null,
): Promise<CrowdFacts> {
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
  const normalFacts = await (apart?.play ?? play)(normal, signal);
  if (attack.hold) held.abort();
  return { crowd: await Promise.all(crowd), ready: readyWhenNormal, normal: normalFacts, normalFrom: apart?.from ?? null };
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
    request: `${count(facts.crowd.length)} connections (${count(facts.ready)} written when the normal client connected): ${count(bytes)} request bytes in all\nthe normal client${facts.normalFrom === null ? '' : ` (from ${facts.normalFrom}, apart from the crowd)`}: ${count(facts.normal.requestBytes)} request bytes`,
    response: `the crowd: ${told}\nthe normal client: ${answerText(facts.normal)}`,
  };
}

/** A crowd of connections, then a normal client beside them. */
export const crowdPlayer: AttackPlayer<CrowdAttack> = {
  async play(attack, on) {
    // The normal client comes from another loopback address than the crowd's (all of 127.0.0.0/8 is
    // this machine): a server that caps connections per client address is defending itself, not refusing a client.
    const from = apartFrom(on.target.host);
    const apart = from === null ? null : { from, play: (p: AttackProbe, s: AbortSignal | undefined) => on.probe(p, s, undefined, from) };
    const facts = await runCrowd(attack, { label: 'the normal client', size: 0, waitMs: attack.normalWaitMs }, on.probe, on.signal, apart);
    return { verdict: attack.judge(facts, on.budgets), ...crowdLines(facts) };
  },
};

/**
 * A loopback address for a client that is to come from elsewhere than the crowd: Linux connects to
 * any of 127.0.0.0/8 from 127.0.0.1 (the local route's source), so 127.0.0.2, or 127.0.0.3 for a
 * server on 127.0.0.2; null when the server is not on IPv4 loopback (no other address of this
 * machine is known to reach it).
 */
export function apartFrom(host: string): string | null {
  if (!/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return null;
  return host === '127.0.0.2' ? '127.0.0.3' : '127.0.0.2';
}
