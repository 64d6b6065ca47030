/** `wsgate run`: the server, the client for every selected case, the reports and the exit status. */
import type { Argv } from 'yargs';
import { RUN_OPTIONS, settingsFrom } from '../config/options/table.js';
import { exitForSignal, tableOptions, type CommandContext } from './shared.js';

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
      const spec = specOption(a.spec as string | undefined, io.stderr);
      const config = resolveRunConfig(settingsFrom(a, RUN_OPTIONS), { env, spec });
      const logger = makeLogger(config.logLevel);
      const gateIo = { out: io.stdout, logger, isTty: io.isTty ?? false, env, ...(io.signal ? { signal: io.signal } : {}) };
      const status = await runGate(config, gateIo);
      setStatus(exitForSignal(io.signal) ?? status);
    },
  );
}

/** The flags of `run`: every option of the table (config/options/table.ts), in its sections. */
function runOptions<T>(y: Argv<T>) {
  return tableOptions(y, RUN_OPTIONS)
    .example('$0 run', 'run every case against the bundled ws client')
    .example('$0 run --client "node my-client.js {url}" --cases "6.*"', 'run group 6 against your client')
    .example('$0 run --quick --client "node my-client.js {url}"', 'every group, the slow ones sampled: a pre-push check in seconds')
    .example('$0 run --server "node my-server.js {port}"', 'run every case against your server')
    .example('$0 run --server-url ws://127.0.0.1:9001', 'run every case against a server running elsewhere')
    .example('$0 run --browser chromium', 'run every case against headless Chromium, the page playing them with its own WebSocket')
    .example('$0 run --tls --client "node my-client.js {url}"', 'the same over wss://, the client trusting a throwaway CA')
    .example('$0 run --shard 2/4 --outdir shard-2', 'the second of four slices of a CI matrix; join them with `wsgate merge`');
}
