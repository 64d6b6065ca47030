/**
 * The client's side of the opening handshake on a connection (RFC 6455 §4.1): writes the upgrade
 * request, reads the server's response, checks it, and opens the connection or drops it with the
 * reason. The fuzzing client (the server-under-test role) plays each case on a connection opened so.
 */
import type { Socket } from 'node:net';
import { CHOP_PIECE_GAP_NS } from '../core/outbox.js';
import { Connection, type ConnectionHandler, type ConnectionOptions, type OpeningHandshake } from '../core/connection.js';
import { buildUpgradeRequest, checkUpgradeResponse, type UpgradeRequestSpec, type UpgradeResponse } from '../protocol/client-handshake.js';
import type { PerMessageDeflate } from '../protocol/deflate/codec.js';
import { HeadReader } from '../protocol/handshake.js';

/** The client's settings of a connection. */
export interface ClientProtocolOptions extends ConnectionOptions {
  /** Largest response head read; a longer one fails the handshake. */
  maxHeadBytes: number;
  /** After the closing handshake, how long the server has to drop TCP (autobahn-python: 1 s). */
  serverDropTimeoutMs: number;
}

/** What to do with a response that passed §4.1's checks: open with permessage-deflate or not, or fail. */
export type ResponseDecision = { deflate: PerMessageDeflate | null } | { refuse: string };

/** One TCP connection to the server under test: the WebSocket connection and the client's handshake on it. */
export class ClientUpgrade implements OpeningHandshake {
  readonly connection: Connection;
  /** Why the handshake failed (the server's response refused), or null. */
  failure: string | null = null;
  private readonly reader: HeadReader;
  private readonly handler: ConnectionHandler;

  constructor(
    socket: Socket,
    private readonly options: ClientProtocolOptions,
    private readonly request: UpgradeRequestSpec,
    newMask: () => Uint8Array,
    /** The handler of the connection, from the start: it hears of a connection that never opens too. */
    makeHandler: (connection: Connection) => ConnectionHandler,
    private readonly decide: (response: Extract<UpgradeResponse, { ok: true }>) => ResponseDecision,
    /** A request head of the case's own (group 15), sent instead of the one `request` describes. */
    requestHead: string | null = null,
  ) {
    this.reader = new HeadReader(options.maxHeadBytes);
    this.connection = new Connection(socket, options, {
      role: 'client',
      newMask,
      serverDropTimeoutMs: options.serverDropTimeoutMs,
      chopGapNs: CHOP_PIECE_GAP_NS,
    });
    this.handler = makeHandler(this.connection);
    this.connection.startHandshake(this, this.handler);
    const head = requestHead ?? buildUpgradeRequest(request);
    this.connection.recordRequest(head);
    this.connection.sender.sendData(Buffer.from(head, 'latin1'));
  }

  onData(chunk: Buffer): void {
    const read = this.reader.push(chunk);
    if (read === 'more') return;
    if (read === 'too-big') {
      this.fail(`response head larger than ${this.options.maxHeadBytes} bytes`);
      return;
    }
    const conn = this.connection;
    conn.recordResponse(read.head.toString('latin1'));
    const response = checkUpgradeResponse(read.head, this.request.key);
    if (!response.ok) {
      this.fail(response.reason);
      return;
    }
    const decision = this.decide(response);
    if ('refuse' in decision) {
      this.fail(decision.refuse);
      return;
    }
    conn.accept(this.handler, decision.deflate);
    conn.open();
    conn.readFrames(read.rest);
  }

  /** _Fail the WebSocket Connection_ before it opened: drop TCP, keep the reason. */
  private fail(reason: string): void {
    this.failure = reason;
    this.connection.dropConnection('abort', reason);
  }
}
