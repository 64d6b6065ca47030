/**
 * `wstest -m echoserver -w URL` and `-m testeeserver -w URL`: a WebSocket server at the url's port,
 * on every interface as the original binds, echoing every message back unchanged (the `ws` package,
 * with permessage-deflate and the catalogue's message sizes). It runs until SIGINT or SIGTERM (exit 0).
 */
import https from 'node:https';
import { WebSocketServer } from 'ws';
import { echoConnection, WS_SERVER_OPTIONS } from '../bundled/ws-echo.js';
import { parseListenUrl } from '../config/url.js';
import { UsageError } from '../errors.js';
import { readPem } from '../tls/setup.js';
import type { WstestIo, WstestOptions } from './command-line.js';

/** Runs the echo server until SIGINT or SIGTERM; resolves with 0. */
export async function echoServer(options: WstestOptions, io: WstestIo): Promise<number> {
  let listen: ReturnType<typeof parseListenUrl>;
  try {
    listen = parseListenUrl(options.wsuri ?? '');
  } catch (err) {
    throw new UsageError(`-w/--wsuri: ${(err as Error).message.replace(/^--url:? /, '')}`);
  }
  if (listen.secure && options.key === undefined) throw new UsageError('a wss:// URI needs -k/--key and -c/--cert');
  const secure =
    options.key !== undefined && options.cert !== undefined
      ? https.createServer({ key: readPem('-k/--key', options.key), cert: readPem('-c/--cert', options.cert) })
      : null;
  const host = io.env.WSGATE_LISTEN_HOST?.trim() || undefined;
  const wss =
    secure === null
      ? new WebSocketServer({ ...WS_SERVER_OPTIONS, port: listen.port, ...(host ? { host } : {}) })
      : new WebSocketServer({ ...WS_SERVER_OPTIONS, server: secure });
  const listening = new Promise<void>((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException): void =>
      reject(new UsageError(err.code === 'EADDRINUSE' ? `port ${listen.port} is already in use` : `cannot listen on port ${listen.port}: ${err.message}`));
    if (secure === null) {
      wss.once('listening', () => resolve());
      wss.once('error', failed);
    } else {
      secure.once('error', failed);
      secure.listen(listen.port, host, () => resolve());
    }
  });
  await listening;
  wss.on('connection', echoConnection);
  io.stdout.write(`wsgate echo server (${options.mode}) listening on port ${listen.port}${secure === null ? '' : ' (TLS)'}\n`);
  await new Promise<void>((resolve) => {
    if (io.signal?.aborted === true) resolve();
    io.signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  for (const client of wss.clients) client.terminate();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  secure?.close();
  return 0;
}
