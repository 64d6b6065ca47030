/**
 * Making the fuzzing server for the selected cases: the one way `run` and `serve` (and the tests) do
 * it. The server writes its reports through the report writer, loaded on first use.
 */
import type { RobustnessBudgets } from '../cases/data/budgets.js';
import type { Logger } from 'pino';
import type { CatalogueCase } from '../cases/types.js';
import type { CaseInfo, CaseResult } from '../model/report.js';
import { FuzzingServer } from './fuzzing-server.js';
import { fuzzingServerPages } from './pages.js';
import type { ServerProtocolOptions } from './upgrade.js';
import { AUTOBAHN_DEFAULTS } from '../protocol/constants.js';
import { SERVER_HEADER, VERSION } from '../version.js';
import { hostPort } from '../util/host-port.js';

/** The fuzzing server's protocol options: Autobahn's defaults, and wsgate's name in its response. */
export const defaultServerOptions: ServerProtocolOptions = {
  openHandshakeTimeoutMs: AUTOBAHN_DEFAULTS.openHandshakeTimeoutMs,
  closeHandshakeTimeoutMs: AUTOBAHN_DEFAULTS.closeHandshakeTimeoutMs,
  failByDrop: AUTOBAHN_DEFAULTS.failByDrop,
  maxMessagePayload: AUTOBAHN_DEFAULTS.maxMessagePayload,
  deflateLevel: AUTOBAHN_DEFAULTS.deflateLevel,
  maxHeadBytes: AUTOBAHN_DEFAULTS.maxHeadBytes,
  serverHeader: SERVER_HEADER,
  poweredBy: `wsgate/${VERSION} (Node.js ${process.versions.node})`,
};

/** A server for the selected cases that writes its reports into outdir. */
export function createServer(options: {
  host: string;
  port: number;
  outdir: string;
  cases: readonly CatalogueCase[];
  statusWaitMs: number;
  logger: Logger;
  protocolOptions?: Partial<ServerProtocolOptions>;
  /** exclude-agent-cases: true leaves case `id` out for `agent`. */
  skipCase?: (agent: string, id: string) => boolean;
  /** Serve wss:// with this certificate and key (PEM). */
  certificate?: { cert: string; key: string } | null;
  /** Unknown paths: refused (default) or accepted and left idle (`wstest`). */
  unknownPaths?: 'refuse' | 'idle';
  /** Results carry their tapes, for `wsgate repro`. */
  keepRecordings?: boolean;
  /** WebSockets over HTTP/2 (RFC 8441). */
  http2?: boolean;
  /** The robustness profile's budgets, handed to each case (--budget). */
  budgets?: RobustnessBudgets;
  /** Applied to each result before the server keeps it (FuzzingServerOptions.judge). */
  judge?: (result: CaseResult) => CaseResult;
}): FuzzingServer {
  // index.html lists the selected cases only: one without a result is Missing.
  const info: readonly CaseInfo[] = options.cases;
  const told = new Set<string>();
  const server: FuzzingServer = new FuzzingServer({
    host: options.host,
    port: options.port,
    cases: options.cases,
    // The browser page and the reports on the server's own port; wstest's port keeps the original's status page.
    protocolOptions: {
      ...defaultServerOptions,
      ...(options.protocolOptions?.statusPage === true ? {} : { pages: fuzzingServerPages(options.outdir) }),
      ...options.protocolOptions,
    },
    statusWaitMs: options.statusWaitMs,
    logger: options.logger,
    ...(options.skipCase ? { skipCase: options.skipCase } : {}),
    tls: options.certificate ?? null,
    unknownPaths: options.unknownPaths ?? 'refuse',
    keepRecordings: options.keepRecordings ?? false,
    http2: options.http2 ?? false,
    ...(options.budgets === undefined ? {} : { budgets: options.budgets }),
    ...(options.judge === undefined ? {} : { judge: options.judge }),
    // The HTML and JSON renderers are loaded on the first report write, not while cases run.
    writeReports: async (view, indexOnly) => {
      const [{ writeReports }, { collisionNotice }] = await Promise.all([import('../report/writer.js'), import('../report/files.js')]);
      const meta = { generatedAt: new Date().toISOString(), toolVersion: VERSION, ...(view ?? {}), repro: options.keepRecordings === true };
      const collisions = await writeReports(options.outdir, server.results, info, meta, { indexOnly });
      // Said once per set of colliding agents, however often the reports are rewritten.
      for (const c of collisions) {
        const line = collisionNotice(c);
        if (told.has(line)) continue;
        told.add(line);
        process.stderr.write(`${line}\n`);
      }
    },
  });
  return server;
}

/** The fuzzing server's base URL as clients are told it (ws:// or wss://, the url's host, the bound port). */
export function serverBaseUrl(host: string, port: number, secure: boolean): string {
  return `${secure ? 'wss' : 'ws'}://${hostPort(host, port)}`;
}

/** Where and how the server listens (what `run` and `serve` resolved). */
export interface ServerSettings {
  /** The address to bind (WSGATE_LISTEN_HOST, else the url's host); '' is every interface. */
  listenHost: string;
  port: number;
  outdir: string;
  protocolOptions: Partial<ServerProtocolOptions>;
  /** What the robustness profile holds a client to (--budget). */
  budgets: RobustnessBudgets;
}

/** A server for `cases`, listening (a port in use or an unusable address is a UsageError). */
export async function listenForCases(
  config: ServerSettings,
  cases: readonly CatalogueCase[],
  options: {
    logger: Logger;
    statusWaitMs: number;
    skipCase: (agent: string, id: string) => boolean;
    certificate?: { cert: string; key: string } | null;
    unknownPaths?: 'refuse' | 'idle';
    keepRecordings?: boolean;
    http2?: boolean;
    judge?: (result: CaseResult) => CaseResult;
  },
): Promise<FuzzingServer> {
  const server = createServer({
    // WSGATE_LISTEN_HOST may bind elsewhere (0.0.0.0 in a container); clients are still told the url's host.
    host: config.listenHost,
    port: config.port,
    outdir: config.outdir,
    cases,
    statusWaitMs: options.statusWaitMs,
    logger: options.logger,
    protocolOptions: config.protocolOptions,
    // Per connecting agent, as Autobahn does: the case is closed at once and records no result.
    skipCase: options.skipCase,
    certificate: options.certificate ?? null,
    unknownPaths: options.unknownPaths ?? 'refuse',
    keepRecordings: options.keepRecordings ?? false,
    http2: options.http2 ?? false,
    budgets: config.budgets,
    ...(options.judge === undefined ? {} : { judge: options.judge }),
  });
  await server.listen();
  return server;
}
