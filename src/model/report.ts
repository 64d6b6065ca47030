/**
 * The report model: the single source of truth every renderer (JSON, HTML, JUnit, console) reads.
 * Field names are Autobahn|Testsuite's, so tools that read its per-case reports keep working.
 */
import type { CauseGroup } from './explanation.js';
import type { AttackRecord, Figure } from './figures.js';
import type { NotRunFact, PeerDeath } from './peer.js';
import type { CloseVerdict, OutcomeVerdict } from './verdicts.js';

/** Whose case it is: Autobahn|Testsuite's, or wsgate's own (group 14, --extended). */
export type CaseOrigin = 'autobahn' | 'wsgate';

/** An observed or expected event, as written in reports (payloads already cut/encoded as Autobahn does). */
export type ReportEvent = readonly ['message', string, boolean] | readonly ['ping', string] | readonly ['pong', string] | readonly ['timeout', string];

/** Expected event lists keyed by the outcome they produce ("OK", "NON-STRICT"). */
export type ExpectedEvents = Partial<Record<'OK' | 'NON-STRICT', ReportEvent[]>>;

/** What the case expects of the closing handshake (Autobahn's `expectedClose`). */
export interface ExpectedClose {
  closedByMe: boolean;
  closeCode: number[];
  requireClean: boolean;
  closedByWrongEndpointIsFatal?: boolean;
}

/**
 * One wire log entry, as Autobahn serialises it in the per-case JSON (`wirelog`).
 * RO/TO: octets received/sent ([length, hex (cut)], sync); RF/TF: frames; KL/KLE, TI/TIE, CT/CTE: timers;
 * WLM: wire log switched on/off.
 */
export type WirelogEntry =
  | readonly ['RO', readonly [number, string]]
  | readonly ['TO', readonly [number, string], boolean]
  | readonly ['RF', readonly [number, string], number, boolean, number, boolean, string | null]
  | readonly ['TF', readonly [number, string], number, boolean, number, string | null, number | null, number | null, boolean]
  | readonly ['KL', number]
  | readonly ['KLE']
  | readonly ['TI', number]
  | readonly ['TIE']
  | readonly ['CT', number, string | null]
  | readonly ['CTE', string | null]
  | readonly ['WLM', boolean];

/** Compression statistics of a permessage-deflate case (null elsewhere). */
export type TrafficStats = Record<string, number | null>;

/**
 * The result of one case for one agent: exactly the 41 keys of Autobahn's per-case JSON.
 * Counts in the *Stats maps are keyed by opcode / chunk size as decimal strings.
 */
export interface CaseResult {
  agent: string;
  behavior: OutcomeVerdict;
  behaviorClose: CloseVerdict;
  case: number;
  closedByMe: boolean;
  createStats: boolean;
  createWirelog: boolean;
  description: string;
  droppedByMe: boolean;
  duration: number;
  expectation: string;
  expected: ExpectedEvents;
  /** Empty when the connection never opened (Autobahn's cases set it when they start). */
  expectedClose: ExpectedClose | Record<string, never>;
  failedByMe: boolean;
  httpRequest: string;
  httpResponse: string;
  id: string;
  isServer: boolean;
  localCloseCode: number | null;
  localCloseReason: string | null;
  received: ReportEvent[];
  remoteCloseCode: number | null;
  remoteCloseReason: string | null;
  reportCompressionRatio: boolean;
  reportTime: boolean;
  result: string;
  resultClose: string;
  rxFrameStats: Record<string, number>;
  rxOctetStats: Record<string, number>;
  started: string;
  trafficStats: TrafficStats | null;
  txFrameStats: Record<string, number>;
  txOctetStats: Record<string, number>;
  wasClean: boolean;
  wasCloseHandshakeTimeout: boolean;
  wasNotCleanReason: string | null;
  wasOpenHandshakeTimeout: boolean;
  wasServerConnectionDropTimeout: boolean;
  wirelog: WirelogEntry[];
  /** wsgate's own, beside Autobahn's keys: the TLS connection of the case (absent over plain TCP). */
  tls?: TlsInfo;
  /**
   * wsgate's own, beside Autobahn's keys: "h2" when the case's WebSocket was an HTTP/2 stream
   * (RFC 8441); absent over HTTP/1.1, so those reports keep the original's bytes.
   */
  transport?: 'h2';
  /**
   * wsgate's own, never written to the per-case file: when each `wirelog` entry was logged, in ms
   * since the connection started (absent for a report read from disk). Explanations quote it.
   */
  wirelogTimes?: readonly number[];
  /**
   * wsgate's own, beside Autobahn's keys, for a robustness case only: its measured figures beside
   * their budgets (written to the per-case file in sorted place).
   */
  figures?: readonly Figure[];
  /**
   * wsgate's own, never written: a robustness case's own verdict and its connection's facts, kept
   * until the run decides its one verdict (play/attack-figures.ts judgeRobustness).
   */
  attack?: AttackRecord;
}

/** The TLS version and cipher suite (its IANA name) a case's connection agreed on. */
export interface TlsInfo {
  version: string;
  cipher: string;
}

/** One row of `index.json` (Autobahn's five keys). */
export interface IndexEntry {
  behavior: string;
  behaviorClose: string;
  duration: number;
  remoteCloseCode: number | null;
  reportfile: string;
}

/** A case as the catalogue lists it (for index.html's table of the selected cases and their descriptions). */
export interface CaseInfo {
  id: string;
  category: string;
  subcategory: string;
  origin: CaseOrigin;
  description: string;
  expectation: string;
}

/** What the gate concluded for one case (both verdict axes, the client process, and the rule applied). */
export type GateStatus = 'passed' | 'failed' | 'skipped';

/** The gate's word on one case, as the HTML index shows it beside Autobahn's two verdicts. */
export interface GateCell {
  readonly status: GateStatus;
  /** The cause's title, in a few words, for a failed case with an explanation; else null. */
  readonly cause: string | null;
  /** Why, in full (the explanation, or the gate's reason); '' for a passed case. */
  readonly why: string;
}

/** The gate's cells of a run, per agent and case id: what index.html counts (summary.json's counts). */
export type GateIndex = ReadonlyMap<string, ReadonlyMap<string, GateCell>>;

/** What the gate concluded, for the reports written after it: each case's cell and the run's causes. */
export interface GateView {
  readonly gate: GateIndex;
  readonly causes: readonly CauseGroup[];
}

/** The client process of one case (per-case mode) as the gate saw it. Output is bounded. */
export interface ClientRun {
  command: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** Set when the command could not be started at all (e.g. not found). */
  spawnError: string | null;
  /** Last bytes of stdout/stderr, bounded. */
  output: string;
  outputTruncated: boolean;
}

/** One selected case's outcome in a gate run. */
export interface GateCase {
  /** 1-based index into the selected case list (the `/runCase?case=N` index). */
  index: number;
  id: string;
  /** The agent, when a run tests several (servers of one fuzzingclient.json); absent: the run's agent. */
  agent?: string;
  category: string;
  subcategory: string;
  origin: CaseOrigin;
  description: string;
  status: GateStatus;
  /** One line: why the case failed, was skipped or warned (empty on a plain pass). */
  reason: string;
  /** Non-fatal remarks (NON-STRICT outcome, client exit status, lingering process). */
  warnings: string[];
  /** Wall time of the case in ms as the gate measured it (handshake to TCP close, or to timeout). */
  timeMs: number;
  /** The server's report, when the client connected and the case ran. */
  result: CaseResult | null;
  client: ClientRun | null;
  /** Path of the per-case JSON/HTML report relative to the output directory (without extension). */
  reportBase: string | null;
  /** Set when a baseline file names the case (see policy/baseline.ts). */
  baseline?: BaselineMark;
  /** The peer's process died while the case was open: the case fails for it (drivers/driver.ts). */
  death?: PeerDeath;
  /**
   * Why the case was not run, when it was kept from running (not excluded): the fact its reason words.
   * Never written: a run cut short reports these cases as errors (report/junit.ts).
   */
  notRun?: NotRunFact;
}

/** What the baseline did to a case: accepted its failure, or named a case that passes now. */
export interface BaselineMark {
  state: 'accepted' | 'passing';
  /** The baseline's case pattern that matched. */
  pattern: string;
  /** The baseline's reason for accepting the case. */
  reason: string;
  /** The failure the baseline accepted (null when the case passes). */
  failure: string | null;
  /** The title of the accepted failure's cause (absent when the case passes, or its failure has no explanation). */
  cause?: string;
}

/** A whole gate run: what the JUnit, JSON summary and console renderers read. */
export interface GateRun {
  agent: string;
  startedAt: string;
  durationMs: number;
  strict: boolean;
  cases: GateCase[];
  /** Set when the run was interrupted (signal) or cut short (a browser that exited or stalled, run/run.ts): the cases not run are 'skipped', and the run fails. */
  interrupted: string | null;
  /** wsgate's own resource use over the run (its client processes not included). */
  resources: RunResources | null;
  /** The slice of the selection this run covered (--shard K/N); absent or null: all of it. */
  shard?: { index: number; count: number } | null;
  /** The verdicts that failed a case in this run (absent: the default rule, plus NON-STRICT when strict). */
  failOn?: string[];
  /** The baseline file applied, if any. */
  baselineFile?: string;
  /** The side under test (absent: the client; wsgate was the fuzzing server). */
  role?: 'client' | 'server';
  /** Set when the run was over TLS (wss://). */
  tls?: RunTls;
}

/** How a run used TLS. */
export interface RunTls {
  /** The CA certificate handed to the client or trusted for the server (a path), or null (the system's roots, or none). */
  caFile: string | null;
  /** wsgate made a throwaway CA and server certificate for this run. */
  generated: boolean;
  /** The server role skipped certificate verification (--insecure). */
  insecure: boolean;
}

/** CPU time and peak memory of the wsgate process. */
export interface RunResources {
  cpuUserMs: number;
  cpuSystemMs: number;
  maxRssKiB: number;
  /**
   * CPU time of the processes under test over the run: the client processes (and their children),
   * or the server wsgate started; null where the OS does not tell.
   */
  clientCpuMs: number | null;
}

/** How a case is named in output: its id, after its agent when a run tests several. */
export function caseLabel(c: Pick<GateCase, 'id' | 'agent'>): string {
  return c.agent === undefined ? c.id : `${c.agent} ${c.id}`;
}
