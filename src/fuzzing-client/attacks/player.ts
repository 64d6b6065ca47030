/**
 * How the engine plays one kind of raw attack (cases/attack-types.ts's AttackKinds): its player
 * runs the attack on the ground play-attack.ts lays (the server, the run's signal and budgets, a
 * probe that writes one raw connection), judges the facts with the case's own judge, and words the
 * report's request and response lines. A new kind is its type (beside its cases, or in
 * attack-types.ts when subgroups share it), its player (a file here), and its line in
 * play-attack.ts's table: three files.
 */
import type { AttackProbe, ProbeFacts } from '../../cases/attack-types.js';
import type { RobustnessBudgets } from '../../cases/data/budgets.js';
import type { Judgement } from '../../cases/judgement.js';
import type { PlaySettings, ServerTarget } from '../play-types.js';

/** What an attack played: its verdict, and the report's request and response lines. */
export interface Played {
  verdict: Judgement;
  request: string;
  response: string;
}

/** What every player is given: where the server is, the run's signal and budgets, one raw connection at a time. */
export interface AttackGround {
  readonly target: ServerTarget;
  readonly signal: AbortSignal | undefined;
  readonly settings: PlaySettings;
  readonly budgets: RobustnessBudgets;
  /**
   * One raw connection (a fresh key, the run's budgets on its wait); `written` when its request has
   * gone; `from`: the local address it connects from (absent: the system's choice).
   */
  probe(probe: AttackProbe, signal?: AbortSignal, written?: () => void, from?: string): Promise<ProbeFacts>;
  /** The run's signal came: play no further. */
  stopped(): boolean;
}

/** One kind's player. */
export interface AttackPlayer<A> {
  /** The attack is one HTTP/2 connection (the report's transport), not raw HTTP/1.1 ones. */
  readonly transport?: 'h2';
  play(attack: A, on: AttackGround): Promise<Played>;
}
