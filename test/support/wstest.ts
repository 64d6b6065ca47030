/** Running the compiled `wstest` executable as a user's script does: in a working directory of its own. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runNodeWith, type ProcessResult } from './cli-env.js';
import { reservedPort } from './ports.js';

/** The compiled wstest executable (package.json's "wstest" bin). */
export const WSTEST = fileURLToPath(new URL('../../src/wstest-cli.js', import.meta.url));

/** Runs wstest to completion in `cwd`. */
export function runWstest(args: string[], cwd: string, options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<ProcessResult> {
  return runNodeWith(WSTEST, args, { cwd, ...options });
}

/** A wstest process running in the background. */
export interface WstestProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
  /** The fuzzing server's port, from its "Fuzzing Server (Port N)" line (0 for other modes). */
  port: number;
}

/** Starts wstest in `cwd` and resolves once its stdout matches `ready`. */
export async function startWstest(
  args: string[],
  cwd: string,
  ready: RegExp = /Fuzzing Server \(Port (\d+)/,
  env: NodeJS.ProcessEnv = {},
): Promise<WstestProcess> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'WSGATE_LISTEN_HOST'));
  const child = spawn(process.execPath, [WSTEST, ...args], { cwd, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = ready.exec(out);
      if (m !== null) resolve(Number(m[1] ?? 0));
    });
    void exited.then((code) => reject(new Error(`wstest exited (${String(code)}) before ${String(ready)}: ${out}`)));
  });
  return { child, exited, output: () => out, port };
}

/** A free TCP port on 127.0.0.1 (closed again: a spec file names it). */
export function freePort(): Promise<number> {
  return reservedPort();
}
