/**
 * RFC 6455 numbers shared by the frame codec, the handshake and the case engine, and Autobahn's
 * timers and limits that decide verdicts.
 */

/** Frame opcodes (RFC 6455 §5.2); 3-7 and 11-15 are reserved and deliberately absent. */
export const Opcode = {
  Continuation: 0,
  Text: 1,
  Binary: 2,
  Close: 8,
  Ping: 9,
  Pong: 10,
} as const;

/** Close status codes (RFC 6455 §7.4.1). */
export const CloseCode = {
  Normal: 1000,
  GoingAway: 1001,
  ProtocolError: 1002,
  UnsupportedData: 1003,
  NoStatus: 1005,
  Abnormal: 1006,
  InvalidPayload: 1007,
  PolicyViolation: 1008,
  MessageTooBig: 1009,
  MandatoryExtension: 1010,
  InternalError: 1011,
} as const;

/** The GUID appended to Sec-WebSocket-Key before hashing (RFC 6455 §1.3). */
export const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** True for control opcodes: "Control frames are identified by opcodes where the most significant bit of the opcode is 1" (§5.5). */
export function isControlOpcode(opcode: number): boolean {
  return opcode > 7;
}

/**
 * Close codes a peer may put on the wire, by Autobahn|Testsuite's rule (case 7.7.x / 7.9.x):
 * 1000-1003, 1007-1011 and 3000-4999. 1004-1006 and 1015 are reserved / "MUST NOT be set",
 * 1012-2999 are unassigned here (Autobahn 0.10.9 predates 1012-1014 and treats them as invalid).
 */
export function isValidCloseCode(code: number): boolean {
  if (!Number.isInteger(code)) return false;
  return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1011) || (code >= 3000 && code <= 4999);
}

/**
 * Autobahn's engine defaults (autobahn-python 0.10.9, as its fuzzing server and fuzzing client set
 * them): the timers and limits that decide verdicts, in both roles.
 */
export const AUTOBAHN_DEFAULTS = {
  /** Drop a connection whose opening handshake is not complete by then. */
  openHandshakeTimeoutMs: 5000,
  /** Drop a connection whose peer does not answer our close frame by then. */
  closeHandshakeTimeoutMs: 1000,
  /** Fail connections with a close frame, never by dropping TCP (the fuzzers force it). */
  failByDrop: false,
  /** Largest message (and frame) payload accepted; more is refused with 1009. */
  maxMessagePayload: 64 * 1024 * 1024,
  /** A client waits this long after the closing handshake for the server to drop TCP (serverConnectionDropTimeout). */
  serverDropTimeoutMs: 1000,
  /** zlib level of the fuzzer's own compressed messages (no verdict depends on it). */
  deflateLevel: 1,
  /** Largest opening handshake head read; a longer one gets 431. */
  maxHeadBytes: 16 * 1024,
} as const;
