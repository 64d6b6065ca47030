/**
 * `npm test`: every test file under node:test, then the check that the suite left nothing behind.
 *
 * The suite runs with a temporary directory of its own (TMPDIR, so os.tmpdir() in every test, every
 * wsgate it starts and every peer those start) and a token in the environment that each process it
 * starts inherits, whatever process group or session it moves to (a browser's setsid'd crashpad
 * handlers keep it). When node:test ends, a process still carrying the token, or anything left in
 * that directory, is a leak: named, ended, removed, and the suite fails.
 *
 * Usage: node dist/test/suite.js [FILE ...]   (default: every dist/test/<dir>/<name>.test.js)
 * WSGATE_TEST_TIMINGS=FILE writes every test's duration (JSON lines) there as well.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { leftovers, SUITE_TOKEN_VARIABLE } from './support/leftovers.js';
import type { TestTiming } from './support/timings-reporter.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const token = randomBytes(12).toString('hex');
const scratch = mkdtempSync(path.join(tmpdir(), 'wsgate-suite-'));
const timings = path.join(scratch, '.timings.jsonl');

/** The test files given, or every one, the slowest first (SLOW_FIRST), the rest in directory order. */
function testFiles(): string[] {
  const given = process.argv.slice(2);
  if (given.length > 0) return given;
  const files = readdirSync(here, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(path.join(here, d.name))
        .filter((f) => f.endsWith('.test.js'))
        .map((f) => path.join(here, d.name, f)),
    )
    .sort();
  const weight = new Map(Object.entries(SLOW_FIRST).map(([f, s]) => [path.join(here, f), s]));
  return files.sort((a, b) => (weight.get(b) ?? 0) - (weight.get(a) ?? 0));
}

/**
 * Seconds each of the 30 longest files took in a whole run on 2 cores (quiet, 2026-12-06; the sums of its tests'
 * durations the suite prints at its end, WSGATE_TEST_TIMINGS): they start first, so that none of
 * them is left running alone at the end. A file not listed starts after them, in directory order.
 * Approximate by nature: a file that became faster or slower only moves in the queue.
 */
const SLOW_FIRST: Record<string, number> = {
  'robustness/h2-attacks.test.js': 63,
  'ci/node-versions.test.js': 57,
  'robustness/floods.test.js': 56,
  'robustness/server-role.test.js': 56,
  'run/browser.test.js': 51,
  'repro/repro.test.js': 43,
  'robustness/closing.test.js': 43,
  'run/server-role.test.js': 43,
  'wstest/consumers.test.js': 42,
  'run/jobs.test.js': 42,
  'robustness/frames.test.js': 38,
  'robustness/client-role.test.js': 36,
  'package/pack.test.js': 33,
  'robustness/client-handshake.test.js': 33,
  'wstest/fuzzing-client.test.js': 32,
  'run/http2.test.js': 32,
  'wstest/fuzzing-server.test.js': 31,
  'run/broken-clients.test.js': 30,
  'wstest/consumer-suites.test.js': 29,
  'run/server-crash.test.js': 28,
  'interop/h2-proxies.test.js': 28,
  'server/hostile-peers.test.js': 27,
  'explain/broken-peers.test.js': 26,
  'run/tls.test.js': 26,
  'h2/group16.test.js': 25,
  'wstest/reports-before-answer.test.js': 24,
  'finish/shard-merge.test.js': 23,
  'report/golden.test.js': 22,
  'cases/s07-close.test.js': 21,
  'report/html-chromium.test.js': 21,
};

/**
 * Test files run at once. On 2 cores, two at a time left a third of the CPU idle (25 CPU-minutes in
 * an 18.6-minute run): most files wait on the cases' own timers for much of their time (a close
 * timer, a stall budget, a page that never loads). Each file holds its own ports and directories,
 * and the tests that start many peers at once size themselves by the cores (harness.ts).
 */
const FILES_AT_ONCE = 3;

/**
 * This environment, less what is for this runner alone (a suite run by a test writes its own
 * timings) and node:test's mark of a file it runs (with it, node --test runs no files).
 */
function childEnv(): NodeJS.ProcessEnv {
  const { WSGATE_TEST_TIMINGS: _mine, NODE_TEST_CONTEXT: _outer, ...rest } = process.env;
  return rest;
}

const files = testFiles();
const child = spawn(
  process.execPath,
  [
    '--test',
    `--test-concurrency=${FILES_AT_ONCE}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${path.join(here, 'support', 'timings-reporter.js')}`,
    `--test-reporter-destination=${timings}`,
    ...files,
  ],
  { stdio: 'inherit', env: { ...childEnv(), TMPDIR: scratch, [SUITE_TOKEN_VARIABLE]: token } },
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
const status = await new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128))));

printSlowest();
const left = await leftovers(token, scratch);
rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
if (left.length > 0) {
  process.stderr.write(`\nthe suite left ${left.length} thing(s) behind (now ended and removed):\n${left.map((l) => `  ${l}\n`).join('')}`);
}
process.exitCode = status !== 0 ? status : left.length > 0 ? 1 : 0;

/** The ten slowest test files and tests of this run, and the timings copied where asked. */
function printSlowest(): void {
  let lines: string[];
  try {
    lines = readFileSync(timings, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
  } catch {
    return;
  }
  const out = process.env.WSGATE_TEST_TIMINGS;
  if (out !== undefined && out !== '') {
    try {
      // Written whole: a reader never sees half of it.
      const tmp = `${out}.partial`;
      writeFileSync(tmp, `${lines.join('\n')}\n`);
      renameSync(tmp, out);
    } catch (err) {
      process.stderr.write(`WSGATE_TEST_TIMINGS: ${String(err)}\n`);
    }
  }
  const records = lines.map((l) => JSON.parse(l) as TestTiming);
  const byFile = new Map<string, number>();
  for (const r of records) if (r.depth === 0) byFile.set(r.file, (byFile.get(r.file) ?? 0) + r.ms);
  const rel = (f: string): string => path.relative(here, f);
  const table = (rows: [string, number][]): string => rows.map(([n, ms]) => `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${n}`).join('\n');
  const files = [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 10);
  const tests = records
    .filter((r) => r.leaf)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 10);
  process.stdout.write(
    `\nslowest files:\n${table(files.map(([f, ms]) => [rel(f), ms]))}\nslowest tests:\n${table(tests.map((t) => [`${t.name.slice(0, 100)} (${rel(t.file)})`, t.ms]))}\n`,
  );
}
