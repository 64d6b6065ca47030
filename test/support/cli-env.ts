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

/** How many runMain calls are under way, and what each has seen on fd 2 (see runMain). */
const mainCaptures = new Set<{ stderr: string }>();
let restoreStderr: (() => void) | null = null;

/**
 * Runs the wsgate CLI in this process: `main(args, io)` (src/main.ts), the CLI minus its process
 * entry, with stdout and stderr captured; resolves like runCliWith with main's exit status. `env` is
 * the environment main sees (added to this process's, GitHub's variables left out as for a process);
 * processes wsgate starts (clients, servers) still inherit this process's own environment, and paths
 * are resolved against this process's working directory: give absolute ones. For a test of what a
 * command decides (its one line and status, its verdicts and files), not of the process (signals,
 * the real process's exit status and stdout, the shebang).
 *
 * What the process would print on its stderr outside io.stderr is captured too: pino writes to fd 2
 * (fs.writeSync) and a few notices go to process.stderr. While calls overlap, such a write lands in
 * every call's stderr (an assertion on stderr can fail wrongly then, never pass wrongly).
 */
export async function runMain(args: string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<ProcessResult> {
  const [{ main }, fs, { Writable }] = await Promise.all([import('../../src/main.js'), import('node:fs'), import('node:stream')]);
  const capture = { stderr: '' };
  let stdout = '';
  const sink = (add: (s: string) => void) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        add(chunk.toString());
        callback();
      },
    });
  if (restoreStderr === null) {
    const fsMod = fs.default;
    const { writeSync } = fsMod;
    const stderrWrite = process.stderr.write;
    const toCaptures = (data: unknown): void => {
      const text = typeof data === 'string' ? data : Buffer.isBuffer(data) || data instanceof Uint8Array ? Buffer.from(data).toString() : String(data);
      for (const c of mainCaptures) c.stderr += text;
    };
    fsMod.writeSync = ((fd: number, data: unknown, ...rest: unknown[]) => {
      if (fd === 2 && mainCaptures.size > 0) {
        toCaptures(data);
        return typeof data === 'string' ? Buffer.byteLength(data) : (data as Uint8Array).byteLength;
      }
      return (writeSync as (...a: unknown[]) => number)(fd, data, ...rest);
    }) as typeof fsMod.writeSync;
    process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (mainCaptures.size > 0) {
        toCaptures(chunk);
        const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
        done?.();
        return true;
      }
      return (stderrWrite as (...a: unknown[]) => boolean).call(process.stderr, chunk, ...rest);
    }) as typeof process.stderr.write;
    restoreStderr = () => {
      fsMod.writeSync = writeSync;
      process.stderr.write = stderrWrite;
      restoreStderr = null;
    };
  }
  mainCaptures.add(capture);
  // GitHub's own variables of an outer CI must not reach the command under test (as in runFile).
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('GITHUB_') && !k.startsWith('INPUT_') && k !== 'WSGATE_LISTEN_HOST'),
  );
  try {
    const code = await main(args, {
      stdout: sink((s) => (stdout += s)),
      stderr: sink((s) => (capture.stderr += s)),
      isTty: false,
      env: { ...base, ...options.env },
    });
    return { code, stdout, stderr: capture.stderr };
  } finally {
    mainCaptures.delete(capture);
    if (mainCaptures.size === 0) restoreStderr?.();
  }
}
