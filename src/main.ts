/**
 * The command line: yargs wiring for `run`, `serve` and `list`. `main` returns an exit status and never
 * exits the process, so it can be tested without one.
 */
import { pino, type Logger } from 'pino';
import yargs, { type Argv } from 'yargs';
import { catalogue } from './cases/registry.js';
import { selectCases, SelectionError } from './cases/select.js';
import { resolveRunConfig, resolveServeConfig } from './config/schema.js';
import { ExitCode, UsageError } from './gate/exit-codes.js';
import { runGate } from './gate/orchestrator.js';
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
}

/** pino on stderr (stdout carries the human progress lines). */
function makeLogger(level: string): Logger {
  return pino({ level, base: null }, pino.destination({ dest: 2, sync: true }));
}

function serverOptions<T>(y: Argv<T>) {
  return y
    .option('url', { type: 'string', requiresArg: true, describe: 'Where the fuzzing server listens (ws://HOST:PORT; port 0 picks a free one)', default: 'ws://127.0.0.1:9001' })
    .option('outdir', { type: 'string', requiresArg: true, describe: 'Report directory (index.json, index.html, per-case reports)', default: './reports/clients' })
    .option('cases', { type: 'string', array: true, requiresArg: true, describe: "Case id patterns to run, Autobahn's rules ('6.*', '6.9.2'); default all", default: [] as string[] })
    .option('exclude-cases', { type: 'string', array: true, requiresArg: true, describe: 'Case id patterns to leave out', default: [] as string[] })
    .option('log-level', { type: 'string', requiresArg: true, describe: 'pino log level on stderr (fatal, error, warn, info, debug, trace, silent)', default: 'warn' });
}

function exitForSignal(signal: AbortSignal | undefined): number | null {
  if (signal?.aborted !== true) return null;
  return signal.reason === 'SIGTERM' ? ExitCode.Terminated : ExitCode.Interrupted;
}

/** Parses argv (without node and script) and runs the command; resolves with the exit status. */
export async function main(argv: readonly string[], io: MainIo): Promise<number> {
  let status: number = ExitCode.Pass;
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
          .option('strict', { type: 'boolean', default: false, describe: 'NON-STRICT outcomes fail too' })
          .option('junit', { type: 'string', requiresArg: true, describe: 'JUnit XML file (default: OUTDIR/junit.xml)' })
          .option('json', { type: 'string', requiresArg: true, describe: 'JSON summary file (default: OUTDIR/summary.json)' })
          .example('$0 run', 'run every case against the bundled ws client')
          .example('$0 run --client "node my-client.js {url}" --cases "6.*"', 'run group 6 against your client'),
      async (a) => {
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
          junit: a.junit ?? null,
          json: a.json ?? null,
        });
        const logger = makeLogger(config.logLevel);
        const gateIo = { out: io.stdout, logger, isTty: io.isTty ?? false, ...(io.signal ? { signal: io.signal } : {}) };
        status = await runGate(config, gateIo);
        status = exitForSignal(io.signal) ?? status;
      },
    )
    .command(
      'serve',
      'Run the fuzzing server alone, for clients that loop over the cases themselves; reports are written on /updateReports and on shutdown',
      (y) => serverOptions(y),
      async (a) => {
        const config = resolveServeConfig({
          url: a.url,
          outdir: a.outdir,
          cases: a.cases,
          excludeCases: a['exclude-cases'],
          logLevel: a['log-level'],
        });
        status = await serve(config, io, makeLogger(config.logLevel));
      },
    )
    .command(
      'list',
      'Print the selected cases (index, id, description) without opening a socket',
      (y) =>
        y
          .option('cases', { type: 'string', array: true, requiresArg: true, default: [] as string[], describe: 'Case id patterns' })
          .option('exclude-cases', { type: 'string', array: true, requiresArg: true, default: [] as string[], describe: 'Case id patterns to leave out' }),
      (a) => {
        const split = (v: readonly string[]): string[] => v.flatMap((x) => x.split(',')).filter((x) => x.trim() !== '');
        const cases = selectOrUsage(split(a.cases), split(a['exclude-cases']));
        const width = String(cases.length).length;
        for (const [i, c] of cases.entries()) {
          write(`${String(i + 1).padStart(width)}  ${c.id.padEnd(8)}  ${plain(c.description)}\n`);
        }
      },
    )
    .demandCommand(1, 'name a command: run, serve or list (see --help)')
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

function selectOrUsage(include: string[], exclude: string[]) {
  try {
    return selectCases(catalogue, include, exclude);
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
  const cases = selectOrUsage(config.cases, config.excludeCases);
  if (cases.length === 0) throw new UsageError('no case is selected: check --cases and --exclude-cases');
  try {
    await checkWritableDirectory(config.outdir);
  } catch (err) {
    throw new UsageError(`cannot write to the report directory ${config.outdir}: ${(err as Error).message}`);
  }
  const server = createServer({ host: config.host, port: config.port, outdir: config.outdir, cases, statusWaitMs: 60_000, logger });
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
