/**
 * The server's side of RFC 8441: the fuzzing server over HTTP/2. Each TCP (or TLS, ALPN "h2")
 * connection is an HTTP/2 session whose SETTINGS carry SETTINGS_ENABLE_CONNECT_PROTOCOL (§3); each
 * extended CONNECT stream is one WebSocket, routed by its :path as /runCase?… is over HTTP/1.1, and
 * answered 200 (§5) or with an HTTP error. A session may carry several WebSockets at once.
 *
 * Node answers an extended CONNECT with 405 when a compat 'request' listener is attached without a
 * 'connect' one (nodejs/node#36977): this server has neither, only the session's 'stream' listener.
 */
import http2 from 'node:http2';
import type { Socket } from 'node:net';
import { Connection } from '../core/connection.js';
import { H2_LOCAL_WINDOW, H2_STREAM_WINDOW, http2Stream } from '../core/transport.js';
import { buildStatusPage, type UpgradeRequest } from '../protocol/handshake.js';
import { flatFields, parseConnectRequest, renderFields, type HeaderFields } from '../protocol/h2-connect.js';
import { answerWhenReady, type ConnectAnswer, type Router, type ServerProtocolOptions } from './upgrade.js';
import { SILENT_AFTER_TLS } from './listener.js';

/** One extended CONNECT stream: its WebSocket connection, and its request once valid. */
export interface H2Upgrade {
  readonly connection: Connection;
  request: UpgradeRequest | null;
}

/** Why a client's HTTP/2 connection failed before any stream: it did not speak HTTP/2 (an HTTP/1.1 client). */
export const NOT_HTTP2 =
  'HTTP/2: the client did not open with the HTTP/2 connection preface (an HTTP/1.1 client?): with --http2 a client speaks h2c with prior knowledge, or ALPN h2 over TLS (RFC 8441)';

/**
 * An HTTP/2 server for the fuzzing server's accepted sockets; `onUpgrade` hears of each stream's
 * connection, `onBadPeer` of a client that does not speak HTTP/2.
 */
export function createH2Server(
  options: ServerProtocolOptions,
  router: Router,
  onUpgrade: (upgrade: H2Upgrade) => void,
  onBadPeer: (peer: Pick<Socket, 'remoteAddress' | 'remotePort'>, reason: string) => void,
): http2.Http2Server {
  const server = http2.createServer({
    settings: { enableConnectProtocol: true, initialWindowSize: H2_STREAM_WINDOW },
    // Group 9's messages are queued whole; nghttp2's default 10 MB would refuse new streams under them.
    maxSessionMemory: 256,
  });
  server.on('session', (session) => {
    // Read now: a closed session's socket can no longer be asked.
    const peer = { remoteAddress: session.socket.remoteAddress, remotePort: session.socket.remotePort };
    const encrypted = session.encrypted === true;
    // A TLS client that closes before its preface's SETTINGS rejected the certificate, most likely (listener.ts).
    let spoke = false;
    session.on('error', (err: Error) => {
      // nghttp2's words for a first read that is not "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" (RFC 9113 §3.4).
      if (!/bad client magic/i.test(err.message)) return;
      spoke = true;
      onBadPeer(peer, NOT_HTTP2);
    });
    session.once('localSettings', () => session.setLocalWindowSize(H2_LOCAL_WINDOW));
    session.once('remoteSettings', () => (spoke = true));
    session.once('close', () => {
      if (!spoke && encrypted) onBadPeer(peer, SILENT_AFTER_TLS);
    });
  });
  server.on('stream', (stream, headers) => {
    const upgrade = acceptStream(stream, headers as HeaderFields, options, router);
    if (upgrade !== null) onUpgrade(upgrade);
  });
  return server;
}

/** An extended CONNECT: checked, routed, answered; null for a request that is not one (answered here). */
function acceptStream(stream: http2.ServerHttp2Stream, headers: HeaderFields, options: ServerProtocolOptions, router: Router): H2Upgrade | null {
  stream.on('error', () => undefined);
  const verdict = parseConnectRequest(headers);
  if (!verdict.ok && headers[':method'] === 'GET' && options.statusPage === true) {
    stream.respond({ ':status': 200, 'content-type': 'text/html; charset=utf-8', server: options.serverHeader });
    stream.end(
      buildStatusPage('wsgate fuzzing server', 'This is a WebSocket endpoint over HTTP/2 (RFC 8441): Autobahn|Testsuite&#39;s fuzzing server, run by wsgate.'),
    );
    return null;
  }
  const transport = http2Stream();
  transport.peerFields = flatFields(headers);
  const connection = new Connection(stream, options, { role: 'server' }, transport, stream.session?.socket as Socket);
  connection.recordRequest(verdict.ok ? verdict.request.raw : renderFields(headers));
  const upgrade: H2Upgrade = { connection, request: null };
  if (!verdict.ok) {
    refuse(upgrade, verdict.status, verdict.reason);
    return upgrade;
  }
  upgrade.request = verdict.request;
  const decision = router(verdict.request, connection);
  const answer = (a: ConnectAnswer): void => {
    if (a.kind === 'reject') refuse(upgrade, a.status, a.reason);
    else respond(upgrade, stream, a, options);
  };
  if (decision.kind !== 'later') {
    answer(decision);
    return upgrade;
  }
  answerWhenReady(connection, decision.ready, answer);
  return upgrade;
}

/** 200 and the connection opens (RFC 8441 §5: "a 2xx series status code"), with the extensions agreed. */
function respond(
  upgrade: H2Upgrade,
  stream: http2.ServerHttp2Stream,
  decision: Extract<ConnectAnswer, { kind: 'accept' }>,
  options: ServerProtocolOptions,
): void {
  const conn = upgrade.connection;
  conn.accept(decision.handler, decision.deflate ?? null);
  const fields: HeaderFields = { ':status': 200, server: options.serverHeader, 'x-powered-by': options.poweredBy };
  if (decision.extensions != null) fields['sec-websocket-extensions'] = decision.extensions;
  stream.respond(fields as http2.OutgoingHttpHeaders);
  conn.recordResponse(renderFields(fields));
  conn.open();
}

/** An HTTP error status, the reason as the body, and END_STREAM. */
function refuse(upgrade: H2Upgrade, status: number, reason: string): void {
  const conn = upgrade.connection;
  const stream = conn.stream as http2.ServerHttp2Stream;
  const fields: HeaderFields = { ':status': status, 'content-type': 'text/plain; charset=utf-8' };
  if (!stream.headersSent && !stream.destroyed) stream.respond(fields as http2.OutgoingHttpHeaders);
  conn.recordResponse(renderFields(fields));
  conn.sender.sendData(Buffer.from(`${reason}\n`, 'utf8'));
  conn.dropConnection('after-flush', reason);
}
