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
