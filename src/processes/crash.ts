/**
 * How a client process died on its own, as facts (explain/peer-words.ts words them): its status or
 * signal, with the line of its output that names the error. Node.js ends an uncaught
 * exception's report with its version ("Node.js v20.20.2"), Python with the exception after its
 * traceback: the error line is the last one that names an Error or Exception, else the last line.
 */
import type { ProcessCrash } from '../model/peer.js';

/** A line that names an error: "RangeError [ERR_OUT_OF_RANGE]: …", "Error: …", "ValueError: …", "pkg.mod.SomeException: …". */
const ERROR_LINE = /^(Uncaught )?([\w$]+\.)*([A-Z][\w$]*)?(Error|Exception)\b/;

/** Lines that say nothing of the error (Node's version footer, a stack frame). */
const NOISE = /^(Node\.js v\d|at\s)/;

/** The output's last line that names an error (at most 300 characters), or null when none does. */
export function namedErrorLine(output: string): string | null {
  const named = output
    .split('\n')
    .map((l) => l.trim())
    .findLast((l) => ERROR_LINE.test(l));
  return named === undefined ? null : named.slice(0, 300);
}

/** The output's line that names the error (at most 300 characters), or null when it is empty. */
export function errorLine(output: string): string | null {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const named = lines.findLast((l) => ERROR_LINE.test(l));
  const line = named ?? lines.findLast((l) => !NOISE.test(l)) ?? null;
  return line === null ? null : line.slice(0, 300);
}

/**
 * A runtime's own report of a failure nothing handled, at the start of a line of the output: Node's
 * version footer after an uncaught exception or a fatal error, its "FATAL ERROR" (out of memory),
 * Python's traceback, a Rust or a Go panic.
 */
const FAILURE_REPORT = /^\s*(Node\.js v\d+\.\d+|FATAL ERROR:|Traceback \(most recent call last\):|thread '.*' panicked at|panic: )/m;

/**
 * A supervisor's or a worker's line that tells of a death, not a retirement: a fatal signal (by
 * name, or as the shell says it), an exit status other than 0 ("exited with code 1", "died (status
 * 3)"), an out-of-memory end. SIGTERM, SIGINT, SIGHUP and SIGUSR1/2 are how pools stop workers
 * gracefully, so they are no evidence.
 */
const DEATH_LINE =
  /\b(SIG(SEGV|ABRT|KILL|BUS|FPE|ILL|TRAP|SYS)|Segmentation fault|core dumped|Aborted|out of memory|OOM)\b|\b(exit(ed)?(\s+with)?(\s+(code|status))?|status|code)[\s:=(]*[1-9]\d*\b/i;

/**
 * The output's last line that tells of a crash (at most 300 characters): one that names an error, a
 * runtime's failure report, or a death line (above). Null when none does: a pool that retires
 * workers logs their graceful ends, if anything.
 */
export function crashEvidenceLine(output: string): string | null {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  // The line that names the error, before a runtime's footer ("Node.js v20.20.2") after it.
  const line = lines.findLast((l) => ERROR_LINE.test(l) || DEATH_LINE.test(l)) ?? lines.findLast((l) => FAILURE_REPORT.test(l));
  return line === undefined ? null : line.slice(0, 300);
}

/** The process's end as the driver saw it. */
export interface ProcessEnd {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly spawnError: string | null;
}

/**
 * How the process died on its own, with its error line: killed by a signal wsgate did not send (an
 * out-of-memory abort is SIGABRT, the kernel's OOM killer SIGKILL), or an exit with its runtime's
 * report of an unhandled failure. Null when it exited with 0, could not start, or exited with a
 * status of its own and no such report (a driver that prints how its connection ended and exits 3
 * after its client refused an attack did what the case asks).
 */
export function crashOf(end: ProcessEnd, output: string): ProcessCrash | null {
  if (end.spawnError !== null) return null;
  if (end.signal === null && (end.exitCode === null || end.exitCode === 0 || !FAILURE_REPORT.test(output))) return null;
  return { exitCode: end.exitCode, signal: end.signal, errorLine: errorLine(output) };
}
