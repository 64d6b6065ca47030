/**
 * Configuration of the gate and the server, validated with zod. Flags are the only source for now;
 * the schema is where a spec file and the environment will be merged (flags > env > file).
 */
import path from 'node:path';
import { z } from 'zod';
import { UsageError } from '../gate/exit-codes.js';
import { agentProblem } from '../server/fuzzing-server.js';

/** Parses `ws://HOST:PORT` (port 0: any free port). */
export function parseListenUrl(url: string): { host: string; port: number } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`--url ${JSON.stringify(url)} is not a URL; use ws://HOST:PORT`);
  }
  if (u.protocol === 'wss:') throw new UsageError('--url: wss:// (TLS) is not supported yet; use ws://');
  if (u.protocol !== 'ws:') throw new UsageError(`--url must start with ws://, got ${JSON.stringify(url)}`);
  if ((u.pathname !== '/' && u.pathname !== '') || u.search !== '' || u.hash !== '') {
    throw new UsageError(`--url takes no path or query, got ${JSON.stringify(url)}`);
  }
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = u.port === '' ? 80 : Number(u.port);
  return { host, port };
}

const patterns = z.array(z.string()).default([]);

/** Options shared by the commands that start a server. */
export const serverSchema = z.object({
  url: z.string().default('ws://127.0.0.1:9001'),
  outdir: z.string().min(1).default('./reports/clients'),
  cases: patterns,
  excludeCases: patterns,
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  /** Adds wsgate's own group 14 after Autobahn's 517 cases (a spec file's `"extended": true`). */
  extended: z.boolean().default(false),
});

/** Options of `wsgate run`. */
export const runSchema = serverSchema.extend({
  client: z.string().trim().min(1, 'the client command is empty').nullable().default(null),
  clientLoops: z.boolean().default(false),
  agent: z.string().nullable().default(null),
  caseTimeout: z.number().positive('--case-timeout must be a positive number of seconds').max(86_400).nullable().default(null),
  strict: z.boolean().default(false),
  junit: z.string().nullable().default(null),
  json: z.string().nullable().default(null),
});

/** A resolved `wsgate run` configuration. */
export interface RunConfig {
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
  junit: string;
  json: string;
  logLevel: string;
  /** Select from Autobahn's cases plus wsgate's own (group 14). */
  extended: boolean;
}

/** A resolved `wsgate serve` configuration. */
export interface ServeConfig {
  host: string;
  port: number;
  outdir: string;
  cases: string[];
  excludeCases: string[];
  logLevel: string;
  /** Select from Autobahn's cases plus wsgate's own (group 14). */
  extended: boolean;
}

/** Splits "6.*,7.1.1" style lists given to repeated flags. */
function splitPatterns(values: readonly string[]): string[] {
  return values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
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

/** Validates and resolves the options of `wsgate run`. */
export function resolveRunConfig(input: Record<string, unknown>): RunConfig {
  const o = parseWith(runSchema, input);
  const { host, port } = parseListenUrl(o.url);
  const agent = o.agent ?? (o.client === null ? 'wsgate-reference-ws' : 'client');
  const problem = agentProblem(agent);
  if (problem !== null) throw new UsageError(`--agent: ${problem}`);
  const outdir = path.resolve(o.outdir);
  return {
    client: o.client,
    // The bundled client drives the cases itself: one process instead of one per case.
    clientLoops: o.clientLoops || o.client === null,
    agent,
    host,
    port,
    outdir,
    cases: splitPatterns(o.cases),
    excludeCases: splitPatterns(o.excludeCases),
    caseTimeout: o.caseTimeout,
    strict: o.strict,
    junit: path.resolve(o.junit ?? path.join(outdir, 'junit.xml')),
    json: path.resolve(o.json ?? path.join(outdir, 'summary.json')),
    logLevel: o.logLevel,
    extended: o.extended,
  };
}

/** Validates and resolves the options of `wsgate serve`. */
export function resolveServeConfig(input: Record<string, unknown>): ServeConfig {
  const o = parseWith(serverSchema, input);
  const { host, port } = parseListenUrl(o.url);
  return {
    host,
    port,
    outdir: path.resolve(o.outdir),
    cases: splitPatterns(o.cases),
    excludeCases: splitPatterns(o.excludeCases),
    logLevel: o.logLevel,
    extended: o.extended,
  };
}
