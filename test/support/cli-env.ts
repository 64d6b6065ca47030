/** Runs a compiled entry (the CLI, the action) as a process with a chosen environment and working directory. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { CLI } from './harness.js';

/** The result of a finished process. */
export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node script args` with `env` added to (or, with `replaceEnv`, instead of) this process's environment. */
export function runNodeWith(
  script: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number; replaceEnv?: boolean } = {},
): Promise<ProcessResult> {
  return runFile(process.execPath, [script, ...args], options);
}

/** Runs any executable (bash for a composite step) with the same options. */
export function runFile(
  file: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number; replaceEnv?: boolean } = {},
): Promise<ProcessResult> {
  // GitHub's own variables of an outer CI must not leak into the process under test.
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('GITHUB_') && !k.startsWith('INPUT_') && k !== 'WSGATE_LISTEN_HOST'),
  );
  const env = options.replaceEnv === true ? { ...options.env } : { ...base, ...options.env };
  return new Promise((resolve) => {
    execFile(file, args, { env, cwd: options.cwd, timeout: options.timeoutMs ?? 60_000 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : null;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs the wsgate CLI with an environment and working directory. */
export function runCliWith(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<ProcessResult> {
  return runNodeWith(CLI, args, options);
}

/** One case of a run's summary.json, as the end-to-end tests read it. */
export interface SummaryCase {
  id: string;
  status: string;
  behavior: string | null;
  behaviorClose: string | null;
  reason: string;
  warnings: string[];
  client: { exitCode: number | null; timedOut: boolean } | null;
  tls?: { version: string; cipher: string };
}

/** The CLI started in the background; resolves once its stdout matches `ready` (rejects if it exits first). */
export async function startCliUntil(
  args: string[],
  ready: RegExp,
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<{ child: ChildProcess; exited: Promise<number | null>; output: () => string }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) resolve();
    });
    void exited.then(() => reject(new Error(`the run ended before ${String(ready)}: ${out}`)));
  });
  return { child, exited, output: () => out };
}
