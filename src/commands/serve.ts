/** `wsgate serve`: the fuzzing server alone, for clients that loop over the cases themselves. */
import type { Logger } from 'pino';
import type { Argv } from 'yargs';
import type { resolveServeConfig } from '../config/schema.js';
import { ExitCode } from '../errors.js';
import type { TransportFailure } from '../server/fuzzing-server.js';
import { VERSION } from '../version.js';
import { SERVE_OPTIONS, settingsFrom } from '../config/options/table.js';
import { tableOptions, type CommandContext, type MainIo } from './shared.js';

export function serveCommand<T>(y: Argv<T>, { io, env, setStatus }: CommandContext): Argv<T> {
  return y.command(
    'serve',
    'Run the fuzzing server alone, for clients that loop over the cases themselves; reports are written on /updateReports and on shutdown',
    (y) => tableOptions(y, SERVE_OPTIONS),
    async (a) => {
      // Loaded here, not at the top: --help and a usage error need none of the server.
      const [{ resolveServeConfig }, { makeLogger, specOption }] = await Promise.all([import('../config/schema.js'), import('./setup.js')]);
      const spec = specOption(a.spec as string | undefined, io.stderr);
      const config = resolveServeConfig(settingsFrom(a, SERVE_OPTIONS), { env, spec });
      setStatus(await serve(config, io, makeLogger(config.logLevel)));
    },
  );
}

/** `wsgate serve`: the server until SIGINT/SIGTERM, /stopServer or /updateReports?shutdownOnComplete=true. */
async function serve(config: ReturnType<typeof resolveServeConfig>, io: MainIo, logger: Logger): Promise<number> {
  const [{ serveUntilStopped, startCaseServer }, { serverBaseUrl }] = await Promise.all([import('../run/serve.js'), import('../server/factory.js')]);
  const { server, cases, secure } = await startCaseServer(config, logger);
  const out = io.stdout;
  // The first two lines match what scripts wait for in Autobahn's output.
  out.write(`wsgate ${VERSION} Fuzzing Server (Port ${server.port})\n`);
  out.write(`Ok, will run ${cases.length} test cases for any clients connecting\n`);
  if (secure !== null) {
    out.write(`Serving ${serverBaseUrl(config.host, server.port, true)} (TLS${config.http2 ? ', HTTP/2 with ALPN h2' : ''})\n`);
    if (secure.caFile !== null) out.write(`CA certificate: ${secure.caFile} (give it to the client: NODE_EXTRA_CA_CERTS, SSL_CERT_FILE)\n`);
  } else if (config.http2) {
    out.write(`Serving ${serverBaseUrl(config.host, server.port, false)} over HTTP/2 (h2c, prior knowledge; RFC 8441)\n`);
  }
  if (secure !== null || config.http2) server.on('transportError', (f: TransportFailure) => out.write(`${f.reason} (peer ${f.peer})\n`));
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
  await serveUntilStopped(server, io.signal, { onStop: (reason) => out.write(`Shutting down (${reason})\n`) });
  // Stopping a server is its normal end (docker stop sends SIGTERM): 0, unlike an interrupted run.
  return ExitCode.Pass;
}
