/**
 * A resolved `wsgate run`, by role: what only the client role has (the client command, where the
 * fuzzing server listens) is absent from the server role's type, and what only the server role has
 * (the servers under test, the seed) from the client role's. Sources, highest first: flags, the
 * environment (WSGATE_LISTEN_HOST), an Autobahn spec file, the defaults.
 */
import path from 'node:path';
import type { z } from 'zod';
import { UsageError } from '../errors.js';
import { failingVerdicts } from '../model/verdicts.js';
import { agentProblem } from '../server/route-target.js';
import { splitList } from '../util/patterns.js';
import { defaultJobs, type Shard } from './parallel.js';
import {
  listenSettings,
  parseWith,
  resolveShard,
  resolveTls,
  checkRobustness,
  runSchema,
  specExtras,
  withSpec,
  type ConfigSources,
  type BrowserEngine,
  type ListenSettings,
  type SpecExtras,
} from './schema.js';
import type { SpecSettings } from './spec.js';
import { parseBudgets } from './budgets.js';
import type { RobustnessBudgets } from '../cases/data/budgets.js';
import { parseListenUrl, parseServerUrl } from './url.js';
import type { ServerProtocolOptions } from '../server/upgrade.js';

/** What a run has whichever side is under test. */
export interface RunSettings extends SpecExtras {
  /** The agent name of the reports (a server under test may be renamed by its Server header). */
  agent: string;
  outdir: string;
  cases: string[];
  excludeCases: string[];
  /** Seconds a case may take; null: 30, or the case's own longest wait if longer. */
  caseTimeout: number | null;
  strict: boolean;
  /** The verdicts that fail a case (--fail-on, plus NON-STRICT with --strict). */
  failOn: string[];
  /** --baseline FILE, or null. */
  baseline: string | null;
  /** --write-baseline FILE, or null. */
  writeBaseline: string | null;
  /** GitHub Actions output (summary, annotations, outputs): null follows the environment. */
  github: boolean | null;
  /** --quiet: no line per case on the console, the summary and its causes only. */
  quiet: boolean;
  junit: string;
  json: string;
  logLevel: string;
  /** Cases run at once (group 9 always alone). */
  jobs: number;
  /** Only this slice of the selected cases (--shard K/N), or null for all. */
  shard: Shard | null;
  /** Select from Autobahn's cases plus wsgate's own (group 14 or 15). */
  extended: boolean;
  /** The robustness profile: the role's attacks (group 17 for a server, 18 for a client) instead of the catalogue. */
  robustness: boolean;
  /** What the robustness profile holds the peer to (--budget; the defaults otherwise). */
  budgets: RobustnessBudgets;
  /** --quick: of the selection, every group with a sample of 9, 12 and 13 (cases/quick.ts). */
  quick?: boolean;
  /**
   * What the run keeps for `wsgate repro` of its non-passing cases: their recordings (under
   * OUTDIR/repro-data/), and with `scripts` (--repro) their repro scripts (OUTDIR/repro/).
   */
  repro: { record: boolean; scripts: boolean };
}

/** `wsgate run` testing a client: wsgate is the fuzzing server. */
export interface ClientRunConfig extends RunSettings, ListenSettings {
  role: 'client';
  /** The client command, or null for the bundled ws client. */
  client: string | null;
  /** The client drives every case itself (/getCaseCount, /runCase, /updateReports). */
  clientLoops: boolean;
  /** A browser engine plays the cases on the fuzzing server's page instead of a command (`--browser`), or null. */
  browser: BrowserChoice | null;
  /** The agent was given (--agent, a spec file): a browser's results are otherwise named after its engine and version. */
  agentGiven: boolean;
}

/** The browser under test (`run --browser`). */
export interface BrowserChoice {
  engine: BrowserEngine;
  /** --browser-path: its executable, or null to look where the distributions install it. */
  path: string | null;
  /** Seconds the watchdog waits for the page to load, and between one case and the next. */
  timeoutS: number;
}

/** Seconds a page may go without asking between cases (and to load, drivers/browser.ts LOAD_FLOOR_S at least), when --browser-timeout does not say. */
export const DEFAULT_BROWSER_TIMEOUT = 30;

/** `wsgate run` testing servers: wsgate is the fuzzing client. */
export interface ServerRunConfig extends RunSettings {
  role: 'server';
  /** Every server under test, tested one after another (a fuzzingclient.json may list several). */
  servers: ServerUnderTest[];
  /** The agent was not given: name it after the server's Server header, or its host and port. */
  agentFromServer: boolean;
  /** --seed: masks and keys from this seed, or null for random ones. */
  seed: number | null;
  /** The agent of a server without a name or a Server header (default: its host and port; `wstest`: the original's UnknownServer). */
  unknownAgent?: string;
  /**
   * A server running elsewhere that never accepts a connection within its start timeout: a usage
   * error (the gate's default), or its cases are left out and the run goes on to the next server
   * (`wstest`, as the original's fuzzing client does).
   */
  unreachable?: 'error' | 'skip';
}

export type RunConfig = ClientRunConfig | ServerRunConfig;

/** A server under test. */
export interface ServerUnderTest {
  /** Its agent name from a spec file's `servers` entry, or null (then --agent, the Server header, or host:port). */
  agent: string | null;
  /** The URL the cases connect to (port filled in when the flag gave 0). */
  url: string;
  host: string;
  /** 0: a free port, chosen when the gate starts the command. */
  port: number;
  /** Request target: path and query. */
  resource: string;
  /** The command that starts it (the bundled ws server by default), or null when it runs elsewhere. */
  command: string | null;
  /** Start the command again when it died, before the next case (--restart-server; always under --robustness). */
  restart: boolean;
  /** Seconds to wait for it to accept TCP connections. */
  startTimeout: number;
  /** Autobahn protocol options for this server only (a fuzzingclient.json server's `options`, through `wstest`). */
  protocolOptions?: Partial<ServerProtocolOptions>;
}

/** Stands for the bundled reference server (ws's WebSocketServer), resolved by the server role's driver. */
export const REFERENCE_SERVER_COMMAND = '{reference-server}';

/** Seconds the gate waits for a server under test to accept connections when not told. */
export const DEFAULT_SERVER_START_TIMEOUT = 30;

type RunOptions = z.infer<typeof runSchema>;

/** Validates and resolves the options of `wsgate run` (flags > env > spec file > defaults). */
export function resolveRunConfig(input: Record<string, unknown>, sources: ConfigSources = {}): RunConfig {
  const o = parseWith(runSchema, withSpec(input, sources.spec));
  const server = serverUnderTest(o);
  if (server === null) return clientRunConfig(o, sources);
  const anyWss = [server.url, ...(sources.spec?.servers ?? []).map((s) => s.url)].some((u) => u.startsWith('wss:'));
  const tls = resolveTls(o, anyWss, 'server', server.command !== null);
  if (o.tls) secureUrl(server);
  // A fuzzingclient.json's server is named by its own "agent" (over --agent only when the flag is absent).
  const specServer = sources.spec?.servers?.[0];
  if (specServer !== undefined && o.serverUrl === specServer.url && o.agent === null) server.agent = specServer.agent;
  return {
    role: 'server',
    ...runSettings(o, sources, tls, './reports/servers', 'wsgate-reference-ws', true),
    servers: [server, ...moreServers(o, server, sources.spec, o.tls)],
    // The bundled server sends no Server header and listens on a free port: it has a name of its own.
    agentFromServer: o.agent === null && server.command !== REFERENCE_SERVER_COMMAND,
    seed: o.seed,
  };
}

function clientRunConfig(o: RunOptions, sources: ConfigSources): ClientRunConfig {
  const { host, port, secure } = parseListenUrl(o.url);
  const tls = resolveTls(o, secure, 'client', false);
  const browser = browserChoice(o, tls !== null);
  const defaultAgent = browser !== null ? browser.engine : o.client === null ? 'wsgate-reference-ws' : 'client';
  return {
    role: 'client',
    ...runSettings(o, sources, tls, './reports/clients', defaultAgent, false),
    ...listenSettings(host, port, sources.env),
    client: o.client,
    // The bundled client drives the cases itself: one process instead of one per case; so does a browser's page.
    clientLoops: o.clientLoops || o.client === null,
    browser,
    agentGiven: o.agent !== null,
  };
}

/** --browser and its options, or null; what does not go with a browser is a UsageError. */
function browserChoice(o: RunOptions, tls: boolean): BrowserChoice | null {
  if (o.browser === null) {
    const stray = o.browserPath !== null ? '--browser-path' : o.browserTimeout !== null ? '--browser-timeout' : null;
    if (stray !== null) throw new UsageError(`${stray} goes with --browser chromium|firefox|webkit`);
    return null;
  }
  const clash =
    o.client !== null
      ? ['--client', 'the browser is the client']
      : o.clientLoops
        ? ['--client-loops', 'a browser always plays every case itself']
        : o.jobs !== null
          ? ['--jobs', 'a browser plays its cases one after another, in order']
          : o.http2
            ? ['--http2', 'a browser chooses HTTP/2 for a WebSocket itself; wsgate cannot make it']
            : tls && o.browser === 'firefox'
              ? [
                  '--tls (wss://) for firefox',
                  "a fresh Firefox profile trusts a CA only through NSS's certutil (its certificate database), which wsgate does not use; test Firefox over ws://",
                ]
              : null;
  if (clash !== null) throw new UsageError(`--browser does not go with ${clash[0]}: ${clash[1]}`);
  return { engine: o.browser, path: o.browserPath, timeoutS: o.browserTimeout ?? DEFAULT_BROWSER_TIMEOUT };
}

/** The settings both roles resolve alike (`servers`: the role is server). */
function runSettings(
  o: RunOptions,
  sources: ConfigSources,
  tls: SpecExtras['tls'],
  defaultOutdir: string,
  defaultAgent: string,
  servers: boolean,
): RunSettings {
  if (o.repro && o.http2) throw new UsageError('--repro writes scripts that replay HTTP/1.1 connections: it does not go with --http2');
  const agent = o.agent ?? defaultAgent;
  const problem = agentProblem(agent);
  if (problem !== null) throw new UsageError(`--agent: ${problem}`);
  // Relative paths (flags and the spec file's outdir alike) resolve against the working directory, as in Autobahn.
  const outdir = path.resolve(o.outdir ?? defaultOutdir);
  return {
    agent,
    outdir,
    cases: splitList(o.cases),
    excludeCases: splitList(o.excludeCases),
    caseTimeout: o.caseTimeout,
    strict: o.strict,
    failOn: [...failingVerdicts(o.failOn === null ? null : splitList(o.failOn), o.strict)],
    baseline: o.baseline === null ? null : path.resolve(o.baseline),
    writeBaseline: o.writeBaseline === null ? null : path.resolve(o.writeBaseline),
    github: o.github,
    quiet: o.quiet,
    junit: path.resolve(o.junit ?? path.join(outdir, 'junit.xml')),
    json: path.resolve(o.json ?? path.join(outdir, 'summary.json')),
    logLevel: o.logLevel,
    // The profile measures each case's growth of the peer's one process tree: cases at once would share
    // it (a bomb's hundreds of MiB charged to a handshake beside it), so one at a time unless --jobs says.
    jobs: o.jobs ?? (o.robustness ? 1 : defaultJobs()),
    shard: resolveShard(o.shard),
    extended: o.extended,
    robustness: checkRobustness({ ...o, servers }),
    budgets: parseBudgets(o.budget, o.robustness),
    quick: o.quick,
    // A repro script replays an HTTP/1.1 connection: a run over HTTP/2 keeps no recording.
    repro: { record: !o.http2, scripts: o.repro },
    ...specExtras(sources, tls, o.http2),
  };
}

/** The server under test from the flags, or null when clients are tested; contradictions are UsageErrors. */
function serverUnderTest(o: RunOptions): ServerUnderTest | null {
  const serverFlag = o.serverUrl !== null ? '--server-url' : o.server !== null ? '--server' : o.restartServer ? '--restart-server' : null;
  if (o.role === 'client' && serverFlag !== null) throw new UsageError(`${serverFlag} tests a server: it does not go with --role client`);
  if (o.role !== 'server' && serverFlag === null) {
    if (o.seed !== null) throw new UsageError('--seed applies when servers are tested (--role server, --server-url)');
    return null;
  }
  if (o.client !== null) throw new UsageError('--client tests a client: it does not go with --role server, --server-url or --server');
  if (o.clientLoops) throw new UsageError('--client-loops tests a client: it does not go with --role server, --server-url or --server');
  if (o.restartServer && o.server === null && o.serverUrl !== null)
    throw new UsageError('--restart-server needs --server CMD (wsgate can only restart a server it started)');
  const embedded = o.server === null && o.serverUrl === null;
  const target = parseServerUrl(o.serverUrl ?? 'ws://127.0.0.1:0');
  if (target.port === 0 && o.server === null && !embedded)
    throw new UsageError('--server-url: port 0 needs --server CMD (a free port is chosen for the server wsgate starts)');
  return {
    ...target,
    agent: null,
    command: o.server ?? (embedded ? REFERENCE_SERVER_COMMAND : null),
    // The robustness profile restarts a server it started and took down, unless told otherwise.
    restart: o.restartServer || (o.robustness && (o.server !== null || embedded)),
    startTimeout: o.serverStartTimeout ?? DEFAULT_SERVER_START_TIMEOUT,
  };
}

/**
 * The servers a fuzzingclient.json lists after its first, each with its own agent (only when the
 * file's servers are the ones tested: not with --server-url, and not with --server, which starts one).
 */
function moreServers(o: RunOptions, first: ServerUnderTest, spec: SpecSettings | null | undefined, tls: boolean): ServerUnderTest[] {
  const listed = spec?.servers ?? [];
  if (listed.length < 2 || o.serverUrl !== listed[0]?.url) return [];
  if (o.server !== null)
    throw new UsageError(
      `--server starts one server, but ${spec?.file ?? 'the spec file'} lists ${listed.length}: give each its own run, or start them yourself`,
    );
  const agents = listed.map((s) => s.agent).filter((a): a is string => a !== null);
  const twice = agents.find((a, i) => agents.indexOf(a) !== i);
  if (twice !== undefined) throw new UsageError(`${spec?.file ?? 'the spec file'}: two servers are named ${JSON.stringify(twice)}; each needs its own agent`);
  // Only the first server can be one wsgate starts: the others run elsewhere, never restarted.
  const more = listed.slice(1).map((s) => ({ ...first, ...parseServerUrl(s.url), agent: s.agent, command: null, restart: false }));
  // --tls makes every listed server's URL wss://; without it, each server's own scheme says.
  if (tls) for (const s of more) secureUrl(s);
  return more;
}

/** The server's URL with the wss:// scheme (--tls over a ws:// URL). */
function secureUrl(server: ServerUnderTest): void {
  if (server.url.startsWith('ws:')) server.url = `wss:${server.url.slice(3)}`;
}
