/**
 * The contract between the one run skeleton (run/run.ts) and a role: the skeleton selects the
 * cases, loads the baseline, prepares TLS, schedules, reports progress, decides exclusion, concludes
 * each case once (the gate rule, the baseline), accounts for the cases a signal cut short, and
 * finishes the run; a driver only starts the peer under test, plays a case against it (or lets a peer
 * that drives the cases itself play them), tells what it saw (a CaseOutcome), and stops it. A new way
 * of reaching a peer is a new driver, not a new run.
 */
import type { Logger } from 'pino';
import type { CatalogueCase } from '../cases/types.js';
import type { CaseResult, ClientRun } from '../model/report.js';
import type { PeerFacts } from '../play/attack-figures.js';
import type { TlsSetup } from '../tls/setup.js';
import type { CaseWarningFact, MissingFact, NotRunFact, PeerDeath, PeerFailureFact, TransportFact } from '../model/peer.js';

export type { PeerDeath } from '../model/peer.js';

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
   * or stopped serving (the liveness check), a client process that died on its own before its close.
   * The case fails whatever its verdicts say.
   */
  peerFailure?: PeerFailureFact;
  /**
   * A robustness case: what the driver saw of the peer around it (its memory, the liveness check, the
   * client's death), as facts; the skeleton decides the case's one verdict from them (run/conclude.ts).
   */
  peer?: PeerFacts;
}

/** Where a run writes its human output, and how it is stopped early. */
export interface GateIo {
  out: NodeJS.WritableStream;
  logger: Logger;
  /** Aborted on SIGINT/SIGTERM: no new case starts, the running peer is stopped. */
  signal?: AbortSignal;
  isTty: boolean;
  /** The environment (GitHub Actions variables); process.env when absent. */
  env?: NodeJS.ProcessEnv;
}

/** What the skeleton hands a driver when it starts a peer. */
export interface PeerContext {
  /** The selected cases (this shard's), in catalogue order: index i + 1 is a case's place in the run. */
  cases: readonly CatalogueCase[];
  io: GateIo;
  /** The run's certificates over wss://, or null. */
  secure: TlsSetup | null;
  /** Agents of the peers tested before this one in the same run. */
  taken: ReadonlySet<string>;
  /** The spec's exclude-agent-cases, decided by the skeleton: a peer's server that serves /runCase itself closes these at once. */
  excluded: (agent: string, id: string) => boolean;
}

/**
 * How a peer's cases are played: one by one, scheduled by the skeleton, or by the peer itself (a
 * looping client), which hands over each case's outcome (`index` 1-based) as it ends, then the rest.
 */
export type CasePlay =
  | { readonly kind: 'each'; playCase(def: CatalogueCase, index: number): Promise<CaseOutcome> }
  | { readonly kind: 'self'; playAll(settle: (index: number, outcome: CaseOutcome) => void): Promise<void> };

/** A started peer under test. */
export interface Peer {
  /** The agent its results are recorded under. */
  readonly agent: string;
  /** The run's first line after "wsgate: N cases, …": against what, where. */
  readonly against: string;
  /** How many cases it plays at once. */
  readonly atOnce: number;
  /** Lines printed under the run's first line (what the peer is given, say). */
  readonly notes: readonly string[];
  readonly play: CasePlay;
  /**
   * What cut the peer's run short, each in one line (a browser that exited, a page that stalled):
   * some case was not run, so the run cannot pass. Absent or empty: nothing did.
   */
  incidents?(): readonly string[];
  /** Drops any result the peer holds for case `id` from its reports: the skeleton reports it as not run. */
  forget(id: string): void;
  /** Stops the peer (its process tree, its connections); a warning to print, or null. */
  stop(): Promise<string | null>;
}

/** A role: the peers it tests, one after another, and what only it knows of the run. */
export interface RoleDriver {
  /** What TLS needs of this role: the names to certify, whether a server's files are written. */
  readonly tlsNeeds: { hosts: string[]; serverFiles: boolean; needCertificate: boolean };
  /** How many peers it tests (a fuzzingclient.json may list several servers). */
  readonly peerCount: number;
  /** Starts peer `n` (0-based); it is stopped before the next one starts. */
  startPeer(n: number, context: PeerContext): Promise<Peer>;
  /**
   * Writes every peer's case reports once all have stopped; the agents written. `concluded`: the
   * results as the run concluded them (a robustness case's one verdict), in place of the ones its
   * peer played with the same agent and id.
   */
  writeReports(concluded: readonly CaseResult[]): Promise<string[]>;
  /** The peers' processes' CPU over the run, in ms, or null when unknown. */
  peerCpuMs(): number | null;
  /** The run record's own fields for this role (summary.json names a server role; the client role is the default). */
  readonly recordRole: { role?: 'server' };
}
