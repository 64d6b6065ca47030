/**
 * The server under test as a process of the gate (`wsgate run --server CMD`): started in a shell
 * with its port as {port} and WSGATE_PORT, waited for until it accepts TCP connections, watched
 * while cases run, restarted on request, and stopped with its whole process tree at the end or on
 * a signal. A server that runs elsewhere (--server-url alone) is only waited for.
 */
import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { errorLine, namedErrorLine } from './crash.js';
import { oldTreeAliveWords, serverExitWords, serverIgnoredSigtermWords } from '../explain/peer-words.js';
import type { ProcessExit } from '../model/peer.js';
import { UsageError } from '../errors.js';
import { expandPlaceholders, startCommand, type ClientProcess } from './client-process.js';
import { TERM_GRACE_MS } from './waiting.js';

/** How often a port is tried while waiting for the server to listen. */
const POLL_MS = 50;

/** Lines of the server's own output quoted when it never listened. */
const QUOTED_LINES = 3;
/** How long a restart waits for the old server tree to be gone after SIGKILL (a process in the kernel may take a moment). */
const OLD_TREE_GONE_MS = 5000;

/** The lowest port of the kernel's ephemeral range (Linux's default when it cannot be read). */
export function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 2048 ? low : 32768;
  } catch {
    return 32768;
  }
}

/** Whether host:port can be listened on now (and is let go at once). */
export function canListen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/**
 * Whether no UDP socket holds the same number on host: a port that another program claimed (as the
 * test suite claims the ports it hands to the programs it starts, by a UDP socket of the same number)
 * is not taken while that program is between a stop and its next bind.
 */
function udpFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket({ type: net.isIPv6(host) ? 'udp6' : 'udp4', reuseAddr: false });
    socket.once('error', () => {
      socket.close();
      resolve(false);
    });
    socket.bind(port, host, () => socket.close(() => resolve(true)));
  });
}

/** How far below the ephemeral range a server's port is taken from, and how many tries there. */
const PORT_SPAN = 12_000;
const PORT_TRIES = 50;

/**
 * A free TCP port on host for the server under test, when the URL gives port 0: one below the
 * kernel's ephemeral range, checked free. A port of that range is what every outgoing connection
 * takes as its own, so between this choice and the server's bind one of them can take it, and a
 * probe connecting to it while nothing listens can connect to itself (TCP's self-connect) and see a
 * server that is not there. Below the range neither happens. A port whose number a UDP socket holds
 * is passed over too (udpFree). If none is free there, the kernel's choice.
 */
export async function freePort(host: string): Promise<number> {
  const top = ephemeralLow() - 1;
  for (let i = 0; i < PORT_TRIES; i++) {
    const port = top - Math.floor(Math.random() * PORT_SPAN);
    if ((await canListen(host, port)) && (await udpFree(host, port))) return port;
  }
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Whether host:port accepts a TCP connection now. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Waits until host:port accepts TCP connections, for at most timeoutMs. Resolves null when it does,
 * else why not ('exited' when `process` ended first, 'timeout', 'aborted').
 */
export async function waitForListen(
  host: string,
  port: number,
  timeoutMs: number,
  process: ClientProcess | null,
  signal?: AbortSignal,
): Promise<null | 'exited' | 'timeout' | 'aborted'> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (signal?.aborted === true) return 'aborted';
    if (await accepts(host, port)) return null;
    if (process?.hasExited === true) return 'exited';
    if (performance.now() >= deadline) return 'timeout';
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The last few non-empty lines of a process's output, on one line. */
function lastLines(output: string): string {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines.length === 0 ? '(no output)' : lines.slice(-QUOTED_LINES).join(' | ').slice(0, 400);
}

/** How a server command is started: where, with what, within how long. */
export interface ServerLaunchSpec {
  command: string;
  host: string;
  port: number;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  /** {cert} and {key}, when wsgate made the server's certificate. */
  certificate: { cert?: string; key?: string };
  http2: boolean;
}

/** Where a server's whole output goes (peer/output-log.ts), its name in the report directory. */
export interface ServerLog {
  readonly name: string;
  write(chunk: string | Buffer): void;
  close(): Promise<void>;
}

/** A server process the gate started, and how to start it again. */
export class ServerProcess {
  private current: ClientProcess;
  /** How often it was started (1 after launch). */
  starts = 1;
  /** CPU of the processes of earlier starts (as last read). */
  private earlierCpuMs = 0;
  private lastCpuMs = 0;

  private constructor(
    private readonly expanded: string,
    private readonly env: Record<string, string>,
    private readonly log: ServerLog | null,
  ) {
    this.current = this.start();
  }

  /** Every start's process, the first first. */
  private readonly all: ClientProcess[] = [];

  /** A start of the command; its output goes to the log too, after a line naming the start. */
  private start(): ClientProcess {
    this.log?.write(`--- wsgate: start ${this.starts} of the server under test: ${this.expanded}\n`);
    const started = startCommand(this.expanded, this.env, null, this.log === null ? null : (chunk) => this.log?.write(chunk));
    this.all.push(started);
    return started;
  }

  /** When start `no` (1-based) exited (performance.now()), or null while it runs. */
  exitedAtOf(no: number): number | null {
    return this.all[no - 1]?.exitedAt ?? null;
  }

  /** Whether start `no` exits within ms (true at once when it has). */
  async startExitsWithin(no: number, ms: number): Promise<boolean> {
    const run = this.all[no - 1];
    if (run === undefined || run.exitedAt !== null) return true;
    await raceExit(run.exitSeen, ms);
    return run.exitedAt !== null;
  }

  /**
   * How start `no` ended, as facts: its status or signal, and its output's line that names the error
   * (read once its output has ended, or after a moment when a descendant still holds it).
   */
  async endOf(no: number): Promise<{ exitCode: number | null; signal: string | null; errorLine: string | null }> {
    const run = this.all[no - 1];
    if (run === undefined) return { exitCode: null, signal: null, errorLine: null };
    await raceExit(run.exited, 1000);
    const snap = run.snapshot(false);
    return { exitCode: snap.exitCode, signal: snap.signal, errorLine: errorLine(snap.output) };
  }

  /**
   * Starts the command and waits until it listens on host:port. A command that exits first or never
   * listens in time is a UsageError naming it, with its last output (it is stopped first).
   */
  static async launch(launch: ServerLaunchSpec, log: ServerLog | null = null): Promise<ServerProcess> {
    const { host, port, certificate } = launch;
    const expanded = expandPlaceholders(launch.command, { port: String(port), ...certificate });
    // --http2: the server is to take WebSockets over HTTP/2 (RFC 8441).
    const env: Record<string, string> = { WSGATE_PORT: String(port), WSGATE_HOST: host, ...(launch.http2 ? { WSGATE_HTTP2: '1' } : {}) };
    if (certificate.cert !== undefined && certificate.key !== undefined) {
      env.WSGATE_CERT_FILE = certificate.cert;
      env.WSGATE_KEY_FILE = certificate.key;
    }
    const server = new ServerProcess(expanded, env, log);
    await server.waitUntilListening(host, port, launch.timeoutMs, launch.signal);
    return server;
  }

  /** CPU time (ms) of the server processes over every start (read while they lived: call sampleCpu). */
  cpuMs(): number {
    return this.earlierCpuMs + this.lastCpuMs;
  }

  /** Reads the CPU time of the live server processes (a process that died unread is not counted). */
  sampleCpu(): void {
    const now = this.current.treeCpuMs();
    if (now > this.lastCpuMs) this.lastCpuMs = now;
  }

  /** The pid of the current start's shell (the root of its process tree). */
  get pid(): number | undefined {
    return this.current.pid;
  }

  /** Whether the process has exited (the server died). */
  get hasExited(): boolean {
    return this.current.hasExited;
  }

  /** When the current start exited (performance.now()), or null while it runs. */
  get exitedAt(): number | null {
    return this.current.exitedAt;
  }

  /** Whether wsgate is stopping it (at the run's end, or on a signal): an exit now is not a death. */
  stopping = false;

  /** The file its whole output is kept in (its name in the report directory), or null. */
  get outputFile(): string | null {
    return this.log?.name ?? null;
  }

  /** Whether the process exits within ms (true at once when it already has); once it has, its status is known (after at most a second more). */
  async exitsWithin(ms: number): Promise<boolean> {
    const run = this.current;
    if (run.exitedAt !== null) {
      await raceExit(run.exited, 1000);
      return true;
    }
    let timer: NodeJS.Timeout | undefined;
    const exited = await Promise.race([
      this.current.exitSeen.then(() => raceExit(run.exited, 1000)).then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
    ]);
    clearTimeout(timer);
    return exited;
  }

  /** How the process ended, in words ("exited with status 1", "was killed by SIGKILL"). */
  describeExit(): string {
    return serverExitWords(this.exit());
  }

  /** How the current start ended, as facts: its status or signal, or why it could not start. */
  exit(): ProcessExit {
    const run = this.current.snapshot(false);
    return { exitCode: run.exitCode, signal: run.signal, spawnError: run.spawnError };
  }

  /** A mark in the current start's output, for outputSince(). */
  outputMark(): { start: number; at: number } {
    return { start: this.starts, at: this.current.outputMark() };
  }

  /** The current start's output since `mark` (all it kept when the server was started again meanwhile). */
  outputSince(mark: { start: number; at: number }): string {
    return this.current.outputSince(mark.start === this.starts ? mark.at : 0);
  }

  /**
   * What the server's output says of its end, on one line: the line that names its error (an
   * uncaught exception's "Error: …", not the stack's tail after it), else its last lines.
   */
  lastOutput(): string {
    const output = this.current.snapshot(false).output;
    return namedErrorLine(output) ?? lastLines(output);
  }

  /** Starts the command again after it died, and waits until it listens. */
  async restart(host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    this.earlierCpuMs += this.lastCpuMs;
    this.lastCpuMs = 0;
    this.current.killGroup();
    // The old tree must be gone before the new one starts: a server that stopped serving still holds
    // its listening socket until it dies, and a probe it accepted would pass for the new server's
    // (the next case then found nothing listening: "no connection (refused)").
    if (!(await this.current.treeGone(OLD_TREE_GONE_MS))) {
      throw new UsageError(oldTreeAliveWords(OLD_TREE_GONE_MS / 1000, this.expanded));
    }
    this.starts += 1;
    this.current = this.start();
    await this.waitUntilListening(host, port, timeoutMs, signal);
  }

  private async waitUntilListening(host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const why = await waitForListen(host, port, timeoutMs, this.current, signal);
    if (why === null || why === 'aborted') return;
    if (why === 'exited') {
      await this.current.exited;
      throw new UsageError(
        `the server command ${this.describeExit()} before it accepted connections on ${host}:${port}: ${this.lastOutput()} (command: ${this.expanded})`,
      );
    }
    await this.stop();
    throw new UsageError(
      `the server command did not accept connections on ${host}:${port} within ${timeoutMs / 1000} s: ${this.lastOutput()} (command: ${this.expanded})`,
    );
  }

  /**
   * Stops the whole process tree: SIGTERM, then SIGKILL after a grace. Returns a warning when
   * SIGKILL was needed.
   */
  async stop(): Promise<string | null> {
    this.stopping = true;
    this.sampleCpu();
    if (this.current.hasExited) {
      this.current.killGroup();
      await this.log?.close();
      return null;
    }
    const how = await this.current.stop(TERM_GRACE_MS);
    this.current.killGroup();
    await raceExit(this.current.exited, 1000);
    await this.log?.close();
    return how === 'killed' ? serverIgnoredSigtermWords(TERM_GRACE_MS / 1000) : null;
  }
}

/** Resolves when `p` does or after ms. */
function raceExit(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
}
