/**
 * The repro runtime's two roles and its entry point: for a client under test it listens (and answers
 * an Autobahn-style driver's /getCaseCount and /updateReports), for a server under test it connects;
 * either way the opening handshake as wsgate made it, then the replay.
 */
import net from 'node:net';
import { gunzipSync } from 'node:zlib';
import { computeAccept } from '../../protocol/handshake.js';
import type { ReproWrite, RuntimeData } from './data.js';
import { ReproReplay } from './replay.js';
import { ReproSession } from './session.js';

/** A header's value in an HTTP head, or null. */
export function reproHeader(head: string, name: string): string | null {
  const m = new RegExp(`^${name}:[ \\t]*(.*?)[ \\t]*$`, 'im').exec(head);
  return m === null ? null : (m[1] as string);
}

/** Reads an HTTP head, then hands over; what follows it, and everything once open, goes to the session. */
export function reproReadHead(s: ReproSession | null, socket: net.Socket, onHead: (head: string, rest: Buffer) => void): void {
  let buffered = Buffer.alloc(0);
  let done = false;
  socket.on('data', (chunk: Buffer) => {
    if (done) {
      if (s?.open === true && s.socket === socket) s.peerBytes(chunk);
      return;
    }
    buffered = Buffer.concat([buffered, chunk]);
    const end = buffered.indexOf('\r\n\r\n');
    if (end < 0) return;
    done = true;
    onHead(buffered.subarray(0, end + 4).toString('latin1'), buffered.subarray(end + 4));
  });
}

/** The case's socket: how it ends is the last fact the verdict needs. */
export function reproAttach(s: ReproSession, socket: net.Socket): void {
  let reset = false;
  s.socket = socket;
  socket.setNoDelay(true);
  socket.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'ECONNRESET') reset = true;
    else s.sayNow(`(socket error: ${err.message})`);
  });
  socket.on('close', () => s.tcpClosed(reset ? 'reset TCP' : 'closed TCP'));
}

/** A client under test: listen, serve the case to its first case connection. */
export function reproListen(s: ReproSession, head: string, port: number): void {
  const accept = (key: string | null): string => computeAccept(key ?? '');
  let served = false;
  const server = net.createServer((conn) => {
    const connectedAt = performance.now();
    conn.on('error', () => undefined);
    reproReadHead(s, conn, (text, rest) => {
      const target = /^GET (\S+)/.exec(text)?.[1] ?? '/';
      const key = reproHeader(text, 'Sec-WebSocket-Key');
      // An Autobahn-style driver asks for the case count and the reports around the case itself.
      const count = target.startsWith('/getCaseCount');
      if (count || target.startsWith('/updateReports') || served) {
        conn.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept(key)}\r\n\r\n`);
        // 0x81 0x01 "1": the case count; 0x88 0x02 0x03e8: close 1000. The peer's answer ends it.
        if (count) conn.write(Buffer.from([0x81, 0x01, 0x31]));
        conn.write(Buffer.from([0x88, 0x02, 0x03, 0xe8]));
        conn.on('data', () => conn.destroy());
        setTimeout(() => conn.destroy(), 2000).unref();
        return;
      }
      served = true;
      s.t0 = connectedAt;
      reproAttach(s, conn);
      const offers = reproHeader(text, 'Sec-WebSocket-Extensions');
      s.say(s.stamp(), `peer → upgrade request GET ${target}${offers !== null ? ` (offers ${offers})` : ''}`);
      // The 101 of the run, with the accept value this client's key needs.
      const response = head.replace(/^(Sec-WebSocket-Accept:[ \t]*)\S+/im, `$1${accept(key)}`);
      const extensions = reproHeader(response, 'Sec-WebSocket-Extensions');
      s.agree(extensions);
      s.say(s.stamp(), `wsgate → ${response.split('\r\n')[0] ?? ''}${extensions !== null ? ` (${extensions})` : ''}`);
      // The response and the frames the case sends at once leave together, as from wsgate.
      conn.cork();
      conn.write(Buffer.from(response, 'latin1'));
      s.open = true;
      if (rest.length > 0) s.peerBytes(rest);
      s.replay?.pump();
      process.nextTick(() => {
        while (conn.writableCorked > 0) conn.uncork();
      });
    });
  });
  // A looping driver asks for /updateReports after the case: a moment to answer it.
  s.onJudged = () => setTimeout(() => server.close(), 500);
  server.listen(port, '127.0.0.1', () => {
    const address = server.address();
    const actual = typeof address === 'object' && address !== null ? address.port : port;
    console.log(`listening on ws://127.0.0.1:${actual}/ : point the client under test at it (any path)`);
  });
}

/** A server under test: connect, send the run's upgrade request (to this host and path), check the 101. */
export function reproConnect(s: ReproSession, head: string, target: string): void {
  const url = new URL(target);
  const hostPort = `${url.hostname}${url.port === '' ? '' : `:${url.port}`}`;
  const request = head.replace(/^GET \S+/, `GET ${url.pathname}${url.search}`).replace(/^(Host:[ \t]*)\S+/im, `$1${hostPort}`);
  const key = reproHeader(request, 'Sec-WebSocket-Key') ?? '';
  const accept = computeAccept(key);
  const socket = net.connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port === '' ? 80 : Number(url.port) }, () => {
    s.t0 = performance.now();
    reproAttach(s, socket);
    s.say(s.stamp(), `wsgate → upgrade request GET ${url.pathname}${url.search} to ${hostPort}`);
    socket.write(Buffer.from(request, 'latin1'));
  });
  socket.once('error', (err: NodeJS.ErrnoException) => {
    if (s.socket !== null) return;
    console.error(`cannot connect to ${url.href}: ${err.code ?? err.message}`);
    process.exitCode = 2;
  });
  reproReadHead(s, socket, (text, rest) => {
    const status = text.split('\r\n')[0] ?? '';
    const extensions = reproHeader(text, 'Sec-WebSocket-Extensions');
    s.say(s.stamp(), `peer → ${status}${extensions !== null ? ` (${extensions})` : ''}`);
    if (!/^HTTP\/1\.1 101\b/.test(status) || reproHeader(text, 'Sec-WebSocket-Accept') !== accept) {
      s.say(s.stamp(), 'wsgate drops TCP: the opening handshake failed');
      s.droppedByMe = true;
      socket.destroy();
      return;
    }
    s.agree(extensions);
    s.open = true;
    if (rest.length > 0) s.peerBytes(rest);
    s.replay?.pump();
  });
}

/** A script's entry: the case's bytes unpacked, then the role's side of it. */
export function reproMain(data: RuntimeData, argv: readonly string[]): void {
  const raw = Buffer.from(data.blob, 'base64');
  const blob = data.blobGzip ? gunzipSync(raw) : raw;
  const writes: ReproWrite[] = data.writes.map(([t, rx, flags, offset, length, pattern, repeatLength, chop]) => {
    let bytes = blob.subarray(offset, offset + length);
    if (pattern !== null) {
      const p = Buffer.from(pattern, 'base64');
      const body = Buffer.alloc(repeatLength);
      for (let i = 0; i < repeatLength; i += p.length) p.copy(body, i, 0, Math.min(p.length, repeatLength - i));
      bytes = Buffer.concat([bytes, body]);
    }
    return { t, rx, handshake: (flags & 1) !== 0, sync: (flags & 2) !== 0, data: bytes, chop };
  });
  const head = Buffer.concat(writes.filter((w) => w.handshake).map((w) => w.data)).toString('latin1');
  const s = new ReproSession(data);
  s.replay = new ReproReplay(
    s,
    writes.filter((w) => !w.handshake),
  );
  if (data.role === 'client') reproListen(s, head, argv[0] === undefined ? 9001 : Number(argv[0]));
  else reproConnect(s, head, argv[0] ?? data.url ?? 'ws://127.0.0.1:9001/');
}
