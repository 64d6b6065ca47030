/**
 * Configuration of the gate and the server, validated with zod. Sources, highest first: flags, the
 * environment (WSGATE_LISTEN_HOST), an Autobahn spec file (--spec, see spec.ts), then the defaults.
 */
import path from 'node:path';
import { z } from 'zod';
import { UsageError } from '../errors.js';
import { failingVerdicts } from '../model/verdicts.js';
import { agentProblem } from '../server/route-target.js';
import { defaultJobs, parseShard, type Shard } from './parallel.js';
import { parseListenUrl, parseServerUrl } from './url.js';
import type { ServerSessionOptions } from '../server/upgrade.js';
import type { SpecSettings } from './spec.js';
import { splitList } from '../util/patterns.js';

const patterns = z.array(z.string()).default([]);

/** Options shared by the commands that start a server. */
export const serverSchema = z.object({
  url: z.string().default('ws://127.0.0.1:9001'),
  /** Default: ./reports/clients (./reports/servers when servers are tested). */
  outdir: z.string().min(1).nullable().default(null),
  cases: patterns,
  excludeCases: patterns,
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  shard: z.string().nullable().default(null),
  /** Adds wsgate's own group 14 after Autobahn's 517 cases (a spec file's `"extended": true`). */
  extended: z.boolean().default(false),
  /** wss://: serve (client role) or connect (server role) over TLS. */
  tls: z.boolean().default(false),
  cert: z.string().trim().min(1, 'the certificate file name is empty').nullable().default(null),
  key: z.string().trim().min(1, 'the key file name is empty').nullable().default(null),
  ca: z.string().trim().min(1, 'the CA file name is empty').nullable().default(null),
});

/** Options of `wsgate run`. */
export const runSchema = serverSchema.extend({
  client: z.string().trim().min(1, 'the client command is empty').nullable().default(null),
  clientLoops: z.boolean().default(false),
  agent: z.string().nullable().default(null),
  caseTimeout: z.number().positive('--case-timeout must be a positive number of seconds').max(86_400).nullable().default(null),
  strict: z.boolean().default(false),
  failOn: z.array(z.string()).nullable().default(null),
  baseline: z.string().min(1).nullable().default(null),
  writeBaseline: z.string().min(1).nullable().default(null),
  github: z.boolean().nullable().default(null),
  junit: z.string().nullable().default(null),
  json: z.string().nullable().default(null),
  jobs: z.number().int('--jobs must be a whole number').min(1, '--jobs must be at least 1').max(64, '--jobs must be at most 64').nullable().default(null),
  /** Which side is under test: the client (wsgate is the fuzzing server) or the server (wsgate is the fuzzing client). */
  role: z.enum(['client', 'server']).nullable().default(null),
  serverUrl: z.string().trim().min(1, '--server-url is empty').nullable().default(null),
  server: z.string().trim().min(1, 'the server command is empty').nullable().default(null),
  restartServer: z.boolean().default(false),
  serverStartTimeout: z.number().positive('--server-start-timeout must be a positive number of seconds').max(3600).nullable().default(null),
  insecure: z.boolean().default(false),
  seed: z.number().int('--seed must be a whole number').min(0, '--seed must be at least 0').max(2 ** 32 - 1, '--seed must be below 2^32').nullable().default(null),
});

/** The server under test, when servers are tested (--role server, --server-url, --server). */
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
  /** Start the command again when it died, before the next case. */
  restart: boolean;
  /** Seconds to wait for it to accept TCP connections. */
  startTimeout: number;
}

/** Where settings come from besides the flags: the environment and a loaded spec file. */
export interface ConfigSources {
  env?: NodeJS.ProcessEnv;
  spec?: SpecSettings | null;
}

/** Settings a spec file and the environment add to both commands. */
export interface ServerExtras {
  /** The address the server binds to: WSGATE_LISTEN_HOST, else the url's host. */
  listenHost: string;
  /** exclude-agent-cases of the spec file ({} without one). */
  excludeAgentCases: Record<string, string[]>;
  /** Session options set by the spec file's `options`. */
  session: Partial<ServerSessionOptions>;
  /** The spec file named by --spec, or null. */
  specFile: string | null;
  /** wss:// (TLS), or null for ws://. */
  tls: TlsConfig | null;
}

/** A run over TLS: whose certificate, which CA, whether to verify. */
export interface TlsConfig {
  /** The user's certificate (chain) and key files (absolute), or null: wsgate makes a throwaway CA and certificate. */
  cert: string | null;
  key: string | null;
  /**
   * A CA certificate file (absolute), or null. Client role: handed to the client command (it signed
   * --cert). Server role: trusted when verifying the server under test (else Node's roots).
   */
  ca: string | null;
  /** Server role: the server's certificate is not verified. */
  insecure: boolean;
}

/** A resolved `wsgate run` configuration. */
export interface RunConfig extends ServerExtras {
  client: string | null;
  clientLoops: boolean;
  agent: string;
  host: string;
  port: number;
  outdir: string;
  cases: string[];
  excludeCases: string[];
  /** Seconds a case may take before its client is killed; null: 30, or the case's own longest wait if longer. */
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
  junit: string;
  json: string;
  logLevel: string;
  /** Cases run at once (group 9 always alone). */
  jobs: number;
  /** Only this slice of the selected cases (--shard K/N), or null for all. */
  shard: Shard | null;
  /** Select from Autobahn's cases plus wsgate's own (group 14). */
  extended: boolean;
  /** The side under test. */
  role: 'client' | 'server';
  /** The server under test (role server), or null; the first of `servers`. */
  server: ServerUnderTest | null;
  /** Every server under test, tested one after another (a fuzzingclient.json may list several). */
  servers: ServerUnderTest[];
  /** The agent was not given: name it after the server's Server header, or its host and port (role server). */
  agentFromServer: boolean;
  /** --seed: masks and keys from this seed (role server), or null for random ones. */
  seed: number | null;
}

/** A resolved `wsgate serve` configuration. */
export interface ServeConfig extends ServerExtras {
  host: string;
  port: number;
  outdir: string;
  cases: string[];
  excludeCases: string[];
  logLevel: string;
  shard: Shard | null;
  /** Select from Autobahn's cases plus wsgate's own (group 14). */
  extended: boolean;
}


function parseWith<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `--${issue.path.join('.').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ` : '';
    throw new UsageError(`${where}${issue?.message ?? 'invalid options'}`);
  }
  return parsed.data;
}

function resolveShard(text: string | null): Shard | null {
  if (text === null) return null;
  const shard = parseShard(text);
  if (typeof shard === 'string') throw new UsageError(shard);
  return shard;
}

/** Drops the keys a flag did not set (undefined), so a lower source can fill them. */
function given(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}

/** Fills the server options the flags left unset from the spec file (flags > file). */
function withSpec(input: Record<string, unknown>, spec: SpecSettings | null | undefined): Record<string, unknown> {
  const flags = given(input);
  if (!spec) return flags;
  const fromFile: Record<string, unknown> = {};
  if (spec.url !== undefined) fromFile.url = spec.url;
  if (spec.outdir !== undefined) fromFile.outdir = spec.outdir;
  if (spec.cases !== undefined) fromFile.cases = spec.cases;
  if (spec.excludeCases !== undefined) fromFile.excludeCases = spec.excludeCases;
  if (spec.extended !== undefined) fromFile.extended = spec.extended;
  // fuzzingserver.json's TLS keys (with a wss:// url), as Autobahn reads them.
  if (spec.cert !== undefined) fromFile.cert = spec.cert;
  if (spec.key !== undefined) fromFile.key = spec.key;

  // An empty pattern list from a repeatable flag means "not given".
  for (const key of ['cases', 'excludeCases']) {
    if (Array.isArray(flags[key]) && (flags[key] as unknown[]).length === 0) delete flags[key];
  }
  const merged: Record<string, unknown> = { ...fromFile, ...flags };
  // fuzzingclient.json: its server is the server under test (--server starts it) unless --server-url names another.
  if (spec.server !== undefined && merged.serverUrl == null) {
    merged.serverUrl = spec.server.url;
  }
  return merged;
}

/** The address to bind: WSGATE_LISTEN_HOST (e.g. 0.0.0.0 in a container) overrides the url's host, keeping its port. */
function listenHostFor(urlHost: string, env: NodeJS.ProcessEnv | undefined): string {
  const override = env?.WSGATE_LISTEN_HOST;
  if (override === undefined || override === '') return urlHost;
  const host = override.trim().replace(/^\[(.*)\]$/, '$1');
  if (host === '' || /[\s/]/.test(host)) throw new UsageError(`WSGATE_LISTEN_HOST must be a host name or address, got ${JSON.stringify(override)}`);
  return host;
}

function extras(urlHost: string, sources: ConfigSources, tls: TlsConfig | null): ServerExtras {
  const spec = sources.spec ?? null;
  return {
    listenHost: listenHostFor(urlHost, sources.env),
    excludeAgentCases: spec?.excludeAgentCases ?? {},
    session: spec?.session ?? {},
    specFile: spec?.file ?? null,
    tls,
  };
}

type TlsFlags = Pick<z.infer<typeof runSchema>, 'tls' | 'cert' | 'key' | 'ca'> & { insecure?: boolean };

/**
 * TLS from the flags, or null. `secure`: the URL said wss://. --tls, wss:// and --cert/--key each
 * turn TLS on; the other TLS flags without it are usage errors.
 */
function resolveTls(o: TlsFlags, secure: boolean, role: 'client' | 'server', startsServer: boolean): TlsConfig | null {
  if ((o.cert === null) !== (o.key === null)) throw new UsageError(o.cert === null ? '--key needs --cert (the certificate it goes with)' : '--cert needs --key (its private key)');
  const on = o.tls || secure || o.cert !== null;
  const insecure = o.insecure ?? false;
  if (!on) {
    if (o.ca !== null) throw new UsageError('--ca applies to wss:// (add --tls)');
    if (insecure) throw new UsageError('--insecure applies to wss:// (add --tls, or give a wss:// URL)');
    return null;
  }
  if (role === 'client' && insecure) throw new UsageError('--insecure applies when servers are tested: a client checks the certificate itself');
  if (role === 'client' && o.ca !== null && o.cert === null) throw new UsageError('--ca names the CA of your --cert; without --cert, wsgate makes a CA and hands that to the client');
  if (role === 'server' && !startsServer && o.cert !== null) throw new UsageError('--cert/--key are for a server wsgate starts (--server, --role server); a server at --server-url has its own');
  if (insecure && o.ca !== null) throw new UsageError('--insecure skips verification: it does not go with --ca');
  const abs = (f: string | null): string | null => (f === null ? null : path.resolve(f));
  return { cert: abs(o.cert), key: abs(o.key), ca: abs(o.ca), insecure };
}

/** Validates and resolves the options of `wsgate run` (flags > env > spec file > defaults). */
export function resolveRunConfig(input: Record<string, unknown>, sources: ConfigSources = {}): RunConfig {
  const o = parseWith(runSchema, withSpec(input, sources.spec));
  const { host, port, secure } = parseListenUrl(o.url);
  const server = serverUnderTest(o);
  const anyWss = server !== null && [server.url, ...(sources.spec?.servers ?? []).map((s) => s.url)].some((u) => u.startsWith('wss:'));
  const tls = resolveTls(o, server === null ? secure : anyWss, server === null ? 'client' : 'server', server?.command != null);
  if (server !== null && o.tls) secureUrl(server);
  // A fuzzingclient.json's server is named by its own "agent" (over --agent only when the flag is absent).
  const specServer = sources.spec?.servers?.[0];
  if (server !== null && specServer !== undefined && o.serverUrl === specServer.url && o.agent === null) server.agent = specServer.agent;
  const agent = o.agent ?? (o.client === null ? 'wsgate-reference-ws' : 'client');
  const problem = agentProblem(agent);
  if (problem !== null) throw new UsageError(`--agent: ${problem}`);
  // Relative paths (flags and the spec file's outdir alike) resolve against the working directory, as in Autobahn.
  const outdir = path.resolve(o.outdir ?? (server === null ? './reports/clients' : './reports/servers'));
  const failOn = [...failingVerdicts(o.failOn === null ? null : splitList(o.failOn), o.strict)];
  return {
    client: o.client,
    // The bundled client drives the cases itself: one process instead of one per case.
    clientLoops: o.clientLoops || o.client === null,
    agent,
    host,
    port,
    outdir,
    cases: splitList(o.cases),
    excludeCases: splitList(o.excludeCases),
    caseTimeout: o.caseTimeout,
    strict: o.strict,
    failOn,
    baseline: o.baseline === null ? null : path.resolve(o.baseline),
    writeBaseline: o.writeBaseline === null ? null : path.resolve(o.writeBaseline),
    github: o.github,
    junit: path.resolve(o.junit ?? path.join(outdir, 'junit.xml')),
    json: path.resolve(o.json ?? path.join(outdir, 'summary.json')),
    logLevel: o.logLevel,
    jobs: o.jobs ?? defaultJobs(),
    shard: resolveShard(o.shard),
    ...extras(host, sources, tls),
    extended: o.extended,
    role: server === null ? 'client' : 'server',
    server,
    servers: server === null ? [] : [server, ...moreServers(o, server, sources.spec, o.tls)],
    // The bundled server sends no Server header and listens on a free port: it has a name of its own.
    agentFromServer: server !== null && o.agent === null && server.command !== REFERENCE_SERVER_COMMAND,
    seed: o.seed,
  };
}

/** Seconds the gate waits for a server under test to accept connections when not told. */
export const DEFAULT_SERVER_START_TIMEOUT = 30;

/** The server under test from the flags, or null when clients are tested; contradictions are UsageErrors. */
function serverUnderTest(o: z.infer<typeof runSchema>): ServerUnderTest | null {
  const serverFlag = o.serverUrl !== null ? '--server-url' : o.server !== null ? '--server' : o.restartServer ? '--restart-server' : null;
  if (o.role === 'client' && serverFlag !== null) throw new UsageError(`${serverFlag} tests a server: it does not go with --role client`);
  if (o.role !== 'server' && serverFlag === null) {
    if (o.seed !== null) throw new UsageError('--seed applies when servers are tested (--role server, --server-url)');
    return null;
  }
  if (o.client !== null) throw new UsageError('--client tests a client: it does not go with --role server, --server-url or --server');
  if (o.clientLoops) throw new UsageError('--client-loops tests a client: it does not go with --role server, --server-url or --server');
  if (o.restartServer && o.server === null && o.serverUrl !== null) throw new UsageError('--restart-server needs --server CMD (wsgate can only restart a server it started)');
  const embedded = o.server === null && o.serverUrl === null;
  const target = parseServerUrl(o.serverUrl ?? 'ws://127.0.0.1:0');
  if (target.port === 0 && o.server === null && !embedded) throw new UsageError('--server-url: port 0 needs --server CMD (a free port is chosen for the server wsgate starts)');
  return {
    ...target,
    agent: null,
    command: o.server ?? (embedded ? REFERENCE_SERVER_COMMAND : null),
    restart: o.restartServer,
    startTimeout: o.serverStartTimeout ?? DEFAULT_SERVER_START_TIMEOUT,
  };
}

/**
 * The servers a fuzzingclient.json lists after its first, each with its own agent (only when the
 * file's servers are the ones tested: not with --server-url, and not with --server, which starts one).
 */
function moreServers(o: z.infer<typeof runSchema>, first: ServerUnderTest, spec: SpecSettings | null | undefined, tls: boolean): ServerUnderTest[] {
  const listed = spec?.servers ?? [];
  if (listed.length < 2 || o.serverUrl !== listed[0]?.url) return [];
  if (o.server !== null) throw new UsageError(`--server starts one server, but ${spec?.file ?? 'the spec file'} lists ${listed.length}: give each its own run, or start them yourself`);
  const agents = listed.map((s) => s.agent).filter((a): a is string => a !== null);
  const twice = agents.find((a, i) => agents.indexOf(a) !== i);
  if (twice !== undefined) throw new UsageError(`${spec?.file ?? 'the spec file'}: two servers are named ${JSON.stringify(twice)}; each needs its own agent`);
  const more = listed.slice(1).map((s) => ({ ...first, ...parseServerUrl(s.url), agent: s.agent, command: null }));
  // --tls makes every listed server's URL wss://; without it, each server's own scheme says.
  if (tls) for (const s of more) secureUrl(s);
  return more;
}

/** The server's URL with the wss:// scheme (--tls over a ws:// URL). */
function secureUrl(server: ServerUnderTest): void {
  if (server.url.startsWith('ws:')) server.url = `wss:${server.url.slice(3)}`;
}

/** Stands for the bundled reference server (ws's WebSocketServer), resolved by the gate. */
export const REFERENCE_SERVER_COMMAND = '{reference-server}';

/** Validates and resolves the options of `wsgate serve` (flags > env > spec file > defaults). */
export function resolveServeConfig(input: Record<string, unknown>, sources: ConfigSources = {}): ServeConfig {
  const o = parseWith(serverSchema, withSpec(input, sources.spec));
  const { host, port, secure } = parseListenUrl(o.url);
  const tls = resolveTls(o, secure, 'client', false);
  return {
    host,
    port,
    outdir: path.resolve(o.outdir ?? './reports/clients'),
    cases: splitList(o.cases),
    excludeCases: splitList(o.excludeCases),
    logLevel: o.logLevel,
    shard: resolveShard(o.shard),
    ...extras(host, sources, tls),
    extended: o.extended,
  };
}
