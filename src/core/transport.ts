/**
 * What a connection's bytes travel on, and how it ends: a TCP (or TLS) socket, as RFC 6455 has it,
 * or an HTTP/2 stream opened with an extended CONNECT (RFC 8441). The frames are the same bytes on
 * both; only the end differs. RFC 8441 §5: "the orderly TCP-level closures are represented as
 * END_STREAM flags, and RST exceptions are represented with the RST_STREAM frame with the CANCEL
 * error code".
 *
 * HTTP/3 (RFC 9220) would be a third: a QUIC stream, with the same ends (FIN, RESET_STREAM with
 * H3_REQUEST_CANCELLED); nothing above this file would change (docs/http2.md).
 *
 * And how fast a connection reads from it (ReadRate: robustness cases throttle their reading).
 */
import type { Http2Session, Http2Stream } from 'node:http2';
import type { Socket } from 'node:net';
import { constants as h2 } from 'node:http2';
import { addAbortSignal, type Duplex } from 'node:stream';
import type { H2StreamFacts } from '../cases/h2-types.js';

/**
 * HTTP/2 flow-control windows of wsgate's side, both roles: what wsgate lets the peer send before a
 * WINDOW_UPDATE. RFC 9113 §6.9.2's 65535 would have a 16 MiB message of group 9 wait for one per
 * 64 KiB; the peer's own windows, which bound what wsgate sends, are the peer's choice.
 */
export const H2_LOCAL_WINDOW = 32 * 1024 * 1024;
export const H2_STREAM_WINDOW = 4 * 1024 * 1024;

/** The protocol a connection's opening handshake used, as reports name it. */
export type TransportName = 'http/1.1' | 'h2';

/** How a connection's byte stream is set up and ended. */
export interface Transport {
  readonly name: TransportName;
  /** Called once with the stream, before any byte moves. */
  attach(stream: Duplex): void;
  /** Our orderly end (after the closing handshake, or once everything written has left): the socket closed, or END_STREAM. */
  end(stream: Duplex): void;
  /** Our unclean end (a timeout, a failure by drop, the gate's limit): the socket destroyed, or RST_STREAM(CANCEL). */
  abort(stream: Duplex): void;
  /** Over HTTP/2: how each side ended the stream. */
  readonly h2?: H2StreamFacts;
  /** Over HTTP/2: the peer's header fields (its request, or its answer), names lower-case. */
  readonly peerFields?: Readonly<Record<string, string>>;
  /** Why the connection is not clean when the peer's end came before any closing handshake (wasNotCleanReason). */
  peerLostReason(stream: Duplex): string;
}

/** Autobahn's wasNotCleanReason for a peer that drops TCP before the closing handshake. */
const PEER_DROPPED_TCP = 'peer dropped the TCP connection without previous WebSocket closing handshake';

// Each stream's session, kept from attach(): a closed stream no longer names it, and a destroyed one means the connection was lost.
const sessions = new WeakMap<Duplex, Http2Session>();

/** RFC 9113 §7's error codes by number, as RST_STREAM carries them. */
const H2_ERROR_NAMES = [
  'NO_ERROR',
  'PROTOCOL_ERROR',
  'INTERNAL_ERROR',
  'FLOW_CONTROL_ERROR',
  'SETTINGS_TIMEOUT',
  'STREAM_CLOSED',
  'FRAME_SIZE_ERROR',
  'REFUSED_STREAM',
  'CANCEL',
  'COMPRESSION_ERROR',
  'CONNECT_ERROR',
  'ENHANCE_YOUR_CALM',
  'INADEQUATE_SECURITY',
  'HTTP_1_1_REQUIRED',
] as const;

/**
 * RFC 6455 over TCP. A peer's FIN ends the socket (Node's allowHalfOpen is off), as Twisted's
 * connectionLost does; our end, clean or not, is destroy() (a FIN), as autobahn-python's dropConnection.
 */
export const TCP: Transport = {
  name: 'http/1.1',
  attach(stream) {
    (stream as Socket).setNoDelay(true);
  },
  end(stream) {
    stream.destroy();
  },
  abort(stream) {
    stream.destroy();
  },
  peerLostReason: () => PEER_DROPPED_TCP,
};

/** What an HTTP/2 stream's transport knows of its stream: how each side ended it (group 16 judges it). */
export interface Http2Transport extends Transport {
  readonly h2: H2StreamFacts;
  /** Set by the opening handshake when the peer's fields arrive. */
  peerFields: Readonly<Record<string, string>>;
}

/**
 * RFC 8441 over an HTTP/2 stream, one per connection (it records how the stream ended). The peer's
 * END_STREAM is the peer's orderly close: our side ends too, as a TCP socket does on FIN, and the
 * stream is closed. Ours is END_STREAM: the stream closes when the peer ends its side too (a peer
 * that never does is reset by the connection's own after-flush limit, as a TCP peer that never
 * reads is dropped).
 */
export function http2Stream(): Http2Transport {
  const facts: H2StreamFacts = { peerEnded: false, ownEnded: false, peerReset: null, ownReset: null };
  return {
    name: 'h2',
    h2: facts,
    peerFields: {},
    attach(stream) {
      const s = stream as Http2Stream;
      if (s.session !== undefined) sessions.set(stream, s.session);
      // Node also ends the readable side when the stream is reset; a reset's code is read at 'close' (its END_STREAM unknown then).
      stream.on('end', () => {
        if (facts.ownReset === null) facts.peerEnded = true;
        if (!stream.writableEnded) stream.end();
      });
      stream.on('finish', () => (facts.ownEnded = true));
      // Node tells the RST_STREAM code, not who sent it: one that is not ours is the peer's (a RST_STREAM
      // NO_ERROR of the peer's looks like no reset at all; measured with Node 20's http2).
      stream.on('close', () => {
        const code = s.rstCode ?? h2.NGHTTP2_NO_ERROR;
        if (facts.ownReset === null && code !== h2.NGHTTP2_NO_ERROR) {
          facts.peerReset = code;
          facts.peerEnded = false;
        }
      });
    },
    end(stream) {
      if (!stream.writableEnded) stream.end();
    },
    abort(stream) {
      resetStream(stream as Http2Stream, facts, h2.NGHTTP2_CANCEL);
    },
    peerLostReason: (stream) => peerLostReason(stream as Http2Stream),
  };
}

/**
 * Which end the peer's was: END_STREAM (rstCode NO_ERROR, not aborted), its RST_STREAM and the code
 * it carried (what tells a proxy's reset from an orderly end: nghttpx resets with INTERNAL_ERROR
 * when its HTTP/1.1 client sends FIN, interop/README.md), or the HTTP/2 connection itself lost.
 */
function peerLostReason(s: Http2Stream): string {
  if (sessions.get(s)?.destroyed === true) return 'peer dropped the HTTP/2 connection (TCP) without previous WebSocket closing handshake';
  if (s.rstCode === h2.NGHTTP2_NO_ERROR && !s.aborted) return 'peer ended the HTTP/2 stream (END_STREAM) without previous WebSocket closing handshake';
  const name = H2_ERROR_NAMES[s.rstCode] ?? `0x${s.rstCode.toString(16)}`;
  return `peer reset the HTTP/2 stream (RST_STREAM ${name}) without previous WebSocket closing handshake`;
}

/**
 * RST_STREAM with `code` (RFC 8441 §5: CANCEL for an abort), unless the stream is closed already.
 * CANCEL goes alone: a stream destroyed by an AbortError sends RST_STREAM(CANCEL) and nothing else,
 * where close(CANCEL) would send an empty DATA frame with END_STREAM first (a peer that answers it
 * ends the stream orderly, with no reset). Other codes go by close(code), END_STREAM first.
 */
export function resetStream(s: Http2Stream, facts: H2StreamFacts, code: number): void {
  if (s.closed || s.destroyed) return;
  facts.ownReset = code;
  if (code === h2.NGHTTP2_CANCEL) addAbortSignal(AbortSignal.abort(), s);
  else s.close(code);
}

/**
 * How fast a connection reads from its peer (robustness cases: a peer that pings and is never read,
 * a slow reader of a large echo). The stream is paused after each chunk for as long as the rate asks
 * (a chunk is what the kernel gave, up to 64 KiB): the average holds, and meanwhile the peer's bytes
 * back up in the kernel's buffers, then in its own.
 */
export class ReadRate {
  /** Bytes per second, or null: freely. */
  private rate: number | null = null;
  private timer: NodeJS.Timeout | null = null;

  /** `gone`: the connection is closed (the stream is not resumed any more). */
  constructor(
    private readonly stream: Duplex,
    private readonly gone: () => boolean,
  ) {}

  /** Whether a rate is set (a throttled connection reads again when it is dropped). */
  get limited(): boolean {
    return this.rate !== null;
  }

  /** Reads at most `bytesPerSecond` from now on (0: nothing, null: freely). */
  set(bytesPerSecond: number | null): void {
    this.rate = bytesPerSecond;
    this.stop();
    if (bytesPerSecond === null) this.stream.resume();
    else if (bytesPerSecond <= 0) this.stream.pause();
  }

  /** After a chunk of `bytes` was read: paused for as long as the rate asks. */
  took(bytes: number): void {
    const rate = this.rate;
    if (rate === null || this.gone()) return;
    this.stream.pause();
    if (rate <= 0) return;
    this.stop();
    this.timer = setTimeout(
      () => {
        this.timer = null;
        if (this.rate !== null && !this.gone()) this.stream.resume();
      },
      (bytes / rate) * 1000,
    );
  }

  /** Forgets the pending resume (the connection is gone). */
  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
