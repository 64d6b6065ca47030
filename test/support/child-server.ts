/**
 * `wsgate serve` as a child process, for tests that measure the server's own memory (peak RSS from
 * /proc/PID/status, resettable through /proc/PID/clear_refs) and must not share a heap with the peer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { CLI, tempDir } from './harness.js';

/** A running `wsgate serve` child. */
export interface ChildServer {
  port: number;
  pid: number;
  outdir: string;
  child: ChildProcess;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** Peak resident set size (VmHWM) in KiB since start or the last resetPeak(). */
  peakRssKiB(): number;
  /** Current resident set size (VmRSS) in KiB. */
  rssKiB(): number;
  /** Resets VmHWM to the current RSS (Linux: "5" into clear_refs) and returns that RSS in KiB. */
  resetPeak(): number;
  /** Whether the process is still alive. */
  alive(): boolean;
  /** SIGINT, then waits for the exit; resolves with the exit status. */
  stop(): Promise<number | null>;
}

function statusField(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (m === null) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(m[1]);
}

/** Starts `wsgate serve --url ws://127.0.0.1:0 --cases ...` and resolves once it listens (reports in outdir, default a fresh temp dir). */
export async function startChildServer(cases: string[], outdir?: string): Promise<ChildServer> {
  outdir ??= await tempDir('wsgate-child-');
  const child = spawn(process.execPath, [CLI, 'serve', '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', ...cases], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let exited = false;
  const exit = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      exited = true;
      resolve(code);
    });
  });
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (d: Buffer): void => {
      out += d.toString();
      const m = /Fuzzing Server \(Port (\d+)\)/.exec(out);
      if (m !== null) resolve(Number(m[1]));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    void exit.then((code) => reject(new Error(`wsgate serve exited (${code}) before listening: ${out}`)));
  });
  const pid = child.pid as number;
  return {
    port,
    pid,
    outdir,
    child,
    output: () => out,
    peakRssKiB: () => statusField(pid, 'VmHWM'),
    rssKiB: () => statusField(pid, 'VmRSS'),
    resetPeak: () => {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
      return statusField(pid, 'VmRSS');
    },
    alive: () => !exited,
    stop: async () => {
      if (!exited) child.kill('SIGINT');
      return exit;
    },
  };
}
