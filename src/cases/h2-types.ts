/**
 * What a case sees of HTTP/2 (RFC 8441), for group 16: the stream its WebSocket travels on (a facet
 * of CaseContext, null over HTTP/1.1), how that stream ended (for `adjust`), and, for the cases about
 * a whole HTTP/2 connection (several streams, a request wsgate's HTTP/2 library would not send), a
 * session of their own. The engine implements them (play/, server/, fuzzing-client/); a case never
 * touches a socket.
 */
import type { Judgement } from './judgement.js';

/** How each side ended an HTTP/2 stream (RFC 8441 §5: END_STREAM orderly, RST_STREAM(CANCEL) an abort). */
export interface H2StreamFacts {
  /** The peer's END_STREAM arrived. */
  peerEnded: boolean;
  /** wsgate's END_STREAM went out. */
  ownEnded: boolean;
  /** The RST_STREAM error code that ended the stream when wsgate did not send one (the peer's), or null. */
  peerReset: number | null;
  /** The RST_STREAM error code wsgate sent, or null. */
  ownReset: number | null;
}

/** HTTP/2 settings a case asks for on wsgate's side (RFC 9113 §6.5.2). */
export interface H2LocalSettings {
  /** SETTINGS_INITIAL_WINDOW_SIZE: what the peer may send on a stream before a WINDOW_UPDATE. */
  readonly initialWindowSize?: number;
}

/** The HTTP/2 facet of CaseContext: the stream and the connection it is on. */
export interface H2CaseContext {
  /** The peer's header fields (its extended CONNECT, or its answer), names lower-case, pseudo-header fields included. */
  readonly peerFields: Readonly<Record<string, string>>;
  /** Whether the connection is over TLS (the :scheme a request must carry is then "https"). */
  readonly secure: boolean;
  /** Sends an HTTP/2 PING with these 8 bytes; resolves true when its ACK carries them back within `ms`. */
  ping(payload: Buffer, ms: number): Promise<boolean>;
}

/** What a raw HTTP/2 exchange (wsgate's own frames, for requests its HTTP/2 library would refuse to send) saw. */
export interface H2ProbeAnswer {
  /** The peer's first SETTINGS, by identifier (0x8: SETTINGS_ENABLE_CONNECT_PROTOCOL); null when none came. */
  readonly settings: ReadonlyMap<number, number> | null;
  /** The :status of the peer's HEADERS on the request's stream, or null. */
  readonly status: number | null;
  /** The peer's RST_STREAM code on the request's stream, or null. */
  readonly reset: number | null;
  /** The peer's GOAWAY error code, or null. */
  readonly goaway: number | null;
  /** Whether the peer closed the TCP connection. */
  readonly closed: boolean;
}

/** An extended CONNECT a probe sends: the normal fields, some left out (none sent when `send` is false). */
export interface H2ProbeRequest {
  readonly send: boolean;
  /** Field names (":scheme") the request leaves out. */
  readonly omit?: readonly string[];
}

/** One WebSocket on a session case's HTTP/2 connection. */
export interface H2WebSocket {
  sendText(text: string): void;
  /** The text of the next message the peer sends, or null if none came within `ms` (or the stream ended). */
  nextText(ms: number): Promise<string | null>;
  /** RST_STREAM(code): wsgate aborts the WebSocket (RFC 8441 §5: CANCEL). */
  reset(code: number): void;
  /** The closing handshake (a close frame, the answer, both END_STREAMs); resolves with how the stream ended. */
  close(): Promise<H2StreamFacts>;
}

/** A session case's view of its peer: fresh HTTP/2 connections, each one way. */
export interface H2SessionContext {
  /** A raw HTTP/2 exchange on a connection of its own: preface and SETTINGS, then the request (if sent). */
  probe(request: H2ProbeRequest): Promise<H2ProbeAnswer>;
  /**
   * An HTTP/2 connection (Node's http2) to the server, its SETTINGS awaited; `open` starts one
   * WebSocket on it (an extended CONNECT): it resolves open, or with the reason it is not.
   */
  connect(): Promise<{ open(): Promise<H2WebSocket | string>; close(): void } | string>;
}

/** A case's HTTP/2 needs (group 16). */
export interface H2CaseOptions {
  /** wsgate's SETTINGS on the case's connection (the server role: one HTTP/2 connection per case). */
  readonly settings?: H2LocalSettings;
  /**
   * The whole case on HTTP/2 connections of its own, instead of one WebSocket (the server role):
   * its verdicts. There are no frames of a single WebSocket to report.
   */
  session?(s: H2SessionContext): Promise<Judgement>;
}
