/**
 * The handshake floods and slow requests (17.1.6-17.1.11 against a server, 18.4 against a client) as
 * data: the advisories they replay and the budgets their verdicts rest on. Time budgets are scaled by
 * the run's `time` budget; the slow ones (slowloris, a trickled 101) use its `stall` budget instead.
 */
import type { AttackBudget } from '../../cases/types.js';
import { MEMORY_GROWTH } from '../../cases/data/budgets.js';
import type { Advisory } from './attacks.js';

/** The advisories of the floods and slow requests. */
export const FloodAdvisories = {
  protocolBurst: {
    id: 'CVE-2021-32640 (GHSA-6fc8-4gx4-v693)',
    what: "ws before 7.4.6 split Sec-WebSocket-Protocol with a regular expression quadratic in a run of spaces: a burst of such requests at the HTTP layer's largest size blocks the event loop for every other client",
  },
  extensionsBurst: {
    id: 'CVE-2020-7662 (GHSA-g78m-2chm-r7qv)',
    what: 'websocket-extensions before 0.1.4: an unclosed quoted parameter value of backslash pairs makes its parser backtrack; a burst of them starves the other clients',
  },
  largeHeaders: {
    id: 'CVE-2018-12121',
    what: 'Node.js before 6.15.0, 8.14.0, 10.14.0 and 11.3.0 kept up to 80 KB of headers per connection: requests with maximum-sized headers exhausted the heap (the limit became 8 KB, now 16 KB)',
  },
  pacedHead: {
    id: 'CVE-2023-43669',
    what: 'tungstenite before 0.20.1 parsed the whole handshake again on every read: a long header delivered in small pieces took minutes of CPU',
  },
  slowloris: {
    id: 'CVE-2018-12122',
    what: 'Node.js before 6.15.0, 8.14.0, 10.14.0 and 11.3.0 kept a connection whose request head arrived one byte at a time open forever (headersTimeout was added); Slowloris, CVE-2007-6750, against Apache',
  },
  halfOpen: {
    id: 'CVE-2007-6750',
    what: 'Apache HTTP Server 1.x and 2.x: many connections each holding a partial request head (Slowloris) took every worker, and no other client was served',
  },
} as const satisfies Record<string, Advisory>;

/** The budgets of 17.1.6-17.1.11 (defaults; the figures beside them are measured per case). */
export const FloodBudgets = {
  /** The normal client's wait for its 101 beside a burst or the half-open connections (ms, scaled). */
  normalAnswerMs: 1000,
  /** Connections of a burst, each with one request at `burstBytes`. */
  burstConnections: 16,
  /** The header value's size in a burst: below Node's 16 KiB limit on a request head, with the other fields. */
  burstBytes: 15000,
  /** How long a burst's requests, and the normal client beside them, are waited for (ms, scaled). */
  burstWaitMs: 10000,
  /** The huge header's value: 20 MB, written in pieces of 64 KiB after the previous one drained. */
  hugeHeader: { totalBytes: 20 * 1000 * 1000, pieceBytes: 64 * 1024 },
  /** 17.1.8's second request: its padding as header lines of this size (under an 8 KiB line limit), not one line. */
  hugeHeaderLineBytes: 1000,
  /** A server must refuse (an HTTP error or a drop) the huge header within this many ms of its first byte (scaled). */
  hugeHeaderMs: 5000,
  /**
   * ... having read at most this much of it: 1 MiB. Request heads are limited to 8-32 KiB by Node
   * (16 KiB), nginx, Tomcat and IIS, about 800 KiB by Apache (100 lines of 8 KiB); a server that
   * reads 16 MB of one header before refusing it lets each connection hold that much (CVE-2018-12121).
   */
  hugeHeaderReadBytes: 1024 * 1024,
  /**
   * The paced request (17.1.9): a head of 1 MiB (the most 17.1.8 lets a server read) in header lines
   * of 1,000 bytes, written in 256-byte pieces, one a millisecond (256 KB/s): about 4,096 reads by a
   * server that keeps up, so a parser that reads the head again from its start on every read scans
   * 2 GiB, and falls behind (then its CPU time is about the attack's whole length).
   */
  pacedHead: { totalBytes: 1024 * 1024, lineBytes: 1000, pieceBytes: 256, everyMs: 1 },
  /** How long the paced request and the answer after it are waited for (ms, scaled). */
  pacedWaitMs: 20000,
  /** The answer to the paced request, after its last piece was read (ms, scaled). */
  pacedAnswerMs: 1000,
  /**
   * The CPU time the server's process tree may spend over 17.1.9 (ms, scaled): reading 1 MiB in 1,024
   * reads and answering, then the liveness check. A parser that keeps its place costs tens of ms (ws
   * behind Node's http with a 2 MiB head limit: measured below 100 ms); one that re-parses the head
   * on every read, seconds (CVE-2023-43669's fault, in test/fixtures/servers/broken-server.ts).
   */
  pacedCpuMs: 1000,
  /** Slowloris: one byte of a request head that never ends, every this many ms; the `stall` budget bounds the wait. */
  slowlorisEveryMs: 1000,
  /** Connections each holding a partial request head while a normal client connects. */
  halfOpenConnections: 500,
} as const;

/** The advisories of 18.4 (a client under test), in the words a report quotes. */
export const ClientFloodAdvisory = {
  manyLines:
    "CVE-2024-37890's shape (ws before 8.17.1 crashed on more header lines than Node keeps), and CVE-2018-12121 (Node.js kept up to 80 KB of headers per connection), in a 101 answer",
  hugeHeader: 'CVE-2018-12121 (Node.js kept up to 80 KB of headers per connection, until heap exhaustion), in a 101 answer of several MB',
  paced: 'CVE-2023-43669 (tungstenite before 0.20.1 parsed the whole handshake again on every read), in a 101 answer written in small pieces',
  trickled: 'CVE-2018-12122 (Node.js kept a head trickled one byte at a time open forever: Slowloris), in a 101 answer trickled one byte per second',
  prototypeNames: 'GHSA-5v72-xg48-5rpm (ws before 3.3.1 crashed on extension names such as constructor), in the 101 answer',
  obsText: 'denoland/deno#32594 (Deno panicked on a Sec-WebSocket-Protocol or Sec-WebSocket-Extensions value with bytes above 0x7f in a 101)',
} as const;

/** The budgets of 18.4 (seconds unless said). */
export const ClientFloodBudgets = {
  /** Header lines of the 101 in 18.4.1. */
  manyLines: 10000,
  /**
   * The header value of 18.4.2: 8 MiB, written in pieces of 64 KiB, each after the previous one drained
   * and 10 ms after it (6.4 MB/s: all of it in 1.3 s, well within the budget, to a client that reads it).
   */
  hugeHeader: { totalBytes: 8 * 1024 * 1024, pieceBytes: 64 * 1024, everyMs: 10 },
  /** ... of which a client may read at most this much before it refuses the head (as 17.1.8's server: FloodBudgets.hugeHeaderReadBytes). */
  hugeHeaderReadBytes: 1024 * 1024,
  /** How often 18.4.2 looks at what the client read, in seconds. */
  readSampleS: 0.05,
  /** A client completes (echoes) or fails the connection within this many seconds of the 101's first byte. */
  settleWithinS: 5,
  /**
   * 18.4.3: the padding header's value, written in 256-byte pieces one a millisecond (as 17.1.9's
   * request): about 4,096 reads, 5 s of writing (`writeS`, added to the settling time).
   */
  pacedHead: { totalBytes: 1024 * 1024, lineBytes: 100, pieceBytes: 256, everyMs: 1, writeS: 6 },
  /** 18.4.3: the CPU time the client's process tree may spend on the case (ms, scaled), as 17.1.9's server. */
  pacedCpuMs: 1000,
  /** 18.4.4: one byte of the 101 every this many ms; the padding makes the head outlast any stall budget (an hour). */
  trickleEveryMs: 1000,
  tricklePadBytes: 3600,
  /** 18.4.5: a client refuses extensions it never offered within this many seconds (as 14.x's refusals). */
  refuseWithinS: 2,
} as const;

/** What each 18.4 case holds the client to beside its verdict (play/attack-figures.ts states the figures). */
export const clientFloodBudgets = {
  manyLines: { advisory: ClientFloodAdvisory.manyLines, closeWithinMs: ClientFloodBudgets.settleWithinS * 1000, memoryGrowth: MEMORY_GROWTH.small },
  hugeHeader: { advisory: ClientFloodAdvisory.hugeHeader, closeWithinMs: ClientFloodBudgets.settleWithinS * 1000, memoryGrowth: MEMORY_GROWTH.small },
  paced: {
    advisory: ClientFloodAdvisory.paced,
    closeWithinMs: (ClientFloodBudgets.settleWithinS + ClientFloodBudgets.pacedHead.writeS) * 1000,
    memoryGrowth: MEMORY_GROWTH.small,
    cpuMs: ClientFloodBudgets.pacedCpuMs,
  },
  trickled: { advisory: ClientFloodAdvisory.trickled, closeWithinMs: 0, stall: true, memoryGrowth: MEMORY_GROWTH.small },
  prototypeNames: { advisory: ClientFloodAdvisory.prototypeNames, closeWithinMs: ClientFloodBudgets.refuseWithinS * 1000, memoryGrowth: MEMORY_GROWTH.small },
  obsText: { advisory: ClientFloodAdvisory.obsText, closeWithinMs: ClientFloodBudgets.refuseWithinS * 1000, memoryGrowth: MEMORY_GROWTH.small },
} as const satisfies Record<string, AttackBudget>;
