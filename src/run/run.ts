/**
 * One run of the gate, whichever side is under test: the cases selected, the baseline loaded, TLS
 * prepared, each peer started by the role's driver, the cases scheduled (jobs, group 9 alone,
 * shards), each case settled once (exclusion, the gate rule's conclusion, the baseline, its progress
 * line), the run record built and the run finished (reports, JUnit, summary, GitHub, exit status).
 */
import type { CatalogueCase } from '../cases/types.js';
import { UsageError } from '../errors.js';
import type { RunConfig } from '../config/run-config.js';
import { clientRoleDriver } from '../drivers/client-role.js';
import type { CaseOutcome, GateIo, Peer, PeerDeath, RoleDriver } from '../drivers/driver.js';
import { runCasesScheduled, selectForRun } from './schedule.js';
import { serverRoleDriver } from '../drivers/server-role.js';
import type { NotRunFact } from '../model/peer.js';
import { caseLabel, type CaseResult, type GateCase, type GateRun } from '../model/report.js';
import { finishRun } from '../finish/finish-run.js';
import { applyBaseline, loadBaseline, type Baseline } from '../policy/baseline.js';
import { conclude, excludedReason, notRun } from './conclude.js';
import { agentExclusion } from './exclusion.js';
import { isAborted } from '../processes/waiting.js';
import { agentFilePrefixes, caseReportBase } from '../report/files.js';
import { ReproKeeper } from '../repro/keeper.js';
import { prepareTls, type TlsSetup } from '../tls/setup.js';
import { Progress } from '../report/progress.js';
import { gateView } from '../explain/run.js';
import { checkOutputs, startMeter } from './resources.js';
import { PeerWatch } from '../peer/watch.js';

/**
 * How a run ends once its case reports are written: by default the gate's ending (JUnit, summary.json,
 * the console summary, GitHub, the exit status); `wstest` ends its own way (the original's files only).
 */
export type RunEnding = (run: GateRun) => Promise<number>;

/** Runs the gate; returns the exit status. Throws UsageError for bad configuration. */
export async function runGate(config: RunConfig, io: GateIo, ending?: RunEnding): Promise<number> {
  // A shard may come out empty (more shards than cases): it runs nothing and passes.
  const { cases, selected } = selectForRun(config);
  // Read before any case runs: a bad baseline is a usage error (exit 2), not a late surprise.
  const baseline = config.baseline === null ? null : loadBaseline(config.baseline);
  await checkOutputs(config);
  const driver: RoleDriver = config.role === 'server' ? serverRoleDriver(config) : clientRoleDriver(config);
  const secure = config.tls === null ? null : await prepareTls(config.tls, { ...driver.tlsNeeds, outdir: config.outdir });
  const meter = startMeter();
  const progress = new Progress(io.out, io.isTty, cases.length, config.quiet);
  const keeper = config.repro.record ? new ReproKeeper(config.outdir, config.repro.scripts) : null;
  const excluded = agentExclusion(config);
  const settings: PeerRunSettings = { config, io, cases, selected, baseline, progress, several: driver.peerCount > 1, keeper, excluded, cut: cutBy(io.signal) };
  const tested: Array<{ agent: string; cases: GateCase[]; incidents: readonly string[] }> = [];
  // The peers' processes' CPU time, each read by its watch once it has ended them (null: none was started).
  const peerCpu: Array<number | null> = [];
  try {
    for (let n = 0; n < driver.peerCount && !isAborted(io.signal); n++) {
      // Every process of the peer is started through its watch, which ends whatever still runs when the peer is done or fails.
      const watch = new PeerWatch(config.outdir, n);
      try {
        const peer = await driver.startPeer(n, { cases, io, secure, taken: new Set(tested.map((t) => t.agent)), excluded, watch });
        tested.push({ agent: peer.agent, cases: await runPeer(peer, settings), incidents: peer.incidents?.() ?? [] });
      } finally {
        const warning = await watch.close();
        if (warning !== null) io.out.write(`wsgate: warning: ${warning}\n`);
        peerCpu.push(watch.cpuMs());
      }
    }
  } catch (err) {
    // A fault of wsgate's own mid-run (not bad input): the results the peers gave are still written.
    if (!(err instanceof UsageError)) await driver.writeReports(concludedResults(tested), gateView(tested)).catch(() => undefined);
    throw err;
  } finally {
    secure?.dispose();
    progress.stop();
  }
  // Stopped before any peer's cases began (a signal while the server starts): every case is not run.
  if (tested.length === 0 && io.signal?.aborted === true) {
    tested.push({ agent: config.agent, cases: cases.map((def, i) => notRun(def, i + 1, interruptedReason(io.signal))), incidents: [] });
  }
  for (const problem of (await keeper?.finish()) ?? []) io.out.write(`wsgate: warning: ${problem}\n`);
  const run: GateRun = {
    agent: tested.map((t) => t.agent).join(', ') || config.agent,
    startedAt: meter.startedAt,
    durationMs: meter.elapsedMs(),
    strict: config.strict,
    cases: withReportFiles(
      tested.flatMap((t) => t.cases),
      await driver.writeReports(concludedResults(tested), gateView(tested)),
    ),
    interrupted: io.signal?.aborted === true ? String(io.signal.reason ?? 'interrupted') : cutShort(tested),
    resources: meter.resources(totalCpu(peerCpu)),
    shard: config.shard,
    failOn: config.failOn,
    ...driver.recordRole,
    ...(baseline !== null ? { baselineFile: baseline.file } : {}),
    ...tlsRecord(secure),
  };
  if (ending !== undefined) return ending(run);
  return finishRun(run, config, {
    tell: (r) => progress.summary(r, { outdir: config.outdir, junit: config.junit, json: config.json }),
    github: config.github,
    env: io.env ?? process.env,
    out: io.out,
  });
}

/**
 * A case the run's signal cut short has no verdict: one that ended after the signal without a result
 * recorded before it (a client killed on purpose, a connection dropped on purpose).
 */
function cutBy(signal: AbortSignal | undefined): (outcome: CaseOutcome) => boolean {
  let abortedAt = signal?.aborted === true ? 0 : Infinity;
  signal?.addEventListener('abort', () => (abortedAt = performance.now()), { once: true });
  return (outcome) => signal?.aborted === true && (outcome.resultAt === null || outcome.resultAt > abortedAt);
}

/** The reason of a case the run's signal kept from running. */
/** The results the run concluded for its cases (a robustness case's with its one verdict): the reports are written from these. */
function concludedResults(tested: ReadonlyArray<{ cases: readonly GateCase[] }>): CaseResult[] {
  return tested.flatMap((t) => t.cases.flatMap((c) => (c.result === null ? [] : [c.result])));
}

function interruptedReason(signal: AbortSignal | undefined): NotRunFact {
  return { kind: 'interrupted', signal: String(signal?.reason ?? 'interrupted') };
}

/** What cut the peers' runs short, one line (null: nothing did): the run did not check every case. */
function cutShort(tested: ReadonlyArray<{ agent: string; incidents: readonly string[] }>): string | null {
  const lines = tested.flatMap((t) => t.incidents.map((i) => (tested.length > 1 ? `${t.agent}: ${i}` : i)));
  return lines.length === 0 ? null : lines.join('; ');
}

/** The peers' CPU time together, or null when no peer's was known. */
function totalCpu(each: ReadonlyArray<number | null>): number | null {
  const known = each.filter((ms): ms is number => ms !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0);
}

function tlsRecord(secure: TlsSetup | null): Pick<GateRun, 'tls'> {
  return secure === null ? {} : { tls: secure.summary };
}

/** What playing one peer's cases needs of the run. */
interface PeerRunSettings {
  config: RunConfig;
  io: GateIo;
  cases: readonly CatalogueCase[];
  selected: number;
  baseline: Baseline | null;
  progress: Progress;
  /** The run tests several peers: each case names its agent. */
  several: boolean;
  /** Keeps the recordings of non-passing cases for `wsgate repro` (null: none, as under wstest). */
  keeper: ReproKeeper | null;
  /** The spec's exclude-agent-cases. */
  excluded: (agent: string, id: string) => boolean;
  /** Whether the run's signal cut the case short: it ended without a result recorded before the signal. */
  cut: (outcome: CaseOutcome) => boolean;
}

/**
 * Every case against one peer, then the peer stopped. Each case is settled here once: excluded for
 * the agent, or concluded from the driver's outcome (the gate rule, the baseline); a case the run's
 * signal cut short has no verdict and is reported as not run, its result dropped from the reports.
 */
async function runPeer(peer: Peer, s: PeerRunSettings): Promise<GateCase[]> {
  const { config, io, cases } = s;
  s.progress.header(headerLine(config, cases.length, s.selected, peer));
  for (const note of peer.notes) s.progress.header(note);
  const done = new Map<number, GateCase>();
  const record = (played: GateCase): void => {
    if (done.has(played.index)) return;
    s.keeper?.settled(played);
    const gc = s.baseline === null ? played : (applyBaseline([played], peer.agent, s.baseline)[0] ?? played);
    if (s.several) gc.agent = peer.agent;
    done.set(gc.index, gc);
    s.progress.caseDone(gc);
    io.logger.info({ case: gc.id, index: gc.index, status: gc.status, reason: gc.reason, ms: gc.timeMs }, 'case done');
  };
  const excludedFor = (agent: string, def: CatalogueCase, index: number): GateCase | null =>
    s.excluded(agent, def.id) ? notRun(def, index, excludedReason(peer.agent, config.specFile)) : null;
  // Synchronous unless the driver is still to tell whether the peer died during the case.
  const settle = (index: number, outcome: CaseOutcome): Promise<void> | undefined => {
    const def = cases[index - 1];
    if (def === undefined || done.has(index) || s.cut(outcome)) return;
    const decide = (death: PeerDeath | null): void => {
      record((outcome.result === null ? excludedFor(outcome.agent ?? peer.agent, def, index) : null) ?? conclude(def, index, outcome, config, death));
    };
    if (outcome.died === undefined) {
      decide(null);
      return;
    }
    return outcome.died.then(decide);
  };
  // What is still to be told of cases that ended: waited for before the peer stops, not in a job slot.
  const pending: Promise<void>[] = [];
  try {
    if (peer.play.kind === 'self') await peer.play.playAll((index, outcome) => void settle(index, outcome));
    else {
      const { playCase } = peer.play;
      await runCasesScheduled(
        cases,
        config.jobs,
        () => isAborted(io.signal),
        async (i) => {
          const def = cases[i] as CatalogueCase;
          const excluded = excludedFor(peer.agent, def, i + 1);
          if (excluded !== null) record(excluded);
          else {
            s.progress.caseStarted(i + 1, caseLabel({ id: def.id, ...(s.several ? { agent: peer.agent } : {}) }));
            const told = settle(i + 1, await playCase(def, i + 1));
            if (told !== undefined) pending.push(told);
          }
        },
      );
      await Promise.all(pending);
    }
  } finally {
    const warning = await peer.stop();
    if (warning !== null) io.out.write(`wsgate: warning: ${warning}\n`);
  }
  if (io.signal?.aborted === true) {
    const why = interruptedReason(io.signal);
    for (const [i, def] of cases.entries()) {
      if (done.has(i + 1)) continue;
      peer.forget(def.id);
      done.set(i + 1, { ...notRun(def, i + 1, why), ...(s.several ? { agent: peer.agent } : {}) });
    }
  }
  return [...done.values()].sort((a, b) => a.index - b.index);
}

/** The run's first line: how many cases, how many at once, against what. */
function headerLine(config: RunConfig, count: number, selected: number, peer: Peer): string {
  const shardNote = config.shard === null ? '' : ` (shard ${config.shard.index}/${config.shard.count} of ${selected} selected)`;
  return `wsgate: ${count} case${count === 1 ? '' : 's'}${shardNote}${peer.atOnce > 1 ? `, up to ${peer.atOnce} at once,` : ', one at a time,'} against ${peer.against}${config.http2 ? `, over HTTP/2 (RFC 8441, ${config.tls === null ? 'h2c' : 'TLS with ALPN h2'})` : ''}`;
}

/**
 * Each case's report file as written: two agents whose names clean to the same file name are told
 * apart by the writer, so the names depend on every agent written.
 */
function withReportFiles(cases: GateCase[], agents: readonly string[]): GateCase[] {
  const { prefixes } = agentFilePrefixes(agents);
  for (const gc of cases) {
    const prefix = gc.result === null ? undefined : prefixes.get(gc.result.agent);
    if (prefix !== undefined) gc.reportBase = caseReportBase(prefix, gc.id);
  }
  return cases;
}
