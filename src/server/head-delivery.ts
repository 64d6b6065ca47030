/**
 * The slow and the huge deliveries of a scripted response head (group 18.4, a client under test):
 * a head followed by megabytes of one header value, written a piece at a time as the socket takes
 * them, and a head trickled one octet at a time that never ends. Both stop when the connection
 * closes; wsgate never holds the streamed value whole (one piece, reused).
 */
import type { HeadStream } from '../cases/types.js';
import type { Connection } from '../core/connection.js';

/**
 * Writes `head`, then `stream.bytes` octets of "a" in pieces, each once the socket has drained the
 * one before (back-pressure) and `stream.everyMs` after it (pacing: loopback's buffers take
 * megabytes at once, so without it the figure of what was written would be theirs, not the peer's),
 * then `stream.tail`. Each piece is a write of its own, counted in the connection's traffic.
 */
export function streamHead(conn: Connection, head: Buffer, stream: HeadStream): void {
  const socket = conn.stream;
  const piece = Buffer.alloc(Math.max(1, stream.pieceBytes), 'a');
  let left = stream.bytes;
  let timer: NodeJS.Timeout | undefined;
  socket.once('close', () => clearTimeout(timer));
  const later = (): void => {
    // A peer that stops reading (and never closes) leaves this waiting: the case's own timer ends it.
    if (socket.writableNeedDrain) socket.once('drain', later);
    else timer = setTimeout(next, stream.everyMs);
  };
  const next = (): void => {
    if (conn.isClosed() || socket.destroyed) return;
    if (left === 0) {
      conn.sender.sendDataNow(stream.tail);
      return;
    }
    const n = Math.min(left, piece.length);
    left -= n;
    conn.sender.sendDataNow(n === piece.length ? piece : piece.subarray(0, n));
    later();
  };
  conn.sender.sendDataNow(head);
  later();
}

/**
 * Writes `head` one octet every `everyMs` (Slowloris from the server's side); the timer is cleared
 * when the connection closes or the head is all written, so none outlives its connection.
 */
export function trickleHead(conn: Connection, head: Buffer, everyMs: number): void {
  const socket = conn.stream;
  let at = 0;
  const stop = (): void => clearInterval(timer);
  const timer = setInterval(() => {
    if (conn.isClosed() || socket.destroyed || at >= head.length) {
      stop();
      return;
    }
    conn.sender.sendDataNow(head.subarray(at, at + 1));
    at += 1;
  }, everyMs);
  socket.once('close', stop);
  // The first octet at once: the attack begins with the response.
  conn.sender.sendDataNow(head.subarray(0, 1));
  at = 1;
}
