#!/usr/bin/env -S WSGATE_MALLOC_TUNING=1 MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 node --max-semi-space-size=4
/**
 * The `wstest` executable: Autobahn|Testsuite's command line, run by wsgate's engine (wstest/main.ts).
 * The same Node settings as the wsgate executable (cli.ts says why).
 */
import { runAsProcess } from './util/process-entry.js';
import { wstestMain } from './wstest/main.js';

await runAsProcess((argv, io) => wstestMain(argv, { stdout: io.stdout, stderr: io.stderr, signal: io.signal, env: io.env }));
