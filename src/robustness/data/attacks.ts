/**
 * The robustness profile's data: the advisories its cases are grounded in, and the budgets their
 * verdicts rest on. Each figure a report states is measured, then set beside one of these.
 */

/** A published advisory or issue a robustness case replays. */
export interface Advisory {
  /** The identifiers, as the advisory databases name it. */
  readonly id: string;
  /** One line: which release, what input, what it did. */
  readonly what: string;
}

/** The advisories of group 17 (a server under test). */
export const ServerAdvisories = {
  wsProtocolRegex: {
    id: 'CVE-2021-32640 (GHSA-6fc8-4gx4-v693)',
    what: "ws before 7.4.6 split Sec-WebSocket-Protocol with / *, */: a value of many spaces between two tokens ('b' + ' '.repeat(n) + 'x') takes time quadratic in n",
  },
  extensionsRegex: {
    id: 'CVE-2020-7662 (GHSA-g78m-2chm-r7qv)',
    what: 'websocket-extensions before 0.1.4 (npm; the Ruby gem before 0.1.5: CVE-2020-7663): an unclosed quoted parameter value of repeated backslash pairs (a; b="\\c\\c\\c...) makes its parser backtrack',
  },
  wsHeaderCount: {
    id: 'CVE-2024-37890 (GHSA-3h5v-q93c-6h6q)',
    what: "ws before 8.17.1 (7.5.10, 6.2.3, 5.2.4): a request with more header lines than Node's server.maxHeadersCount (2,000) crashed the server (the upgrade headers past the limit are dropped, and ws read a missing one)",
  },
  obsTextValues: {
    id: 'http-rs/async-h1#187',
    what: 'a server panicked on a request header value with bytes above 0x7f (obs-text, RFC 9110 §5.5); Deno (denoland/deno#32594) panicked the same way on such a Sec-WebSocket-Protocol in a 101',
  },
  wsPrototypeNames: {
    id: 'GHSA-5v72-xg48-5rpm',
    what: 'ws before 3.3.1 (1.1.5): Sec-WebSocket-Extensions naming an extension or parameter after an Object.prototype property ("constructor") crashed the server',
  },
  gorillaLength: {
    id: 'CVE-2020-27813 (GHSA-jf24-p9p9-4rjh)',
    what: 'gorilla/websocket before 1.4.1: frame lengths whose sum overflows passed its read limit; a 64-bit length must have its top bit clear (RFC 6455 §5.2)',
  },
  declaredGigabyte: {
    id: 'TooTallNate/Java-WebSocket#1507',
    what: "Java-WebSocket allocated a frame's declared payload (up to 2 GiB) from its 14-byte header, before reading a byte of it",
  },
} as const satisfies Record<string, Advisory>;

/** The budgets of group 17 (defaults; the figures beside them are measured per case). */
export const ServerBudgets = {
  /** The longest any handshake answer may take, whatever the size of the request (ms). */
  answerMs: 1000,
  /** Growth of the answer time under this many ms over the base is noise on a shared machine, whatever its shape. */
  growthFloorMs: 25,
  /**
   * Super-linear growth: the time over the base at the largest size exceeds this many times what
   * linear growth from the quarter size gives (quadratic growth gives 4 for 4× the size: twice 2).
   */
  growthSlack: 2,
  /** Sizes a growth attack tries, in bytes, until the HTTP layer refuses one. */
  growthSizes: [1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 512000, 1048576],
  /** How long the server has to fail the connection after a frame header it must refuse (ms). */
  refuseAtHeaderMs: 2000,
  /** How long the server has to answer or drop a request it must survive (ms). */
  survivesMs: 3000,
  /**
   * The payload written after a header declaring 1 GiB: 1 KiB every 100 ms for 5 s. A server that
   * refuses at the header has closed long before; one that reads it all never refused it.
   */
  trickle: { pieceBytes: 1024, everyMs: 100, totalBytes: 50 * 1024 },
} as const;
