/**
 * The one table of `wsgate run`'s options (and of `serve`'s, a subset). The command line's flags are
 * built from it (commands/shared.ts tableOptions), the Action's inputs (action.ts) and the API's keys (api.ts)
 * too; test/config/options.test.ts holds the schema (schema.ts), action.yml and docs/commands.md to
 * it. An option stated here once cannot be missing from one front door and present in another.
 */

/** The `--help` sections, in the order they are printed. */
export const OPTION_GROUPS = {
  selection: 'Selection',
  client: 'Client under test',
  server: 'Server under test',
  gate: 'Gate',
  reports: 'Reports',
  transport: 'Transport',
  robustness: 'Robustness',
  browser: 'Browser',
} as const;
export type OptionGroup = keyof typeof OPTION_GROUPS;

/** How the Action offers an option: its input's name, and whether it applies when judging (`judge-reports`). */
export interface ActionInput {
  input: string;
  judge?: true;
  /** Verdicts hold spaces ("WRONG CODE"): only commas and newlines separate them. Other lists split on spaces too. */
  split?: 'verdicts';
}

/** One option of `wsgate run`. */
export interface OptionSpec {
  /** The flag, kebab-case; its camelCase form is the schema's key and the API's (optionKey). */
  flag: string;
  group: OptionGroup;
  type: 'string' | 'number' | 'boolean';
  /** Repeatable: the flag gives a list. */
  array?: true;
  choices?: readonly string[];
  /**
   * yargs' default. Most have none: a flag left out falls back to the spec file, then to the
   * schema's default, which a yargs default would hide.
   */
  default?: boolean | string;
  describe: string;
  /** Also an option of `wsgate serve` (the fuzzing server alone). */
  serve?: true;
  /** Not a setting the schema holds: `--spec` names a source of settings. */
  source?: true;
  /** The Action's input, or why the Action has none. */
  action: ActionInput | { none: string };
}

/** An option's camelCase key: the schema's and the API's name for `--server-url` is serverUrl. */
export type OptionKey<F extends string> = F extends `${infer A}-${infer B}` ? `${A}${Capitalize<OptionKey<B>>}` : F;

export function optionKey<F extends string>(flag: F): OptionKey<F> {
  return flag.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase()) as OptionKey<F>;
}

export const RUN_OPTIONS = [
  // Selection: which cases, how many at once, which slice.
  {
    flag: 'spec',
    group: 'selection',
    type: 'string',
    serve: true,
    source: true,
    describe:
      'Autobahn spec file (fuzzingserver.json for a client under test, fuzzingclient.json for a server: url, outdir, cases, exclude-cases, exclude-agent-cases, options); flags override it',
    action: { input: 'config-file' },
  },
  {
    flag: 'cases',
    group: 'selection',
    type: 'string',
    array: true,
    serve: true,
    describe: "Case id patterns to run, Autobahn's rules ('6.*', '6.9.2'); default all",
    action: { input: 'cases', judge: true },
  },
  {
    flag: 'exclude-cases',
    group: 'selection',
    type: 'string',
    array: true,
    serve: true,
    describe: 'Case id patterns to leave out',
    action: { input: 'exclude-cases', judge: true },
  },
  {
    flag: 'extended',
    group: 'selection',
    type: 'boolean',
    serve: true,
    describe:
      "Also select wsgate's own cases after Autobahn's 517: group 14 for a client (opening handshake, extension negotiation), group 15 for a server (what it must refuse)",
    action: { input: 'extended', judge: true },
  },
  {
    flag: 'quick',
    group: 'selection',
    type: 'boolean',
    default: false,
    describe:
      'The quick profile, for a pre-push hook: every group of the selection, groups 9, 12 and 13 by a fixed sample of each subgroup (21 of their 270 cases); CI runs the whole catalogue',
    action: { input: 'quick' },
  },
  {
    flag: 'shard',
    group: 'selection',
    type: 'string',
    serve: true,
    describe: 'Run only the K-th of N slices of the selected cases, balanced by expected duration (K/N, e.g. 2/4); join the shards with `wsgate merge`',
    action: { input: 'shard' },
  },
  {
    flag: 'jobs',
    group: 'selection',
    type: 'number',
    describe: 'Cases run at once, each on its own connection (and client process, per case); group 9 always runs alone. Default: one per core, at most 8',
    action: { input: 'jobs' },
  },
  {
    flag: 'case-timeout',
    group: 'selection',
    type: 'number',
    describe: 'Seconds a case may take before the client is killed (default: 30, or longer for cases whose own timers wait longer, e.g. group 9)',
    action: { input: 'case-timeout' },
  },
  // The client under test: wsgate is the fuzzing server.
  {
    flag: 'client',
    group: 'client',
    type: 'string',
    describe:
      'Client command, run in a shell once per case; {url}, {case}, {agent} (and {ca} over TLS) are replaced (shell-quoted) and set as WSGATE_URL, WSGATE_CASE, WSGATE_AGENT (WSGATE_CA_FILE, NODE_EXTRA_CA_CERTS, SSL_CERT_FILE). Default: the bundled ws client, which loops over the cases itself',
    action: { input: 'client-command' },
  },
  {
    flag: 'client-loops',
    group: 'client',
    type: 'boolean',
    default: false,
    describe:
      'Run the client once with the base URL; it drives every case itself (/getCaseCount, /runCase, /updateReports). The bundled client can do this too',
    action: { input: 'client-loops' },
  },
  {
    flag: 'url',
    group: 'client',
    type: 'string',
    serve: true,
    describe:
      'Where the fuzzing server listens (ws://HOST:PORT; port 0 picks a free one; env WSGATE_LISTEN_HOST overrides the host bound) [default: ws://127.0.0.1:9001]',
    action: { input: 'url' },
  },
  {
    flag: 'agent',
    group: 'client',
    type: 'string',
    describe:
      'Agent name in the reports (default: client, or wsgate-reference-ws for the bundled client or server; a server under test is named by its Server header, else its host:port)',
    action: { input: 'agent', judge: true },
  },
  // The server under test: wsgate is the fuzzing client.
  {
    flag: 'role',
    group: 'server',
    type: 'string',
    choices: ['client', 'server'],
    describe: 'The side under test: client (default) or server; --role server alone tests the bundled ws server',
    action: { input: 'role' },
  },
  {
    flag: 'server',
    group: 'server',
    type: 'string',
    describe:
      'Command that starts the server under test, run in a shell; {port} and WSGATE_PORT give it the port (with --tls: {cert}, {key} and WSGATE_CERT_FILE, WSGATE_KEY_FILE its certificate). Stopped (its process tree) at the end',
    action: { input: 'server-command' },
  },
  {
    flag: 'server-url',
    group: 'server',
    type: 'string',
    describe: 'Test the WebSocket server at ws://HOST:PORT[/path]: wsgate connects to it once per case (port 0 with --server: a free port)',
    action: { input: 'server-url' },
  },
  {
    flag: 'restart-server',
    group: 'server',
    type: 'boolean',
    default: false,
    describe: 'Start the --server command again when it dies, before the next case (else the remaining cases fail)',
    action: { input: 'restart-server' },
  },
  {
    flag: 'server-start-timeout',
    group: 'server',
    type: 'number',
    describe: 'Seconds to wait for the server under test to accept connections (default: 30)',
    action: { input: 'server-start-timeout' },
  },
  {
    flag: 'seed',
    group: 'server',
    type: 'number',
    describe: 'Server role: masking keys and handshake keys from this seed (a reproducible run), instead of random ones',
    action: { input: 'seed' },
  },
  // The gate: what fails a case, what is accepted.
  {
    flag: 'strict',
    group: 'gate',
    type: 'boolean',
    default: false,
    describe: 'NON-STRICT outcomes fail too (adds NON-STRICT to --fail-on)',
    action: { input: 'strict', judge: true },
  },
  {
    flag: 'fail-on',
    group: 'gate',
    type: 'string',
    array: true,
    describe:
      "Verdicts that fail a case, on either axis (replaces the default FAILED, 'WRONG CODE', UNCLEAN, 'FAILED BY CLIENT'; also NON-STRICT, INFORMATIONAL, UNIMPLEMENTED)",
    action: { input: 'fail-on', judge: true, split: 'verdicts' },
  },
  {
    flag: 'baseline',
    group: 'gate',
    type: 'string',
    describe: 'Baseline file of accepted non-OK cases, each with a reason: they do not fail the build',
    action: { input: 'baseline', judge: true },
  },
  {
    flag: 'write-baseline',
    group: 'gate',
    type: 'string',
    describe: "Write this run's failing cases to a baseline file (a starting point; edit the reasons)",
    action: { input: 'write-baseline', judge: true },
  },
  // Reports: where they go and what the console shows.
  {
    flag: 'outdir',
    group: 'reports',
    type: 'string',
    serve: true,
    describe: 'Report directory (index.json, index.html, per-case reports) [default: ./reports/clients, or ./reports/servers for a server under test]',
    action: { input: 'reports-directory', judge: true },
  },
  {
    flag: 'junit',
    group: 'reports',
    type: 'string',
    describe: 'JUnit XML file (default: OUTDIR/junit.xml)',
    action: { none: 'the action writes it in reports-directory and names it in the junit-report output' },
  },
  {
    flag: 'json',
    group: 'reports',
    type: 'string',
    describe: 'JSON summary file (default: OUTDIR/summary.json)',
    action: { none: 'the action writes it in reports-directory and names it in the json-report output' },
  },
  {
    flag: 'github',
    group: 'reports',
    type: 'boolean',
    describe: 'GitHub Actions job summary, annotations and step outputs (default: when GITHUB_ACTIONS=true)',
    action: { none: 'the action always writes them' },
  },
  {
    flag: 'quiet',
    group: 'reports',
    type: 'boolean',
    default: false,
    describe: 'No line per case: only the summary, with the failures grouped by cause',
    action: { input: 'quiet', judge: true },
  },
  {
    flag: 'repro',
    group: 'reports',
    type: 'boolean',
    default: false,
    describe: 'Write a repro script (plain Node, no packages) for every case that is not OK on both axes to OUTDIR/repro/ (see `wsgate repro`)',
    action: { input: 'repro' },
  },
  {
    flag: 'log-level',
    group: 'reports',
    type: 'string',
    default: 'warn',
    serve: true,
    describe: 'pino log level on stderr (fatal, error, warn, info, debug, trace, silent)',
    action: { input: 'log-level' },
  },
  // Transport: TLS and HTTP/2.
  {
    flag: 'tls',
    group: 'transport',
    type: 'boolean',
    serve: true,
    describe:
      'wss://: serve TLS (a client under test) or connect over TLS (a server under test). Without --cert, wsgate makes a throwaway CA and certificate and writes the CA to OUTDIR/ca.pem',
    action: { input: 'tls' },
  },
  {
    flag: 'http2',
    group: 'transport',
    type: 'boolean',
    serve: true,
    describe:
      'WebSockets over HTTP/2 (RFC 8441): each case is an extended CONNECT stream, h2c with prior knowledge (with --tls: ALPN h2). The client or server under test is told by WSGATE_HTTP2=1',
    action: { input: 'http2' },
  },
  {
    flag: 'cert',
    group: 'transport',
    type: 'string',
    serve: true,
    describe: 'TLS: your server certificate (PEM, chain) instead of a generated one; implies --tls (a spec file\'s "cert")',
    action: { input: 'cert' },
  },
  {
    flag: 'key',
    group: 'transport',
    type: 'string',
    serve: true,
    describe: 'TLS: the private key of --cert (PEM) (a spec file\'s "key")',
    action: { input: 'key' },
  },
  {
    flag: 'ca',
    group: 'transport',
    type: 'string',
    serve: true,
    describe: 'TLS: a CA certificate (PEM). Client under test: handed to it (the CA of your --cert). Server under test: trusted when verifying its certificate',
    action: { input: 'ca' },
  },
  {
    flag: 'insecure',
    group: 'transport',
    type: 'boolean',
    default: false,
    describe: 'Server under test over wss://: do not verify its certificate (the summary records it)',
    action: { input: 'insecure' },
  },
  // The robustness profile.
  {
    flag: 'robustness',
    group: 'robustness',
    type: 'boolean',
    serve: true,
    describe:
      'The robustness profile instead of the catalogue: the known denial-of-service attacks on WebSocket libraries, each from its advisory (group 17 for a server under test, 18 for a client), each followed by a liveness check. Opt-in: these cases can take a peer down (a server wsgate started is restarted after one)',
    action: { input: 'robustness' },
  },
  {
    flag: 'budget',
    group: 'robustness',
    type: 'string',
    array: true,
    serve: true,
    describe:
      "With --robustness: a budget the peer is held to, NAME=VALUE, repeatable: time=2 (a factor on every time budget), message=1MiB (the peer's own message limit; default 100MiB), memory=256MiB (its process tree's growth in one case, when wsgate started it; default 512MiB), stall=100s (how long it may keep a stalled connection: a trickled handshake, an unanswered close)",
    action: { input: 'budget' },
  },
  // A browser engine as the client under test.
  {
    flag: 'browser',
    group: 'browser',
    type: 'string',
    choices: ['chromium', 'firefox', 'webkit'],
    describe:
      "A browser engine as the client under test: started headless on the fuzzing server's page with a fresh profile, it plays every case with its own WebSocket client, in order; the agent is the engine's name and version",
    action: { input: 'browser' },
  },
  {
    flag: 'browser-path',
    group: 'browser',
    type: 'string',
    describe: "The browser's executable (default: where Debian, Ubuntu and GitHub's runners install it)",
    action: { input: 'browser-path' },
  },
  {
    flag: 'browser-timeout',
    group: 'browser',
    type: 'number',
    describe:
      'Seconds the page may go without asking between one case and the next before the watchdog ends it (default: 30); loading the page may take this, but at least 30',
    action: { input: 'browser-timeout' },
  },
] as const satisfies readonly OptionSpec[];

/** A flag of `wsgate run`. */
export type RunFlag = (typeof RUN_OPTIONS)[number]['flag'];
type ServeOption = Extract<(typeof RUN_OPTIONS)[number], { serve: true }>;
/** A flag of `wsgate serve`. */
export type ServeFlag = ServeOption['flag'];

/** The options of `wsgate serve`: those marked serve. */
export const SERVE_OPTIONS: readonly ServeOption[] = RUN_OPTIONS.filter((o): o is ServeOption => 'serve' in o && o.serve === true);

/** The option of a flag (for the commands that share one: list's --extended, judge's --quiet). */
export function runOption(flag: RunFlag): OptionSpec {
  const o = RUN_OPTIONS.find((x) => x.flag === flag);
  if (o === undefined) throw new Error(`no option --${flag}`);
  return o;
}

/**
 * The settings the schema validates, from parsed flags keyed by flag (`--spec` aside: a source).
 * A flag left out stays undefined, so the spec file or the schema's default fills it.
 */
export function settingsFrom(parsed: Record<string, unknown>, options: readonly OptionSpec[]): Record<string, unknown> {
  return Object.fromEntries(options.filter((o) => o.source !== true).map((o) => [optionKey(o.flag), parsed[o.flag]]));
}
