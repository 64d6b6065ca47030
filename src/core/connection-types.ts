/**
 * What a connection is configured with and talks to: its settings, its handler, its side, and the
 * role's opening handshake (core/connection.ts).
 */
import type { MessageHandler } from './message-assembler.js';
import { FrameReader } from '../protocol/frame-reader.js';

/** Engine settings (Autobahn's protocol options that matter to the verdicts). */
export interface ConnectionOptions {
  /** Drop the connection when the opening handshake is not complete within this time. */
  openHandshakeTimeoutMs: number;
  /** Drop the connection when the peer does not answer our close frame within this time. */
  closeHandshakeTimeoutMs: number;
  /** Fail connections by dropping TCP instead of sending a close frame (Autobahn forces false). */
  failByDrop: boolean;
  /** Largest message (and frame) payload accepted from the peer; more is refused with 1009. */
  maxMessagePayload: number;
}

/** What a connection does once open. */
export interface ConnectionHandler extends MessageHandler {
  onOpen(): void;
  onPong(data: Buffer): void;
  /** The TCP connection is gone; all bookkeeping on the connection is final. */
  onConnectionLost(): void;
}

/**
 * Which end of the connection this is, as far as framing goes (RFC 6455 §5.1, §5.3): a server
 * requires masked frames and sends its own unmasked; a client refuses masked frames and masks each
 * of its own with a fresh key (`newMask`: random, or seeded for a reproducible run).
 */
export type ConnectionSide =
  | { readonly role: 'server' }
  | {
      readonly role: 'client';
      readonly newMask: () => Uint8Array;
      /**
       * How long a client waits, after the closing handshake, for the server to drop TCP before it
       * drops it itself (autobahn-python's serverConnectionDropTimeout, 1 s).
       */
      readonly serverDropTimeoutMs: number;
      /** The least time between two chopped pieces' writes, in ns (Outbox; the fuzzing client's is CHOP_PIECE_GAP_NS). */
      readonly chopGapNs?: number;
    };

/** A role's opening handshake: it gets the connection's bytes until it calls `open`. */
export interface OpeningHandshake {
  onData(chunk: Buffer): void;
}

/**
 * What a case report takes of a connection (the connection-state table, as autobahn-python 0.10.9
 * keeps it, and the opening handshake as it went on the wire). Only the connection changes it.
 */
export interface ConnectionRecord {
  closedByMe: boolean;
  failedByMe: boolean;
  droppedByMe: boolean;
  wasClean: boolean;
  wasNotCleanReason: string | null;
  wasOpenHandshakeTimeout: boolean;
  wasCloseHandshakeTimeout: boolean;
  /** A client's: the server did not drop TCP in time after the closing handshake. */
  wasServerConnectionDropTimeout: boolean;
  localCloseCode: number | null;
  localCloseReason: string | null;
  remoteCloseCode: number | null;
  remoteCloseReason: string | null;
  connectionWasOpen: boolean;
  /**
   * Why wsgate dropped the connection without a close frame where autobahn-python raises inside its
   * protocol handler (a compressed message zlib cannot inflate): the case's result names it.
   */
  droppedOnError: string | null;
  /** The opening handshake's request and response heads (latin1), '?' until there is one. */
  httpRequest: string;
  httpResponse: string;
  /** A case wrote the response head (group 14). */
  scriptedHandshake: boolean;
}

/** A new connection's record: nothing happened yet. */
export function newConnectionRecord(): ConnectionRecord {
  return {
    closedByMe: false,
    failedByMe: false,
    droppedByMe: false,
    wasClean: false,
    wasNotCleanReason: null,
    wasOpenHandshakeTimeout: false,
    wasCloseHandshakeTimeout: false,
    wasServerConnectionDropTimeout: false,
    localCloseCode: null,
    localCloseReason: null,
    remoteCloseCode: null,
    remoteCloseReason: null,
    connectionWasOpen: false,
    droppedOnError: null,
    httpRequest: '?',
    httpResponse: '?',
    scriptedHandshake: false,
  };
}

/** The reader of a connection's frames: a server requires masked frames, a client refuses them; socket reads are unmasked in place. */
export function frameReaderFor(role: 'client' | 'server', compressionNegotiated: boolean, maxFramePayload: number): FrameReader {
  // Socket reads are ours and logged before they are parsed: no copy per read to unmask.
  return new FrameReader({ requireMask: role === 'server', refuseMask: role === 'client', compressionNegotiated, maxFramePayload, unmaskInPlace: true });
}
