/**
 * wsgate's programmatic API: the package's entry point (`import { run } from 'wsgate'`), so that a
 * WebSocket library's own test suite can run the gate without a child process.
 *
 *   run          the gate: the fuzzing server and a client per case (or a server under test)
 *   startServer  the fuzzing server alone, for a client that drives the cases itself
 *   judge        the gate on reports already written (by startServer, `wsgate serve` or Autobahn)
 *   merge        the shards of a split run joined into one report set
 *
 * Each of run, judge and merge writes the same files as the command line and resolves with the run's
 * summary (summary.json's content) and its exit decision; it rejects with a UsageError for a bad
 * option (the command line's exit status 2) and with any other error for a fault of wsgate (3).
 * These names and the option and result fields are stable within a major version.
 */
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { makeLogger, specOption } from './commands/setup.js';
import { resolveRunConfig } from './config/run-config.js';
import { optionKey, RUN_OPTIONS, SERVE_OPTIONS } from './config/options/table.js';
import { resolveServeConfig } from './config/schema.js';
import { UsageError } from './errors.js';
import { judgeConfig, mergeConfig, type JudgeInput } from './config/judge-merge.js';
import { judgeReports } from './finish/judge.js';
import { mergeRuns } from './finish/merge.js';
import { runGate } from './run/run.js';
import { serverBaseUrl } from './server/factory.js';
import { startCaseServer } from './run/serve.js';
import type { RunSummary } from './model/summary.js';
import { readFile } from 'node:fs/promises';

export { ExitCode, UsageError } from './errors.js';
export { VERSION } from './version.js';
export type { CaseSummary, RunSummary, SummaryCounts } from './model/summary.js';
export type { BaselineMark, CaseOrigin, GateStatus, RunResources, RunTls } from './model/report.js';
export type { CloseVerdict, OutcomeVerdict } from './model/verdicts.js';

/** Case id patterns, Autobahn's rules ('6.*', '6.9.2'): a list, or one string separated by spaces or commas. */
export type CasePatterns = string | readonly string[];

/** What every call may be given besides its own options. */
export interface CommonOptions {
  /** Where the progress lines go (what the command line prints on stdout); default: nowhere. */
  output?: NodeJS.WritableStream;
  /** pino's log level on stderr (fatal, error, warn, info, debug, trace, silent); default: warn. */
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** The environment (WSGATE_LISTEN_HOST, GitHub Actions variables); default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** GitHub job summary, annotations and step outputs; default: false (unlike the command line, never guessed). */
  github?: boolean;
}

/** The options of the server the cases run on (a client under test), as `wsgate serve` takes them. */
export interface ServerOptions extends Omit<CommonOptions, 'github'> {
  /** An Autobahn fuzzingserver.json (fuzzingclient.json for run with role 'server'); the options below override it. */
  spec?: string;
  /** Where the fuzzing server listens, ws://HOST:PORT (default ws://127.0.0.1:9001; port 0: a free one). */
  url?: string;
  /** The report directory (default ./reports/clients, or ./reports/servers for a server under test). */
  outdir?: string;
  cases?: CasePatterns;
  excludeCases?: CasePatterns;
  /** The robustness profile: the role's known denial-of-service attacks (group 17 for a server, 18 for a client) instead of the catalogue. */
  robustness?: boolean;
  /** With robustness: budgets the peer is held to, as `--budget` takes them ('time=2', 'message=1MiB', 'memory=256MiB', 'stall=60s'). */
  budget?: readonly string[];
  /** Also wsgate's own cases after Autobahn's 517 (group 14 for a client, 15 for a server). */
  extended?: boolean;
  /** Only the K-th of N slices of the selection, 'K/N'. */
  shard?: string;
  /** wss://, with a throwaway CA (written to the report directory as ca.pem) unless cert and key are given. */
  tls?: boolean;
  /** WebSockets over HTTP/2 (RFC 8441): each case an extended CONNECT stream; the peer is told by WSGATE_HTTP2=1. */
  http2?: boolean;
  cert?: string;
  key?: string;
  ca?: string;
}

/** The options of a gate run: the command line's `wsgate run` flags, in camelCase. */
export interface RunOptions extends ServerOptions, Pick<CommonOptions, 'github'> {
  /** The quick profile (a pre-push check): every group of the selection, groups 9, 12 and 13 by a fixed sample. */
  quick?: boolean;
  /** The client command, run in a shell once per case ({url}, {case}, {agent} replaced); default: the bundled ws client. */
  client?: string;
  /** Run the client once; it drives every case itself (/getCaseCount, /runCase, /updateReports). */
  clientLoops?: boolean;
  /** A browser engine as the client under test, headless on the fuzzing server's page (`--browser`). */
  browser?: 'chromium' | 'firefox' | 'webkit';
  /** The browser's executable (default: where the distributions install it). */
  browserPath?: string;
  /** Seconds the browser has to load the page, and between cases, before the watchdog ends it (default 30). */
  browserTimeout?: number;
  agent?: string;
  /** The side under test: 'client' (default) or 'server'. */
  role?: 'client' | 'server';
  /** The command that starts the server under test ({port} replaced). */
  server?: string;
  /** The server under test's address, ws://HOST:PORT[/path] or wss://. */
  serverUrl?: string;
  restartServer?: boolean;
  /** Seconds to wait for the server under test to accept connections (default 30). */
  serverStartTimeout?: number;
  /** A server under test over wss://: do not verify its certificate. */
  insecure?: boolean;
  /** Server role: masking and handshake keys from this seed. */
  seed?: number;
  /** Seconds a case may take before the client is killed. */
  caseTimeout?: number;
  /** NON-STRICT outcomes fail too. */
  strict?: boolean;
  /** The verdicts that fail a case (default FAILED, WRONG CODE, UNCLEAN, FAILED BY CLIENT). */
  failOn?: readonly string[];
  /** A baseline file of accepted failures. */
  baseline?: string;
  /** Write this run's failures to a baseline file. */
  writeBaseline?: string;
  /** Cases run at once (default: one per core, at most 8). */
  jobs?: number;
  /** The JUnit XML file (default OUTDIR/junit.xml) and the JSON summary (default OUTDIR/summary.json). */
  junit?: string;
  json?: string;
  /** No line per case on `output`: only the summary, with the failures grouped by cause. */
  quiet?: boolean;
  /** Write a repro script for every case that is not OK on both axes to OUTDIR/repro/. */
  repro?: boolean;
  /** Stops the run: no new case starts, the running client is killed; the result says interrupted. */
  signal?: AbortSignal;
}

/** The options of judge: the reports to judge (default ./reports/clients) and the gate's rules. */
export interface JudgeOptions extends Omit<JudgeInput, 'cases' | 'excludeCases' | 'github'>, CommonOptions {
  cases?: CasePatterns;
  excludeCases?: CasePatterns;
}

/** The options of merge: the run directories (each with summary.json) and where the merged reports go. */
export interface MergeOptions extends Pick<CommonOptions, 'output' | 'env' | 'github'> {
  inputs: readonly string[];
  outdir: string;
  junit?: string;
  json?: string;
}

/** What run, judge and merge resolve with: the summary, the exit decision and the files written. */
export interface RunResult extends RunSummary {
  /** The command line's exit status for this run: 0 when it passed the gate, 1 when it did not. */
  exitCode: 0 | 1;
  /** exitCode === 0. */
  ok: boolean;
  files: { outdir: string; junit: string; json: string; html: string };
}

/** A running fuzzing server (startServer). */
export interface WsgateServer {
  /** The address clients connect to, ws://HOST:PORT (wss:// over TLS). */
  readonly url: string;
  readonly port: number;
  /** The selected case ids, in /runCase order (case N is cases[N - 1]). */
  readonly cases: readonly string[];
  /** The CA certificate a client must trust over TLS (a generated CA's ca.pem), or null. */
  readonly caFile: string | null;
  readonly outdir: string;
  /** Resolves when a client asks the server to stop (/stopServer, /updateReports?shutdownOnComplete=true). */
  readonly stopRequested: Promise<string>;
  /** Writes index.json, index.html and the case reports for the results so far. */
  updateReports(): Promise<void>;
  /** Writes the reports and stops listening. */
  close(): Promise<void>;
}

/** What a caller gives besides the options (the command line's flags have no such thing). */
const CALLER_KEYS = ['signal', 'output', 'env'] as const;
// The keys of run and startServer are the table's (config/options/table.ts), camelCase; `satisfies` holds
// every one to the interfaces above, and test/config/options.test.ts the interfaces to the table.
const RUN_KEYS = [...RUN_OPTIONS.map((o) => optionKey(o.flag)), ...CALLER_KEYS] satisfies ReadonlyArray<keyof RunOptions>;
const SERVER_KEYS = [...SERVE_OPTIONS.map((o) => optionKey(o.flag)), 'output', 'env'] as const satisfies ReadonlyArray<keyof ServerOptions>;
const JUDGE_KEYS = [
  'outdir',
  'agent',
  'cases',
  'excludeCases',
  'extended',
  'strict',
  'failOn',
  'baseline',
  'writeBaseline',
  'junit',
  'json',
  'github',
  'output',
  'logLevel',
  'env',
] as const satisfies ReadonlyArray<keyof JudgeOptions>;
const MERGE_KEYS = ['inputs', 'outdir', 'junit', 'json', 'github', 'output', 'env'] as const satisfies ReadonlyArray<keyof MergeOptions>;

/** Runs the gate; resolves with the run's summary and exit decision once the reports are written. */
export async function run(options: RunOptions = {}): Promise<RunResult> {
  checkKeys('run', options, RUN_KEYS);
  const { spec, signal, output, logLevel, env = process.env, github = false, cases, excludeCases, ...flags } = options;
  const config = resolveRunConfig(
    { ...flags, cases: patternList(cases), excludeCases: patternList(excludeCases), logLevel, github },
    { env, spec: specOption(spec, output) },
  );
  const io = { out: output ?? discard(), logger: logger(config.logLevel), isTty: false, env, ...(signal ? { signal } : {}) };
  const status = await runGate(config, io);
  return result(status, config);
}

/** Starts the fuzzing server; resolves once it listens. Stop it with close(). */
export async function startServer(options: ServerOptions = {}): Promise<WsgateServer> {
  checkKeys('startServer', options, SERVER_KEYS);
  const { spec, output, logLevel, env = process.env, cases, excludeCases, ...flags } = options;
  const config = resolveServeConfig(
    { ...flags, cases: patternList(cases), excludeCases: patternList(excludeCases), logLevel },
    { env, spec: specOption(spec, output) },
  );
  const { server, cases: selected, secure } = await startCaseServer(config, logger(config.logLevel));
  const stopRequested = new Promise<string>((resolve) => server.once('stopRequested', (why: string) => resolve(why)));
  let closing: Promise<void> | null = null;
  return {
    url: serverBaseUrl(config.host, server.port, secure !== null),
    port: server.port,
    cases: selected.map((c) => c.id),
    caFile: secure?.caFile ?? null,
    outdir: config.outdir,
    stopRequested,
    updateReports: () => server.updateReports(),
    close: () =>
      (closing ??= (async () => {
        try {
          await server.updateReports();
        } finally {
          await server.close();
          secure?.dispose();
        }
      })()),
  };
}

/** Judges existing reports (index.json and the per-case JSON files); resolves with the verdict. */
export async function judge(options: JudgeOptions = {}): Promise<RunResult> {
  checkKeys('judge', options, JUDGE_KEYS);
  const { output, logLevel, env = process.env, github = false, cases, excludeCases, ...input } = options;
  const config = judgeConfig({ ...input, cases: patternList(cases), excludeCases: patternList(excludeCases), github });
  const status = await judgeReports(config, { out: output ?? discard(), logger: logger(logLevel ?? 'warn'), isTty: false, env });
  return result(status, config);
}

/** Merges the report directories of a split run (shards); resolves with the merged verdict. */
export async function merge(options: MergeOptions): Promise<RunResult> {
  checkKeys('merge', options, MERGE_KEYS);
  const { output, env = process.env, github = false, ...input } = options;
  const config = mergeConfig({ ...input, github }, env);
  const status = await mergeRuns(config, output ?? discard());
  return result(status, config);
}

/** An option the function does not take is a mistake to say, not to ignore (JavaScript callers have no type check). */
function checkKeys(fn: string, options: object, known: readonly string[]): void {
  if (typeof options !== 'object' || options === null) throw new UsageError(`${fn}: the options must be an object`);
  const unknown = Object.keys(options).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw new UsageError(`${fn}: unknown option${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`);
}

function patternList(patterns: CasePatterns | undefined): string[] | undefined {
  if (patterns === undefined) return undefined;
  return typeof patterns === 'string' ? [patterns] : [...patterns];
}

function logger(level: string): Logger {
  return makeLogger(level);
}

function discard(): NodeJS.WritableStream {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

async function result(status: number, files: { outdir: string; junit: string; json: string }): Promise<RunResult> {
  const summary = JSON.parse(await readFile(files.json, 'utf8')) as RunSummary;
  const exitCode = status === 0 ? 0 : 1;
  return {
    ...summary,
    exitCode,
    ok: exitCode === 0,
    files: { outdir: files.outdir, junit: files.junit, json: files.json, html: path.join(files.outdir, 'index.html') },
  };
}
