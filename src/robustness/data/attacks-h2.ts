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
  internalBuffering: {
    id: 'CVE-2019-9517 (HTTP/2 internal data buffering)',
    what: 'a client opens every HTTP/2 window but reads nothing, so TCP holds the answers back, and sends request after request: a server that reads on queues every answer in its own memory; Node.js took it in 10.16.3 and 12.8.1 (an Http2Session stops reading while a write of its own waits), nginx in 1.16.1',
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
  /**
   * Requests whose answers are never read (about 75 bytes each, 37 MB): five times what a fixed
   * server reads before the kernel's buffers of its answers fill (Node.js 20.20 and 12.8.1: about
   * 98,000), and enough that one reading on holds megabytes (12.8.0: 1.9 MB of 300,000).
   */
  requests: 500_000,
  requestBatch: 1000,
  /**
   * Bytes of answers a server may hold itself, beyond what the kernel holds, once it stopped reading:
   * a buffer's worth. Node.js 20.20 and 12.8.1 held 0-2,627 answers of 44 bytes (a write of its own
   * in flight, up to 115 KB); HAProxy 2.6.12, about 29,000 of 16 bytes (470 KB: its output ring);
   * Node.js 12.8.0, reading on, 150,000 and more (3.6 MB and more).
   */
  answerBytesHeld: 1024 * 1024,
  /** Connections whose header block is cut by a TCP reset: Node.js 20.12.0 died within 40 here. */
  cutBlocks: 500,
  /**
   * How long a server that has read the whole flood has to end the connection, and how long one that
   * reads nothing (a write of the flood waiting, or its end unread) has before wsgate calls it stopped
   * and stops the flood, in ms (times the `time` budget).
   */
  graceMs: 2000,
} as const;
