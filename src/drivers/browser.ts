/**
 * A browser engine as the client under test (`run --browser`): started headless on the fuzzing
 * server's own page (server/browser-page.ts), it plays every case with its own WebSocket client,
 * in order, and ends with /updateReports. The server sees every case start and end; a watchdog owns
 * the rest, which only the launcher can see:
 *
 * - the page never loads (no request within the load bound, the browser timeout but at least
 *   LOAD_FLOOR_S: a cold start on a busy runner is not a stall): the run ends, every case not run;
 * - the browser exits before /updateReports;
 * - the page stalls: no case starts within the browser timeout after the last one ended, or a case
 *   runs past its own time limit.
 *
 * Either of the last two ends the browser (its whole process group), reports the case it was in
 * as not run with the reason, never as a verdict on the browser, and launches it again at the next
 * case, at most RELAUNCHES times a run. An incident that cost a case, or ended the run, is said in
 * the run's record, which then cannot pass the gate: a case not run was not checked. One between
 * cases, after which the browser played the rest, is a warning.
 */
import type { CatalogueCase } from '../cases/types.js';
import type { ClientRunConfig } from '../config/run-config.js';
import type { CaseResult } from '../model/report.js';
import type { LaunchedBrowser } from '../browsers/launch.js';
import { caseTimeoutFor } from '../policy/case-limits.js';
import { isRobustness } from '../play/attack-figures.js';
import { sleep } from '../processes/waiting.js';
import type { CaseRunEvent, FuzzingServer } from '../server/fuzzing-server.js';
import type { CaseOutcome } from './driver.js';
import { ClientWatch } from '../peer/client-watch.js';
import { played } from './looping.js';
import { browserIncidentWords, pageSkippedWords } from '../explain/peer-words.js';
import type { BrowserStop, ClientEnd, NotRunFact, PageStall, ProcessExit } from '../model/peer.js';

/** How many times a run launches the browser again after it exited or its page stalled. */
export const RELAUNCHES = 2;
/** The least time a launch has to load the page, whatever the browser timeout: a shorter timeout is for stalls. */
export const LOAD_FLOOR_S = 30;
/** How often the watchdog looks. */
const TICK_MS = 100;
/** How long before a browser's exit a case's connection may have dropped for it to count as the case the browser was in. */
const EXIT_WINDOW_MS = 500;
/** Under the robustness profile, a launched browser's tree must hold within STEADY_SLACK for STEADY_MS before its page starts. */
const STEADY_MS = 1000;
const STEADY_SLACK = 4 * 1024 * 1024;
/** How long a case the browser was in when it was ended may take to be dropped by the server. */
const DROP_WAIT_MS = 2000;

/** Where the page is, and who plays it. */
export interface BrowserTarget {
  /** The fuzzing server's base URL, ws://HOST:PORT (wss:// over TLS: the page is then https://). */
  baseUrl: string;
  agent: string;
  /** Over TLS: the server key the browser is to trust (browsers/engines.ts spkiHash), else null. */
  spki: string | null;
}

/** What cut a browser's run short, in lines: `lost` cost a case or ended the run; `recovered` cost none. */
export interface BrowserIncidents {
  lost: string[];
  recovered: string[];
}

/** How a launch starts and ends: through the run's watch on the peer (peer/watch.ts), which counts its CPU time and ends what is left. */
export interface BrowserLauncher {
  /** The browser, launched on `page`. */
  launch(page: string): Promise<LaunchedBrowser>;
  /** Its process tree and profile gone. */
  end(browser: LaunchedBrowser): Promise<void>;
}

/** How one launch ended. */
type LaunchEnd =
  | { kind: 'done' }
  | { kind: 'signal' }
  /** The watchdog ended it (or the browser ended itself): why, the case it was in (index), whether the page had loaded. */
  | { kind: 'incident'; stop: BrowserStop; inCase: number | null; loaded: boolean };

/**
 * Plays every case in the browser; hands each case's outcome to `settle` (played, or not run with
 * the reason). Resolves with the incidents (none: the page played every case at one go).
 */
export async function runBrowser(
  server: FuzzingServer,
  cases: readonly CatalogueCase[],
  target: BrowserTarget,
  config: ClientRunConfig,
  signal: AbortSignal | undefined,
  settle: (index: number, outcome: CaseOutcome) => void,
  launcher: BrowserLauncher,
): Promise<BrowserIncidents> {
  const incidents: BrowserIncidents = { lost: [], recovered: [] };
  const settled = new Set<number>();
  const settleOnce = (index: number, outcome: CaseOutcome): void => {
    if (settled.has(index)) return;
    settled.add(index);
    settle(index, outcome);
  };
  // Cases the spec excludes for the agent: the server closes them at once, and the skeleton says why.
  const excluded = new Set<number>();
  const onSkipped = (event: CaseRunEvent): void => {
    if (event.agent === target.agent) excluded.add(event.index);
  };
  server.on('caseSkipped', onSkipped);
  let finalStop: BrowserStop | null;
  try {
    const watch = {
      server,
      cases,
      agent: target.agent,
      config,
      timeoutS: config.browser?.timeoutS ?? 30,
      settle: settleOnce,
      settled: (i: number) => settled.has(i),
    };
    finalStop = await playLaunches(watch, launcher, target, signal, incidents, () => Math.max(0, ...settled, ...excluded));
  } finally {
    server.off('caseSkipped', onSkipped);
  }
  // Cases the browser never reached: not run, for the reason the run ended (a result the server holds, kept).
  const results = server.results.get(target.agent);
  const skipped: string[] = [];
  for (const [i, def] of cases.entries()) {
    const result = results?.get(def.id);
    if (result !== undefined) settleOnce(i + 1, played(result, null));
    else if (finalStop !== null) settleOnce(i + 1, notPlayed({ kind: 'browser-stopped', stop: finalStop, during: null }));
    else if (signal?.aborted !== true && !settled.has(i + 1) && !excluded.has(i + 1)) {
      skipped.push(def.id);
      settleOnce(i + 1, notPlayed({ kind: 'page-skipped' }));
    }
  }
  // A page that ended without asking for some cases (a WebSocket it could not open): they were not checked.
  if (skipped.length > 0) incidents.lost.push(pageSkippedWords(skipped));
  return incidents;
}

/**
 * Launches the browser, watches it, and after an incident launches it again at the case after
 * `reached()` (the last case settled or excluded), at most RELAUNCHES times; each incident goes to
 * `incidents`. Resolves with why the run ended early, or null.
 */
async function playLaunches(
  watch: WatchSettings,
  launcher: BrowserLauncher,
  target: BrowserTarget,
  signal: AbortSignal | undefined,
  incidents: BrowserIncidents,
  reached: () => number,
): Promise<BrowserStop | null> {
  const { server, cases } = watch;
  const attacks = cases.some(isRobustness);
  let first = 1;
  // Relaunches after an incident that cost a case; one an attack's verdict took (the browser died of it, or its page hung) is its finding.
  let spent = 0;
  for (;;) {
    // The robustness profile: the page waits for the browser's tree to stop growing (Firefox starts
    // processes for seconds after its launch); then each attack case has its memory window of that
    // tree; a browser that dies of an attack fails that case (client-watch.ts), then is launched again.
    let steady: () => void = () => undefined;
    if (attacks) server.caseCountHold = new Promise<void>((resolve) => (steady = resolve));
    const browser = await launcher.launch(pageUrl(target, first));
    const robust = ClientWatch.forRun(browser.process, cases, watch.settle);
    void robust.steady(STEADY_MS, STEADY_SLACK, (watch.timeoutS * 1000) / 2).finally(steady);
    let end: LaunchEnd = { kind: 'signal' };
    // The attack case the browser died of, when the robustness profile charged one.
    let charged: number | null = null;
    try {
      end = await watchLaunch(watch, browser, signal, robust);
    } finally {
      // How it died on its own, read before wsgate ends it; or how its page stopped asking (a stall).
      const died = end.kind === 'incident' ? robust.exitEnd() : null;
      const hung: ClientEnd | null = end.kind === 'incident' && died === null && end.loaded ? { kind: 'hung', stop: end.stop } : null;
      charged = robust.ended(died ?? hung);
      steady();
      server.caseCountHold = null;
      robust.stop();
      await launcher.end(browser);
    }
    if (end.kind !== 'incident') return null;
    if (charged === null) spent++;
    // A case the attack's verdict already failed (the browser died of it) keeps its result.
    const inCase = end.inCase !== null && !watch.settled(end.inCase) ? end.inCase : null;
    // The case it was in; or, when its exit came after that case's connection had dropped (a busy
    // machine can take longer than EXIT_WINDOW_MS to report it), the attack case it was charged to.
    const at = end.inCase ?? charged;
    const during = at === null ? null : (cases[at - 1]?.id ?? String(at));
    if (inCase !== null) {
      await dropCase(server, target.agent, inCase, cases);
      watch.settle(inCase, notPlayed({ kind: 'browser-stopped', stop: end.stop, during }));
    }
    const last = reached();
    const relaunch = end.loaded && spent <= RELAUNCHES && last < cases.length;
    const line = browserIncidentWords(end.stop, during, relaunch ? (cases[last]?.id ?? String(last + 1)) : null);
    (inCase === null && relaunch ? incidents.recovered : incidents.lost).push(line);
    if (!relaunch) return end.stop;
    first = last + 1;
  }
}

/** The page's address for a launch that starts at case `first`. */
export function pageUrl(target: Pick<BrowserTarget, 'baseUrl' | 'agent'>, first: number): string {
  const http = target.baseUrl.replace(/^ws/, 'http');
  const query = new URLSearchParams({ autorun: '1', agent: target.agent, ...(first > 1 ? { first: String(first) } : {}) });
  return `${http}/?${query.toString()}`;
}

/** What watching a launch reads: the server, the cases, the agent, the bounds, and where results go. */
interface WatchSettings {
  server: FuzzingServer;
  cases: readonly CatalogueCase[];
  agent: string;
  config: ClientRunConfig;
  timeoutS: number;
  settle: (index: number, outcome: CaseOutcome) => void;
  /** Whether a case has its outcome already. */
  settled: (index: number) => boolean;
}

/** Watches one launch until the page asks /updateReports, the run's signal, or an incident. */
function watchLaunch(w: WatchSettings, browser: LaunchedBrowser, signal: AbortSignal | undefined, robust: ClientWatch): Promise<LaunchEnd> {
  return new Promise<LaunchEnd>((resolve) => {
    const watch = new LaunchWatch(w, robust, resolve);
    watch.attach(signal);
    void browser.process.exited.then(() => watch.exited({ kind: 'exited', exit: exitOf(browser) }));
  });
}

/**
 * One launch's watch: what the page asked and when, the case it is in, and the bounds checked every
 * TICK_MS. A case's result is held for EXIT_WINDOW_MS before it counts: a browser that dies mid-case
 * drops the case's connection before its own exit is seen, and that case was not played to its end.
 *
 * A page moves on when its WebSocket closes, which is not always when the browser ends the case's
 * connection: Firefox gives up on a 101 that never ends after 20 s but may keep its TCP connection.
 * So cases overlap, and when the page asks for the reports the launch ends only once every case it
 * started has ended on the server (each within its own limit): ending the browser sooner would end
 * their connections for it, and take their verdicts.
 */
class LaunchWatch {
  private readonly t0 = performance.now();
  private loaded = false;
  private current: { index: number; since: number } | null = null;
  /** Cases started and not ended yet, and since when: the current one, and any the page moved on from. */
  private readonly open = new Map<number, number>();
  /** The page asked for the reports while some case was still open. */
  private draining = false;
  private lastEnded: { index: number; at: number } | null = null;
  private lastActivity = this.t0;
  private held: { index: number; result: CaseResult; at: number } | null = null;
  private ended = false;
  private readonly timer: NodeJS.Timeout;
  private detach: () => void = () => undefined;

  constructor(
    private readonly w: WatchSettings,
    private readonly robust: ClientWatch,
    private readonly resolve: (end: LaunchEnd) => void,
  ) {
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  /** Listens to the server and the run's signal. */
  attach(signal: AbortSignal | undefined): void {
    const { server } = this.w;
    const onAsked = (): void => {
      this.loaded = true;
      this.lastActivity = performance.now();
    };
    const onStart = (event: CaseRunEvent): void => this.started(event);
    const onFinish = (event: CaseRunEvent, result: CaseResult): void => this.finished(event, result);
    const onReports = (): void => {
      if (this.open.size === 0) this.finish({ kind: 'done' });
      else this.draining = true;
    };
    const onAbort = (): void => this.finish({ kind: 'signal' });
    server.on('asked', onAsked);
    server.on('caseStarted', onStart);
    server.on('caseFinished', onFinish);
    server.on('reportsUpdated', onReports);
    signal?.addEventListener('abort', onAbort, { once: true });
    this.detach = () => {
      server.off('asked', onAsked);
      server.off('caseStarted', onStart);
      server.off('caseFinished', onFinish);
      server.off('reportsUpdated', onReports);
      signal?.removeEventListener('abort', onAbort);
    };
    if (signal?.aborted === true) onAbort();
  }

  /** The browser's process ended: the case it was in is the one running, or the one whose connection dropped just before. */
  exited(stop: BrowserStop): void {
    const last = this.lastEnded;
    const dropped = last !== null && performance.now() - last.at < EXIT_WINDOW_MS ? last.index : null;
    if (dropped !== null && this.held?.index === dropped) this.held = null;
    this.incident(stop, this.current?.index ?? dropped);
  }

  private started(event: CaseRunEvent): void {
    if (event.agent !== this.w.agent) return;
    this.release();
    this.robust.started(event.index, event.ports);
    this.current = { index: event.index, since: performance.now() };
    this.open.set(event.index, this.current.since);
    this.lastActivity = this.current.since;
  }

  private finished(event: CaseRunEvent, result: CaseResult): void {
    if (event.agent !== this.w.agent || this.ended) return;
    const at = performance.now();
    if (this.current?.index === event.index) this.current = null;
    this.open.delete(event.index);
    this.release();
    this.lastEnded = { index: event.index, at };
    this.lastActivity = at;
    // An attack case's outcome waits for the browser to show it survived (the next case starts).
    if (!this.robust.finished(event.index, played(result, at))) this.held = { index: event.index, result, at };
    if (this.draining && this.open.size === 0) this.finish({ kind: 'done' });
  }

  private tick(): void {
    const now = performance.now();
    const { cases, config, timeoutS } = this.w;
    if (this.held !== null && now - this.held.at >= EXIT_WINDOW_MS) this.release();
    if (this.draining) {
      for (const [index, since] of this.open) {
        const def = cases[index - 1];
        const limitS = def === undefined ? timeoutS : caseTimeoutFor(def, config);
        if (now - since > limitS * 1000) return this.incident({ kind: 'drain-overrun', limitS }, index);
      }
      return;
    }
    if (!this.loaded) {
      const loadS = Math.max(timeoutS, LOAD_FLOOR_S);
      if (now - this.t0 > loadS * 1000) this.incident({ kind: 'not-loaded', loadS });
      return;
    }
    if (this.current !== null) {
      const def = cases[this.current.index - 1];
      const limitS = def === undefined ? timeoutS : caseTimeoutFor(def, config);
      if (now - this.current.since > limitS * 1000) this.stalled({ kind: 'case-overrun', limitS });
      return;
    }
    if (now - this.lastActivity > timeoutS * 1000) {
      const after = this.lastEnded === null ? null : (cases[this.lastEnded.index - 1]?.id ?? String(this.lastEnded.index));
      this.stalled({ kind: 'silent', timeoutS, after });
    }
  }

  /** The held result counts now. */
  private release(): void {
    if (this.held !== null) this.w.settle(this.held.index, played(this.held.result, this.held.at));
    this.held = null;
  }

  private incident(stop: BrowserStop, inCase: number | null = this.current?.index ?? null): void {
    this.finish({ kind: 'incident', stop, inCase, loaded: this.loaded });
  }

  /** The page stopped asking: `stall` says how. */
  private stalled(stall: PageStall): void {
    this.incident({ kind: 'stalled', stall });
  }

  private finish(end: LaunchEnd): void {
    if (this.ended) return;
    this.release();
    this.ended = true;
    clearInterval(this.timer);
    this.detach();
    this.resolve(end);
  }
}

/** How the browser's process ended, as facts. */
function exitOf(browser: LaunchedBrowser): ProcessExit {
  const run = browser.process.snapshot(false);
  return { exitCode: run.exitCode, signal: run.signal, spawnError: run.spawnError };
}

/** Waits for the server to drop the case the ended browser was in, then forgets whatever it recorded: the case was not run. */
async function dropCase(server: FuzzingServer, agent: string, index: number, cases: readonly CatalogueCase[]): Promise<void> {
  server.abortRun(agent, index);
  const until = performance.now() + DROP_WAIT_MS;
  while (server.isRunning(agent, index) && performance.now() < until) await sleep(20);
  const def = cases[index - 1];
  if (def !== undefined) server.forgetResult(agent, def.id);
}

/** A case the browser did not play, for this reason. */
function notPlayed(why: NotRunFact): CaseOutcome {
  return { result: null, resultAt: null, client: null, sawConnection: false, warnings: [], timeMs: 0, notRun: why };
}
