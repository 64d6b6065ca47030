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
import { runAsProcess } from './util/process-entry.js';

await runAsProcess((argv, io) => main(argv, { stdout: io.stdout, stderr: io.stderr, signal: io.signal, isTty: io.isTty }));
