/** The bundled client's one connection: ws, echoing every message back unchanged. */
import WebSocket, { type ServerOptions } from 'ws';
import { SHIPPED_LIMITS_ENV } from '../config/shipped-limits.js';

// The robustness profile: ws's own limits (config/shipped-limits.ts).
const shipped = process.env[SHIPPED_LIMITS_ENV] === 'shipped';

// Autobahn's 9.x cases send messages up to 16 MiB in up to 65536 fragments (ws allows 16384
// fragments by default, which fails 9.3.1, 9.3.2, 9.4.1 and 9.4.2): the catalogue's limits.
const CATALOGUE_LIMITS = shipped ? {} : { maxPayload: 64 * 1024 * 1024, maxFragments: 0 };

/** ws's server options for the catalogue (the bundled client's, server side). */
export const WS_SERVER_OPTIONS = {
  // zlib level 1 for the echoes, as the bundled client: no verdict depends on it.
  perMessageDeflate: { zlibDeflateOptions: { level: 1 } },
  ...CATALOGUE_LIMITS,
} as unknown as ServerOptions;

/**
 * Echoes not yet written (ws's bufferedAmount) past which the echo stops reading until they are: a
 * peer that does not read its echoes then meets back-pressure instead of a queue that grows with
 * whatever it sends (wsgate's 17.4.2 and 18.5.2). Above the 64 KiB fragments those cases write;
 * an echo of any size still goes out whole, reading resumes once it has been written.
 */
const ECHO_HIGH_WATER = 1024 * 1024;

/** Sends the echo; while too much of it waits to be written, reads nothing more. */
function echoBack(ws: WebSocket, data: Buffer, isBinary: boolean): void {
  ws.send(data, { binary: isBinary }, () => {
    if (ws.isPaused && ws.bufferedAmount <= ECHO_HIGH_WATER) ws.resume();
  });
  if (ws.bufferedAmount > ECHO_HIGH_WATER) ws.pause();
}

/** A server-side connection that echoes every message back unchanged (text as text, binary as binary). */
export function echoConnection(ws: WebSocket): void {
  ws.on('message', (data: Buffer, isBinary: boolean) => echoBack(ws, data, isBinary));
  // A failed connection is an expected outcome of many cases: it is not an error of this process.
  ws.on('error', () => undefined);
}

// ws accepts `clientMaxWindowBits: true` (offer the parameter with no value) and `maxFragments`
// (ws >= 8.23), which its type definitions do not list yet.
/** The bundled client's ws options. */
export const WS_ECHO_OPTIONS = {
  // zlib level 1 (Z_BEST_SPEED) for the echoes, as ws lets its users choose (its README's example
  // tunes level and memLevel): compression levels change no verdict, and at ws's default level 6
  // the client's deflate was most of a whole run's CPU (groups 12 and 13 echo 1000 messages of up to
  // 128 KiB per case). Measured over 12.1.*, 12.3.* and 13.1.*: client CPU 118 -> 62 s, wall 116 ->
  // 63 s (BENCHMARKS.md).
  perMessageDeflate: { clientMaxWindowBits: true, zlibDeflateOptions: { level: 1 } },
  ...CATALOGUE_LIMITS,
} as unknown as WebSocket.ClientOptions;

/**
 * The longest the bundled client waits for its 101, from the connection's start: ws has no such
 * deadline. Its handshakeTimeout is the socket's idle timeout, which a 101 trickled one byte per
 * second never trips (18.4.4); Python websockets gives the whole opening 10 s (open_timeout). 30 s is
 * far above any case's handshake, even on a loaded machine.
 */
export const OPEN_WITHIN_MS = 30_000;

/**
 * Connects, echoes every message (or hands text to onText), resolves when the connection is closed.
 * A connection not open within `openWithinMs` is dropped (null: no deadline, for /updateReports,
 * which answers once every report is written).
 */
export function echo(
  url: string,
  onText?: (text: string) => void,
  options: WebSocket.ClientOptions = WS_ECHO_OPTIONS,
  openWithinMs: number | null = OPEN_WITHIN_MS,
): Promise<void> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, options);
    const deadline = openWithinMs === null ? undefined : setTimeout(() => ws.terminate(), openWithinMs);
    ws.on('open', () => clearTimeout(deadline));
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (onText !== undefined) onText(data.toString('utf8'));
      else echoBack(ws, data, isBinary);
    });
    // A failed connection is an expected outcome of many cases: it is not an error of this process.
    ws.on('error', () => undefined);
    ws.on('close', () => {
      clearTimeout(deadline);
      resolve();
    });
  });
}
