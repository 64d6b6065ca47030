/**
 * The original `wstest` command line (autobahntestsuite/wstest.py): the same options, long and short,
 * `--opt=value` or `--opt value`, in any order. Errors are one line and exit 2, as through wsgate's
 * own commands (the original printed its usage and exited 1).
 */
import yargs from 'yargs';
import { UsageError } from '../errors.js';

/** The modes wsgate's `wstest` runs, and the ones the original has that it does not. */
export const WSTEST_MODES = ['fuzzingserver', 'fuzzingclient', 'echoserver', 'testeeserver'] as const;
const ORIGINAL_ONLY_MODES = ['echoclient', 'broadcastclient', 'broadcastserver', 'testeeclient', 'massconnect', 'serializer'];

export type WstestMode = (typeof WSTEST_MODES)[number];

/** Where wstest reads and writes, and what stops it. */
export interface WstestIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /** Aborted with 'SIGINT' or 'SIGTERM'. */
  signal?: AbortSignal;
}

/** A parsed wstest command line. */
export interface WstestOptions {
  mode: WstestMode;
  spec: string | undefined;
  wsuri: string | undefined;
  /** The web port of fuzzingserver and echoserver; 0: none. */
  webport: number;
  debug: boolean;
  key: string | undefined;
  cert: string | undefined;
}

/** What a command line asks for: a run, or only the help or version text. */
export type WstestRequest = { kind: 'run'; options: WstestOptions } | { kind: 'text'; text: string };

/** Parses argv (without node and the script). */
export async function parseWstestArgs(argv: readonly string[], version: string): Promise<WstestRequest> {
  let text = '';
  const parser = yargs([...argv])
    .scriptName('wstest')
    .usage(
      "$0 -m MODE [options]\n\nAutobahn|Testsuite's wstest command line, run by wsgate's engine (modes: fuzzingserver, fuzzingclient, echoserver, testeeserver).",
    )
    .option('mode', { alias: 'm', type: 'string', requiresArg: true, describe: `Test mode: ${WSTEST_MODES.join(', ')}` })
    .option('spec', {
      alias: 's',
      type: 'string',
      requiresArg: true,
      describe: 'Test specification file (default: MODE.json in the working directory, written with defaults when missing)',
    })
    .option('wsuri', {
      alias: 'w',
      type: 'string',
      requiresArg: true,
      describe: 'WebSocket URI (echoserver, testeeserver; fuzzingclient without servers in the spec)',
    })
    .option('webport', {
      alias: 'u',
      type: 'string',
      requiresArg: true,
      default: '8080',
      describe: 'Web port of fuzzingserver and echoserver (report pages, /cwd/); 0 disables',
    })
    .option('debug', { alias: 'd', type: 'boolean', default: false, describe: 'Debug output' })
    .option('key', { alias: 'k', type: 'string', requiresArg: true, describe: 'Server private key file (wss://)' })
    .option('cert', { alias: 'c', type: 'string', requiresArg: true, describe: 'Server certificate file (wss://)' })
    .option('autobahnversion', { alias: 'a', type: 'boolean', default: false, describe: 'Print the version and exit' })
    .strict()
    // A repeated option takes its last value, as the original's parser does.
    .parserConfiguration({ 'duplicate-arguments-array': false })
    .version(false)
    .help()
    .exitProcess(false)
    .wrap(100)
    .fail((msg: string | undefined, err: Error | undefined) => {
      if (err !== undefined && err.name !== 'YError') throw err;
      throw new UsageError(msg ?? err?.message ?? 'invalid arguments');
    });
  const a = await parser.parseAsync([...argv], {}, (_err, _argv, output) => {
    text = output;
  });
  if (text !== '') return { kind: 'text', text };
  if (a.autobahnversion) return { kind: 'text', text: `wsgate ${version} (wstest: Autobahn|Testsuite's command line)` };
  const mode = a.mode;
  if (mode === undefined) throw new UsageError(`a mode must be given: -m ${WSTEST_MODES.join('|')}`);
  if (!(WSTEST_MODES as readonly string[]).includes(mode)) {
    const why = ORIGINAL_ONLY_MODES.includes(mode) ? 'is not provided by wsgate' : 'is not a mode';
    throw new UsageError(`mode ${JSON.stringify(mode)} ${why} (modes: ${WSTEST_MODES.join(', ')})`);
  }
  if ((mode === 'echoserver' || mode === 'testeeserver') && a.wsuri === undefined)
    throw new UsageError(`mode ${mode} needs a WebSocket URI (-w ws://HOST:PORT)`);
  const webport = /^\s*\d+\s*$/.test(a.webport) ? Number(a.webport) : Number.NaN;
  if (!(webport >= 0 && webport <= 65535)) throw new UsageError(`invalid web port ${JSON.stringify(a.webport)} (0 to 65535; 0 disables it)`);
  if ((a.key === undefined) !== (a.cert === undefined)) throw new UsageError('-k/--key and -c/--cert go together (the server private key and its certificate)');
  return { kind: 'run', options: { mode: mode as WstestMode, spec: a.spec, wsuri: a.wsuri, webport, debug: a.debug, key: a.key, cert: a.cert } };
}
