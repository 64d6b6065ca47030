/** `wsgate run`: the server, the client for every selected case, the reports and the exit status. */
import type { Argv } from 'yargs';
import { exitForSignal, githubOption, quietOption, serverFlags, serverOptions, type CommandContext } from './shared.js';

export function runCommand<T>(y: Argv<T>, { io, env, setStatus }: CommandContext): Argv<T> {
  return y.command(
    'run',
    'Test a client (start the fuzzing server, run the client for every selected case) or a server (--role server, --server-url: connect to it once per case); write JUnit/JSON/HTML reports; exit 1 on any failure',
    (y) => runOptions(y),
    async (a) => {
      // Loaded here, not at the top: --help and a usage error need none of the engine.
      const [{ resolveRunConfig }, { runGate }, { makeLogger, specOption }] = await Promise.all([
        import('../config/run-config.js'),
        import('../run/run.js'),
        import('./setup.js'),
      ]);
      const spec = specOption(a.spec, io.stderr);
      const config = resolveRunConfig(
        {
          ...serverFlags(a),
          client: a.client ?? null,
          clientLoops: a['client-loops'],
          browser: a.browser ?? null,
          browserPath: a['browser-path'] ?? null,
          browserTimeout: a['browser-timeout'] ?? null,
          agent: a.agent ?? null,
          caseTimeout: a['case-timeout'] ?? null,
          strict: a.strict,
          failOn: a['fail-on'] ?? null,
          baseline: a.baseline ?? null,
          writeBaseline: a['write-baseline'] ?? null,
          github: a.github ?? null,
          quiet: a.quiet,
          junit: a.junit ?? null,
          json: a.json ?? null,
          jobs: a.jobs ?? null,
          role: a.role ?? null,
          serverUrl: a['server-url'] ?? null,
          server: a.server ?? null,
          restartServer: a['restart-server'],
          serverStartTimeout: a['server-start-timeout'] ?? null,
          seed: a.seed ?? null,
          insecure: a.insecure,
          repro: a.repro,
          quick: a.quick,
        },
        { env, spec },
      );
      const logger = makeLogger(config.logLevel);
      const gateIo = { out: io.stdout, logger, isTty: io.isTty ?? false, env, ...(io.signal ? { signal: io.signal } : {}) };
      const status = await runGate(config, gateIo);
      setStatus(exitForSignal(io.signal) ?? status);
    },
  );
}

/** The flags of `run`, beside the server options it shares with `serve`. */
function runOptions<T>(y: Argv<T>) {
  return serverOptions(y)
    .option('client', {
      type: 'string',
      requiresArg: true,
      describe:
        'Client command, run in a shell once per case; {url}, {case}, {agent} (and {ca} over TLS) are replaced (shell-quoted) and set as WSGATE_URL, WSGATE_CASE, WSGATE_AGENT (WSGATE_CA_FILE, NODE_EXTRA_CA_CERTS, SSL_CERT_FILE). Default: the bundled ws client, which loops over the cases itself',
    })
    .option('client-loops', {
      type: 'boolean',
      default: false,
      describe:
        'Run the client once with the base URL; it drives every case itself (/getCaseCount, /runCase, /updateReports). The bundled client can do this too',
    })
    .option('browser', {
      type: 'string',
      choices: ['chromium', 'firefox', 'webkit'],
      requiresArg: true,
      describe:
        "A browser engine as the client under test: started headless on the fuzzing server's page with a fresh profile, it plays every case with its own WebSocket client, in order; the agent is the engine's name and version",
    })
    .option('browser-path', {
      type: 'string',
      requiresArg: true,
      describe: "The browser's executable (default: where Debian, Ubuntu and GitHub's runners install it)",
    })
    .option('browser-timeout', {
      type: 'number',
      requiresArg: true,
      describe:
        'Seconds the page may go without asking between one case and the next before the watchdog ends it (default: 30); loading the page may take this, but at least 30',
    })
    .option('agent', {
      type: 'string',
      requiresArg: true,
      describe:
        'Agent name in the reports (default: client, or wsgate-reference-ws for the bundled client or server; a server under test is named by its Server header, else its host:port)',
    })
    .option('role', {
      type: 'string',
      choices: ['client', 'server'],
      requiresArg: true,
      describe: 'The side under test: client (default) or server; --role server alone tests the bundled ws server',
    })
    .option('server-url', {
      type: 'string',
      requiresArg: true,
      describe: 'Test the WebSocket server at ws://HOST:PORT[/path]: wsgate connects to it once per case (port 0 with --server: a free port)',
    })
    .option('server', {
      type: 'string',
      requiresArg: true,
      describe:
        'Command that starts the server under test, run in a shell; {port} and WSGATE_PORT give it the port (with --tls: {cert}, {key} and WSGATE_CERT_FILE, WSGATE_KEY_FILE its certificate). Stopped (its process tree) at the end',
    })
    .option('restart-server', {
      type: 'boolean',
      default: false,
      describe: 'Start the --server command again when it dies, before the next case (else the remaining cases fail)',
    })
    .option('server-start-timeout', {
      type: 'number',
      requiresArg: true,
      describe: 'Seconds to wait for the server under test to accept connections (default: 30)',
    })
    .option('insecure', { type: 'boolean', default: false, describe: 'Server under test over wss://: do not verify its certificate (the summary records it)' })
    .option('quick', {
      type: 'boolean',
      default: false,
      describe:
        'The quick profile, for a pre-push hook: every group of the selection, groups 9, 12 and 13 by a fixed sample of each subgroup (21 of their 270 cases); CI runs the whole catalogue',
    })
    .option('repro', {
      type: 'boolean',
      default: false,
      describe: 'Write a repro script (plain Node, no packages) for every case that is not OK on both axes to OUTDIR/repro/ (see `wsgate repro`)',
    })
    .option('seed', {
      type: 'number',
      requiresArg: true,
      describe: 'Server role: masking keys and handshake keys from this seed (a reproducible run), instead of random ones',
    })
    .option('case-timeout', {
      type: 'number',
      requiresArg: true,
      describe: 'Seconds a case may take before the client is killed (default: 30, or longer for cases whose own timers wait longer, e.g. group 9)',
    })
    .option('strict', { type: 'boolean', default: false, describe: 'NON-STRICT outcomes fail too (adds NON-STRICT to --fail-on)' })
    .option('fail-on', {
      type: 'string',
      array: true,
      requiresArg: true,
      describe:
        "Verdicts that fail a case, on either axis (replaces the default FAILED, 'WRONG CODE', UNCLEAN, 'FAILED BY CLIENT'; also NON-STRICT, INFORMATIONAL, UNIMPLEMENTED)",
    })
    .option('baseline', {
      type: 'string',
      requiresArg: true,
      describe: 'Baseline file of accepted non-OK cases, each with a reason: they do not fail the build',
    })
    .option('write-baseline', {
      type: 'string',
      requiresArg: true,
      describe: "Write this run's failing cases to a baseline file (a starting point; edit the reasons)",
    })
    .option('github', githubOption)
    .option('quiet', quietOption)
    .option('junit', { type: 'string', requiresArg: true, describe: 'JUnit XML file (default: OUTDIR/junit.xml)' })
    .option('json', { type: 'string', requiresArg: true, describe: 'JSON summary file (default: OUTDIR/summary.json)' })
    .option('jobs', {
      type: 'number',
      requiresArg: true,
      describe: 'Cases run at once, each on its own connection (and client process, per case); group 9 always runs alone. Default: one per core, at most 8',
    })
    .example('$0 run', 'run every case against the bundled ws client')
    .example('$0 run --client "node my-client.js {url}" --cases "6.*"', 'run group 6 against your client')
    .example('$0 run --quick --client "node my-client.js {url}"', 'every group, the slow ones sampled: a pre-push check in seconds')
    .example('$0 run --server "node my-server.js {port}"', 'run every case against your server')
    .example('$0 run --server-url ws://127.0.0.1:9001', 'run every case against a server running elsewhere')
    .example('$0 run --browser chromium', 'run every case against headless Chromium, the page playing them with its own WebSocket')
    .example('$0 run --tls --client "node my-client.js {url}"', 'the same over wss://, the client trusting a throwaway CA');
}
