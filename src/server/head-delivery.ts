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
  // Header lines: the line and the next one's name, repeated, each piece cut from where the last ended.
  const line = stream.lines === undefined ? null : lineOf(stream.lines.lineBytes, stream.lines.lineName);
  let at = 0;
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
    if (line === null) conn.sender.sendDataNow(n === piece.length ? piece : piece.subarray(0, n));
    else {
      conn.sender.sendDataNow(cut(line, at, n));
      at = (at + n) % line.length;
    }
    later();
  };
  conn.sender.sendDataNow(head);
  later();
}

/** One header value of "a" that ends its line, and the next line's name: `bytes` octets in all. */
function lineOf(bytes: number, name: string): Buffer {
  const next = `\r\n${name}: `;
  return Buffer.from(`${'a'.repeat(Math.max(1, bytes - next.length))}${next}`, 'latin1');
}

/** `n` octets of `pattern` repeated, from offset `at`. */
function cut(pattern: Buffer, at: number, n: number): Buffer {
  const out = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; ) {
    const from = (at + i) % pattern.length;
    i += pattern.copy(out, i, from, Math.min(pattern.length, from + (n - i)));
  }
  return out;
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
