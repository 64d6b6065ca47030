/**
 * The client's side of RFC 8441: one HTTP/2 session per case on the connected socket (h2c with prior
 * knowledge, or TLS with ALPN "h2"), the server's SETTINGS awaited and SETTINGS_ENABLE_CONNECT_PROTOCOL
 * checked before anything is sent (§3: "a client MUST NOT send [:protocol] … unless the server has
 * sent" it; Node's client would send at once), then one extended CONNECT stream that carries the
 * WebSocket. A 2xx answer opens it (§5); there is no Sec-WebSocket-Accept to check.
 */
import http2 from 'node:http2';
import type { Socket } from 'node:net';
import { CHOP_PIECE_GAP_NS } from '../core/outbox.js';
import { Connection, type ConnectionHandler } from '../core/connection.js';
import { H2_LOCAL_WINDOW, H2_STREAM_WINDOW, http2Stream } from '../core/transport.js';
import { checkConnectResponse, connectRequestFields, flatFields, renderFields, type ConnectRequestSpec, type HeaderFields } from '../protocol/h2-connect.js';
import type { ClientProtocolOptions, ResponseDecision } from './upgrade.js';
import type { H2LocalSettings } from '../cases/h2-types.js';

/** Why a server cannot take WebSockets over HTTP/2: it never said so in its SETTINGS. */
export const NO_CONNECT_SETTING =
  'the server did not advertise SETTINGS_ENABLE_CONNECT_PROTOCOL in its HTTP/2 SETTINGS: it does not take WebSockets over HTTP/2 (RFC 8441 §3)';

/** An HTTP/2 session on the socket whose server allows extended CONNECT, or the reason it cannot be used. */
export function openSession(
  socket: Socket,
  authority: string,
  secure: boolean,
  timeoutMs: number,
  settings: H2LocalSettings = {},
): Promise<{ session: http2.ClientHttp2Session } | { error: string }> {
  return new Promise((resolve) => {
    const session = http2.connect(`${secure ? 'https' : 'http'}://${authority}`, {
      createConnection: () => socket,
      // A case may ask for a smaller stream window (group 16's flow control): the server must then wait for WINDOW_UPDATEs.
      settings: { initialWindowSize: settings.initialWindowSize ?? H2_STREAM_WINDOW },
    });
    const done = (outcome: { session: http2.ClientHttp2Session } | { error: string }): void => {
      clearTimeout(timer);
      session.off('remoteSettings', onSettings);
      session.off('close', onClose);
      if ('error' in outcome) session.destroy();
      resolve(outcome);
    };
    const onSettings = (settings: http2.Settings): void => {
      if (settings.enableConnectProtocol !== true) return done({ error: NO_CONNECT_SETTING });
      session.setLocalWindowSize(H2_LOCAL_WINDOW);
      done({ session });
    };
    const onClose = (): void => done({ error: 'the server closed the HTTP/2 connection before its SETTINGS' });
    const timer = setTimeout(() => done({ error: `the server sent no HTTP/2 SETTINGS within ${timeoutMs / 1000} s` }), timeoutMs);
    session.on('error', () => undefined);
    session.on('remoteSettings', onSettings);
    session.on('close', onClose);
  });
}

/**
 * One extended CONNECT stream on the session, its WebSocket connection built from the start (so the
 * handler hears of one that never opens, as over HTTP/1.1). The session ends with the stream.
 */
export function openStream(
  session: http2.ClientHttp2Session,
  socket: Socket,
  spec: ConnectRequestSpec,
  options: ClientProtocolOptions,
  newMask: () => Uint8Array,
  makeHandler: (connection: Connection) => ConnectionHandler,
  decide: (response: { headers: Map<string, string[]>; extensions: string | null }) => ResponseDecision,
  /** The session ends with the stream (one WebSocket per case); false for a case with several. */
  closeSession = true,
): { connection: Connection; serverHeader: () => string | null } {
  const fields = connectRequestFields(spec);
  const stream = session.request(fields as http2.OutgoingHttpHeaders, { endStream: false });
  const transport = http2Stream();
  const connection = new Connection(
    stream,
    options,
    { role: 'client', newMask, serverDropTimeoutMs: options.serverDropTimeoutMs, chopGapNs: CHOP_PIECE_GAP_NS },
    transport,
    socket,
  );
  const handler = makeHandler(connection);
  // Nothing comes on the stream before the response's HEADERS.
  connection.startHandshake({ onData: () => undefined }, handler);
  connection.recordRequest(renderFields(fields));
  if (closeSession) stream.on('close', () => session.close());
  let server: string | null = null;
  // nghttp2 refuses an answer HTTP/2 does not allow (a :status 101) as a stream error, before any 'response'.
  stream.once('error', (err: Error) => {
    if (!connection.record.connectionWasOpen) connection.dropConnection('abort', `the answer to the extended CONNECT was not valid HTTP/2: ${err.message}`);
  });
  stream.once('response', (headers) => {
    connection.recordResponse(renderFields(headers as HeaderFields));
    transport.peerFields = flatFields(headers as HeaderFields);
    const response = checkConnectResponse(headers as HeaderFields);
    if (!response.ok) return connection.dropConnection('abort', response.reason);
    server = response.headers.get('server')?.[0] ?? null;
    const decision = decide(response);
    if ('refuse' in decision) return connection.dropConnection('abort', decision.refuse);
    connection.accept(handler, decision.deflate);
    connection.open();
  });
  return { connection, serverHeader: () => server };
}
