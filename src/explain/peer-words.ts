/**
 * Every sentence a user reads about how a peer's process ended, or a case it kept from running: the
 * drivers hand over facts (drivers/driver.ts: PeerDeath), the skeleton words them here, once.
 */
import type { PeerDeath } from '../model/peer.js';
import type { ClientRun } from '../model/report.js';

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
