/**
 * Configuration of the gate and the server, validated with zod. Sources, highest first: flags, the
 * environment (WSGATE_LISTEN_HOST), an Autobahn spec file (--spec, see spec.ts), then the defaults.
 */
import path from 'node:path';
import { z } from 'zod';
import { UsageError } from '../errors.js';
import { parseShard, type Shard } from './parallel.js';
import { parseListenUrl } from './url.js';
import type { ServerProtocolOptions } from '../server/upgrade.js';
import type { TlsConfig } from '../tls/setup.js';
import type { SpecSettings } from './spec.js';
import { splitList, type PatternSyntax } from '../util/patterns.js';
import { parseBudgets } from './budgets.js';
import type { RobustnessBudgets } from '../cases/data/budgets.js';

const patterns = z.array(z.string()).default([]);

/** The browser engines `wsgate run --browser` can put under test (browsers/engines.ts). */
export const BROWSER_ENGINES = ['chromium', 'firefox', 'webkit'] as const;
export type BrowserEngine = (typeof BROWSER_ENGINES)[number];

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
  /** The robustness profile: the role's attacks (group 17 or 18) instead of the catalogue. */
  robustness: z.boolean().default(false),
  /** --budget NAME=VALUE, repeatable: the robustness profile's budgets (config/budgets.ts). */
  budget: z.array(z.string()).default([]),
  /** wss://: serve (client role) or connect (server role) over TLS. */
  tls: z.boolean().default(false),
  /** WebSockets over HTTP/2 (RFC 8441) instead of HTTP/1.1's upgrade. */
  http2: z.boolean().default(false),
  cert: z.string().trim().min(1, 'the certificate file name is empty').nullable().default(null),
  key: z.string().trim().min(1, 'the key file name is empty').nullable().default(null),
  ca: z.string().trim().min(1, 'the CA file name is empty').nullable().default(null),
});

/** Options of `wsgate run`. */
export const runSchema = serverSchema.extend({
  client: z.string().trim().min(1, 'the client command is empty').nullable().default(null),
  clientLoops: z.boolean().default(false),
  /** A browser engine as the client under test, playing the fuzzing server's page (`run --browser`). */
  browser: z.enum(BROWSER_ENGINES).nullable().default(null),
  browserPath: z.string().trim().min(1, '--browser-path is empty').nullable().default(null),
  browserTimeout: z.number().positive('--browser-timeout must be a positive number of seconds').max(3600).nullable().default(null),
  agent: z.string().nullable().default(null),
  caseTimeout: z.number().positive('--case-timeout must be a positive number of seconds').max(86_400).nullable().default(null),
  strict: z.boolean().default(false),
  failOn: z.array(z.string()).nullable().default(null),
  baseline: z.string().min(1).nullable().default(null),
  writeBaseline: z.string().min(1).nullable().default(null),
  github: z.boolean().nullable().default(null),
  quiet: z.boolean().default(false),
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
  /** The quick profile: every group, a sample of 9, 12 and 13 (`run --quick`, cases/quick.ts). */
  quick: z.boolean().default(false),
  /** Write a repro script for every case that is not OK on both axes (`run --repro`). */
  repro: z.boolean().default(false),
  seed: z
    .number()
    .int('--seed must be a whole number')
    .min(0, '--seed must be at least 0')
    .max(2 ** 32 - 1, '--seed must be below 2^32')
    .nullable()
    .default(null),
});

/** Where settings come from besides the flags: the environment and a loaded spec file. */
export interface ConfigSources {
  env?: NodeJS.ProcessEnv;
  spec?: SpecSettings | null;
}

/** Settings a spec file adds to every command that plays cases. */
export interface SpecExtras {
  /** exclude-agent-cases of the spec file ({} without one). */
  excludeAgentCases: Record<string, string[]>;
  /** Autobahn's protocol options set by the spec file's `options`. */
  protocolOptions: Partial<ServerProtocolOptions>;
  /** The spec file named by --spec, or null. */
  specFile: string | null;
  /** How exclude-agent-cases reads: wsgate's wildcards, or the original's regular expressions (through `wstest`). */
  patternSyntax: PatternSyntax;
  /** wss:// (TLS), or null for ws://. */
  tls: TlsConfig | null;
  /** WebSockets over HTTP/2 (RFC 8441), or false for HTTP/1.1's upgrade (RFC 6455). */
  http2: boolean;
}

/** Where a fuzzing server listens (run's client role, serve). */
export interface ListenSettings {
  /** The url's host, as clients are told it. */
  host: string;
  port: number;
  /** The address the server binds to: WSGATE_LISTEN_HOST, else the url's host. */
  listenHost: string;
}

/** A resolved `wsgate serve` configuration. */
export interface ServeConfig extends SpecExtras, ListenSettings {
  outdir: string;
  cases: string[];
  excludeCases: string[];
  logLevel: string;
  shard: Shard | null;
  /** Select from Autobahn's cases plus wsgate's own (group 14). */
  extended: boolean;
  /** Select the robustness profile's attacks on a client (group 18) instead. */
  robustness: boolean;
  /** What the robustness profile holds the client to (--budget). */
  budgets: RobustnessBudgets;
}

export function parseWith<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `--${issue.path.join('.').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ` : '';
    throw new UsageError(`${where}${issue?.message ?? 'invalid options'}`);
  }
  return parsed.data;
}

export function resolveShard(text: string | null): Shard | null {
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
export function withSpec(input: Record<string, unknown>, spec: SpecSettings | null | undefined): Record<string, unknown> {
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
export function listenHostFor(urlHost: string, env: NodeJS.ProcessEnv | undefined): string {
  const override = env?.WSGATE_LISTEN_HOST;
  if (override === undefined || override === '') return urlHost;
  const host = override.trim().replace(/^\[(.*)\]$/, '$1');
  if (host === '' || /[\s/]/.test(host)) throw new UsageError(`WSGATE_LISTEN_HOST must be a host name or address, got ${JSON.stringify(override)}`);
  return host;
}

/** What the spec file adds (exclusions, protocol options, its name) and the TLS settings. */
export function specExtras(sources: ConfigSources, tls: TlsConfig | null, http2 = false): SpecExtras {
  const spec = sources.spec ?? null;
  return {
    excludeAgentCases: spec?.excludeAgentCases ?? {},
    protocolOptions: spec?.protocolOptions ?? {},
    specFile: spec?.file ?? null,
    patternSyntax: 'wsgate',
    tls,
    http2,
  };
}

/** Where a fuzzing server listens: the url's host and port, the address bound. */
export function listenSettings(host: string, port: number, env: NodeJS.ProcessEnv | undefined): ListenSettings {
  return { host, port, listenHost: listenHostFor(host, env) };
}

export type TlsFlags = Pick<z.infer<typeof runSchema>, 'tls' | 'cert' | 'key' | 'ca'> & { insecure?: boolean };

/**
 * TLS from the flags, or null. `secure`: the URL said wss://. --tls, wss:// and --cert/--key each
 * turn TLS on; the other TLS flags without it are usage errors.
 */
export function resolveTls(o: TlsFlags, secure: boolean, role: 'client' | 'server', startsServer: boolean): TlsConfig | null {
  if ((o.cert === null) !== (o.key === null))
    throw new UsageError(o.cert === null ? '--key needs --cert (the certificate it goes with)' : '--cert needs --key (its private key)');
  const on = o.tls || secure || o.cert !== null;
  const insecure = o.insecure ?? false;
  if (!on) {
    if (o.ca !== null) throw new UsageError('--ca applies to wss:// (add --tls)');
    if (insecure) throw new UsageError('--insecure applies to wss:// (add --tls, or give a wss:// URL)');
    return null;
  }
  if (role === 'client' && insecure) throw new UsageError('--insecure applies when servers are tested: a client checks the certificate itself');
  if (role === 'client' && o.ca !== null && o.cert === null)
    throw new UsageError('--ca names the CA of your --cert; without --cert, wsgate makes a CA and hands that to the client');
  if (role === 'server' && !startsServer && o.cert !== null)
    throw new UsageError('--cert/--key are for a server wsgate starts (--server, --role server); a server at --server-url has its own');
  if (insecure && o.ca !== null) throw new UsageError('--insecure skips verification: it does not go with --ca');
  const abs = (f: string | null): string | null => (f === null ? null : path.resolve(f));
  return { cert: abs(o.cert), key: abs(o.key), ca: abs(o.ca), insecure };
}

/** Validates and resolves the options of `wsgate serve` (flags > env > spec file > defaults). */
export function resolveServeConfig(input: Record<string, unknown>, sources: ConfigSources = {}): ServeConfig {
  const o = parseWith(serverSchema, withSpec(input, sources.spec));
  const { host, port, secure } = parseListenUrl(o.url);
  const tls = resolveTls(o, secure, 'client', false);
  return {
    ...listenSettings(host, port, sources.env),
    outdir: path.resolve(o.outdir ?? './reports/clients'),
    cases: splitList(o.cases),
    excludeCases: splitList(o.excludeCases),
    logLevel: o.logLevel,
    shard: resolveShard(o.shard),
    ...specExtras(sources, tls, o.http2),
    extended: o.extended,
    robustness: checkRobustness({ ...o, servers: false }),
    budgets: parseBudgets(o.budget, o.robustness),
  };
}

/**
 * `--robustness` selects the role's attacks instead of the catalogue: not with --extended (another
 * selection). With --http2 it selects the HTTP/2 floods (17.5), which attack servers only: `servers`
 * says whether a server is under test. Returns the flag.
 */
export function checkRobustness(o: { robustness: boolean; extended: boolean; http2: boolean; quick?: boolean; servers: boolean }): boolean {
  if (!o.robustness) return false;
  if (o.extended) throw new UsageError('--robustness selects the attacks instead of the catalogue: it does not go with --extended');
  if (o.http2 && !o.servers)
    throw new UsageError(
      '--robustness --http2 plays the HTTP/2 floods (17.5) against a server: a client under test has no HTTP/2 attacks (leave out --http2 for group 18)',
    );
  if (o.quick === true) throw new UsageError('--robustness selects the attacks instead of the catalogue: it does not go with --quick');
  return true;
}
