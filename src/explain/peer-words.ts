/**
 * Every sentence a user reads about how a peer's process ended, or a case it kept from running or
 * left without a result: the drivers hand over facts (model/peer.ts: PeerDeath, CaseFact), the
 * skeleton words them here, once.
 */
import type {
  BrowserStop,
  CaseWarningFact,
  ClientCrash,
  ClientEnd,
  LivenessDown,
  LivenessNext,
  MissingFact,
  NotRunFact,
  PageStall,
  PeerDeath,
  PeerFailureFact,
  ProcessExit,
  ServerDownHow,
  ServerGone,
} from '../model/peer.js';
import type { ClientRun } from '../model/report.js';
import { crashWordsFor, type CrashSaid } from '../play/attack-figures.js';

/** "exited with status 1", "was killed by SIGSEGV": how any peer's process ended, in the one wording every report uses. */
export function endWords(end: Pick<PeerDeath, 'exitCode' | 'signal'>): string {
  return end.signal !== null ? `was killed by ${end.signal}` : `exited with status ${end.exitCode ?? '?'}`;
}

/** "exited with status 1: RangeError: Invalid WebSocket frame: …" (its error line, when its output has one). */
function endWithLine(death: PeerDeath): string {
  return `${endWords(death)}${death.errorLine === null ? '' : `: ${death.errorLine}`}`;
}

function outputNote(death: PeerDeath): string {
  return death.outputFile === null ? '' : ` (its whole output: ${death.outputFile})`;
}

/** The reason of a case the peer died during: it fails the gate, whatever its verdicts say of the wire. */
export function diedDuringWords(death: PeerDeath, id: string): string {
  const others = death.during.filter((d) => d !== id);
  const also =
    others.length === 0
      ? ''
      : ` (${others.length === 1 ? 'case' : 'cases'} ${others.join(', ')} ${others.length === 1 ? 'was' : 'were'} open too, and are charged with it)`;
  return `the ${death.role} under test ${endWithLine(death)}, during this case${also}${outputNote(death)}`;
}

/** When the peer died: "during 2.5", "during 2.5, 2.6", "between cases". */
function whenWords(death: PeerDeath): string {
  return death.during.length === 0 ? 'between cases' : `during ${death.during.join(', ')}`;
}

/** Why a case the dead peer kept from running was not run (the skeleton says "not run:" before it). */
export function notRunAfterDeath(death: PeerDeath, next: 'not restarted' | 'restart limit' | 'restart failed', detail = ''): string {
  const why =
    next === 'not restarted'
      ? 'it is not restarted (--restart-server restarts it)'
      : next === 'restart limit'
        ? `it is not restarted again: ${detail}`
        : `restarting it failed: ${detail}`;
  return `the ${death.role} under test had died ${whenWords(death)} (${endWithLine(death)}); ${why}`;
}

/** The run's line when a server that died was started again. */
export function restartedWords(death: PeerDeath, start: number): string {
  return `wsgate: the ${death.role} under test ${endWithLine(death)} ${whenWords(death)}; restarted it (start ${start})`;
}

/** The run-level incident when restarts ran out. */
export function restartLimitWords(limit: number): string {
  return `the server under test died ${limit + 1} times; the restart limit (${limit}) is reached, so the remaining cases were not run`;
}

/** The run-level incident when a dead server's remaining cases are not run. */
export function cutShortWords(death: PeerDeath, next: 'not restarted' | 'restart failed'): string {
  return `the ${death.role} under test died ${whenWords(death)} and ${next === 'not restarted' ? 'was not restarted' : 'could not be restarted'}: the cases after it were not run`;
}

/** Why a case without a result failed, from what the client process did. */
export function reasonWithoutResult(client: ClientRun | null, timeoutSeconds: number, sawHandshake: boolean): string {
  if (client === null) return 'the client did not run this case';
  if (client.spawnError !== null) return `the client command could not be started: ${client.spawnError}`;
  if (client.timedOut) {
    return sawHandshake
      ? `the case did not finish within ${timeoutSeconds} s; the client was killed`
      : `the client did not connect within ${timeoutSeconds} s; it was killed`;
  }
  if (sawHandshake) return 'the client never completed the opening handshake';
  const how = endWords(client);
  const hint = client.exitCode === 127 ? ' (command not found?)' : client.exitCode === 126 ? ' (not executable?)' : '';
  return `the client ${how}${hint} before it connected`;
}

/** "exited with status 1", "could not start: …": how a server under test's process ended. */
export function serverExitWords(exit: ProcessExit): string {
  return exit.spawnError !== null ? `could not start: ${exit.spawnError}` : endWords(exit);
}

/** What a server did instead of passing the liveness check. */
export function livenessDownWords(down: LivenessDown): string {
  switch (down.kind) {
    case 'exited':
      return `the server under test ${serverExitWords(down.exit)} (last output: ${down.lastOutput})`;
    case 'no-server':
      return `a normal case on a fresh connection found no server (${down.error ?? 'no result'})`;
    case 'case-failed':
      return `a normal case on a fresh connection failed: ${down.result}`;
  }
}

/** What happens to a server that failed the liveness check. */
export function livenessNextWords(next: LivenessNext): string {
  switch (next) {
    case 'restarted':
      return 'it is restarted for the next case (the robustness profile restarts a server wsgate started)';
    case 'not-started-by-wsgate':
      return 'wsgate did not start it, so it cannot restart it: the remaining cases are not run';
    case 'not-restarted':
      return 'it is not restarted: the remaining cases are not run';
  }
}

/** How a server was found down before an attack case. */
export function serverDownWords(how: ServerDownHow): string {
  return how.kind === 'exited'
    ? livenessDownWords({ kind: 'exited', exit: how.exit, lastOutput: how.lastOutput })
    : `the server under test stopped serving (${livenessDownWords(how.down)})`;
}

/** The run's line when a server found down before an attack case was started again. */
export function restartedBeforeAttackWords(how: ServerDownHow, start: number): string {
  return `wsgate: ${serverDownWords(how)}; restarted it (start ${start})`;
}

/** Why a server takes no more cases. */
export function serverGoneWords(gone: ServerGone): string {
  switch (gone.kind) {
    case 'died':
      if (gone.next === 'restart limit') return notRunAfterDeath(gone.death, gone.next, `it was started ${gone.starts} times`);
      return gone.next === 'restart failed' ? notRunAfterDeath(gone.death, gone.next, gone.error) : notRunAfterDeath(gone.death, gone.next);
    case 'failed-liveness':
      return livenessDownWords(gone.down);
    case 'down':
      return `${serverDownWords(gone.how)}; ${gone.restartError === null ? 'not restarted (--restart-server restarts it)' : `restarting it failed: ${gone.restartError}`}`;
  }
}

/** "the browser exited (status 1)": how a browser's process ended. */
function browserExitWords(exit: ProcessExit): string {
  if (exit.spawnError !== null) return exit.spawnError;
  return exit.signal !== null ? `signal ${exit.signal}` : `status ${exit.exitCode ?? '?'}`;
}

/** What a browser's page stalled on. */
export function pageStallWords(stall: PageStall): string {
  if (stall.kind === 'case-overrun') return `the case did not end within ${stall.limitS} s`;
  return `nothing was asked within ${stall.timeoutS} s ${stall.after === null ? 'after the page loaded' : `after case ${stall.after} ended`}`;
}

/** Why a browser's launch ended. */
export function browserStopWords(stop: BrowserStop): string {
  switch (stop.kind) {
    case 'exited':
      return `the browser exited (${browserExitWords(stop.exit)})`;
    case 'not-loaded':
      return `the browser did not load the page within ${stop.loadS} s`;
    case 'stalled':
      return `the page stalled: ${pageStallWords(stop.stall)}`;
    case 'drain-overrun':
      return `the page asked for the reports, but the case did not end within ${stop.limitS} s`;
  }
}

/** A browser's incident, in the run's record: why its launch ended, the case it was in, where it was launched again. */
export function browserIncidentWords(stop: BrowserStop, during: string | null, relaunchedAt: string | null): string {
  return `${browserStopWords(stop)}${during === null ? '' : ` during case ${during}`}${relaunchedAt === null ? '' : `; launched again at case ${relaunchedAt}`}`;
}

/** The run's incident when a page ended without asking for some cases. */
export function pageSkippedWords(ids: readonly string[]): string {
  return `the page did not play ${ids.length} case${ids.length === 1 ? '' : 's'} (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''})`;
}

/** The reason of a case that was not run: "not run: …". */
export function notRunWords(fact: NotRunFact): string {
  return fact.kind === 'recorded' ? fact.reason : `not run: ${notRunWhy(fact)}`;
}

function notRunWhy(fact: Exclude<NotRunFact, { kind: 'recorded' }>): string {
  switch (fact.kind) {
    case 'unreachable':
      return `nothing accepted connections at ${fact.url} within ${fact.waitedS} s`;
    case 'server-gone':
      return serverGoneWords(fact.gone);
    case 'server-down':
      return `the server is down after an earlier case (${serverGoneWords(fact.gone)})`;
    case 'looping-client-died':
      return `the client process died during case ${fact.during} (it ${clientEndWords(fact.end)}); it runs every case itself (--client-loops), so it is not restarted (without --client-loops each case gets a process of its own)`;
    case 'browser-stopped':
      return browserIncidentWords(fact.stop, fact.during, null);
    case 'page-skipped':
      return 'the page did not play this case';
    case 'interrupted':
      return `the run was interrupted (${fact.signal})`;
  }
}

/** The run's line for a server that never accepted a connection, whose cases are skipped. */
export function unreachableLine(fact: Extract<NotRunFact, { kind: 'unreachable' }>): string {
  return `wsgate: ${notRunWords(fact)}; its cases are skipped`;
}

/** Why a case has no result, in place of what the client process did. */
export function missingWords(fact: MissingFact): string {
  switch (fact.kind) {
    case 'client-skipped':
      return `the client did not run this case (agent ${JSON.stringify(fact.agent)})`;
    case 'no-result':
      return 'the case has no result';
    case 'no-answer':
      return fact.error ?? 'no result';
    case 'liveness-down':
      return livenessDownWords(fact.down);
  }
}

/** How the peer failed during or after a case. */
export function peerFailureWords(fact: PeerFailureFact): string {
  return fact.kind === 'client-crash'
    ? crashWordsFor(fact.advisory, crashSaid(fact.crash))
    : `${livenessDownWords(fact.down)}; ${livenessNextWords(fact.next)}`;
}

/** What a run that stops for a broken client command tells the user to check. */
const CHECK_CLIENT = 'the run is stopped: check --client (the command, and that it dials its {url})';

/** The one line of a looping client command that never reached the server (`errorLine`: its output's, or null). */
export function loopingNeverConnectedWords(run: ClientRun, connectS: number, errorLine: string | null): string {
  const why = reasonWithoutResult(run, connectS, false).replace(/^the client /, '');
  return `the looping client command ${why}${errorLine === null ? '' : `: ${errorLine}`}; ${CHECK_CLIENT}`;
}

/** A case of the run's first that ended without the client connecting: its client process, its limit, its output's error line. */
export interface NeverConnected {
  readonly id: string;
  readonly client: ClientRun | null;
  readonly limitS: number;
  readonly errorLine: string | null;
}

/** The one line that stops a run whose client command never connected in its first cases. */
export function neverConnectedWords(misses: readonly NeverConnected[]): string {
  const whys = misses.map((m) => ({ id: m.id, why: `${reasonWithoutResult(m.client, m.limitS, false)}${m.errorLine === null ? '' : `: ${m.errorLine}`}` }));
  // One reason for all of them is said once.
  const distinct = new Set(whys.map((m) => m.why));
  const cases = distinct.size === 1 ? `(${whys.map((m) => m.id).join(', ')}): ${whys[0]?.why ?? ''}` : `(${whys.map((m) => `${m.id}: ${m.why}`).join('; ')})`;
  return `the client command never connected in the run's first ${misses.length} cases ${cases}; ${CHECK_CLIENT}`;
}

/** Why a case the spec file leaves out for the agent was not run. */
export function excludedWords(agent: string, specFile: string | null): string {
  return `excluded for agent ${JSON.stringify(agent)} by exclude-agent-cases${specFile === null ? '' : ` in ${specFile}`}`;
}

/** A warning of a case that played, in words. */
export function caseWarningWords(fact: CaseWarningFact): string {
  switch (fact.kind) {
    case 'case-overran':
      return `the case did not end within ${fact.limitS} s; wsgate dropped the connection`;
    case 'ignored-sigterm':
      return `the client ignored SIGTERM for ${fact.graceS} s; its process group was killed with SIGKILL`;
    case 'lingered':
      return fact.how === 'killed'
        ? `the client was still running ${fact.graceS} s after its case ended and ignored SIGTERM; its process group was killed with SIGKILL`
        : `the client was still running ${fact.graceS} s after its case ended; its process group was stopped with SIGTERM`;
    case 'client-status':
      return `the client exited with status ${fact.exitCode}`;
  }
}

/** A server whose old process tree outlived SIGKILL, so it is not started again. */
export function oldTreeAliveWords(seconds: number, command: string): string {
  return `the server under test's processes were still alive ${seconds} s after SIGKILL; not restarted (command: ${command})`;
}

/** A server that ignored SIGTERM when the run stopped it. */
export function serverIgnoredSigtermWords(graceS: number): string {
  return `the server ignored SIGTERM for ${graceS} s; its process group was killed with SIGKILL`;
}

/**
 * How a client ended around an attack case: "exited with status 1: TypeError: …", "was killed by
 * SIGSEGV"; a browser's page that stopped asking, how it stalled (without "the page stalled: ").
 */
export function clientEndWords(end: ClientEnd): string {
  if (end.kind === 'hung') return end.stop.kind === 'stalled' ? pageStallWords(end.stop.stall) : browserStopWords(end.stop);
  return end.errorLine === null ? endWords(end) : `${endWords(end)}: ${end.errorLine}`;
}

/** A client's crash as the verdict reads it (play/attack-figures.ts): its end worded. */
export function crashSaid(crash: ClientCrash): CrashSaid {
  return crash.end.kind === 'hung' ? { how: clientEndWords(crash.end), when: crash.when, hung: true } : { how: clientEndWords(crash.end), when: crash.when };
}
