/**
 * wsgate's own account of a case that did not pass (beside Autobahn's `result` and `resultClose`,
 * which stay as the original writes them): what wsgate did, what the RFC asks, where the peer first
 * did otherwise, how the connection ended, and the cause it shares with other cases.
 */

/** Where in the peer's traffic something happened (each part null when the log does not tell). */
export interface WirePoint {
  /** The peer's frame, counted from 1 over the frames it sent after the opening handshake. */
  frame: number | null;
  /** Offset of that frame's first byte in the peer's WebSocket stream (after the handshake). */
  offset: number | null;
  /** Milliseconds after the connection started (the log's clock: "at 2.4 ms"). */
  ms: number | null;
}

/** A cause several cases can share: a requirement broken in one way. */
export interface Cause {
  /** Stable key ("utf8-invalid:accepted", "close-code-invalid:code-1000"). */
  key: string;
  /** What to fix, as a title ("invalid UTF-8 in a text message accepted"). */
  title: string;
}

/** Why one case ended with a verdict other than OK (or with no result at all). */
export interface Explanation {
  /** The verdicts explained, "FAILED / WRONG CODE", or "NO RESULT". */
  verdict: string;
  /** What wsgate did, in one phrase ("sent a text message that is not valid UTF-8 …"). */
  did: string;
  /** The requirement the case tests. */
  requirement: { rfc: string; text: string };
  /** What the peer did instead, at its first divergence. */
  peerDid: string;
  /** Where that happened, or null when it is not a point on the wire (nothing came, no result). */
  at: WirePoint | null;
  /** How the connection ended: who closed, with which code, clean or not. */
  ending: string;
  cause: Cause;
  /** The whole explanation in one line (JUnit message, annotation, summary.json). */
  text: string;
  /** The short form: the peer's divergence and the requirement (the console's line under the case). */
  short: string;
}

/** The cases of a run that share one cause. */
export interface CauseGroup extends Cause {
  requirement: { rfc: string; text: string };
  /** Case labels in run order (the id, after the agent when a run tests several). */
  cases: string[];
  /** The cases as ranges: "6.4.1–6.4.4, 6.6.1". */
  ranges: string;
}
