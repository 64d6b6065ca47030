/** What every command shares: where it reads and writes, the server options, the spec file, the logger. */
import type { Argv } from 'yargs';
import { ExitCode } from '../errors.js';

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

/** What a command gets from main: the io, the environment, and where its exit status goes. */
export interface CommandContext {
  io: MainIo;
  env: NodeJS.ProcessEnv;
  setStatus(status: number): void;
}

/** The parsed server options (see serverOptions), as the config resolvers take them. */
export function serverFlags(a: {
  url?: string | undefined;
  outdir?: string | undefined;
  cases?: string[] | undefined;
  'exclude-cases'?: string[] | undefined;
  'log-level': string;
  shard?: string | undefined;
  extended?: boolean | undefined;
  robustness?: boolean | undefined;
  budget?: string[] | undefined;
  tls?: boolean | undefined;
  http2?: boolean | undefined;
  cert?: string | undefined;
  key?: string | undefined;
  ca?: string | undefined;
}) {
  return {
    url: a.url,
    outdir: a.outdir,
    cases: a.cases,
    excludeCases: a['exclude-cases'],
    logLevel: a['log-level'],
    shard: a.shard ?? null,
    extended: a.extended,
    robustness: a.robustness,
    budget: a.budget,
    tls: a.tls,
    http2: a.http2,
    cert: a.cert,
    key: a.key,
    ca: a.ca,
  };
}

/** The options of the commands that start a server (run, serve). */
export function serverOptions<T>(y: Argv<T>) {
  return (
    y
      // No yargs defaults here: a flag left out falls back to the spec file, then to the schema's default.
      .option('spec', {
        type: 'string',
        requiresArg: true,
        describe: 'Autobahn fuzzingserver.json spec file (url, outdir, cases, exclude-cases, exclude-agent-cases, options); flags override it',
      })
      .option('url', {
        type: 'string',
        requiresArg: true,
        describe:
          'Where the fuzzing server listens (ws://HOST:PORT; port 0 picks a free one; env WSGATE_LISTEN_HOST overrides the host bound) [default: ws://127.0.0.1:9001]',
      })
      .option('outdir', {
        type: 'string',
        requiresArg: true,
        describe: 'Report directory (index.json, index.html, per-case reports) [default: ./reports/clients]',
      })
      .option('cases', { type: 'string', array: true, requiresArg: true, describe: "Case id patterns to run, Autobahn's rules ('6.*', '6.9.2'); default all" })
      .option('exclude-cases', { type: 'string', array: true, requiresArg: true, describe: 'Case id patterns to leave out' })
      .option('log-level', {
        type: 'string',
        requiresArg: true,
        describe: 'pino log level on stderr (fatal, error, warn, info, debug, trace, silent)',
        default: 'warn',
      })
      .option('shard', {
        type: 'string',
        requiresArg: true,
        describe: 'Run only the K-th of N slices of the selected cases, balanced by expected duration (K/N, e.g. 2/4); join the shards with `wsgate merge`',
      })
      .option('extended', extendedOption)
      .option('robustness', robustnessOption)
      .option('budget', budgetOption)
      .option('tls', {
        type: 'boolean',
        describe:
          'wss://: serve TLS (a client under test) or connect over TLS (a server under test). Without --cert, wsgate makes a throwaway CA and certificate and writes the CA to OUTDIR/ca.pem',
      })
      .option('http2', {
        type: 'boolean',
        describe:
          'WebSockets over HTTP/2 (RFC 8441): each case is an extended CONNECT stream, h2c with prior knowledge (with --tls: ALPN h2). The client or server under test is told by WSGATE_HTTP2=1',
      })
      .option('cert', {
        type: 'string',
        requiresArg: true,
        describe: 'TLS: your server certificate (PEM, chain) instead of a generated one; implies --tls (a spec file\'s "cert")',
      })
      .option('key', { type: 'string', requiresArg: true, describe: 'TLS: the private key of --cert (PEM) (a spec file\'s "key")' })
      .option('ca', {
        type: 'string',
        requiresArg: true,
        describe:
          'TLS: a CA certificate (PEM). Client under test: handed to it (the CA of your --cert). Server under test: trusted when verifying its certificate',
      })
  );
}

/** `--extended`: wsgate's own group 14 after Autobahn's 517 cases (whose ids and indices stay as they are). */
// No yargs default: left out, it falls back to a spec file's "extended", then to false.
export const extendedOption = {
  type: 'boolean',
  describe:
    "Also select wsgate's own cases after Autobahn's 517: group 14 for a client (opening handshake, extension negotiation), group 15 for a server (what it must refuse)",
} as const;

/** `--robustness` of run, serve and list: the role's attacks instead of the catalogue. */
export const robustnessOption = {
  type: 'boolean',
  describe:
    'The robustness profile instead of the catalogue: the known denial-of-service attacks on WebSocket libraries, each from its advisory (group 17 for a server under test, 18 for a client), each followed by a liveness check. Opt-in: these cases can take a peer down (a server wsgate started is restarted after one)',
} as const;

/** `--budget NAME=VALUE` of run and serve: the robustness profile's budgets (config/budgets.ts). */
export const budgetOption = {
  type: 'string',
  array: true,
  requiresArg: true,
  describe:
    "With --robustness: a budget the peer is held to, NAME=VALUE, repeatable: time=2 (a factor on every time budget), message=1MiB (the peer's own message limit; default 100MiB), memory=256MiB (its process tree's growth in one case, when wsgate started it; default 512MiB), stall=100s (how long it may keep a stalled connection: a trickled handshake, an unanswered close)",
} as const;

/** `--quiet` of run and judge. */
export const quietOption = { type: 'boolean', default: false, describe: 'No line per case: only the summary, with the failures grouped by cause' } as const;

/** `--github` of run, judge and merge. */
export const githubOption = {
  type: 'boolean',
  describe: 'GitHub Actions job summary, annotations and step outputs (default: when GITHUB_ACTIONS=true)',
} as const;

/** The exit status of a run stopped by SIGINT/SIGTERM (130/143), or null when it was not. */
export function exitForSignal(signal: AbortSignal | undefined): number | null {
  if (signal?.aborted !== true) return null;
  return signal.reason === 'SIGTERM' ? ExitCode.Terminated : ExitCode.Interrupted;
}
