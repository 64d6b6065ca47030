/**
 * The contract between the one run skeleton (run/run.ts) and a role: the skeleton selects the
 * cases, loads the baseline, prepares TLS, schedules, reports progress, decides exclusion, concludes
 * each case once (the gate rule, the baseline), accounts for the cases a signal cut short, and
 * finishes the run, and owns the watch on each peer (peer/watch.ts: its processes, their output, their
 * CPU, their end); a driver only starts the peer under test through that watch, plays a case against
 * it (or lets a peer that drives the cases itself play them), and tells what it saw (a CaseOutcome).
 * A new way of reaching a peer is a new driver, not a new run.
 */
import type { Logger } from 'pino';
import type { CatalogueCase } from '../cases/types.js';
import type { CaseResult, GateView } from '../model/report.js';
import type { TlsSetup } from '../tls/setup.js';
import type { CaseOutcome } from '../peer/outcome.js';
import type { PeerWatch } from '../peer/watch.js';

export type { PeerDeath } from '../model/peer.js';
export type { CaseOutcome } from '../peer/outcome.js';

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
  /**
   * The run's watch on this peer (peer/watch.ts): every process of the peer is started through it,
   * and the skeleton ends whatever of it still runs once the peer's cases are played.
   */
  watch: PeerWatch;
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
  /** Stops what the driver itself holds (a fuzzing server, its connections); the watch then ends the peer's processes. A warning to print, or null. */
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
  writeReports(concluded: readonly CaseResult[], view: GateView): Promise<string[]>;
  /** The run record's own fields for this role (summary.json names a server role; the client role is the default). */
  readonly recordRole: { role?: 'server' };
}
