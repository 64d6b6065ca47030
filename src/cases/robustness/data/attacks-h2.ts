/**
 * The HTTP/2 floods of group 17 (17.5, `--robustness --http2`): the advisories they replay and the
 * sizes they are played at. Each flood is bounded by a count a fixed server never reaches (its
 * limit is far below) and a vulnerable one takes in a second or two.
 */
import type { Advisory } from './attacks.js';

/** The advisories of 17.5. */
export const H2Advisories = {
  rapidReset: {
    id: 'CVE-2023-44487 (HTTP/2 Rapid Reset)',
    what: 'a client opens streams and cancels each at once (HEADERS, RST_STREAM): no stream stays open to count against SETTINGS_MAX_CONCURRENT_STREAMS, and the server does the work of every request; nghttp2 1.57.0 rate-limits resets (a burst of 1,000, then 33 a second) and sends GOAWAY, Node.js took it in 18.18.2, 20.8.1 and 21.0.0',
  },
  continuationFlood: {
    id: 'CVE-2024-27316, CVE-2023-45288, CVE-2024-28182 (HTTP/2 CONTINUATION flood)',
    what: "a header block that never ends: HEADERS without END_HEADERS, then CONTINUATION frames without end, which a server decodes (or buffers) while no other frame may come; nghttp2 1.61.0 ends the connection after 8 CONTINUATION frames (Node.js ships it from 20.13.0; 20.12.1's fix of the same week was CVE-2024-27983's, 17.5.4)",
  },
  cutHeaderBlock: {
    id: 'CVE-2024-27983',
    what: "Node.js before 18.20.1, 20.12.1 and 21.7.2: a connection cut (TCP reset) while its HEADERS and CONTINUATION frames were still being decoded left nghttp2 memory behind, and the session's destructor asserted it was zero: the server process aborted",
  },
  pingFlood: {
    id: 'CVE-2019-9512 (HTTP/2 ping flood)',
    what: "a client sends PINGs and never reads the acknowledgements, which pile up in the server's memory; nghttp2 1.39.2 ends the connection once 1,000 frames wait in its outbound queue, Node.js took it in 10.16.3 and 12.8.1",
  },
} as const satisfies Record<string, Advisory>;

/** The sizes the floods are played at. */
export const H2Budgets = {
  /** Streams opened and reset: ten times nghttp2's burst of 1,000. */
  rapidResetPairs: 10_000,
  /** Pairs per write (about 80 bytes each). */
  rapidResetBatch: 100,
  /** CONTINUATION frames (26 bytes each, 2.6 MB): over ten thousand times nghttp2's limit of 8. */
  continuationFrames: 100_000,
  continuationBatch: 1000,
  /** PINGs (17 bytes each, 34 MB): past loopback's buffers at both ends (tens of MiB under load) and then nghttp2's queue of 1,000. */
  pings: 2_000_000,
  pingBatch: 2000,
  /** Connections whose header block is cut by a TCP reset: Node.js 20.12.0 died within 40 here. */
  cutBlocks: 500,
  /**
   * How long a server that has read the whole flood has to end the connection, and how long one that
   * reads nothing (a write of the flood waiting, or its end unread) has before wsgate calls it stopped
   * and stops the flood, in ms (times the `time` budget).
   */
  graceMs: 2000,
} as const;
