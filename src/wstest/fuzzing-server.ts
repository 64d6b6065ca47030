/**
 * `wstest -m fuzzingserver`: wsgate's fuzzing server with the original's contract. It binds every
 * interface at the url's port (clients reach it through `-p`, compose or a service's DNS name), leaves
 * unknown paths idle, reads the spec as the original does, serves `--webport`, and runs until
 * /stopServer, /updateReports?shutdownOnComplete=true, SIGINT or SIGTERM, writing the reports before
 * it stops (exit 0).
 */
import { DEFAULT_BUDGETS } from '../cases/data/budgets.js';
import path from 'node:path';
import type { Logger } from 'pino';
import type { ServeConfig } from '../config/schema.js';
import { parseListenUrl } from '../config/url.js';
import { autobahnSelection } from '../config/spec.js';
import { UsageError } from '../errors.js';
import { serveUntilStopped, startCaseServer } from '../run/serve.js';
import type { TransportFailure } from '../server/fuzzing-server.js';
import { VERSION } from '../version.js';
import type { WstestIo, WstestOptions } from './command-line.js';
import { writeAsOwnerOf } from './owner.js';
import { loadWstestSpec } from './spec-file.js';
import { reportsPath, startWebServer } from './web.js';

/** The server's settings from the spec file and the command line. */
export function fuzzingServerConfig(options: WstestOptions, io: WstestIo): ServeConfig {
  const { spec, notes, written } = loadWstestSpec('fuzzingserver', options.spec);
  const file = spec.file;
  for (const note of notes) io.stdout.write(`${note}\n`);
  // The reader checked the url.
  const listen = parseListenUrl(spec.url ?? 'ws://127.0.0.1:9001');
  const ids = autobahnSelection(spec);
  if (ids.length === 0) throw new UsageError(`${file}: no case matches "cases" minus "exclude-cases"`);
  for (const w of spec.warnings) io.stderr.write(`wstest: ${w}\n`);
  // TLS as the original: the spec's key and cert (the command line's -k/-c over them).
  const key = options.key ?? spec.key;
  const cert = options.cert ?? spec.cert;
  if ((key === undefined) !== (cert === undefined)) throw new UsageError(`${file}: "key" and "cert" go together (the server private key and its certificate)`);
  if (listen.secure && key === undefined) throw new UsageError(`${file}: a wss:// url needs "key" and "cert" (the server's private key and certificate files)`);
  const env = io.env;
  const outdir = path.resolve(spec.outdir ?? './reports/clients');
  writeAsOwnerOf(outdir, written === null ? [] : [written]);
  return {
    host: listen.host,
    port: listen.port,
    // Every interface, as the original binds; WSGATE_LISTEN_HOST may still name one.
    listenHost: env.WSGATE_LISTEN_HOST?.trim() || '',
    outdir,
    cases: ids,
    excludeCases: [],
    logLevel: options.debug ? 'info' : 'warn',
    shard: null,
    extended: false,
    robustness: false,
    budgets: DEFAULT_BUDGETS,
    excludeAgentCases: spec.excludeAgentCases,
    // A plain GET gets a status page (200), as the original's: readiness checks poll it with curl -f.
    protocolOptions: { ...spec.protocolOptions, statusPage: true },
    specFile: file,
    patternSyntax: spec.patternSyntax,
    // The original speaks HTTP/1.1 only.
    http2: false,
    tls: key === undefined || cert === undefined ? null : { cert: path.resolve(cert), key: path.resolve(key), ca: null, insecure: false },
  };
}

/** Runs the fuzzing server until it is told to stop; resolves with the exit status (0). */
export async function fuzzingServer(options: WstestOptions, io: WstestIo, logger: Logger): Promise<number> {
  const config = fuzzingServerConfig(options, io);
  const { server, cases, secure } = await startCaseServer(config, logger, { unknownPaths: 'idle', recordSelection: false });
  const out = io.stdout;
  let web: { close(): void } | null = null;
  try {
    if (options.webport !== 0)
      web = await startWebServer(
        options.webport,
        { cwd: process.cwd(), outdir: config.outdir },
        secure === null ? null : { cert: secure.cert, key: secure.key },
        server.port,
      );
  } catch (err) {
    await server.close();
    throw err;
  }
  out.write(`wsgate ${VERSION} Fuzzing Server (Port ${server.port}${secure === null ? '' : ' TLS'})\n`);
  out.write(`Ok, will run ${cases.length} test cases for any clients connecting\n`);
  out.write(`Cases = [${cases.map((c) => `'${c.id}'`).join(', ')}]\n`);
  if (web !== null) {
    const reports = reportsPath({ cwd: process.cwd(), outdir: config.outdir });
    out.write(`Web port ${options.webport}${reports === null ? '' : `: reports at ${reports}index.html`}\n`);
  }
  server.on('transportError', (f: TransportFailure) => out.write(`${f.reason} (peer ${f.peer})\n`));
  server.on('caseStarted', (e: { id: string; agent: string; peer: string }) => {
    out.write(`Running test case ID ${e.id} for agent ${e.agent} from peer ${e.peer}\n`);
  });
  server.on('caseSkipped', (e: { id: string; agent: string }) => {
    out.write(`Skipping test case ${e.id} for agent ${e.agent} by test configuration!\n`);
  });
  server.on('reportsUpdated', () => out.write('Report generation complete.\n'));
  try {
    // Results no /updateReports has written yet are not lost (the original dropped them).
    await serveUntilStopped(server, io.signal, { onlyIfResults: true, onStop: (reason) => out.write(`Shutting down server (${reason}).\n`) });
  } finally {
    web?.close();
  }
  return 0;
}
