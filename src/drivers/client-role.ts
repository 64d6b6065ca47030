/**
 * The client under test: wsgate is the fuzzing server. Its one peer is the client command (or the
 * bundled ws client), run once per case, or once for all cases when it drives them itself. It never
 * parses frames and never computes a verdict: the server does.
 */
import { fileURLToPath } from 'node:url';
import type { CatalogueCase } from '../cases/types.js';
import type { ClientRunConfig } from '../config/run-config.js';
import { UsageError } from '../errors.js';
import { caseTimeoutFor, DEFAULT_CASE_TIMEOUT } from '../policy/case-limits.js';
import { neverConnectedWords, type NeverConnected } from '../explain/peer-words.js';
import { errorLine } from '../processes/crash.js';
import type { CaseOutcome } from './driver.js';
import { shellQuote } from '../processes/client-process.js';
import type { FuzzingServer } from '../server/fuzzing-server.js';
import { listenForCases, serverBaseUrl } from '../server/factory.js';
import type { CasePlay, GateIo, Peer, PeerContext, RoleDriver } from './driver.js';
import { runLooping } from './looping.js';
import { pageUrl, runBrowser } from './browser.js';
import { setUpBrowser, type BrowserSetup, type LaunchedBrowser } from '../browsers/launch.js';
import { spkiHash } from '../browsers/engines.js';
import { runOneCase } from './per-case.js';
import { SHIPPED_LIMITS_ENV } from '../config/shipped-limits.js';

/**
 * The command of the bundled reference client (the `ws` package, echoing everything); for the
 * robustness profile, with ws's limits as shipped (bundled/ws-echo.ts).
 */
export function referenceClientCommand(profile = false): string {
  const script = fileURLToPath(new URL('../bundled/reference-client.js', import.meta.url));
  return `${profile ? `${SHIPPED_LIMITS_ENV}=shipped ` : ''}${shellQuote(process.execPath)} ${shellQuote(script)} {url}`;
}

/** The client role's driver: one fuzzing server, one client command. */
export function clientRoleDriver(config: ClientRunConfig): RoleDriver {
  const command = config.client ?? referenceClientCommand(config.robustness);
  let server: FuzzingServer | null = null;
  let logger: GateIo['logger'] | null = null;
  return {
    tlsNeeds: { hosts: [config.host], serverFiles: false, needCertificate: true },
    peerCount: 1,
    async startPeer(_n, context) {
      const { io, cases, secure } = context;
      logger = io.logger;
      // Found and asked its version before anything listens: a missing browser is a usage error, at once.
      const browser = config.browser === null ? null : await setUpBrowser(config.browser, io.env ?? process.env);
      if (command.includes('{ca}') && secure?.caFile == null)
        throw new UsageError('the client command uses {ca}, but there is no CA to give it: add --tls (wsgate makes one), or --ca FILE with your --cert');
      server = await listenForCases(config, cases, {
        logger: io.logger,
        skipCase: context.excluded,
        statusWaitMs: (config.caseTimeout ?? DEFAULT_CASE_TIMEOUT) * 1000,
        certificate: secure,
        keepRecordings: config.repro.record,
        http2: config.http2,
      });
      if (browser === null) return clientPeer(config, command, server, context);
      return browserPeer(config, browser, server, context);
    },
    async writeReports(concluded, view) {
      if (server === null) return [];
      server.adopt(concluded);
      // Skipped when the client's own /updateReports already wrote every result (Autobahn's drivers end so);
      // never under the profile, whose verdicts the run decides after the client may have written them.
      await server.updateReports({ onlyIfChanged: !config.robustness, view }).catch((err: unknown) => {
        logger?.error({ err }, 'writing the case reports failed');
      });
      return [...server.results.keys()];
    },
    recordRole: {},
  };
}

/** A browser engine on the fuzzing server's page. */
function browserPeer(config: ClientRunConfig, setup: BrowserSetup, server: FuzzingServer, context: PeerContext): Peer {
  const baseUrl = serverBaseUrl(config.host, server.port, context.secure !== null);
  const agent = config.agentGiven ? config.agent : setup.engineAgent;
  const target = { baseUrl, agent, spki: context.secure === null ? null : spkiHash(context.secure.cert) };
  let incidents: readonly string[] = [];
  return {
    agent,
    against: `${setup.engineAgent} (${setup.executable}), headless, on ${pageUrl({ baseUrl, agent }, 1)}`,
    atOnce: 1,
    notes: [],
    play: {
      kind: 'self',
      playAll: async (settle) => {
        const { io } = context;
        const launch = async (page: string): Promise<LaunchedBrowser> => {
          const browser = await context.watch.launchBrowser(setup, page, target.spki);
          io.logger.info({ command: browser.command }, 'browser launched');
          return browser;
        };
        const found = await runBrowser(server, context.cases, target, config, io.signal, settle, { launch, end: (b) => context.watch.endBrowser(b) });
        for (const line of found.recovered) io.out.write(`wsgate: warning: ${line}\n`);
        incidents = found.lost;
      },
    },
    incidents: () => incidents,
    forget: (id) => server.forgetResult(agent, id),
    async stop() {
      await server.close();
      return null;
    },
  };
}

/** The client command against the fuzzing server, listening. */
function clientPeer(config: ClientRunConfig, command: string, server: FuzzingServer, context: PeerContext): Peer {
  const { io } = context;
  const baseUrl = serverBaseUrl(config.host, server.port, context.secure !== null);
  const ca = context.secure?.caFile ?? null;
  const where = { baseUrl, ca, http2: config.http2 };
  // A command that never reaches the server stops the run (exit 2): the cases still running end at once.
  const broken = new AbortController();
  const signal = io.signal === undefined ? broken.signal : AbortSignal.any([io.signal, broken.signal]);
  const guard = new FirstCases(server);
  const { watch } = context;
  const play: CasePlay = config.clientLoops
    ? { kind: 'self', playAll: (settle) => runLooping(server, context.cases, command, where, config, io.signal, settle, watch) }
    : {
        kind: 'each',
        playCase: async (def: CatalogueCase, index: number) => {
          const outcome = await runOneCase(server, def, index, command, where, config, signal, watch);
          const why = io.signal?.aborted === true ? null : guard.after(def, outcome, caseTimeoutFor(def, config));
          if (why !== null) {
            // The cases still running end now, and are not reported: the run is stopped.
            broken.abort();
            throw new UsageError(why);
          }
          return outcome;
        },
      };
  return {
    agent: config.agent,
    against: `${config.client === null ? 'the bundled ws client' : JSON.stringify(command)} on ${baseUrl}`,
    // A client of the user's that loops over the cases runs them one after another (the bundled one runs --jobs at once).
    atOnce: config.clientLoops && config.client !== null ? 1 : config.jobs,
    notes: ca === null ? [] : [`wsgate: TLS: the client is given the CA ${ca} (NODE_EXTRA_CA_CERTS, SSL_CERT_FILE, WSGATE_CA_FILE, {ca})`],
    play,
    // Any agent's: after a signal nothing the server still records has a verdict.
    forget: (id) => {
      for (const agent of server.results.keys()) server.forgetResult(agent, id);
    },
    async stop() {
      await server.close();
      return null;
    },
  };
}

/**
 * How many cases in a row, from the run's first, may end without the client ever connecting before
 * the run stops with a usage error. Two: one such case can be a slow start on a busy machine (a
 * runtime that needs longer than the case's timeout once), two in a row at the start are a command
 * that cannot work (not found, exits at once, dials the wrong address, never dials); and a client
 * that never dials costs at most two case timeouts before it is said, not one per case.
 */
export const NEVER_CONNECTED_LIMIT = 2;

/**
 * Watches the run's first cases: a client command that ends them without connecting (it could not
 * start, exited, or never dialed) is a broken command, not a conformance result. Once any case
 * connects, it watches no more.
 */
class FirstCases {
  private armed = true;
  private readonly misses: NeverConnected[] = [];
  /** The line that stopped the run, once said: every case that ends after it ends the same way. */
  private stopped: string | null = null;

  constructor(server: FuzzingServer) {
    // Any connection shows the command reaches the server, whichever case ends first (what it does
    // there, a refused handshake over HTTP/2 say, is a conformance result).
    const reached = (): void => {
      this.armed = false;
    };
    server.once('accepted', reached);
  }

  /** The one line that stops the run, or null. */
  after(def: CatalogueCase, outcome: CaseOutcome, limitS: number): string | null {
    if (this.stopped !== null || !this.armed) return this.stopped;
    const connected = outcome.result !== null || outcome.sawConnection || outcome.transport != null;
    if (connected) {
      this.armed = false;
      return null;
    }
    const client = outcome.client;
    this.misses.push({ id: def.id, client, limitS, errorLine: client === null ? null : errorLine(client.output) });
    if (this.misses.length < NEVER_CONNECTED_LIMIT) return null;
    this.stopped = neverConnectedWords(this.misses);
    return this.stopped;
  }
}
