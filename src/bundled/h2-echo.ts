/**
 * The bundled peers over HTTP/2 (RFC 8441), when the gate sets WSGATE_HTTP2=1: Node's http2 for the
 * extended CONNECT, and the `ws` package's own frame reader and writer (its exported Receiver and
 * Sender) on the stream, echoing every message back unchanged. ws opens WebSockets over HTTP/1.1
 * only; its framing is the same on a stream. These peers negotiate no permessage-deflate (the
 * extension's offer and answer would be ours, not ws's), so groups 12 and 13 are UNIMPLEMENTED for them.
 *
 * The ends follow RFC 8441 §5: our close frame, then END_STREAM (the server's at once after the
 * closing handshake, the client's when the server's arrives); a protocol error of the peer fails the
 * connection with ws's close code, as ws does over TCP.
 */
import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import * as ws from 'ws';

/** ws's frame reader and writer: exported by the package, not declared by @types/ws. */
interface WsReceiver extends NodeJS.WritableStream {
  on(event: string, listener: (...args: never[]) => void): this;
}
interface WsSender {
  send(data: Buffer, options: { binary: boolean; fin: boolean; mask: boolean; compress: boolean; rsv1: boolean }, cb: () => void): void;
  close(code: number | undefined, reason: Buffer | string, mask: boolean, cb: () => void): void;
  pong(data: Buffer, mask: boolean, cb: () => void): void;
}
const { Receiver, Sender } = ws as unknown as {
  Receiver: new (options: { isServer: boolean; maxPayload: number; extensions: object }) => WsReceiver;
  Sender: new (socket: NodeJS.WritableStream, extensions: object) => WsSender;
};

/** The environment variable with which the gate asks its peers for HTTP/2 ("1"). */
export const HTTP2_ENV = 'WSGATE_HTTP2';

// Autobahn's 9.x cases send messages up to 16 MiB.
const MAX_PAYLOAD = 64 * 1024 * 1024;

/** ws's close code of a protocol error (kept on a symbol-keyed property of its errors). */
function statusOf(err: Error): number {
  for (const key of Object.getOwnPropertySymbols(err)) {
    const value = (err as unknown as Record<symbol, unknown>)[key];
    if (typeof value === 'number' && value >= 1000 && value < 5000) return value;
  }
  return 1002;
}

/** Echoes every message on the stream; resolves when the stream is closed. */
export function echoStream(stream: http2.Http2Stream, role: 'client' | 'server', onText?: (text: string) => void): Promise<void> {
  const mask = role === 'client';
  const receiver = new Receiver({ isServer: role === 'server', maxPayload: MAX_PAYLOAD, extensions: {} });
  const sender = new Sender(stream, {});
  let closeSent = false;
  const endStream = (): void => {
    if (!stream.writableEnded && !stream.destroyed) stream.end();
  };
  const sendClose = (code: number | undefined, reason: Buffer | string): void => {
    if (closeSent) return;
    closeSent = true;
    sender.close(code, reason, mask, () => undefined);
  };
  receiver.on('message', (data: Buffer, isBinary: boolean) => {
    if (closeSent) return;
    if (onText !== undefined) onText(data.toString('utf8'));
    else sender.send(data, { binary: isBinary, fin: true, mask, compress: false, rsv1: false }, () => undefined);
  });
  receiver.on('ping', (data: Buffer) => {
    if (!closeSent) sender.pong(data, mask, () => undefined);
  });
  // What follows a close (or an error) is not read as frames, but is drained so the peer's END_STREAM arrives.
  const stopReading = (): void => {
    stream.unpipe(receiver);
    stream.resume();
  };
  receiver.on('conclude', (code: number, reason: Buffer) => {
    stopReading();
    sendClose(code === 1005 ? undefined : code, reason);
    // The server ends the stream once the closing handshake is done (RFC 6455 §7.1.1, RFC 8441 §5).
    if (role === 'server') endStream();
  });
  receiver.on('error', (err: Error) => {
    stopReading();
    sendClose(statusOf(err), '');
    endStream();
  });
  stream.pipe(receiver);
  stream.on('error', () => undefined);
  // The peer's END_STREAM: ours follows, as a TCP socket's FIN does.
  stream.on('end', endStream);
  return new Promise((resolve) => stream.on('close', () => resolve()));
}

/** A WebSocket over HTTP/2 to a ws:// or wss:// URL: echoes (or hands text to onText); resolves when closed. */
export function echoH2(url: string, onText?: (text: string) => void): Promise<void> {
  const u = new URL(url);
  const secure = u.protocol === 'wss:';
  return new Promise((resolve) => {
    const session = http2.connect(`${secure ? 'https' : 'http'}://${u.host}`, secure ? caOptions() : {});
    const done = (): void => {
      session.close();
      resolve();
    };
    session.on('error', done);
    session.once('remoteSettings', (settings) => {
      if (settings.enableConnectProtocol !== true) return done();
      const stream = session.request(
        { ':method': 'CONNECT', ':protocol': 'websocket', ':scheme': secure ? 'https' : 'http', ':path': `${u.pathname}${u.search}`, ':authority': u.host, 'sec-websocket-version': '13' },
        { endStream: false },
      );
      stream.on('error', () => undefined);
      stream.once('response', (headers) => {
        const status = Number(headers[':status']);
        if (status < 200 || status >= 300) stream.close(http2.constants.NGHTTP2_CANCEL);
        else void echoStream(stream, 'client', onText);
      });
      stream.on('close', done);
    });
  });
}

/** The CA the gate gives its client over TLS (Node reads NODE_EXTRA_CA_CERTS itself; this covers WSGATE_CA_FILE). */
function caOptions(): http2.SecureClientSessionOptions {
  const file = process.env.WSGATE_CA_FILE;
  return file === undefined || file === '' ? {} : { ca: readFileSync(file) };
}

/** An HTTP/2 server (h2c, or TLS with ALPN "h2") that takes extended CONNECTs and echoes on each stream. */
export function h2EchoServer(certificate: { cert: Buffer; key: Buffer } | null): http2.Http2Server | http2.Http2SecureServer {
  const settings = { enableConnectProtocol: true };
  const server = certificate === null ? http2.createServer({ settings }) : http2.createSecureServer({ settings, cert: certificate.cert, key: certificate.key });
  // Only a 'stream' listener: a compat 'request' one would have Node answer 405 (nodejs/node#36977).
  server.on('stream', (stream, headers) => {
    stream.on('error', () => undefined);
    if (headers[':method'] !== 'CONNECT' || headers[':protocol'] !== 'websocket' || headers['sec-websocket-version'] !== '13') {
      stream.respond({ ':status': 400 });
      stream.end();
      return;
    }
    stream.respond({ ':status': 200 });
    void echoStream(stream, 'server');
  });
  server.on('sessionError', () => undefined);
  return server;
}
