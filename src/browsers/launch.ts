/**
 * Starting a browser engine on the run's page: the executable found (or named), its version read
 * once for the agent, then each launch with a fresh profile directory, in a process group of its own
 * (processes/client-process.ts: the whole group and every marked descendant end with it), the
 * profile removed once it has stopped.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import type { BrowserChoice } from '../config/run-config.js';
import { UsageError } from '../errors.js';
import { shellQuote, startCommand, type ClientProcess } from '../processes/client-process.js';
import { TERM_GRACE_MS } from '../processes/waiting.js';
import { agentFromVersion, discoverEngine, ENGINES, engineArgv, findExecutable, prepareProfile, webkitPort, type EngineKind } from './engines.js';

/** An engine ready to launch: its executable, and the agent its results go under. */
export interface BrowserSetup {
  readonly kind: EngineKind;
  readonly executable: string;
  /** The engine's name and version ("Chromium/156.0.8078.73"), or the label when it tells none. */
  readonly engineAgent: string;
}

/** How long `--version` may take (Debian's chromium wrapper reads its settings first). */
const VERSION_TIMEOUT_MS = 20_000;

/** Finds the engine's executable (the one named, else where the distributions put it) and reads its version; a UsageError when there is none. */
export async function setUpBrowser(choice: BrowserChoice, env: NodeJS.ProcessEnv = process.env): Promise<BrowserSetup> {
  const kind = ENGINES[choice.engine];
  let executable: string | null;
  if (choice.path !== null) {
    executable = findExecutable(choice.path, env);
    if (executable === null) throw new UsageError(`--browser-path: ${choice.path} is not an executable file`);
  } else {
    executable = discoverEngine(kind, env);
    if (executable === null)
      throw new UsageError(
        `--browser ${choice.engine}: no ${kind.label} found (looked for ${kind.candidates.join(', ')}); ${kind.install}, or name it with --browser-path`,
      );
  }
  return { kind, executable, engineAgent: await engineAgent(kind, executable, env) };
}

/** The agent from the engine's `--version` (WebKitGTK's MiniBrowser has none: its label). */
async function engineAgent(kind: EngineKind, executable: string, env: NodeJS.ProcessEnv): Promise<string> {
  if (kind.engine === 'webkit' && webkitPort(executable) === 'gtk') return 'WebKitGTK';
  const run = await execa(executable, ['--version'], {
    reject: false,
    timeout: VERSION_TIMEOUT_MS,
    stdin: 'ignore',
    env: { ...env, HOME: os.tmpdir() },
    extendEnv: false,
  });
  if (run.failed && run.exitCode === undefined)
    throw new UsageError(`--browser ${kind.engine}: ${executable} could not be started: ${String(run.shortMessage ?? '').split('\n')[0] ?? ''}`);
  return agentFromVersion(kind, `${String(run.stdout)}\n${String(run.stderr)}`);
}

/** A browser started on the page. */
export interface LaunchedBrowser {
  readonly process: ClientProcess;
  /** The command line, as the reports show it. */
  readonly command: string;
  /** Ends its whole process group (SIGTERM, a grace, SIGKILL) and removes its profile; idempotent. */
  dispose(): Promise<void>;
  /**
   * CPU time (ms) of its processes, read just before dispose() ended them (0 before): a browser's
   * helpers are not all its own children, so the run's reaped-children figure would miss them.
   */
  cpuMs(): number;
}

/**
 * Starts the engine headless on `page` with a fresh profile, trusting the server key `spki` over
 * wss://; a UsageError when it cannot run here (WebKitGTK without a display).
 */
export async function launchBrowser(setup: BrowserSetup, page: string, spki: string | null, env: NodeJS.ProcessEnv = process.env): Promise<LaunchedBrowser> {
  const profile = await mkdtemp(path.join(os.tmpdir(), `wsgate-${setup.kind.engine}-`));
  const tmp = await browserTmpdir();
  let started: ClientProcess | null = null;
  try {
    await prepareProfile(setup.kind, profile);
    const argv = engineArgv(setup.kind, { executable: setup.executable, page, profile, env, spki });
    if (typeof argv === 'string') throw new UsageError(`--browser ${setup.kind.engine}: ${argv}`);
    const command = argv.map(shellQuote).join(' ');
    // The profile is its home too: an engine that keeps data under $HOME (WebKit's) starts as fresh as one given a profile.
    const home = {
      HOME: profile,
      TMPDIR: tmp,
      XDG_CONFIG_HOME: path.join(profile, '.config'),
      XDG_CACHE_HOME: path.join(profile, '.cache'),
      XDG_DATA_HOME: path.join(profile, '.local'),
    };
    // Its processes are found by the run's token and by the profile they name (a crashpad handler
    // sits in a session of its own, out of the group's reach).
    started = startCommand(`exec ${command}`, home, profile);
    const proc = started;
    let disposed: Promise<void> | null = null;
    let cpuMs = 0;
    return {
      process: proc,
      command,
      cpuMs: () => cpuMs,
      dispose: () => {
        disposed ??= (async () => {
          cpuMs = proc.treeCpuMs();
          await proc.stop(TERM_GRACE_MS);
          await proc.treeGone(5000);
          await rm(profile, { recursive: true, force: true, maxRetries: 3 });
          await rm(tmp, { recursive: true, force: true, maxRetries: 3 });
        })();
        return disposed;
      },
    };
  } catch (err) {
    await rm(profile, { recursive: true, force: true });
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
}

/** Chromium's singleton socket, TMPDIR/org.chromium.Chromium.XXXXXX/SingletonSocket, must fit a socket's 107 bytes (or it aborts). */
const SOCKET_DIR_MAX = 107 - '/org.chromium.Chromium.XXXXXX/SingletonSocket'.length;

/**
 * A TMPDIR of the browser's own, removed with its profile: what Chromium leaves there when it is
 * ended rather than quit (its org.chromium.Chromium.* directory) goes with it. Under the run's
 * TMPDIR, or under /tmp when that is too long for Chromium's socket.
 */
async function browserTmpdir(): Promise<string> {
  const base = Buffer.byteLength(os.tmpdir()) + '/wsgate-tmp-XXXXXX'.length <= SOCKET_DIR_MAX ? os.tmpdir() : '/tmp';
  return mkdtemp(path.join(base, 'wsgate-tmp-'));
}
