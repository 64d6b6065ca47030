/**
 * What an executable does around its main function (`wsgate`, `wstest`): SIGINT and SIGTERM become an
 * AbortSignal (a second one leaves at once), a closed stdout ends the output quietly, and main's
 * status becomes the exit status.
 */

/** The process's streams and the signal main is given. */
export interface ProcessIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  signal: AbortSignal;
  isTty: boolean;
  env: NodeJS.ProcessEnv;
}

/** Runs main with this process's arguments and streams, then exits with its status. */
export async function runAsProcess(main: (argv: string[], io: ProcessIo) => Promise<number>): Promise<void> {
  // A closed pipe on stdout (`wsgate list | head`) ends the output, not the process with a stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
  const controller = new AbortController();
  let signals = 0;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      signals += 1;
      // A second signal means "now": leave at once with the conventional status.
      if (signals > 1) process.exit(sig === 'SIGTERM' ? 143 : 130);
      controller.abort(sig);
    });
  }
  const status = await main(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    signal: controller.signal,
    isTty: process.stdout.isTTY,
    env: process.env,
  });
  process.exitCode = status;
  // Anything still pending (a stuck socket, a timer) must not keep a finished run alive.
  setTimeout(() => process.exit(status), 2000).unref();
}
