/** Waiting in the gate: for a case's result, with a deadline, until a signal; the grace periods. */
import type { CaseResult } from '../model/report.js';
import type { CaseRunEvent, FuzzingServer } from '../server/fuzzing-server.js';

/** How long a client may linger after its case ended before its process group is stopped. */
export const EXIT_GRACE_MS = 2000;
/** How long a client's process group has between SIGTERM and SIGKILL. */
export const TERM_GRACE_MS = 1000;
/** How long to wait for a connection after the client exited (its TCP close may still be in flight). */
export const SETTLE_MS = 300;
/** How long an exited client's handshake may still be on its way (other jobs' handshakes look alike). */
export const HANDSHAKE_SETTLE_MS = 1000;

/** Whether a stop was requested (a function, so TypeScript does not narrow it between awaits). */
export function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** The /runCase URL of a case for an agent. */
export function caseUrl(baseUrl: string, index: number, agent: string): string {
  return `${baseUrl}/runCase?case=${index}&agent=${encodeURIComponent(agent)}`;
}

/** Waits for the first of: a result for (agent, index), or the deadline. */
export function waitForResult(server: FuzzingServer, agent: string, index: number): { promise: Promise<CaseResult>; cancel: () => void } {
  let cancel = (): void => undefined;
  const promise = new Promise<CaseResult>((resolve) => {
    const listener = (event: CaseRunEvent, result: CaseResult): void => {
      if (event.agent === agent && event.index === index) {
        server.off('caseFinished', listener);
        resolve(result);
      }
    };
    server.on('caseFinished', listener);
    cancel = () => server.off('caseFinished', listener);
  });
  return { promise, cancel };
}

/**
 * Resolves with p's value, or with 'timeout' after ms or when signal aborts. The timer and the abort
 * listener never outlive the race (a pending timer per case would keep a finished run alive).
 */
export async function raceTimeout<T>(p: Promise<T>, ms: number, signal?: AbortSignal): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const expiry = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
    if (signal !== undefined) {
      onAbort = () => resolve('timeout');
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  try {
    return await Promise.race([p, expiry]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }
}

/** Resolves after ms. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
