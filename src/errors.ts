/** Exit statuses of every wsgate command. */
export const ExitCode = {
  /** No selected case failed. */
  Pass: 0,
  /** At least one selected case failed (or could not be run). */
  Failure: 1,
  /** Bad flags, bad config, unusable address or path. */
  Usage: 2,
  /** A fault of wsgate itself. */
  Internal: 3,
  /** Interrupted by SIGINT (128 + 2). */
  Interrupted: 130,
  /** Terminated by SIGTERM (128 + 15). */
  Terminated: 143,
} as const;

/** An error the user can fix: exit status 2 with a one-line reason. */
export class UsageError extends Error {}

/**
 * An error's exit status and its one line on stderr, named after the program (`wsgate`, `wstest`): a
 * usage error's message (exit 2), or an internal fault's first line (exit 3; the stack with
 * WSGATE_DEBUG=1).
 */
export function reportError(err: unknown, stderr: NodeJS.WritableStream, program: string, env: NodeJS.ProcessEnv = process.env): number {
  if (err instanceof UsageError) {
    stderr.write(`${program}: ${err.message}\n`);
    return ExitCode.Usage;
  }
  const message = err instanceof Error ? err.message : String(err);
  stderr.write(`${program}: internal error: ${message.split('\n')[0] ?? ''}\n`);
  if (env.WSGATE_DEBUG === '1' && err instanceof Error) stderr.write(`${err.stack ?? ''}\n`);
  return ExitCode.Internal;
}
