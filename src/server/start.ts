/** Builds a fuzzing server from resolved options: the one place both `run` and `serve` start it. */
import type { Logger } from 'pino';
import { catalogueFor } from '../cases/registry.js';
import type { CatalogueCase } from '../cases/types.js';
import type { CaseInfo } from '../report/model.js';
import { SERVER_HEADER, VERSION } from '../version.js';
import { FuzzingServer } from './fuzzing-server.js';
import type { SessionOptions } from './session.js';

/** Autobahn's engine defaults (autobahn-python 0.10.9, as the fuzzingserver sets them). */
export const defaultSessionOptions: SessionOptions = {
  openHandshakeTimeoutMs: 5000,
  closeHandshakeTimeoutMs: 1000,
  failByDrop: false,
  maxMessagePayload: 64 * 1024 * 1024,
  deflateLevel: 1,
  maxHeadBytes: 16 * 1024,
  serverHeader: SERVER_HEADER,
  poweredBy: `wsgate/${VERSION} (Node.js ${process.versions.node})`,
};

/** The catalogue as index.html lists it (with wsgate's own groups when `extended`). */
export function catalogueInfo(extended = false): CaseInfo[] {
  return catalogueFor(extended).map((c) => ({
    id: c.id,
    category: c.category,
    subcategory: c.subcategory,
    description: c.description,
    expectation: c.expectation,
  }));
}

/** A server for the selected cases that writes its reports into outdir. */
export function createServer(options: {
  host: string;
  port: number;
  outdir: string;
  cases: readonly CatalogueCase[];
  statusWaitMs: number;
  logger: Logger;
  session?: Partial<SessionOptions>;
  /** exclude-agent-cases: true leaves case `id` out for `agent`. */
  skipCase?: (agent: string, id: string) => boolean;
  /** index.html lists wsgate's own groups too. */
  extended?: boolean;
}): FuzzingServer {
  const info = catalogueInfo(options.extended ?? false);
  const told = new Set<string>();
  const server: FuzzingServer = new FuzzingServer({
    host: options.host,
    port: options.port,
    cases: options.cases,
    session: { ...defaultSessionOptions, ...options.session },
    statusWaitMs: options.statusWaitMs,
    logger: options.logger,
    ...(options.skipCase ? { skipCase: options.skipCase } : {}),
    // The HTML and JSON renderers are loaded on the first report write, not while cases run.
    writeReports: async () => {
      const [{ writeReports }, { collisionNotice }] = await Promise.all([import('../report/writer.js'), import('../report/files.js')]);
      const collisions = await writeReports(options.outdir, server.results, info, { generatedAt: new Date().toISOString(), toolVersion: VERSION });
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
