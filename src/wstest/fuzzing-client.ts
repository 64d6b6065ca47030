/**
 * `wstest -m fuzzingclient`: wsgate's fuzzing client with the original's contract. It tests each
 * server of the spec (or -w's) one after another, writes the original's report files only, and exits 0
 * whatever the verdicts: the reports carry them (`wsgate judge` on the report directory is the gate).
 * A server's first connection is retried for a few seconds (scripts start the server right before
 * `docker run`); a server that never answers has its cases skipped, as the original does.
 */
import { DEFAULT_BUDGETS } from '../cases/data/budgets.js';
import path from 'node:path';
import type { Logger } from 'pino';
import type { ServerRunConfig, ServerUnderTest } from '../config/run-config.js';
import { autobahnSelection, type SpecServer, type SpecSettings } from '../config/spec.js';
import { parseServerUrl } from '../config/url.js';
import { ExitCode, UsageError } from '../errors.js';
import { failingVerdicts } from '../model/verdicts.js';
import { runGate } from '../run/run.js';
import type { WstestIo, WstestOptions } from './command-line.js';
import { writeAsOwnerOf } from './owner.js';
import { loadWstestSpec } from './spec-file.js';

/** Seconds a server's first connection is retried before its cases are skipped. */
export const CONNECT_RETRY_SECONDS = 10;

/** The agent of a server with no "agent" and no Server header (the original's name for it). */
export const UNKNOWN_AGENT = 'UnknownServer';

/** The servers to test: the spec's, or -w's when it lists none; each with its own options. */
function serversOf(spec: SpecSettings, wsuri: string | undefined, io: WstestIo): ServerUnderTest[] {
  const fromSpec = spec.servers !== undefined && spec.servers.length > 0;
  // As the original: -w stands in for the servers only when the spec lists none.
  if (fromSpec && wsuri !== undefined && !spec.servers?.some((s) => s.url === wsuri)) {
    io.stderr.write(`wstest: -w ${wsuri} is not used: ${spec.file} lists the servers to test\n`);
  }
  const listed: SpecServer[] = fromSpec ? (spec.servers ?? []) : wsuri !== undefined ? [{ url: wsuri, agent: null, protocolOptions: {} }] : [];
  if (listed.length === 0) throw new UsageError(`${spec.file}: no server to test: list "servers" in the spec, or give -w ws://HOST:PORT`);
  const servers: ServerUnderTest[] = listed.map((s, i) => {
    let target: ReturnType<typeof parseServerUrl>;
    try {
      target = parseServerUrl(s.url);
    } catch (err) {
      throw new UsageError(`${spec.file}: "servers.${i}.url": ${(err as Error).message.replace(/^--server-url:? /, '')}`);
    }
    return { ...target, agent: s.agent, command: null, restart: false, startTimeout: CONNECT_RETRY_SECONDS, protocolOptions: s.protocolOptions };
  });
  for (const w of spec.warnings) io.stderr.write(`wstest: ${w}\n`);
  return servers;
}

/** The run's settings from the spec file and the command line. */
export function fuzzingClientConfig(options: WstestOptions, io: WstestIo): ServerRunConfig {
  const { spec, notes, written } = loadWstestSpec('fuzzingclient', options.spec, options.wsuri);
  for (const note of notes) io.stdout.write(`${note}\n`);
  const servers = serversOf(spec, options.wsuri, io);
  const outdir = path.resolve(spec.outdir ?? './reports/servers');
  writeAsOwnerOf(outdir, written === null ? [] : [written]);
  const jobs = Number(io.env.WSTEST_JOBS ?? '1');
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64)
    throw new UsageError(`WSTEST_JOBS must be a whole number from 1 to 64, got ${JSON.stringify(io.env.WSTEST_JOBS)}`);
  return {
    role: 'server',
    // The original speaks HTTP/1.1 only.
    http2: false,
    agent: UNKNOWN_AGENT,
    outdir,
    cases: autobahnSelection(spec),
    excludeCases: [],
    caseTimeout: null,
    strict: false,
    failOn: [...failingVerdicts(null, false)],
    baseline: null,
    writeBaseline: null,
    github: false,
    quiet: false,
    junit: path.join(outdir, 'junit.xml'),
    json: path.join(outdir, 'summary.json'),
    logLevel: options.debug ? 'info' : 'warn',
    jobs,
    shard: null,
    extended: false,
    robustness: false,
    budgets: DEFAULT_BUDGETS,
    // The original's file set only: no recordings for `wsgate repro`.
    repro: { record: false, scripts: false },
    excludeAgentCases: spec.excludeAgentCases,
    protocolOptions: spec.protocolOptions,
    specFile: spec.file,
    patternSyntax: spec.patternSyntax,
    // The original does not verify a wss:// server's certificate (self-signed ones are the rule in CI).
    tls: servers.some((s) => s.url.startsWith('wss:')) ? { cert: null, key: null, ca: null, insecure: true } : null,
    servers,
    agentFromServer: true,
    seed: null,
    unknownAgent: UNKNOWN_AGENT,
    unreachable: 'skip',
  };
}

/** Runs every case against every server; 0 whatever the verdicts (130/143 when interrupted). */
export async function fuzzingClient(options: WstestOptions, io: WstestIo, logger: Logger): Promise<number> {
  const config = fuzzingClientConfig(options, io);
  io.stdout.write(
    `wsgate fuzzing client: ${config.cases.length} test cases against ${config.servers.length} server${config.servers.length === 1 ? '' : 's'} (${config.servers.map((s) => s.url).join(', ')})\n`,
  );
  return runGate(config, { out: io.stdout, logger, isTty: false, env: io.env, ...(io.signal ? { signal: io.signal } : {}) }, async (run) => {
    const played = run.cases.filter((c) => c.result !== null).length;
    const r = run.resources;
    const used = r === null ? '' : ` (CPU ${((r.cpuUserMs + r.cpuSystemMs) / 1000).toFixed(1)} s, peak RSS ${(r.maxRssKiB / 1024).toFixed(0)} MiB)`;
    io.stdout.write(
      `\n${played} of ${run.cases.length} cases played in ${(run.durationMs / 1000).toFixed(1)} s${used}; reports in ${config.outdir} (index.json, index.html)\n`,
    );
    if (run.interrupted !== null) return run.interrupted === 'SIGINT' ? ExitCode.Interrupted : ExitCode.Terminated;
    return ExitCode.Pass;
  });
}
