/**
 * The fuzzing server: Autobahn's endpoints on one port, so existing client drivers work unchanged.
 *
 *   /getCaseCount                     the number of selected cases, as a text message
 *   /getCaseInfo?case=N               {"id", "description"} of the N-th selected case
 *   /getCaseStatus?case=N&agent=A     {"behavior"} once A has a result for it (bounded wait)
 *   /runCase?case=N&agent=A           plays the N-th selected case (1-based)
 *   /updateReports?agent=A            writes the reports (all agents), then answers (101) and closes
 *   /stopServer                       writes the reports, answers, closes, asks the owner to shut down
 *
 * `casetuple=<id>` may stand for `case=N` as in Autobahn. Unlike Autobahn, a request that lacks a
 * parameter, names an unknown case or path, or carries an unusable agent gets a clear HTTP error and
 * records nothing; a Host header naming another port is accepted (port mapping).
 */
import type { RobustnessBudgets } from '../cases/data/budgets.js';
import { EventEmitter } from 'node:events';
import type http2 from 'node:http2';
import type net from 'node:net';
import type { Logger } from 'pino';
import { UsageError } from '../errors.js';
import type { CaseResult, GateView } from '../model/report.js';
import type { CatalogueCase, ScriptedCase } from '../cases/types.js';
import { scriptedCase } from '../cases/define.js';
import { Opcode } from '../protocol/constants.js';
import { acceptExtensionString, serverAgreement, type DeflateAccept, type DeflateOffer } from '../protocol/deflate/params.js';
import { PerMessageDeflate } from '../protocol/deflate/codec.js';
import { computeAccept, type UpgradeRequest } from '../protocol/handshake.js';
import { noteCaseTraffic } from '../util/memory.js';
import { CaseRunner, utcNow } from '../play/case-runner.js';
import type { Connection, ConnectionHandler } from '../core/connection.js';
import { ConnectionState } from '../core/state.js';
import { parseIndex, parseTarget, prettyDescription, reject, runKey } from './route-target.js';
import { ServerUpgrade, type ConnectAnswer, type ConnectDecision, type ServerProtocolOptions } from './upgrade.js';
import { tlsInfo } from '../tls/describe.js';
import { createListener, listenFailure } from './listener.js';
import { createH2Server, type H2Upgrade } from './h2-upgrade.js';
import { KeyedWaiters } from '../util/keyed-waiters.js';

/** Settings of a fuzzing server. */
export interface FuzzingServerOptions {
  /** The address to bind; '' binds every interface (IPv6 and IPv4 where the machine has IPv6, else IPv4). */
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The selected cases in order: `case=N` is cases[N-1]. */
  cases: readonly CatalogueCase[];
  protocolOptions: ServerProtocolOptions;
  /** How long /getCaseStatus waits for a result before answering "MISSING". */
  statusWaitMs: number;
  /**
   * Writes the reports; called by /updateReports. `view`: the gate's cells and causes, once a run
   * concluded (index.html shows them); `indexOnly`: index.html alone (no result changed since).
   */
  writeReports: (view: GateView | null, indexOnly: boolean) => Promise<void>;
  logger: Logger;
  /** exclude-agent-cases: true leaves the case out for the agent; /runCase then closes at once, no result ('caseSkipped'), as Autobahn. */
  skipCase?: (agent: string, id: string) => boolean;
  /** Serve wss://: the server certificate (chain) and its private key, PEM. */
  tls?: { cert: string; key: string } | null;
  /** An unknown path: refused with 404 (wsgate), or accepted and left idle (`wstest`: scripts probe `/`, as with the original). */
  unknownPaths?: 'refuse' | 'idle';
  /** Each case's result carries its connection's tape, for `wsgate repro` (a run's, not `serve`'s). */
  keepRecordings?: boolean;
  /** The run's robustness budgets (`--budget`), handed to each case; the defaults when absent. */
  budgets?: RobustnessBudgets;
  /** Applied to each result before it is kept and announced (`wsgate serve`: a robustness case's one verdict); none by default. */
  judge?: (result: CaseResult) => CaseResult;
  /**
   * Serve WebSockets over HTTP/2 (RFC 8441): h2c with prior knowledge, or over TLS with ALPN "h2".
   * Each extended CONNECT stream is routed as an HTTP/1.1 upgrade request is.
   */
  http2?: boolean;
}

/** A client whose connection failed below WebSocket ('transportError': TLS, or HTTP/2's preface): who, when (performance.now()), why. */
export interface TransportFailure {
  peer: string;
  at: number;
  reason: string;
}

/** A run of a case in progress or finished, keyed by agent and index. */
export interface CaseRunEvent {
  agent: string;
  index: number;
  id: string;
  peer: string;
  /** The case connection's ports: the client's (its source port) and the server's; absent when not TCP. */
  ports?: { client: number; server: number };
}

/** Thrown when the server cannot listen (port in use, bad address). */
export class ListenError extends UsageError {}

/** Events: 'accepted' (a connection, past TLS when there is TLS), 'asked' (the path of any request routed, before its answer), 'caseStarted' (CaseRunEvent), 'caseFinished' (CaseRunEvent, CaseResult), 'caseSkipped' (CaseRunEvent), 'stopRequested', 'reportsUpdated', 'transportError' (TransportFailure). */
export class FuzzingServer extends EventEmitter {
  /** Results by agent, then case id: the content of index.json. */
  readonly results = new Map<string, Map<string, CaseResult>>();
  private readonly server: net.Server;
  /** The last client connection that failed in TLS or HTTP/2, or null. */
  private lastTransportFailure: TransportFailure | null = null;
  private readonly sockets = new Set<net.Socket>();
  private readonly upgrades = new Set<ServerUpgrade | H2Upgrade>();
  /** The HTTP/2 server the accepted sockets are handed to (--http2), or null. */
  private readonly h2: http2.Http2Server | null;
  private readonly running = new Map<string, number>();
  private readonly statusWaiters = new KeyedWaiters<CaseResult>();
  private reportChain: Promise<void> = Promise.resolve();
  /** While set, /getCaseCount is answered only once it settles: a browser's page does not start its cases before (drivers/browser.ts). */
  caseCountHold: Promise<unknown> | null = null;
  private boundPort = 0;

  constructor(private readonly options: FuzzingServerOptions) {
    super();
    this.h2 =
      options.http2 === true
        ? createH2Server(
            options.protocolOptions,
            (request, c) => this.route(request, c),
            (u) => this.trackUpgrade(u),
            (socket, reason) => this.noteTransportFailure(socket, reason),
          )
        : null;
    const alpn = this.h2 === null ? null : ['h2'];
    this.server = createListener(
      options.tls ?? null,
      options.protocolOptions.openHandshakeTimeoutMs,
      {
        accept: (socket) => this.accept(socket),
        track: (socket) => this.track(socket),
        tlsFailed: (socket, reason) => this.noteTransportFailure(socket, reason),
      },
      alpn,
    );
  }

  /** The reason of a client connection that failed (TLS, HTTP/2) at or after `since` (performance.now()), or null. */
  transportFailureSince(since: number): string | null {
    const f = this.lastTransportFailure;
    return f !== null && f.at >= since ? f.reason : null;
  }

  private noteTransportFailure(socket: Pick<net.Socket, 'remoteAddress' | 'remotePort'>, reason: string): void {
    const failure: TransportFailure = { peer: `tcp4:${socket.remoteAddress ?? '?'}:${socket.remotePort ?? 0}`, at: performance.now(), reason };
    this.lastTransportFailure = failure;
    this.options.logger.info({ peer: failure.peer }, reason);
    this.emit('transportError', failure);
  }

  /** A connection still in its TLS handshake is dropped, like every other, when the server closes. */
  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }

  /** Starts listening; resolves with the bound port. */
  async listen(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException): void => reject(new ListenError(listenFailure(err, this.options.host, this.options.port)));
      this.server.once('error', onError);
      const listening = (): void => {
        this.server.off('error', onError);
        resolve();
      };
      if (this.options.host === '') this.server.listen(this.options.port, listening);
      else this.server.listen(this.options.port, this.options.host, listening);
    });
    const address = this.server.address();
    this.boundPort = typeof address === 'object' && address !== null ? address.port : this.options.port;
    return this.boundPort;
  }

  /** The port the server listens on. */
  get port(): number {
    return this.boundPort;
  }

  /** Stops listening and drops every connection. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
    });
    this.statusWaiters.end();
  }

  /** Number of connections still in the opening handshake. */
  get pendingHandshakes(): number {
    let n = 0;
    for (const s of this.upgrades) if (s.connection.state === ConnectionState.Connecting) n++;
    return n;
  }

  /** Whether agent is running the case at index right now. */
  isRunning(agent: string, index: number): boolean {
    return (this.running.get(runKey(agent, index)) ?? 0) > 0;
  }

  /** Drops the connections running agent's case at index (the gate's timeout). */
  abortRun(agent: string, index: number): void {
    for (const s of this.upgrades) {
      const h = s.request;
      if (h === null) continue;
      if (h.path === '/runCase' && h.query.get('agent') === agent && parseIndex(h.query.get('case')) === index) {
        s.connection.dropConnection('abort');
      }
    }
  }

  /** Results were recorded or forgotten since the reports were last written (or never written). */
  private resultsChanged = true;
  /** The gate's cells and causes, once the run concluded (null before, and always under `serve`). */
  private view: GateView | null = null;

  /**
   * Writes the reports, one write at a time. With onlyIfChanged, a write is skipped when no result
   * changed since the last one: a client driver that ends with /updateReports (as Autobahn's do)
   * then does not have the gate write the same thousand files again.
   */
  updateReports(options: { onlyIfChanged?: boolean; view?: GateView } = {}): Promise<void> {
    const next = this.reportChain.then(async () => {
      const viewChanged = options.view !== undefined && options.view !== this.view;
      if (options.view !== undefined) this.view = options.view;
      if (options.onlyIfChanged === true && !this.resultsChanged) {
        // The results are on disk as they are: the gate's cells go into index.html alone.
        if (viewChanged) await this.options.writeReports(this.view, true);
        return;
      }
      this.resultsChanged = false;
      try {
        await this.options.writeReports(this.view, false);
      } catch (err) {
        this.resultsChanged = true;
        throw err;
      }
    });
    this.reportChain = next.catch(() => undefined);
    return next;
  }

  /** Drops a recorded result (a case cut short by an interruption has no verdict). */
  forgetResult(agent: string, id: string): void {
    if (this.results.get(agent)?.delete(id) === true) this.resultsChanged = true;
  }

  private accept(socket: net.Socket): void {
    this.track(socket);
    this.emit('accepted');
    // Over HTTP/2, a session on the socket: its streams come to trackUpgrade.
    if (this.h2 !== null) this.h2.emit('connection', socket);
    else this.trackUpgrade(new ServerUpgrade(socket, this.options.protocolOptions, (request, s) => this.route(request, s)));
  }

  private trackUpgrade(upgrade: ServerUpgrade | H2Upgrade): void {
    this.upgrades.add(upgrade);
    upgrade.connection.stream.on('close', () => this.upgrades.delete(upgrade));
  }

  private route(request: UpgradeRequest, connection: Connection): ConnectDecision {
    this.emit('asked', request.path);
    const target = parseTarget(request, this.options.cases);
    if ('kind' in target) return target;
    const { agent, index, def } = target;
    switch (request.path) {
      case '/runCase':
        if (def === undefined || index === null) return reject(400, 'runCase needs a case parameter (case=N)');
        if (agent === undefined) return reject(400, 'runCase needs an agent parameter (agent=NAME)');
        return this.runCase(request, connection, agent, index, scriptedCase(def), target.offers);
      case '/getCaseCount':
        return this.accepted(connection, (s) => {
          const answer = (): void => {
            if (s.state !== ConnectionState.Open) return;
            s.sender.sendFrame({ opcode: Opcode.Text, payload: JSON.stringify(this.options.cases.length) });
            s.sendClose();
          };
          if (this.caseCountHold === null) answer();
          else void this.caseCountHold.then(answer, answer);
        });
      case '/getCaseInfo':
        if (def === undefined) return reject(400, 'getCaseInfo needs a case parameter (case=N)');
        return this.accepted(connection, (s) => {
          s.sender.sendFrame({ opcode: Opcode.Text, payload: JSON.stringify({ id: def.id, description: prettyDescription(def.description) }) });
          s.sendClose();
        });
      case '/getCaseStatus': {
        if (def === undefined) return reject(400, 'getCaseStatus needs a case parameter (case=N)');
        if (agent === undefined) return reject(400, 'getCaseStatus needs an agent parameter (agent=NAME)');
        return this.accepted(connection, (s) => {
          this.whenResult(agent, def.id, (result) => {
            if (s.state !== ConnectionState.Open) return;
            s.sender.sendFrame({ opcode: Opcode.Text, payload: JSON.stringify({ behavior: result?.behavior ?? 'MISSING' }) });
            s.sendClose();
          });
        });
      }
      case '/updateReports': {
        if (agent === undefined) return reject(400, 'updateReports needs an agent parameter (agent=NAME)');
        const shutdown = /^(true|yes)$/i.test(request.query.get('shutdownOnComplete') ?? '');
        return this.afterReports(this.updateReports(), connection, shutdown ? 'shutdownOnComplete' : null);
      }
      case '/stopServer':
        // Written here only when some case has a result: the owner writes what is left as it stops.
        return this.afterReports(this.results.size > 0 ? this.updateReports({ onlyIfChanged: true }) : Promise.resolve(), connection, 'stopServer');
      default:
        if (this.options.unknownPaths === 'idle') return this.accepted(connection, () => undefined);
        return reject(
          404,
          `unknown path ${JSON.stringify(request.path.slice(0, 100))}: use /runCase, /getCaseCount, /getCaseInfo, /getCaseStatus or /updateReports`,
        );
    }
  }

  /** /runCase: the case's runner takes the connection (or, excluded for the agent, it is closed at once). */
  private runCase(
    request: UpgradeRequest,
    connection: Connection,
    agent: string,
    index: number,
    def: ScriptedCase,
    offers: readonly DeflateOffer[],
  ): ConnectDecision {
    const key = runKey(agent, index);
    const peer = `tcp4:${connection.socket.remoteAddress ?? '?'}:${connection.socket.remotePort ?? 0}`;
    const { remotePort, localPort } = connection.socket;
    const ports = remotePort !== undefined && localPort !== undefined ? { ports: { client: remotePort, server: localPort } } : {};
    const event: CaseRunEvent = { agent, index, id: def.id, peer, ...ports };
    if (this.options.skipCase?.(agent, def.id) === true) {
      return this.accepted(connection, (s) => {
        this.emit('caseSkipped', event);
        s.sendClose();
      });
    }
    this.running.set(key, (this.running.get(key) ?? 0) + 1);
    // Read now: a closed TLS socket no longer tells its cipher.
    const secure = tlsInfo(connection.socket);
    const runner = new CaseRunner(connection, def, {
      agent,
      index,
      started: utcNow(),
      keepRecording: this.options.keepRecordings === true,
      ...(this.options.budgets === undefined ? {} : { budgets: this.options.budgets }),
      onResult: (played) => {
        if (secure !== null) played.tls = secure;
        const result = this.options.judge?.(played) ?? played;
        const left = (this.running.get(key) ?? 1) - 1;
        if (left > 0) this.running.set(key, left);
        else this.running.delete(key);
        this.record(result);
        noteCaseTraffic(connection.tape.octetsIn + connection.tape.octetsOut);
        this.emit('caseFinished', event, result);
      },
    });
    this.emit('caseStarted', event);
    // Group 14 answers with a response of its own; every other case gets the normal 101.
    const script = def.handshake?.({ request, accept: computeAccept(request.key), deflateOffers: offers }) ?? null;
    if (script !== null) {
      const deflate = script.deflate === undefined ? null : this.perMessageDeflate(script.deflate, def);
      return {
        kind: 'accept',
        handler: runner,
        script: { head: script.head, delivery: script.delivery, stream: script.stream, everyMs: script.everyMs },
        deflate,
      };
    }
    const accept = def.deflate?.(offers) ?? null;
    if (accept === null) return { kind: 'accept', handler: runner };
    return { kind: 'accept', handler: runner, extensions: acceptExtensionString(accept), deflate: this.perMessageDeflate(accept, def) };
  }

  private perMessageDeflate(accept: DeflateAccept, def: ScriptedCase): PerMessageDeflate {
    return new PerMessageDeflate(serverAgreement(accept), {
      level: this.options.protocolOptions.deflateLevel,
      maxMessageSize: this.options.protocolOptions.maxMessagePayload,
      literalsOnly: def.deflateLiteralsOnly === true,
    });
  }

  /**
   * /updateReports, /stopServer: every report on disk before the 101 (the original writes them in its
   * request handler), so a client that reads them when its dial returns, or when a close it sent first
   * completes, finds the whole set. Then a close; `stop` is asked for once that connection is gone.
   */
  private afterReports(written: Promise<void>, connection: Connection, stop: string | null): ConnectDecision {
    const requestStop = (): void => {
      if (stop !== null) this.emit('stopRequested', stop);
    };
    const ready = written.then(
      (): ConnectAnswer => {
        this.emit('reportsUpdated');
        if (connection.isClosed()) requestStop();
        return this.accepted(connection, (s) => s.sendClose(), requestStop);
      },
      (err: unknown): ConnectAnswer => {
        this.options.logger.error({ err }, 'writing the reports failed');
        return reject(500, `writing the reports failed: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
    return { kind: 'later', ready };
  }

  /** A connection that runs `onOpen` (and `onLost` when it is gone) and otherwise ignores what the peer sends. */
  private accepted(connection: Connection, onOpen: (s: Connection) => void, onLost: () => void = () => undefined): ConnectAnswer {
    const handler: ConnectionHandler = {
      onOpen: () => onOpen(connection),
      onMessage: () => undefined,
      onPong: () => undefined,
      onConnectionLost: onLost,
    };
    return { kind: 'accept', handler };
  }

  /** Results concluded elsewhere (the run's one verdict of a robustness case) take the place of the kept ones with the same agent and id. */
  adopt(results: readonly CaseResult[]): void {
    for (const result of results) {
      const byCase = this.results.get(result.agent);
      if (byCase?.get(result.id) === undefined || byCase.get(result.id) === result) continue;
      byCase.set(result.id, result);
      this.resultsChanged = true;
    }
  }

  private record(result: CaseResult): void {
    let byCase = this.results.get(result.agent);
    if (byCase === undefined) {
      byCase = new Map();
      this.results.set(result.agent, byCase);
    }
    byCase.set(result.id, result);
    this.resultsChanged = true;
    this.statusWaiters.give(`${result.agent}\u0000${result.id}`, result);
  }

  /** Calls back with agent's result for the case, waiting at most statusWaitMs for it (then null). */
  private whenResult(agent: string, id: string, callback: (result: CaseResult | null) => void): void {
    const existing = this.results.get(agent)?.get(id);
    if (existing !== undefined) callback(existing);
    else this.statusWaiters.wait(`${agent}\u0000${id}`, this.options.statusWaitMs, callback);
  }
}
