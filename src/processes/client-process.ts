/**
 * Runs the user's client command: placeholders substituted and shell-quoted, the same values in the
 * environment, its own process group (so a timeout kills its children too), output kept bounded.
 * Descendants that leave the group (setsid, a daemon's double fork) are found by a token in their
 * environment and ended with it.
 */
import { randomBytes } from 'node:crypto';
import { execa } from 'execa';
import type { ProcessCrash } from '../model/peer.js';
import type { ClientRun } from '../model/report.js';
import { clientEnvironment } from '../util/launch-env.js';
import { caEnvironment } from '../tls/setup.js';
import { crashOf } from './crash.js';
import { commandLineHas, environHas, isLive, procPids, procStat, TICKS_PER_S } from './proc.js';

/** Values a client command can use as {url}, {case}, {agent} and {ca}, and as WSGATE_* variables. */
export interface ClientValues {
  url: string;
  case: string;
  agent: string;
  /** Over TLS: the CA certificate file the client should trust (also in NODE_EXTRA_CA_CERTS, SSL_CERT_FILE, WSGATE_CA_FILE). */
  ca?: string;
  /** --http2: the client is to open its WebSockets over HTTP/2 (WSGATE_HTTP2=1). */
  http2?: boolean;
}

/** How much of the client's output a report keeps (the last bytes). */
export const OUTPUT_LIMIT = 16 * 1024;

/** POSIX shell single-quoting: safe for any string, including quotes, spaces, `&` and `?`. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The command with {url}, {case} and {agent} replaced by shell-quoted values. */
export function expandCommand(command: string, values: ClientValues): string {
  const { http2: _http2, ...placeholders } = values;
  return expandPlaceholders(command, placeholders);
}

/** The command with every {name} of `values` replaced by its shell-quoted value; other braces stay. */
export function expandPlaceholders(command: string, values: Readonly<Record<string, string>>): string {
  return command.replace(/\{([a-z]+)\}/g, (whole, key: string) => (Object.hasOwn(values, key) ? shellQuote(values[key] as string) : whole));
}

/** A started client process. */
export interface ClientProcess {
  /** Settles when the process has exited (or could not start). Never rejects. */
  readonly exited: Promise<void>;
  /** Whether the process has exited. */
  readonly hasExited: boolean;
  /** When its shell exited (performance.now(), from the exit itself, not its output's end), or null while it runs. */
  readonly exitedAt: number | null;
  /** Settles when its shell has exited, before its output has ended (a descendant may still hold it). Never rejects. */
  readonly exitSeen: Promise<void>;
  /** The pid of its shell (the root of its process tree), or undefined when it could not start. */
  readonly pid: number | undefined;
  /**
   * CPU time (ms) the live processes of its tree have used so far (Linux /proc; 0 elsewhere): for a
   * server under test, read before it is stopped, since its shell may not reap it.
   */
  treeCpuMs(): number;
  /**
   * Kills the whole process group (SIGKILL), also after the leader exited, and every descendant that
   * left the group (setsid, daemons): no orphan survives.
   */
  killGroup(): void;
  /**
   * SIGTERM to the whole group, then SIGKILL if any member is still alive after graceMs (a client
   * may flush its output on SIGTERM; one that ignores it is killed anyway). 'killed' when SIGKILL was needed.
   */
  stop(graceMs: number): Promise<'terminated' | 'killed'>;
  /** Resolves true once no process of its tree is left (its group and its marked descendants), false after withinMs. */
  treeGone(withinMs: number): Promise<boolean>;
  /** The run as the report shows it; `timedOut` is set by the caller. */
  snapshot(timedOut: boolean): ClientRun;
  /**
   * How the process died on its own, before wsgate signalled it (an exit status other than 0, a
   * signal), with its output's error line (processes/crash.ts); null while it runs, when it exited
   * with 0, or when wsgate stopped it.
   */
  crash(): ProcessCrash | null;
  /** How many bytes of output it has written so far: a mark for outputSince(). */
  outputMark(): number;
  /** Its output since `mark` (what of it the kept tail still holds). */
  outputSince(mark: number): string;
}

/** Keeps the last `limit` bytes written to it. */
class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Bytes pushed in all. */
  written = 0;
  truncated = false;
  constructor(private readonly limit: number) {}
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    this.written += chunk.length;
    while (this.size > this.limit && this.chunks.length > 1) {
      const first = this.chunks.shift() as Buffer;
      this.size -= first.length;
      this.truncated = true;
    }
    if (this.size > this.limit) {
      const only = this.chunks[0] as Buffer;
      this.chunks = [only.subarray(only.length - this.limit)];
      this.size = this.limit;
      this.truncated = true;
    }
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
  /** What was pushed after `written` was `mark`, as far as the tail still holds it. */
  since(mark: number): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - (this.written - mark))).toString('utf8');
  }
}

/**
 * The variable that marks every process a client command starts: children inherit it whatever
 * process group or session they move to, so a setsid'd or daemonized descendant is still found
 * (on Linux, in /proc/PID/environ). A descendant that clears its environment is not.
 */
export const CLIENT_TOKEN_VARIABLE = 'WSGATE_CLIENT_TOKEN';

/** Starts the command in a shell, in a process group of its own; `sink` gets its output as it comes (a report's output log). */
export function startClient(
  command: string,
  values: ClientValues,
  extraEnv: Record<string, string> = {},
  sink: ((chunk: Buffer) => void) | null = null,
): ClientProcess {
  return startCommand(
    expandCommand(command, values),
    {
      ...extraEnv,
      ...caEnvironment(values.ca ?? null),
      WSGATE_URL: values.url,
      WSGATE_CASE: values.case,
      WSGATE_AGENT: values.agent,
      ...(values.http2 === true ? { WSGATE_HTTP2: '1' } : {}),
    },
    null,
    sink,
  );
}

/**
 * Starts an expanded command line in a shell, in a process group of its own, with wsgate's
 * environment plus `env` (a client under test, or a server under test: processes/server-process.ts).
 * `namedBy`, when given, is a path only this command's processes name on their command line (a
 * browser's profile directory): a process that names it is one of the tree even if it cleared its
 * environment.
 */
export function startCommand(
  expanded: string,
  env: Record<string, string>,
  namedBy: string | null = null,
  sink: ((chunk: Buffer) => void) | null = null,
): ClientProcess {
  const output = new TailBuffer(OUTPUT_LIMIT);
  const token = randomBytes(12).toString('hex');
  const child = execa(expanded, {
    shell: true,
    detached: true,
    stdin: 'ignore',
    buffer: false,
    reject: false,
    // wsgate's own environment minus the malloc settings its launcher made for wsgate alone.
    extendEnv: false,
    env: {
      ...clientEnvironment(process.env),
      ...env,
      [CLIENT_TOKEN_VARIABLE]: token,
    },
  });
  const take = (chunk: Buffer): void => {
    output.push(chunk);
    sink?.(chunk);
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  const { end, exited, exitSeen } = watchEnd(child);
  const tree = processTree(child.pid, token, namedBy);
  // A process still running when wsgate signals it did not die on its own.
  let signalled = false;
  const killGroup = (): void => {
    if (!end.hasExited) signalled = true;
    tree.killGroup();
  };
  const stop = (graceMs: number): Promise<'terminated' | 'killed'> => {
    if (!end.hasExited) signalled = true;
    return tree.stop(graceMs);
  };
  return {
    exited,
    get hasExited() {
      return end.hasExited;
    },
    get exitedAt() {
      return end.at;
    },
    exitSeen,
    pid: child.pid,
    treeCpuMs: () => treeCpuMs(child.pid, token, namedBy),
    killGroup,
    stop,
    treeGone: tree.gone,
    snapshot(timedOut) {
      const { exitCode, signal, spawnError } = end;
      return { command: expanded, exitCode, signal, timedOut, spawnError, output: output.text(), outputTruncated: output.truncated };
    },
    crash: () => (end.hasExited && !signalled ? crashOf(end, output.text()) : null),
    outputMark: () => output.written,
    outputSince: (mark) => output.since(mark),
  };
}

/** What execa tells of a command's end. */
interface Ending {
  exitCode?: number | undefined;
  signal?: string | undefined;
  failed: boolean;
  message?: string | undefined;
}

/** How a started command ends: its status, when its shell exited, and when its output ended too. */
function watchEnd(child: { once(event: 'exit', listener: () => void): unknown } & PromiseLike<Ending>): {
  end: { hasExited: boolean; exitCode: number | null; signal: string | null; spawnError: string | null; at: number | null };
  exited: Promise<void>;
  exitSeen: Promise<void>;
} {
  const end = {
    hasExited: false,
    exitCode: null as number | null,
    signal: null as string | null,
    spawnError: null as string | null,
    at: null as number | null,
  };
  const exitEvent = new Promise<void>((resolve) =>
    child.once('exit', () => {
      end.at = performance.now();
      resolve();
    }),
  );
  const exited = Promise.resolve(child).then(
    (result) => {
      end.at ??= performance.now();
      end.hasExited = true;
      end.exitCode = result.exitCode ?? null;
      end.signal = result.signal ?? null;
      if (result.failed && end.exitCode === null && end.signal === null) end.spawnError = firstLine(result.message ?? 'the command failed to start');
    },
    (err: unknown) => {
      end.at ??= performance.now();
      end.hasExited = true;
      end.spawnError = firstLine(err instanceof Error ? err.message : String(err));
    },
  );
  return { end, exited, exitSeen: Promise.race([exitEvent, exited]) };
}

/**
 * Signalling a client's whole process tree: its process group, and every live process that carries
 * its token (descendants that left the group). `stop` is SIGTERM, a grace, then SIGKILL.
 */
function processTree(
  pid: number | undefined,
  token: string,
  namedBy: string | null,
): { killGroup: () => void; stop: (graceMs: number) => Promise<'terminated' | 'killed'>; gone: (withinMs: number) => Promise<boolean> } {
  const signalAll = (sig: NodeJS.Signals): void => {
    if (pid === undefined) return;
    try {
      process.kill(-pid, sig);
    } catch {
      // ESRCH: the group is already gone.
    }
    for (const p of marked(token, namedBy)) {
      try {
        process.kill(p, sig);
      } catch {
        // It ended meanwhile.
      }
    }
  };
  const alive = (): boolean => pid !== undefined && (groupAlive(pid) || marked(token, namedBy).length > 0);
  const killGroup = (): void => signalAll('SIGKILL');
  const gone = async (withinMs: number): Promise<boolean> => {
    const deadline = performance.now() + withinMs;
    while (alive()) {
      if (performance.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return true;
  };
  const stop = async (graceMs: number): Promise<'terminated' | 'killed'> => {
    if (pid === undefined || !alive()) return 'terminated';
    signalAll('SIGTERM');
    if (await gone(graceMs)) return 'terminated';
    killGroup();
    return 'killed';
  };
  return { killGroup, stop, gone };
}

/**
 * Live processes (not zombies, not this one) whose environment holds the client token, or whose
 * command line names `namedBy`; empty where there is no /proc. A process of another user cannot be
 * read, and is not one of ours.
 */
function marked(token: string, namedBy: string | null): number[] {
  const entry = `${CLIENT_TOKEN_VARIABLE}=${token}`;
  return (procPids() ?? []).filter(
    (pid) => pid !== process.pid && (environHas(pid, entry) || (namedBy !== null && commandLineHas(pid, namedBy))) && isLive(procStat(pid)),
  );
}

/** utime + stime (ms) of the members of group pgid and of the processes carrying the token. */
function treeCpuMs(pgid: number | undefined, token: string, namedBy: string | null): number {
  if (pgid === undefined) return 0;
  const pids = new Set(marked(token, namedBy));
  let ticks = 0;
  for (const pid of procPids() ?? []) {
    const stat = procStat(pid);
    if (stat === null || (stat.pgrp !== pgid && !pids.has(pid))) continue;
    ticks += stat.utime + stat.stime;
  }
  return (ticks * 1000) / TICKS_PER_S;
}

/**
 * Whether any process of group pgid is still running. kill(-pgid, 0) also counts zombies (a member
 * that exited but was not reaped yet, or was re-parented to a PID 1 that never reaps), so on Linux the
 * answer comes from /proc: a member whose state is not Z.
 */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  const pids = procPids();
  if (pids === null) return true;
  return pids.some((pid) => {
    const stat = procStat(pid);
    return isLive(stat) && stat.pgrp === pgid;
  });
}

function firstLine(text: string): string {
  return (text.split('\n').find((l) => l.trim() !== '') ?? text).trim().slice(0, 300);
}

/**
 * CPU time of the terminated, waited-for children of this process (Linux: cutime + cstime of
 * /proc/self/stat, in ms; a client's own children count once the client reaped them), or null.
 */
export function childrenCpuMs(): number | null {
  const stat = procStat('self');
  if (stat === null) return null;
  const ticks = stat.cutime + stat.cstime;
  return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_S : null;
}
