#!/usr/bin/env -S WSGATE_MALLOC_TUNING=1 MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 node --max-semi-space-size=4
/**
 * The wsgate executable: signals become an AbortSignal, main's status becomes the exit status.
 * The shebang caps V8's young generation at 4 MiB per semi-space (Node's default grows it to 16):
 * the server allocates fast and briefly, and the bigger nursery only held ~25 MiB more RSS at the
 * peak (bench: peak RSS of the whole catalogue) for no measurable speed. It also fixes glibc's
 * malloc settings for this process (util/launch-env.ts: why, and how clients are kept out of them).
 * Launchers that call `node dist/src/cli.js` directly (npm scripts, the image, the action) set the
 * same.
 */
import { main } from './main.js';

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
});
process.exitCode = status;
// Anything still pending (a stuck socket, a timer) must not keep a finished run alive.
setTimeout(() => process.exit(status), 2000).unref();
