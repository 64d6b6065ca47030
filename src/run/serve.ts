/**
 * The fuzzing server of `wsgate serve` and of the API's startServer: the selected cases, the report
 * directory checked, TLS made ready (a generated CA written to the report directory).
 */
import type { Logger } from 'pino';
import { UsageError } from '../errors.js';
import type { CatalogueCase } from '../cases/types.js';
import type { ServeConfig } from '../config/schema.js';
import { listenForCases } from '../server/factory.js';
import type { FuzzingServer } from '../server/fuzzing-server.js';
import { prepareTls, type TlsSetup } from '../tls/setup.js';
import { agentExclusion } from './exclusion.js';
import path from 'node:path';
import { checkDirectories, writeFileAtomic } from '../report/files.js';
import { SELECTION_FILE, selectionJson } from '../finish/selection.js';
import { selectForRun } from './schedule.js';
import type { CaseResult } from '../model/report.js';
import { isRobustness } from '../play/attack-figures.js';
import { judgedResult } from './conclude.js';

/**
 * Serves until a client asks the server to stop (/stopServer, /updateReports?shutdownOnComplete=true)
 * or `signal` aborts (SIGINT, SIGTERM); then tells `onStop` why, writes the reports unless nothing
 * changed since they were last written (with `onlyIfResults`, also only when some case has a
 * result) and closes. Resolves with why it stopped.
 */
export async function serveUntilStopped(
  server: FuzzingServer,
  signal: AbortSignal | undefined,
  options: { onlyIfResults?: boolean; onStop?: (reason: string) => void } = {},
): Promise<string> {
  const reason = await new Promise<string>((resolve) => {
    server.once('stopRequested', (why: string) => resolve(why));
    if (signal?.aborted === true) resolve(String(signal.reason));
    signal?.addEventListener('abort', () => resolve(String(signal.reason)), { once: true });
  });
  options.onStop?.(reason);
  try {
    if (options.onlyIfResults !== true || server.results.size > 0) await server.updateReports({ onlyIfChanged: true });
  } finally {
    await server.close();
  }
  return reason;
}

/** Selects the cases, checks the report directory, prepares TLS and starts the server listening. */
export async function startCaseServer(
  config: ServeConfig,
  logger: Logger,
  options: { unknownPaths?: 'refuse' | 'idle'; recordSelection?: boolean } = {},
): Promise<{ server: FuzzingServer; cases: CatalogueCase[]; secure: TlsSetup | null }> {
  const { cases } = selectForRun(config);
  // An empty shard serves nothing: not a server worth starting.
  if (cases.length === 0) throw new UsageError('no case is selected: check --cases and --exclude-cases');
  await checkDirectories([['the report directory', config.outdir]]);
  // What `wsgate judge` is to find results for (wstest writes the original's files only).
  if (options.recordSelection !== false) await writeFileAtomic(path.join(config.outdir, SELECTION_FILE), selectionJson(cases));
  const secure =
    config.tls === null ? null : await prepareTls(config.tls, { hosts: [config.host], outdir: config.outdir, serverFiles: false, needCertificate: true });
  // A client that comes by itself is no process of wsgate's: its memory is not measured, and its robustness results say so.
  const defs = new Map(cases.filter(isRobustness).map((c) => [c.id, c]));
  const server = await listenForCases(config, cases, {
    logger,
    statusWaitMs: 60_000,
    skipCase: agentExclusion(config),
    certificate: secure,
    unknownPaths: options.unknownPaths ?? 'refuse',
    http2: config.http2,
    judge: (result: CaseResult) => {
      const def = defs.get(result.id);
      return def === undefined ? result : judgedResult(def, result, { memory: null }, config.budgets);
    },
  });
  return { server, cases, secure };
}
