/**
 * summary.json, wsgate's own JSON summary of a run (`run`, `judge`, `merge`): the contract CI scripts
 * read, and what the programmatic API returns. Fields are only ever added, never renamed or removed
 * within a major version.
 */
import type { CauseGroup, Explanation } from './explanation.js';
import type { BaselineMark, CaseOrigin, GateStatus, RunResources, RunTls } from './report.js';
import type { CloseVerdict, OutcomeVerdict } from './verdicts.js';

/** A run's summary: its settings, its counts, its outcome and one entry per selected case. */
export interface RunSummary {
  agent: string;
  /** The side under test: 'client' (wsgate was the fuzzing server) or 'server' (the fuzzing client). */
  role: 'client' | 'server';
  /** Only over TLS: the CA handed over or trusted, whether wsgate made it, whether verification was skipped. */
  tls?: RunTls;
  /** ISO 8601 time the run started. */
  startedAt: string;
  durationMs: number;
  strict: boolean;
  /** The verdicts that failed a case, or null: the default rule. */
  failOn: string[] | null;
  /** The baseline file applied, or null. */
  baseline: string | null;
  /** Why the run stopped early (a signal, an abort), or null: it ran to the end. */
  interrupted: string | null;
  /** The slice of the selection this run covered (K of N), or null: all of it. */
  shard: { index: number; count: number } | null;
  resources: RunResources | null;
  counts: SummaryCounts;
  /** 'passed' when no case failed and the run was not interrupted: the gate's decision. */
  result: 'passed' | 'failed';
  /** The failing cases grouped by cause (a requirement broken in one way), most cases first. */
  causes: CauseGroup[];
  cases: CaseSummary[];
}

/** How many selected cases ended each way. */
export interface SummaryCounts {
  total: number;
  passed: number;
  /** Failed, including cases that could not run. */
  failed: number;
  /** Skipped: unimplemented, excluded, not reached, or accepted by the baseline. */
  skipped: number;
  /** Always 0: a fault of wsgate itself ends the whole run (exit status 3), never one case. */
  errors: number;
  /** Failing cases the baseline accepted. */
  accepted: number;
  /** Cases the baseline names that pass now. */
  baselinePassing: number;
  nonStrict: number;
  informational: number;
}

/** One selected case: its verdicts, the gate's reason, its report file and client process. */
export interface CaseSummary {
  /** 1-based index in the selection (the `/runCase?case=N` index). */
  index: number;
  id: string;
  /** Only when the run tested several servers: whose case it is. */
  agent?: string;
  /** 'autobahn' for Autobahn|Testsuite's cases, 'wsgate' for wsgate's own (--extended). */
  origin: CaseOrigin;
  status: GateStatus;
  /** Autobahn's two verdicts, null when the case did not run. */
  behavior: OutcomeVerdict | null;
  behaviorClose: CloseVerdict | null;
  remoteCloseCode: number | null;
  /** The case's duration in ms as its report says, null when it did not run. */
  duration: number | null;
  /** Only over TLS: the protocol version and cipher the case's connection used. */
  tls?: { version: string; cipher: string };
  /** The transport that carried the case: "http/1.1" (RFC 6455) or "h2" (RFC 8441); null when it did not run. */
  transport: 'http/1.1' | 'h2' | null;
  /** Wall time of the case in ms as the gate measured it. */
  timeMs: number;
  /** One line: why the case failed, was skipped or warned (empty on a plain pass). */
  reason: string;
  /**
   * wsgate's account of any verdict other than OK (or of no result): the requirement, the peer's
   * first divergence, the ending, the cause; null when the case passed with OK/OK or was not run.
   */
  explanation: Explanation | null;
  warnings: string[];
  baseline: BaselineMark | null;
  /** The per-case JSON report, relative to the report directory, or null. */
  reportfile: string | null;
  /** The client process of this case (a client run per case), or null. */
  client: {
    exitCode: number | null;
    signal: string | null;
    timedOut: boolean;
    spawnError: string | null;
    command: string;
    output: string;
    outputTruncated: boolean;
  } | null;
}
