/**
 * How a probe writes a request head other than at once: one byte per packet, a piece per interval,
 * one byte per interval
 * (a head that stalls), or a header value far larger than any buffer wsgate would hold, streamed from
 * one reused piece with back-pressure. Each stops as soon as the socket is gone (the server answered
 * or ended the connection, or the probe's wait ran out).
 */
import type { Socket } from 'node:net';

/** One byte per write, each after the previous one was flushed, Nagle off; `done` after the last. */
export function writeBytewise(socket: Socket, data: Buffer, done: () => void): void {
  socket.setNoDelay(true);
  let at = 0;
  const next = (err?: Error | null): void => {
    if (err != null || socket.destroyed) return;
    if (at >= data.length) {
      done();
      return;
    }
    const byte = data.subarray(at, at + 1);
    at++;
    socket.write(byte, next);
  };
  next();
}

/** How often (in pieces) a paced write looks at what the peer has read. */
const SAMPLE_EVERY_PIECES = 16;

/**
 * Pieces of `pieceBytes`, one every `everyMs`, Nagle off, so that a server that keeps up reads each
 * on its own (one that falls behind reads several at once); `done` after the last, `sample` every
 * few pieces. Stops when the socket is gone.
 */
export function writePaced(
  socket: Socket,
  data: Buffer,
  piece: { bytes: number; everyMs: number },
  done: () => void,
  sample: () => void = () => undefined,
): void {
  socket.setNoDelay(true);
  let at = 0;
  let pieces = 0;
  const next = (): void => {
    if (socket.destroyed) return;
    if (at >= data.length) {
      done();
      return;
    }
    const part = data.subarray(at, at + piece.bytes);
    at += part.length;
    // What the peer has read, looked at as the pieces go (its socket may be gone by the end).
    if (++pieces % SAMPLE_EVERY_PIECES === 0) sample();
    socket.write(part, (err) => {
      if (err == null) setTimeout(next, piece.everyMs);
    });
  };
  next();
}

/** One byte every `everyMs`, Nagle off, until the data ends or the socket is gone; `wrote` after each. The timer is the caller's to clear. */
export function writeTrickle(socket: Socket, data: Buffer, everyMs: number, wrote: () => void): NodeJS.Timeout {
  socket.setNoDelay(true);
  let at = 0;
  const tick = (): void => {
    if (socket.destroyed || at >= data.length) return;
    socket.write(data.subarray(at, at + 1));
    at++;
    wrote();
  };
  tick();
  return setInterval(tick, everyMs);
}

/**
 * `prefix`, then `totalBytes` of `piece` repeated (each write after the previous one drained: at most
 * one piece waits in wsgate's buffers), then `suffix`; `done` once the suffix is flushed. Stops when
 * the socket is gone; a server that stops reading without ending the connection leaves it waiting.
 */
export function writeStreamed(
  socket: Socket,
  parts: { prefix: Buffer; piece: Buffer; totalBytes: number; suffix: Buffer },
  done: () => void,
  onPiece?: () => void,
): void {
  let left = parts.totalBytes;
  socket.write(parts.prefix);
  const pump = (): void => {
    if (left > 0) {
      if (socket.destroyed) return;
      onPiece?.();
      const n = Math.min(parts.piece.length, left);
      left -= n;
      // The next piece after the event loop has had its turn (setImmediate runs after the poll for
      // I/O): against a server that reads as fast as wsgate writes, every write completes at once,
      // and a loop of them would write the whole header before the server's answer is read (a server
      // that answered 431 at 16 KiB and drained the rest was counted as reading 20 MB first).
      if (socket.write(n === parts.piece.length ? parts.piece : parts.piece.subarray(0, n))) setImmediate(pump);
      else socket.once('drain', pump);
      return;
    }
    if (socket.destroyed) return;
    socket.write(parts.suffix, (err) => {
      if (err == null) done();
    });
  };
  pump();
}
