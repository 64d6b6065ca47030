/** Shared test plumbing: an in-process fuzzing server on a free port, and fixture clients as processes. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { catalogue } from '../../src/catalogue/registry.js';
import { selectCases } from '../../src/cases/select.js';
import { UsageError } from '../../src/errors.js';
import type { CaseResult } from '../../src/model/report.js';
import type { FuzzingServer } from '../../src/server/fuzzing-server.js';
import { createServer } from '../../src/server/factory.js';

/**
 * How many gate runs against live peers a describe block starts at once. Each run is a wsgate
 * process and a client process whose verdicts hang on the case's own timers (the 1 s close handshake
 * timeout decides whether 6.9.2 closed cleanly), and npm test runs two test files at once: on a
 * busy 2-core machine, 14 runs at once starved a client past that second (6.9.2 came out
 * OK/UNCLEAN). Half a run per core, at least one: on 2 cores the runs of a block go one by one.
 */
export const LIVE_RUNS_AT_ONCE = Math.max(1, Math.floor(availableParallelism() / 2));

/**
 * How many client processes (one per case) a test runs at once against an in-process fuzzing server:
 * one per core. The case's own timers decide the verdict (a 1 s close timer, a 2 s kill timer), and a
 * freshly started client that does not get the CPU in time fails the case: ten at once, beside
 * another test file and a CPU-bound process on 2 cores, turned ws's OK into FAILED on group 6.
 */
export const CLIENTS_AT_ONCE = Math.max(1, availableParallelism());

/** The two cases of the spec (case-reports.md): engine tests pin their selection to these. */
export const SPEC_CASES = ['6.9.2', '6.12.7'];

/** Absolute path of a compiled fixture client. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/clients/${name}.js`, import.meta.url));
}

/** The bundled reference client (ws). */
export const REFERENCE_CLIENT = fileURLToPath(new URL('../../src/bundled/reference-client.js', import.meta.url));

/** The compiled CLI. */
export const CLI = fileURLToPath(new URL('../../src/cli.js', import.meta.url));

/** The temporary directories this test file made, removed when its process exits. */
const madeDirs = new Set<string>();
process.once('exit', () => {
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});

/**
 * A fresh temporary directory, removed (with all it holds) when the test file's process exits:
 * npm test fails when a test file leaves one behind (test/suite.ts).
 */
export async function tempDir(prefix = 'wsgate-test-'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  madeDirs.add(dir);
  return dir;
}

/** A running server for the given case patterns, with its reports in a temp dir. */
export async function startServer(patterns: string[] = []): Promise<{ server: FuzzingServer; base: string; outdir: string }> {
  const outdir = await tempDir();
  const server = createServer({
    host: '127.0.0.1',
    port: 0,
    outdir,
    cases: selectCases(catalogue, patterns),
    // /getCaseStatus's wait: long enough for a client process to start and play a case on a busy machine.
    statusWaitMs: 8000,
    logger: pino({ level: 'silent' }),
  });
  await server.listen();
  return { server, base: `ws://127.0.0.1:${server.port}`, outdir };
}

/** Runs a compiled fixture (or any script) with node and the given arguments; resolves on exit. */
export function runNode(script: string, args: string[], timeoutMs = 20_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : null;
      // No status: say why (killed at the test's own timeout, by a signal, or output past maxBuffer), so a failing assertion shows it.
      const why =
        err !== null && code === null
          ? `\n[runNode: no exit status: ${err.killed ? `killed after ${timeoutMs} ms` : ''} ${err.signal ?? ''} ${String(err.code ?? err.message)}]`
          : '';
      resolve({ code, stdout, stderr: stderr + why });
    });
  });
}

/** Waits for agent's result of a case id. */
export function resultOf(server: FuzzingServer, agent: string, id: string, timeoutMs = 10_000): Promise<CaseResult> {
  const existing = server.results.get(agent)?.get(id);
  if (existing) return Promise.resolve(existing);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no result for ${agent} ${id}`)), timeoutMs);
    const listener = (_e: unknown, r: CaseResult): void => {
      if (r.agent === agent && r.id === id) {
        clearTimeout(timer);
        server.off('caseFinished', listener);
        resolve(r);
      }
    };
    server.on('caseFinished', listener);
  });
}

/** Runs the wsgate CLI to completion. */
export function runCli(args: string[], timeoutMs = 60_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runNode(CLI, args, timeoutMs);
}

/** A client command running a fixture with node; {url} is appended unless the extra args say otherwise. */
export function fixtureCommand(name: string, extra = '{url}'): string {
  return `'${process.execPath}' '${fixture(name)}' ${extra}`;
}

/** The message of the UsageError fn throws (fails the test if it throws nothing or something else). */
export function usageMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof UsageError, String(err));
    return err.message;
  }
  assert.fail('no error');
}
