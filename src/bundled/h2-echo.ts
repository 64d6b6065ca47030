/**
 * The bundled peers over HTTP/2 (RFC 8441), when the gate sets WSGATE_HTTP2=1: Node's http2 for the
 * extended CONNECT, and the `ws` package's own frame reader and writer (its exported Receiver and
 * Sender) on the stream, echoing every message back unchanged. ws opens WebSockets over HTTP/1.1
 * only; its framing is the same on a stream, and so is permessage-deflate, negotiated in the
 * sec-websocket-extensions header field with ws's own parser and PerMessageDeflate, with the bundled
 * peers' HTTP/1.1 options (zlib level 1; the client offers client_max_window_bits).
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
  send(data: Buffer, options: { binary: boolean; fin: boolean; mask: boolean; compress: boolean }, cb: () => void): void;
  close(code: number | undefined, reason: Buffer | string, mask: boolean, cb: () => void): void;
  pong(data: Buffer, mask: boolean, cb: () => void): void;
}
interface WsDeflate {
  params: object;
  offer(): object;
  accept(configurations: object[]): object;
  cleanup(): void;
}
type Extensions = Partial<Record<'permessage-deflate', WsDeflate>>;
const { Receiver, Sender, PerMessageDeflate, extension } = ws as unknown as {
  Receiver: new (options: { isServer: boolean; maxPayload: number; extensions: Extensions }) => WsReceiver;
  Sender: new (socket: NodeJS.WritableStream, extensions: Extensions) => WsSender;
  PerMessageDeflate: new (options: object) => WsDeflate;
  extension: { parse(header: string): Record<string, object[]>; format(extensions: Record<string, object[]>): string };
};

/** The bundled peers' permessage-deflate options over HTTP/1.1 (ws-echo.ts), for one side. */
function newDeflate(isServer: boolean): WsDeflate {
  return new PerMessageDeflate({ ...(isServer ? {} : { clientMaxWindowBits: true }), zlibDeflateOptions: { level: 1 }, isServer, maxPayload: MAX_PAYLOAD });
}

/**
 * The extensions a server agrees to for the offer in sec-websocket-extensions, and its answer; throws
 * on an offer ws would refuse (ws's server answers 400), as WebSocketServer.handleUpgrade does.
 */
function acceptOffer(header: string | undefined): { extensions: Extensions; answer: string | null } {
  if (header === undefined) return { extensions: {}, answer: null };
  const offers = extension.parse(header)['permessage-deflate'];
  if (offers === undefined) return { extensions: {}, answer: null };
  const deflate = newDeflate(true);
  deflate.accept(offers);
  return { extensions: { 'permessage-deflate': deflate }, answer: extension.format({ 'permessage-deflate': [deflate.params] }) };
}

/** What a client makes of the server's answer to its offer (ws's client: anything but one deflate is refused). */
function acceptAnswer(deflate: WsDeflate, header: string | undefined): Extensions | null {
  if (header === undefined) return {};
  const answered = extension.parse(header);
  const names = Object.keys(answered);
  if (names.length !== 1 || names[0] !== 'permessage-deflate') return null;
  deflate.accept(answered['permessage-deflate'] ?? []);
  return { 'permessage-deflate': deflate };
}

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
export function echoStream(stream: http2.Http2Stream, role: 'client' | 'server', onText?: (text: string) => void, extensions: Extensions = {}): Promise<void> {
  const mask = role === 'client';
  const compress = extensions['permessage-deflate'] !== undefined;
  const receiver = new Receiver({ isServer: role === 'server', maxPayload: MAX_PAYLOAD, extensions });
  const sender = new Sender(stream, extensions);
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
    else sender.send(data, { binary: isBinary, fin: true, mask, compress }, () => undefined);
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
  return new Promise((resolve) =>
    stream.on('close', () => {
      extensions['permessage-deflate']?.cleanup();
      resolve();
    }),
  );
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
      const deflate = newDeflate(false);
      const stream = session.request(
        {
          ':method': 'CONNECT',
          ':protocol': 'websocket',
          ':scheme': secure ? 'https' : 'http',
          ':path': `${u.pathname}${u.search}`,
          ':authority': u.host,
          'sec-websocket-version': '13',
          'sec-websocket-extensions': extension.format({ 'permessage-deflate': [deflate.offer()] }),
        },
        { endStream: false },
      );
      stream.on('error', () => undefined);
      stream.once('response', (headers) => {
        const status = Number(headers[':status']);
        let extensions: Extensions | null = null;
        try {
          extensions = acceptAnswer(deflate, headers['sec-websocket-extensions']);
        } catch {
          extensions = null;
        }
        if (status < 200 || status >= 300 || extensions === null) stream.close(http2.constants.NGHTTP2_CANCEL);
        else void echoStream(stream, 'client', onText, extensions);
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
    let agreed: ReturnType<typeof acceptOffer>;
    try {
      agreed = acceptOffer(headers['sec-websocket-extensions']);
    } catch {
      stream.respond({ ':status': 400 });
      stream.end('Invalid or unacceptable Sec-WebSocket-Extensions header');
      return;
    }
    stream.respond({ ':status': 200, ...(agreed.answer === null ? {} : { 'sec-websocket-extensions': agreed.answer }) });
    void echoStream(stream, 'server', undefined, agreed.extensions);
  });
  server.on('sessionError', () => undefined);
  return server;
}
