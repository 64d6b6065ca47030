/**
 * The gate rule: how two Autobahn verdicts become pass, fail or skip. It is the rule projects'
 * hand-written CI scripts apply to Autobahn's index.json today.
 */
import type { CaseResult, ClientRun, GateStatus } from '../report/model.js';

/** Verdict strings that fail a case on either axis. */
export const FAILING_VERDICTS: ReadonlySet<string> = new Set(['FAILED', 'WRONG CODE', 'UNCLEAN', 'FAILED BY CLIENT']);

/** The gate's conclusion for one case. */
export interface GateVerdict {
  status: GateStatus;
  reason: string;
  warnings: string[];
}

/** Applies the rule to a case that produced a result. `strict` makes NON-STRICT fail. */
export function ruleForResult(result: CaseResult, strict: boolean): GateVerdict {
  const warnings: string[] = [];
  const { behavior, behaviorClose } = result;
  if (behavior === 'UNIMPLEMENTED') {
    return { status: 'skipped', reason: `unimplemented: ${result.result}`, warnings };
  }
  const failures: string[] = [];
  if (FAILING_VERDICTS.has(behavior)) failures.push(`outcome ${behavior}: ${result.result}`);
  if (FAILING_VERDICTS.has(behaviorClose)) failures.push(`closing ${behaviorClose}: ${result.resultClose}`);
  if (behavior === 'NON-STRICT') {
    const text = `outcome NON-STRICT: ${result.result}`;
    if (strict) failures.push(`${text} (--strict)`);
    else warnings.push(text);
  }
  if (failures.length > 0) return { status: 'failed', reason: failures.join('; '), warnings };
  return { status: 'passed', reason: '', warnings };
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
  const how = client.signal !== null ? `was killed by ${client.signal}` : `exited with status ${client.exitCode ?? '?'}`;
  const hint = client.exitCode === 127 ? ' (command not found?)' : client.exitCode === 126 ? ' (not executable?)' : '';
  return `the client ${how}${hint} before it connected`;
}
