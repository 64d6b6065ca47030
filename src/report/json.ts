/**
 * JSON reports: Autobahn's per-case file and index.json (byte-compatible), and wsgate's own summary for CI.
 */
import { agentFilePrefixes, caseReportBase } from './files.js';
import type { CaseResult, GateCase, GateRun, IndexEntry } from '../model/report.js';
import type { CaseSummary, RunSummary } from '../model/summary.js';
import { pythonJson } from './pyjson.js';
import { explanationOf, runCauses } from '../explain/run.js';

// Autobahn's per-case keys (39 in its real output); anything else a caller attached to the object stays out of the file.
const CASE_KEYS = [
  'agent',
  'behavior',
  'behaviorClose',
  'case',
  'closedByMe',
  'createStats',
  'createWirelog',
  'description',
  'droppedByMe',
  'duration',
  'expectation',
  'expected',
  'expectedClose',
  'failedByMe',
  'httpRequest',
  'httpResponse',
  'id',
  'isServer',
  'localCloseCode',
  'localCloseReason',
  'received',
  'remoteCloseCode',
  'remoteCloseReason',
  'reportCompressionRatio',
  'reportTime',
  'result',
  'resultClose',
  'rxFrameStats',
  'rxOctetStats',
  'started',
  'trafficStats',
  'txFrameStats',
  'txOctetStats',
  'wasClean',
  'wasCloseHandshakeTimeout',
  'wasNotCleanReason',
  'wasOpenHandshakeTimeout',
  'wasServerConnectionDropTimeout',
  'wirelog',
] as const satisfies readonly (keyof CaseResult)[];

// Compile-time guard: a key added to CaseResult but not listed above (or as wsgate's own) fails the build here.
const allKeysListed: [Exclude<keyof CaseResult, (typeof CASE_KEYS)[number] | 'tls' | 'transport' | 'wirelogTimes' | 'figures' | 'attack'>] extends [never]
  ? true
  : never = true;
void allKeysListed;

/**
 * The per-case JSON report, as Autobahn writes it (its keys, sorted, 3-space indent, ASCII); over
 * TLS, wsgate's own `tls` key joins them in sorted place (Autobahn's keys keep their values), and
 * over HTTP/2 its `transport` key; a robustness case's `figures` (name, label, value, unit, budget, over).
 */
export function caseReportJson(result: CaseResult): string {
  const picked: Record<string, unknown> = {};
  for (const key of CASE_KEYS) picked[key] = result[key];
  if (result.tls !== undefined) picked.tls = { cipher: result.tls.cipher, version: result.tls.version };
  if (result.transport !== undefined) picked.transport = result.transport;
  if (result.figures !== undefined) picked.figures = result.figures.map((f) => ({ ...f }));
  return pythonJson(picked);
}

/** Autobahn's index.json: `{agent: {caseId: {behavior, behaviorClose, duration, remoteCloseCode, reportfile}}}`. */
export function indexJson(
  results: ReadonlyMap<string, ReadonlyMap<string, CaseResult>>,
  prefixes: ReadonlyMap<string, string> = agentFilePrefixes(results.keys()).prefixes,
): string {
  const index: Record<string, Record<string, IndexEntry>> = {};
  for (const [agent, cases] of results) {
    const perAgent: Record<string, IndexEntry> = {};
    for (const [caseId, r] of cases) {
      perAgent[caseId] = {
        behavior: r.behavior,
        behaviorClose: r.behaviorClose,
        duration: r.duration,
        remoteCloseCode: r.remoteCloseCode,
        reportfile: `${caseReportBase(prefixes.get(agent) ?? '', caseId)}.json`,
      };
    }
    index[agent] = perAgent;
  }
  return pythonJson(index);
}

/** wsgate's JSON summary of a gate run, for CI scripts (2-space JSON, ends with a newline). */
export function summaryJson(run: GateRun): string {
  return `${JSON.stringify(runSummary(run), null, 2)}\n`;
}

/** The summary of a gate run (summary.json's content). */
export function runSummary(run: GateRun): RunSummary {
  const count = (pred: (c: GateCase) => boolean): number => run.cases.filter(pred).length;
  const failed = count((c) => c.status === 'failed');
  return {
    agent: run.agent,
    // The side under test: 'client' (wsgate was the fuzzing server) or 'server' (the fuzzing client).
    role: run.role ?? 'client',
    // Only over TLS: the CA handed over or trusted, whether wsgate made it, whether verification was skipped.
    ...(run.tls !== undefined ? { tls: run.tls } : {}),
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    strict: run.strict,
    failOn: run.failOn ?? null,
    baseline: run.baselineFile ?? null,
    interrupted: run.interrupted,
    shard: run.shard ?? null,
    resources: run.resources,
    counts: {
      total: run.cases.length,
      passed: count((c) => c.status === 'passed'),
      failed,
      skipped: count((c) => c.status === 'skipped'),
      // Kept in the summary's shape for scripts that read it: a fault of wsgate itself ends the whole
      // run with exit status 3, never one case, so no case is counted here.
      errors: 0,
      accepted: count((c) => c.baseline?.state === 'accepted'),
      baselinePassing: count((c) => c.baseline?.state === 'passing'),
      nonStrict: count((c) => c.result?.behavior === 'NON-STRICT'),
      informational: count((c) => c.result?.behavior === 'INFORMATIONAL' || c.result?.behaviorClose === 'INFORMATIONAL'),
    },
    // An interrupted run did not check every selected case, so it cannot pass the gate.
    result: failed > 0 || run.interrupted !== null ? 'failed' : 'passed',
    causes: runCauses(run),
    cases: run.cases.map(caseSummary),
  };
}

/** One case of the summary: its verdicts, the gate's reason, its report file and client process. */
function caseSummary(c: GateCase): CaseSummary {
  return {
    index: c.index,
    id: c.id,
    // Only when the run tested several servers: whose case it is.
    ...(c.agent !== undefined ? { agent: c.agent } : {}),
    // "wsgate" for wsgate's own cases (group 14, --extended), "autobahn" for Autobahn|Testsuite's.
    origin: c.origin,
    status: c.status,
    behavior: c.result?.behavior ?? null,
    behaviorClose: c.result?.behaviorClose ?? null,
    remoteCloseCode: c.result?.remoteCloseCode ?? null,
    duration: c.result?.duration ?? null,
    ...(c.result?.tls !== undefined ? { tls: { version: c.result.tls.version, cipher: c.result.tls.cipher } } : {}),
    // Which transport carried the case: "http/1.1" (RFC 6455) or "h2" (RFC 8441); null with no result.
    transport: c.result === null ? null : (c.result.transport ?? 'http/1.1'),
    timeMs: c.timeMs,
    reason: c.reason,
    explanation: explanationOf(c),
    warnings: c.warnings,
    baseline: c.baseline ?? null,
    // Only when the peer's process died while the case was open: how, and the cases open then.
    ...(c.death !== undefined ? { peerDeath: c.death } : {}),
    reportfile: c.reportBase === null ? null : `${c.reportBase}.json`,
    client:
      c.client === null
        ? null
        : {
            exitCode: c.client.exitCode,
            signal: c.client.signal,
            timedOut: c.client.timedOut,
            spawnError: c.client.spawnError,
            command: c.client.command,
            output: c.client.output,
            outputTruncated: c.client.outputTruncated,
          },
  };
}
