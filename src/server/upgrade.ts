/**
 * The server's side of the opening handshake (RFC 6455 §4.2): reads the client's upgrade request,
 * lets the router pick what the connection does, and answers with the 101 response, a case's own
 * response head (group 14), or an HTTP error.
 */
import type { Socket } from 'node:net';
import type { HandshakeDelivery, HeadStream } from '../cases/types.js';
import { Connection, type ConnectionHandler, type ConnectionOptions, type OpeningHandshake } from '../core/connection.js';
import type { PerMessageDeflate } from '../protocol/deflate/codec.js';
import { streamHead, trickleHead } from './head-delivery.js';
import type { PageServer } from './pages.js';
import {
  buildHttpError,
  buildStatusPage,
  buildSwitchingProtocols,
  computeAccept,
  HeadReader,
  parseUpgradeRequest,
  type UpgradeRequest,
} from '../protocol/handshake.js';

/** The server's settings of a connection: the engine's, the upgrade's, and its own zlib level. */
export interface ServerProtocolOptions extends ConnectionOptions {
  /** zlib level of wsgate's own compressed messages (verdicts do not depend on it). */
  deflateLevel: number;
  /** Largest upgrade request head; a longer one gets 431. */
  maxHeadBytes: number;
  serverHeader: string;
  poweredBy: string;
  /**
   * A plain HTTP request (no Upgrade header) gets a 200 status page instead of 426, as the original's
   * server does (its webStatus option): scripts poll it with `curl -f` to know the server is up.
   */
  statusPage?: boolean;
  /** A plain HTTP request's answer, before the status page or 426: the browser page and the reports (pages.ts). */
  pages?: PageServer;
}

/** A response head a case wrote itself, sent instead of the normal 101 (see CaseDef.handshake). */
export interface ScriptedResponse {
  head: string;
  delivery: HandshakeDelivery;
  /** The rest of a `streamed` response, written after `head` (see HeadStream). */
  stream?: HeadStream | undefined;
  /** A `trickled` response: one octet every this many ms. */
  everyMs?: number | undefined;
}

/** The router's answer to a complete, valid upgrade request, given at once. */
export type ConnectAnswer =
  | {
      kind: 'accept';
      handler: ConnectionHandler;
      extensions?: string | null;
      deflate?: PerMessageDeflate | null;
      /** Sent instead of the normal 101; the connection then counts as open, whatever the head says. */
      script?: ScriptedResponse | null;
    }
  | { kind: 'reject'; status: number; reason: string };

/**
 * The router's answer, at once or once `ready` settles: nothing is sent, and nothing the peer sends
 * is read, until then (/updateReports answers once every report is on disk).
 */
export type ConnectDecision = ConnectAnswer | { kind: 'later'; ready: Promise<ConnectAnswer> };

/**
 * A 'later' decision: the connection is neither answered nor read (its stream paused; the opening
 * timeout is the peer's, and its request is complete) until `ready` settles; then `answer` runs,
 * unless the peer left meanwhile. A rejected `ready` is answered 500 with its message.
 */
export function answerWhenReady(connection: Connection, ready: Promise<ConnectAnswer>, answer: (a: ConnectAnswer) => void): void {
  connection.stream.pause();
  const settle = (a: ConnectAnswer): void => {
    if (connection.isClosed()) return;
    connection.stream.resume();
    answer(a);
  };
  ready.then(settle, (err: unknown) => settle({ kind: 'reject', status: 500, reason: err instanceof Error ? err.message : String(err) }));
}

/** Picks what a connection does from its upgrade request. */
export type Router = (request: UpgradeRequest, connection: Connection) => ConnectDecision;

/** One accepted TCP connection: the WebSocket connection and the server's opening handshake on it. */
export class ServerUpgrade implements OpeningHandshake {
  readonly connection: Connection;
  /** The client's upgrade request, once complete and valid. */
  request: UpgradeRequest | null = null;
  private readonly reader: HeadReader;
  /** What the peer sent after its request while the answer was pending (a 'later' decision), or null. */
  private held: Buffer[] | null = null;

  constructor(
    socket: Socket,
    private readonly options: ServerProtocolOptions,
    private readonly router: Router,
  ) {
    this.reader = new HeadReader(options.maxHeadBytes);
    this.connection = new Connection(socket, options, { role: 'server' });
    this.connection.startHandshake(this);
  }

  /** A request that is not an upgrade: the status page (wstest), else the HTTP error the parser named (426 for a plain request). */
  private plainAnswer(verdict: Extract<ReturnType<typeof parseUpgradeRequest>, { ok: false }>): void {
    if (verdict.plainHttp === true && this.options.statusPage === true) {
      const page = buildStatusPage('wsgate fuzzing server', 'This is a WebSocket endpoint: Autobahn|Testsuite&#39;s fuzzing server, run by wsgate.');
      this.connection.sender.sendData(Buffer.from(page, 'utf8'));
      this.connection.dropConnection('after-flush', 'a plain HTTP request: answered with the status page');
      return;
    }
    this.fail(verdict.status, verdict.reason, verdict.headers);
  }

  onData(chunk: Buffer): void {
    if (this.held !== null) {
      this.held.push(chunk);
      return;
    }
    const read = this.reader.push(chunk);
    if (read === 'more') return;
    if (read === 'too-big') {
      this.fail(431, `request head larger than ${this.options.maxHeadBytes} bytes`);
      return;
    }
    const headBytes = read.head;
    this.connection.recordRequest(headBytes.toString('latin1'));
    const verdict = parseUpgradeRequest(headBytes);
    if (!verdict.ok) {
      const pages = this.options.pages;
      if (verdict.plainHttp === true && verdict.target !== undefined && pages !== undefined) {
        // What comes meanwhile waits, as for an answer given later; a page that is not the server's gets the usual answer.
        this.held = [read.rest];
        const plain = (): void => this.plainAnswer(verdict);
        pages(verdict.target).then((page) => {
          this.held = null;
          if (page === null) return plain();
          this.connection.sender.sendData(page);
          this.connection.dropConnection('after-flush', 'a plain HTTP request: answered with a page');
        }, plain);
        return;
      }
      this.plainAnswer(verdict);
      return;
    }
    this.request = verdict.request;
    const decision = this.router(verdict.request, this.connection);
    if (decision.kind !== 'later') {
      this.answer(decision, verdict.request, read.rest);
      return;
    }
    // What came after the request waits, with anything read before the socket paused, for the answer.
    this.held = [read.rest];
    answerWhenReady(this.connection, decision.ready, (answer) => {
      const rest = Buffer.concat(this.held ?? []);
      this.held = null;
      this.answer(answer, verdict.request, rest);
    });
  }

  /** Answers the request, and reads the bytes that came after it as frames. */
  private answer(decision: ConnectAnswer, request: UpgradeRequest, rest: Buffer): void {
    if (decision.kind === 'reject') {
      this.fail(decision.status, decision.reason);
      return;
    }
    this.respond(decision, request);
    this.connection.readFrames(rest);
  }

  /** The 101 response (or the case's own head), and the connection opens. */
  private respond(decision: Extract<ConnectAnswer, { kind: 'accept' }>, request: UpgradeRequest): void {
    const conn = this.connection;
    conn.accept(decision.handler, decision.deflate ?? null);
    const script = decision.script ?? null;
    if (script !== null) {
      this.sendScriptedResponse(script);
      return;
    }
    const response = buildSwitchingProtocols(computeAccept(request.key), {
      server: this.options.serverHeader,
      poweredBy: this.options.poweredBy,
      extensions: decision.extensions ?? null,
    });
    conn.sender.sendData(Buffer.from(response, 'latin1'));
    conn.recordResponse(response);
    conn.open();
  }

  /**
   * Sends a case's own response head (group 14) and opens the connection whatever it says: from here
   * on the case judges what the client does with it, so whatever the client sends is read as frames.
   */
  private sendScriptedResponse(script: ScriptedResponse): void {
    const conn = this.connection;
    const head = Buffer.from(script.head, 'latin1');
    conn.recordResponse(script.head, true);
    switch (script.delivery) {
      case 'together':
        // Corked, the head and the frames onOpen sends leave in one write (one TCP segment when small).
        conn.stream.cork();
        conn.sender.sendData(head);
        conn.open();
        process.nextTick(() => {
          conn.sender.flush();
          conn.stream.uncork();
        });
        break;
      case 'separate':
        // A write of its own, now (not a queued burst, whose first pieces leave together).
        conn.sender.sendDataNow(head);
        conn.open();
        break;
      case 'bytewise':
        conn.sender.sendData(head, true, 1);
        conn.open();
        break;
      case 'streamed':
        // The attack begins at the head's first byte: the connection counts as open from there.
        conn.open();
        streamHead(conn, head, script.stream ?? { bytes: 0, pieceBytes: 1, everyMs: 0, tail: Buffer.alloc(0) });
        break;
      case 'trickled':
        conn.open();
        trickleHead(conn, head, script.everyMs ?? 1000);
        break;
    }
  }

  /** Answers a bad upgrade request with an HTTP error and drops the connection. */
  private fail(status: number, reason: string, headers?: Array<[string, string]>): void {
    this.connection.sender.sendData(Buffer.from(buildHttpError(status, reason, headers), 'utf8'));
    this.connection.dropConnection('after-flush', reason);
  }
}
