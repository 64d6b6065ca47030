/**
 * The fuzzing server's listening socket: plain TCP for ws://, TLS for wss://. Over TLS, a client
 * whose TLS handshake fails, or that closes right after it without a byte of HTTP, is reported in
 * one line naming TLS (the gate puts it first in the reason of every case left without a result).
 */
import net from 'node:net';
import tls from 'node:tls';
import { describeClientTlsError } from '../tls/describe.js';

/** What the listener tells its owner. */
export interface ListenerHandlers {
  /** A connection ready for the opening handshake (after TLS, over wss://). */
  accept(socket: net.Socket): void;
  /** Every TCP connection as it arrives (wss://: before its TLS handshake), to be dropped at close. */
  track(socket: net.Socket): void;
  /** A client's TLS failed, in one line. */
  tlsFailed(socket: net.Socket, reason: string): void;
}

/** Why a TLS client that never spoke failed (it rejected the certificate, most likely). */
export const SILENT_AFTER_TLS =
  'TLS: the client closed the connection right after the TLS handshake, before its opening handshake (does it trust the certificate? give it the CA: NODE_EXTRA_CA_CERTS, SSL_CERT_FILE, WSGATE_CA_FILE or {ca})';

/**
 * A server for ws:// (certificate null) or wss://, its TLS handshake bounded by handshakeTimeoutMs;
 * `alpn` the protocols TLS offers (["h2"] for WebSockets over HTTP/2), or null for none.
 */
export function createListener(
  certificate: { cert: string; key: string } | null,
  handshakeTimeoutMs: number,
  handlers: ListenerHandlers,
  alpn: string[] | null = null,
): net.Server {
  if (certificate === null) return net.createServer({ noDelay: true }, (socket) => handlers.accept(socket));
  const server = tls.createServer(
    { cert: certificate.cert, key: certificate.key, noDelay: true, handshakeTimeout: handshakeTimeoutMs, ...(alpn === null ? {} : { ALPNProtocols: alpn }) },
    (socket) => {
      // Over HTTP/2 the session reads the socket natively (no 'data' here): it watches for silence itself.
      if (alpn === null) watchSilence(socket, handlers);
      handlers.accept(socket);
    },
  );
  server.on('connection', (raw: net.Socket) => handlers.track(raw));
  server.on('tlsClientError', (err: Error, socket: tls.TLSSocket) => handlers.tlsFailed(socket, describeClientTlsError(err)));
  return server;
}

/**
 * Under TLS 1.3 the server's side of the handshake ends before the client checks the certificate:
 * a client that rejects it (Node's does, without an alert) closes a connection that never spoke.
 */
function watchSilence(socket: tls.TLSSocket, handlers: ListenerHandlers): void {
  let spoke = false;
  socket.once('data', () => (spoke = true));
  socket.once('close', () => {
    if (!spoke) handlers.tlsFailed(socket, SILENT_AFTER_TLS);
  });
}

/** Why the server cannot listen on host:port ('' is every interface), in one line. */
export function listenFailure(err: NodeJS.ErrnoException, host: string, port: number): string {
  const on = host === '' ? 'every interface' : host;
  const where = host === '' ? `port ${port}` : `${host}:${port}`;
  if (err.code === 'EADDRINUSE') return `port ${port} is already in use on ${on}`;
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') return `cannot listen on ${where}: address not available`;
  if (err.code === 'EACCES') return `cannot listen on ${where}: permission denied`;
  return `cannot listen on ${where}: ${err.message}`;
}
