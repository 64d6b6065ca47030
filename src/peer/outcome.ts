/**
 * What a driver saw of one case, as the run skeleton receives it: the peer's result and the facts
 * around it (model/peer.ts), told by the peer's watches (peer/) and drivers, decided and worded by
 * the skeleton (run/conclude.ts, explain/peer-words.ts).
 */
import type { CaseResult, ClientRun } from '../model/report.js';
import type { PeerFacts } from '../play/attack-figures.js';
import type { CaseWarningFact, MissingFact, NotRunFact, PeerDeath, PeerFailureFact, TransportFact } from '../model/peer.js';

/**
 * What a driver saw of one case, raw: no verdict, no exclusion, no sentence. Why a case has no
 * result or was not played is told as facts (model/peer.ts); the skeleton words them
 * (explain/peer-words.ts) and decides.
 */
export interface CaseOutcome {
  /** Autobahn's result, or null when the case produced none. */
  result: CaseResult | null;
  /** When the result was recorded (performance.now()), or null: a result after the run's signal was cut short. */
  resultAt: number | null;
  /** The client process of the case (or of the whole run, for a looping client), or null. */
  client: ClientRun | null;
  /** The peer connected for this case (its opening handshake was seen). */
  sawConnection: boolean;
  /** What went amiss around a case that played, as facts (its verdict stands). */
  warnings: CaseWarningFact[];
  timeMs: number;
  /** The agent the peer played the case as, when the peer names itself (a looping client). */
  agent?: string;
  /** Why there is no result, as a fact, told instead of what the client process did. */
  missing?: MissingFact;
  /** The time limit, in seconds, a killed client is said to have run over (default: the case's). */
  limitS?: number;
  /** Told first in the reason of a case without a result: the client's TLS or HTTP/2 failed. */
  transport?: TransportFact | null;
  /**
   * Settles once the driver knows whether the peer's process died while this case was open (the
   * server under test, started by wsgate): that death, charged to this case, or null. It may settle
   * after the next case started: the skeleton waits for it without holding a job slot.
   */
  died?: Promise<PeerDeath | null>;
  /** The case could not be played at all (nothing accepted connections, the server is gone): not run, for this reason (the skeleton words it). */
  notRun?: NotRunFact;
  /**
   * The peer under test failed during or after the case (the robustness profile): a server that died
   * or stopped serving (the liveness check), a client process that died on its own (before its close, or after it).
   * The case fails whatever its verdicts say.
   */
  peerFailure?: PeerFailureFact;
  /**
   * A robustness case: what the driver saw of the peer around it (its memory, the liveness check, the
   * client's death), as facts; the skeleton decides the case's one verdict from them (run/conclude.ts).
   */
  peer?: PeerFacts;
}
