/**
 * How a client process died on its own, in one line for a report: "exited with status 1" or "was
 * killed by SIGSEGV", with the line of its output that names the error. Node.js ends an uncaught
 * exception's report with its version ("Node.js v20.20.2"), Python with the exception after its
 * traceback: the error line is the last one that names an Error or Exception, else the last line.
 */

/** A line that names an error: "RangeError [ERR_OUT_OF_RANGE]: …", "ValueError: …", "pkg.mod.SomeException: …". */
const ERROR_LINE = /^(Uncaught )?([\w$]+\.)*[A-Z][\w$]*(Error|Exception)\b/;

/** Lines that say nothing of the error (Node's version footer, a stack frame). */
const NOISE = /^(Node\.js v\d|at\s)/;

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

/** The process's end as the driver saw it. */
export interface ProcessEnd {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly spawnError: string | null;
}

/**
 * How the process died on its own (an exit status other than 0, or a signal wsgate did not send),
 * with its error line; null when it exited with 0 or could not start.
 */
export function crashOf(end: ProcessEnd, output: string): string | null {
  if (end.spawnError !== null) return null;
  if (end.signal === null && (end.exitCode === null || end.exitCode === 0)) return null;
  const how = end.signal !== null ? `was killed by ${end.signal}` : `exited with status ${end.exitCode ?? '?'}`;
  const line = errorLine(output);
  return line === null ? how : `${how}: ${line}`;
}
