/**
 * What a case is: data (id, texts, expected events, expected closing) plus a short script that
 * drives the connection through a CaseContext. A case never touches a socket.
 */
import type { ExpectedClose } from '../report/model.js';

/** An event the peer produced, with its full payload (reports cut it; verdicts compare all of it). */
export type PeerEvent =
  | { readonly kind: 'message'; readonly data: Buffer; readonly binary: boolean }
  | { readonly kind: 'pong'; readonly data: Buffer }
  | { readonly kind: 'timeout'; readonly tag: string };

/** Expected event lists keyed by the outcome they give. Declaration order is checking order. */
export type ExpectedEventLists = Partial<Record<'OK' | 'NON-STRICT', readonly PeerEvent[]>>;

/** One frame to send, with Autobahn's delivery options (the TX FRAME fields of the frame log). */
export interface TxFrame {
  opcode: number;
  payload?: Uint8Array | string;
  fin?: boolean;
  rsv?: number;
  mask?: Uint8Array | null;
  /** Repeat the payload pattern up to this many bytes. */
  payloadLen?: number | null;
  /** Write the frame's bytes in TCP writes of this size, each after the previous one flushed. */
  chopSize?: number | null;
  /** Write the frame as a TCP write of its own, after everything before it flushed. */
  sync?: boolean;
}

/** The only API a case sees while it runs. */
export interface CaseContext {
  /** Sends one frame exactly as specified (it may be invalid on purpose). */
  sendFrame(frame: TxFrame): void;
  /** Sends a message as a well-behaved endpoint would; fragmentSize splits it into frames. */
  sendMessage(payload: Uint8Array | string, options?: { binary?: boolean; fragmentSize?: number; sync?: boolean }): void;
  /** Sends a ping (only while open). */
  sendPing(payload?: Uint8Array | string): void;
  /** Starts the closing handshake (code and reason optional, as Autobahn's sendClose). */
  sendClose(code?: number | null, reason?: string | null): void;
  /**
   * Sends a close frame with any code and reason bytes, unchecked (Autobahn's sendCloseFrame), and
   * moves to closing like any close we start. A Buffer reason is reported in hex (it may be invalid UTF-8).
   */
  sendCloseFrame(code?: number | null, reason?: string | Buffer | null): void;
  /** Writes raw bytes (a bare frame header, part of a payload) with no TX FRAME log entry. */
  sendRaw(data: Uint8Array, options?: { sync?: boolean }): void;
  /** Fails the connection after the delay if it is still not closed ("FAIL CONNECTION AFTER"). */
  killAfter(seconds: number): void;
  /** Sends an empty close after the delay if still not closed ("CLOSE CONNECTION AFTER"). */
  closeAfter(seconds: number): void;
  /** Runs fn after the delay unless the connection is closed by then ("DELAY ... for TAG"). */
  continueLater(seconds: number, fn: () => void, tag?: string | null): void;
  /** Appends an event of the case's own (e.g. a timeout tag) to the observed list. */
  record(event: PeerEvent): void;
  /** True while the WebSocket connection is open (not closing, not closed). */
  readonly isOpen: boolean;
}

/** A case as declared: data plus its script. */
export interface CaseDef {
  /** Autobahn's id, explicit ("6.12.7"), never derived from position. */
  readonly id: string;
  /** What the server sends (may hold `<br>` line breaks, as Autobahn's descriptions do). */
  readonly description: string;
  /** What the peer must do. */
  readonly expectation: string;
  /** Acceptable event lists. */
  readonly expect: ExpectedEventLists;
  /** What the closing handshake must look like. */
  readonly close: ExpectedClose;
  /** Do not start the closing handshake automatically when the expected events are in. */
  readonly suppressClose?: boolean;
  /** Runs when the connection opens. */
  run(t: CaseContext): void;
  /**
   * Adjusts the verdicts after Autobahn's common judging, for the cases whose Autobahn class does so
   * (7.x: a wrong close code fails the outcome; 7.1.6 and 7.13.x are informational; 10.1.1 checks the
   * frames it sent).
   */
  adjust?(verdict: Judgement, facts: AdjustFacts): Judgement;
}

/** Both verdicts with their explanations (see server/judge.ts). */
export interface Judgement {
  behavior: string;
  result: string;
  behaviorClose: string;
  resultClose: string;
}

/** What a case's `adjust` may look at besides the verdicts. */
export interface AdjustFacts {
  connectionWasOpen: boolean;
  /** Frames the server sent, by opcode. */
  txFrameStats: Readonly<Record<string, number>>;
}

/** A registered case with its place in the catalogue. */
export interface CatalogueCase extends CaseDef {
  readonly category: string;
  readonly subcategory: string;
}
