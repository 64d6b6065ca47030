/**
 * The command line: yargs wiring for `run`, `serve` and `list`. `main` returns an exit status and never
 * exits the process, so it can be tested without one.
 */
import path from 'node:path';
import { pino, type Logger } from 'pino';
import yargs, { type Argv } from 'yargs';
import { catalogueFor } from './cases/registry.js';
import { selectCases, SelectionError } from './cases/select.js';
import { resolveRunConfig, resolveServeConfig } from './config/schema.js';
import { agentCaseExcluder, loadSpec, type SpecSettings } from './config/spec.js';
import { ExitCode, UsageError } from './gate/exit-codes.js';
import { failingVerdicts } from './gate/rule.js';
import { runGate } from './gate/orchestrator.js';
import { shardCases } from './gate/schedule.js';
import { checkWritableDirectory } from './report/files.js';
import { ListenError } from './server/fuzzing-server.js';
import { createServer } from './server/start.js';
import { VERSION } from './version.js';

/** Where main reads and writes. */
export interface MainIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Aborted with reason 'SIGINT' or 'SIGTERM' to stop a run or a server. */
  signal?: AbortSignal;
  isTty?: boolean;
  /** The environment (WSGATE_LISTEN_HOST, GitHub Actions variables); process.env when absent. */
  env?: NodeJS.ProcessEnv;
}

/** pino on stderr (stdout carries the human progress lines). */
function makeLogger(level: string): Logger {
  return pino({ level, base: null }, pino.destination({ dest: 2, sync: true }));
}

function serverOptions<T>(y: Argv<T>) {
  return y
    // No yargs defaults here: a flag left out falls back to the spec file, then to the schema's default.
    .option('spec', { type: 'string', requiresArg: true, describe: "Autobahn fuzzingserver.json spec file (url, outdir, cases, exclude-cases, exclude-agent-cases, options); flags override it" })
    .option('url', { type: 'string', requiresArg: true, describe: 'Where the fuzzing server listens (ws://HOST:PORT; port 0 picks a free one; env WSGATE_LISTEN_HOST overrides the host bound) [default: ws://127.0.0.1:9001]' })
    .option('outdir', { type: 'string', requiresArg: true, describe: 'Report directory (index.json, index.html, per-case reports) [default: ./reports/clients]' })
    .option('cases', { type: 'string', array: true, requiresArg: true, describe: "Case id patterns to run, Autobahn's rules ('6.*', '6.9.2'); default all" })
    .option('exclude-cases', { type: 'string', array: true, requiresArg: true, describe: 'Case id patterns to leave out' })
    .option('log-level', { type: 'string', requiresArg: true, describe: 'pino log level on stderr (fatal, error, warn, info, debug, trace, silent)', default: 'warn' })
    .option('shard', { type: 'string', requiresArg: true, describe: 'Run only the K-th of N slices of the selected cases, balanced by expected duration (K/N, e.g. 2/4); join the shards with `wsgate merge`' })
    .option('extended', extendedOption);
}

/** `--extended`: wsgate's own group 14 after Autobahn's 517 cases (whose ids and indices stay as they are). */
// No yargs default: left out, it falls back to a spec file's "extended", then to false.
const extendedOption = {
  type: 'boolean',
  describe: "Also select wsgate's own cases (group 14: opening handshake and extension negotiation) after Autobahn's 517",
} as const;

function exitForSignal(signal: AbortSignal | undefined): number | null {
  if (signal?.aborted !== true) return null;
  return signal.reason === 'SIGTERM' ? ExitCode.Terminated : ExitCode.Interrupted;
}

/** Parses argv (without node and script) and runs the command; resolves with the exit status. */
export async function main(argv: readonly string[], io: MainIo): Promise<number> {
  let status: number = ExitCode.Pass;
  const env = io.env ?? process.env;
  const write = (text: string): void => {
    io.stdout.write(text);
  };
  const parser = yargs([...argv])
    .scriptName('wsgate')
    .usage('$0 <command> [options]\n\nWebSocket client conformance gate: plays the Autobahn|Testsuite case catalogue against a client and fails the build on any violation.')
    .version(VERSION)
    .strict()
    .exitProcess(false)
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((msg: string | undefined, err: Error | undefined) => {
      // yargs' own validation errors (a flag without its value, ...) are usage errors too.
      if (err?.name === 'YError') throw new UsageError(err.message);
      throw err ?? new UsageError(msg ?? 'invalid arguments');
    })
    .command(
      'run',
      'Start the server, run the client for every selected case, write JUnit/JSON/HTML reports; exit 1 on any failure',
      (y) =>
        serverOptions(y)
          .option('client', { type: 'string', requiresArg: true, describe: 'Client command, run in a shell once per case; {url}, {case}, {agent} are replaced (shell-quoted) and set as WSGATE_URL, WSGATE_CASE, WSGATE_AGENT. Default: the bundled ws client, which loops over the cases itself' })
          .option('client-loops', { type: 'boolean', default: false, describe: 'Run the client once with the base URL; it drives every case itself (/getCaseCount, /runCase, /updateReports). The bundled client can do this too' })
          .option('agent', { type: 'string', requiresArg: true, describe: 'Agent name in the reports (default: client, or wsgate-reference-ws for the bundled client)' })
          .option('case-timeout', { type: 'number', requiresArg: true, describe: 'Seconds a case may take before the client is killed (default: 30, or longer for cases whose own timers wait longer, e.g. group 9)' })
          .option('strict', { type: 'boolean', default: false, describe: 'NON-STRICT outcomes fail too (adds NON-STRICT to --fail-on)' })
          .option('fail-on', { type: 'string', array: true, requiresArg: true, describe: "Verdicts that fail a case, on either axis (replaces the default FAILED, 'WRONG CODE', UNCLEAN, 'FAILED BY CLIENT'; also NON-STRICT, INFORMATIONAL, UNIMPLEMENTED)" })
          .option('baseline', { type: 'string', requiresArg: true, describe: 'Baseline file of accepted non-OK cases, each with a reason: they do not fail the build' })
          .option('write-baseline', { type: 'string', requiresArg: true, describe: "Write this run's failing cases to a baseline file (a starting point; edit the reasons)" })
          .option('github', { type: 'boolean', describe: 'GitHub Actions job summary, annotations and step outputs (default: when GITHUB_ACTIONS=true)' })
          .option('junit', { type: 'string', requiresArg: true, describe: 'JUnit XML file (default: OUTDIR/junit.xml)' })
          .option('json', { type: 'string', requiresArg: true, describe: 'JSON summary file (default: OUTDIR/summary.json)' })
          .option('jobs', { type: 'number', requiresArg: true, describe: 'Cases run at once, each on its own connection (and client process, per case); group 9 always runs alone. Default: one per core, at most 8' })
          .example('$0 run', 'run every case against the bundled ws client')
          .example('$0 run --client "node my-client.js {url}" --cases "6.*"', 'run group 6 against your client'),
      async (a) => {
        const spec = readSpec(a.spec, io);
        const config = resolveRunConfig({
          url: a.url,
          outdir: a.outdir,
          cases: a.cases,
          excludeCases: a['exclude-cases'],
          logLevel: a['log-level'],
          client: a.client ?? null,
          clientLoops: a['client-loops'],
          agent: a.agent ?? null,
          caseTimeout: a['case-timeout'] ?? null,
          strict: a.strict,
          failOn: a['fail-on'] ?? null,
          baseline: a.baseline ?? null,
          writeBaseline: a['write-baseline'] ?? null,
          github: a.github ?? null,
          junit: a.junit ?? null,
          json: a.json ?? null,
          jobs: a.jobs ?? null,
          shard: a.shard ?? null,
          extended: a.extended,
        }, { env, spec });
        const logger = makeLogger(config.logLevel);
        const gateIo = { out: io.stdout, logger, isTty: io.isTty ?? false, env, ...(io.signal ? { signal: io.signal } : {}) };
        status = await runGate(config, gateIo);
        status = exitForSignal(io.signal) ?? status;
      },
    )
    .command(
      'serve',
      'Run the fuzzing server alone, for clients that loop over the cases themselves; reports are written on /updateReports and on shutdown',
      (y) => serverOptions(y),
      async (a) => {
        const spec = readSpec(a.spec, io);
        const config = resolveServeConfig({
          url: a.url,
          outdir: a.outdir,
          cases: a.cases,
          excludeCases: a['exclude-cases'],
          logLevel: a['log-level'],
          shard: a.shard ?? null,
          extended: a.extended,
        }, { env, spec });
        status = await serve(config, io, makeLogger(config.logLevel));
      },
    )
    .command(
      'merge <dirs..>',
      "Join the output directories of several runs (the shards of a CI matrix) into one report set and one exit status",
      (y) =>
        y
          .positional('dirs', { type: 'string', array: true, describe: 'Output directories of wsgate runs (each with summary.json)' })
          .option('outdir', { type: 'string', describe: 'Directory for the merged reports', demandOption: true })
          .option('junit', { type: 'string', describe: 'JUnit XML file (default: OUTDIR/junit.xml)' })
          .option('json', { type: 'string', describe: 'JSON summary file (default: OUTDIR/summary.json)' })
          .example('$0 merge shard-1 shard-2 shard-3 --outdir merged', 'one report and one exit status for three shards'),
      async (a) => {
        const outdir = path.resolve(a.outdir);
        const inputs = (a.dirs ?? []).map((d) => path.resolve(String(d)));
        if (inputs.includes(outdir)) throw new UsageError('merge: --outdir must not be one of the inputs');
        const { mergeRuns } = await import('./gate/merge.js');
        status = await mergeRuns(
          {
            inputs,
            outdir,
            junit: path.resolve(a.junit ?? path.join(outdir, 'junit.xml')),
            json: path.resolve(a.json ?? path.join(outdir, 'summary.json')),
          },
          io.stdout,
        );
      },
    )
    .command(
      'judge',
      'Apply the gate to existing reports (index.json and per-case JSON of wsgate serve or Autobahn): JUnit, summary, exit 1 on any failure',
      (y) =>
        y
          .option('outdir', { type: 'string', default: './reports/clients', describe: 'Report directory holding index.json' })
          .option('agent', { type: 'string', describe: 'Agent to judge (default: the only agent in index.json)' })
          .option('cases', { type: 'string', array: true, default: [] as string[], describe: 'Case id patterns that must have results (default: the cases index.json holds)' })
          .option('exclude-cases', { type: 'string', array: true, default: [] as string[], describe: 'Case id patterns to leave out' })
          .option('extended', extendedOption)
          .option('strict', { type: 'boolean', default: false, describe: 'NON-STRICT outcomes fail too' })
          .option('fail-on', { type: 'string', array: true, describe: 'Verdicts that fail a case (as for run)' })
          .option('baseline', { type: 'string', describe: 'Baseline file of accepted non-OK cases' })
          .option('write-baseline', { type: 'string', describe: 'Write the failing cases to a baseline file' })
          .option('github', { type: 'boolean', describe: 'GitHub Actions job summary, annotations and step outputs (default: when GITHUB_ACTIONS=true)' })
          .option('junit', { type: 'string', describe: 'JUnit XML file (default: OUTDIR/junit.xml)' })
          .option('json', { type: 'string', describe: 'JSON summary file (default: OUTDIR/summary.json)' })
          .example('$0 judge --outdir reports/clients --agent my-client', 'fail the build on the reports a server wrote'),
      async (a) => {
        const split = (v: readonly string[]): string[] => v.flatMap((x) => x.split(',')).map((x) => x.trim()).filter((x) => x !== '');
        const outdir = path.resolve(a.outdir);
        const { judgeReports } = await import('./gate/judge-reports.js');
        status = await judgeReports(
          {
            outdir,
            agent: a.agent ?? null,
            cases: split(a.cases),
            excludeCases: split(a['exclude-cases']),
            extended: a.extended === true,
            failOn: [...failingVerdicts(a['fail-on'] === undefined ? null : split(a['fail-on']), a.strict)],
            strict: a.strict,
            baseline: a.baseline === undefined ? null : path.resolve(a.baseline),
            writeBaseline: a['write-baseline'] === undefined ? null : path.resolve(a['write-baseline']),
            github: a.github ?? null,
            junit: path.resolve(a.junit ?? path.join(outdir, 'junit.xml')),
            json: path.resolve(a.json ?? path.join(outdir, 'summary.json')),
          },
          { out: io.stdout, logger: makeLogger('warn'), isTty: io.isTty ?? false, env },
        );
      },
    )
    .command(
      'list',
      'Print the selected cases (index, id, description) without opening a socket',
      (y) =>
        y
          .option('cases', { type: 'string', array: true, requiresArg: true, default: [] as string[], describe: 'Case id patterns' })
          .option('exclude-cases', { type: 'string', array: true, requiresArg: true, default: [] as string[], describe: 'Case id patterns to leave out' })
          .option('extended', extendedOption),
      (a) => {
        const split = (v: readonly string[]): string[] => v.flatMap((x) => x.split(',')).filter((x) => x.trim() !== '');
        const cases = selectOrUsage(split(a.cases), split(a['exclude-cases']), a.extended === true);
        const width = String(cases.length).length;
        for (const [i, c] of cases.entries()) {
          write(`${String(i + 1).padStart(width)}  ${c.id.padEnd(8)}  ${plain(c.description)}\n`);
        }
      },
    )
    .demandCommand(1, 'name a command: run, serve, judge, merge or list (see --help)')
    .help();

  try {
    let helpText = '';
    await parser.parseAsync([...argv], {}, (_err, _argv, output) => {
      helpText = output;
    });
    if (helpText !== '') write(`${helpText}\n`);
    return status;
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`wsgate: ${err.message}\n`);
      return ExitCode.Usage;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr.write(`wsgate: internal error: ${message.split('\n')[0] ?? ''}\n`);
    if (process.env.WSGATE_DEBUG === '1' && err instanceof Error) io.stderr.write(`${err.stack ?? ''}\n`);
    return ExitCode.Internal;
  }
}

/** Loads --spec FILE (null without one) and prints its warnings (keys wsgate does not honour) on stderr. */
function readSpec(file: string | undefined, io: MainIo): SpecSettings | null {
  if (file === undefined) return null;
  const spec = loadSpec(file);
  for (const w of spec.warnings) io.stderr.write(`wsgate: warning: ${file}: ${w}\n`);
  return spec;
}

function selectOrUsage(include: string[], exclude: string[], extended: boolean) {
  try {
    return selectCases(catalogueFor(extended), include, exclude);
  } catch (err) {
    if (err instanceof SelectionError) throw new UsageError(err.message);
    throw err;
  }
}

/** A description as one line of plain text. */
function plain(description: string): string {
  return description.replace(/<br\s*\/?>/gi, ' ').replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim();
}

/** `wsgate serve`: the server until SIGINT/SIGTERM, /stopServer or /updateReports?shutdownOnComplete=true. */
async function serve(config: ReturnType<typeof resolveServeConfig>, io: MainIo, logger: Logger): Promise<number> {
  const selected = selectOrUsage(config.cases, config.excludeCases, config.extended);
  const cases = config.shard === null ? selected : shardCases(selected, config.shard);
  if (cases.length === 0) throw new UsageError('no case is selected: check --cases and --exclude-cases');
  try {
    await checkWritableDirectory(config.outdir);
  } catch (err) {
    throw new UsageError(`cannot write to the report directory ${config.outdir}: ${(err as Error).message}`);
  }
  const server = createServer({
    host: config.listenHost,
    port: config.port,
    outdir: config.outdir,
    cases,
    statusWaitMs: 60_000,
    logger,
    session: config.session,
    // Per connecting agent, as Autobahn does: the case is closed at once and records no result.
    skipCase: agentCaseExcluder(config.excludeAgentCases),
    extended: config.extended,
  });
  try {
    await server.listen();
  } catch (err) {
    if (err instanceof ListenError) throw new UsageError(err.message);
    throw err;
  }
  const out = io.stdout;
  // The first two lines match what scripts wait for in Autobahn's output.
  out.write(`wsgate ${VERSION} Fuzzing Server (Port ${server.port})\n`);
  out.write(`Ok, will run ${cases.length} test cases for any clients connecting\n`);
  out.write(`Cases = [${cases.map((c) => `'${c.id}'`).join(', ')}]\n`);
  server.on('caseStarted', (e: { id: string; agent: string; peer: string }) => {
    out.write(`Running test case ID ${e.id} for agent ${JSON.stringify(e.agent)} from peer ${e.peer}\n`);
  });
  server.on('caseSkipped', (e: { id: string; agent: string }) => {
    out.write(`Skipping test case ID ${e.id} for agent ${JSON.stringify(e.agent)} by test configuration (exclude-agent-cases)\n`);
  });
  server.on('reportsUpdated', () => {
    out.write(`Reports written to ${config.outdir}\n`);
  });
  const reason = await new Promise<string>((resolve) => {
    server.once('stopRequested', (why: string) => resolve(why));
    if (io.signal?.aborted === true) resolve(String(io.signal.reason));
    io.signal?.addEventListener('abort', () => resolve(String(io.signal?.reason)), { once: true });
  });
  out.write(`Shutting down (${reason})\n`);
  try {
    await server.updateReports();
  } finally {
    await server.close();
  }
  // Stopping a server is its normal end (docker stop sends SIGTERM): 0, unlike an interrupted run.
  return ExitCode.Pass;
}
