/**
 * What a connection's bytes travel on, and how it ends: a TCP (or TLS) socket, as RFC 6455 has it,
 * or an HTTP/2 stream opened with an extended CONNECT (RFC 8441). The frames are the same bytes on
 * both; only the end differs. RFC 8441 §5: "the orderly TCP-level closures are represented as
 * END_STREAM flags, and RST exceptions are represented with the RST_STREAM frame with the CANCEL
 * error code".
 *
 * HTTP/3 (RFC 9220) would be a third: a QUIC stream, with the same ends (FIN, RESET_STREAM with
 * H3_REQUEST_CANCELLED); nothing above this file would change (docs/http2.md).
 */
import { constants as h2 } from 'node:http2';
import type { Http2Session, Http2Stream } from 'node:http2';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

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
  /** Our orderly end, once everything written has left: TCP's socket closed, HTTP/2's END_STREAM sent. */
  finished(stream: Duplex): void;
  /** Our end at once: the socket destroyed, or RST_STREAM(CANCEL). */
  abort(stream: Duplex): void;
  /** Why the connection is not clean when the peer's end came before any closing handshake (wasNotCleanReason). */
  peerLostReason(stream: Duplex): string;
}

/** Autobahn's wasNotCleanReason for a peer that drops TCP before the closing handshake. */
const PEER_DROPPED_TCP = 'peer dropped the TCP connection without previous WebSocket closing handshake';

// Each stream's session, kept from attach(): a closed stream no longer names it, and a destroyed one means the connection was lost.
const sessions = new WeakMap<Duplex, Http2Session>();

/** RFC 9113 §7's error codes by number, as RST_STREAM carries them. */
const H2_ERROR_NAMES = ['NO_ERROR', 'PROTOCOL_ERROR', 'INTERNAL_ERROR', 'FLOW_CONTROL_ERROR', 'SETTINGS_TIMEOUT', 'STREAM_CLOSED', 'FRAME_SIZE_ERROR', 'REFUSED_STREAM', 'CANCEL', 'COMPRESSION_ERROR', 'CONNECT_ERROR', 'ENHANCE_YOUR_CALM', 'INADEQUATE_SECURITY', 'HTTP_1_1_REQUIRED'] as const;

/**
 * RFC 6455 over TCP. A peer's FIN ends the socket (Node's allowHalfOpen is off), as Twisted's
 * connectionLost does; destroy() once our side has flushed is autobahn-python's dropConnection.
 */
export const TCP: Transport = {
  name: 'http/1.1',
  attach(stream) {
    (stream as Socket).setNoDelay(true);
  },
  finished(stream) {
    stream.destroy();
  },
  abort(stream) {
    stream.destroy();
  },
  peerLostReason: () => PEER_DROPPED_TCP,
};

/**
 * RFC 8441 over an HTTP/2 stream. The peer's END_STREAM is the peer's orderly close: our side ends
 * too, as a TCP socket does on FIN, and the stream is closed. Ours is END_STREAM: the stream closes
 * when the peer ends its side too (a peer that never does is reset by the connection's own
 * after-flush limit, as a TCP peer that never reads is dropped).
 */
export const HTTP2_STREAM: Transport = {
  name: 'h2',
  attach(stream) {
    const session = (stream as Http2Stream).session;
    if (session !== undefined) sessions.set(stream, session);
    stream.on('end', () => {
      if (!stream.writableEnded) stream.end();
    });
  },
  finished() {
    // END_STREAM is on its way (the stream's 'finish'): the peer's answers it.
  },
  abort(stream) {
    const s = stream as Http2Stream;
    if (s.closed || s.destroyed) return;
    s.close(h2.NGHTTP2_CANCEL);
  },
  /**
   * Which end the peer's was: END_STREAM (rstCode NO_ERROR, not aborted), its RST_STREAM and the code
   * it carried (what tells a proxy's reset from an orderly end: nghttpx resets with INTERNAL_ERROR
   * when its HTTP/1.1 client sends FIN, interop/README.md), or the HTTP/2 connection itself lost.
   */
  peerLostReason(stream) {
    const s = stream as Http2Stream;
    if (sessions.get(stream)?.destroyed === true) return 'peer dropped the HTTP/2 connection (TCP) without previous WebSocket closing handshake';
    if (s.rstCode === h2.NGHTTP2_NO_ERROR && !s.aborted) return 'peer ended the HTTP/2 stream (END_STREAM) without previous WebSocket closing handshake';
    const name = H2_ERROR_NAMES[s.rstCode] ?? `0x${s.rstCode.toString(16)}`;
    return `peer reset the HTTP/2 stream (RST_STREAM ${name}) without previous WebSocket closing handshake`;
  },
};
