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
