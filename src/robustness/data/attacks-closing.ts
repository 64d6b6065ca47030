/**
 * Back-pressure and closing attacks (17.4 on a server under test, 18.5 on a client under test): what
 * each sends, the budgets its figures are held to, and why. The cases are attack-closing.ts; the
 * figures the engine adds to every robustness case (play/attack-figures.ts) use `closeWithinMs`.
 */
import type { AttackBudget } from '../../cases/types.js';
import { MEMORY_GROWTH } from '../../cases/data/budgets.js';

/** What each attack replays: the advisory where one exists, else the rule it tests. */
export const ClosingAdvisory = {
  pingFlood:
    'CVE-2019-9512 ("Ping Flood", HTTP/2): a peer that answers every ping while its writes back up queues the answers without bound; RFC 6455 §5.5.3 lets a WebSocket peer answer only the most recent ping',
  slowReader:
    'CVE-2019-9517 ("Internal Data Buffering", HTTP/2): a peer that keeps reading requests while its answers cannot leave buffers them without bound; undici#5503 (a WebSocket reader without back-pressure)',
  unansweredClose:
    'streamr-dev/broker#100: server connections whose closing handshake was never completed stayed open (fixed with a timeout); ws drops an unanswered close after its 30 s closeTimeout',
  neverClosed:
    'dotnet/corefx#33339: ManagedWebSocket did not close TCP after a completed closing handshake; RFC 6455 §7.1.1: the server closes TCP first, a client waits for it, but not forever (ws: 30 s)',
} as const;

/** 17.4.1, 18.5.1: pings of 125 bytes written while wsgate reads nothing. */
export const PING_FLOOD = {
  /** Ping payload bytes (the most a control frame carries, RFC 6455 §5.5). */
  payloadBytes: 125,
  /** Pings per write, each write awaited (flushed) before the next: about 64 KiB. */
  pingsPerWrite: 500,
  /** Ping bytes written at most (32 MiB), unless the peer stops reading first. */
  totalBytes: 32 * 1024 * 1024,
  /** A write the peer has not taken within this many seconds: it stopped reading (back-pressure, fine). */
  stalledAfterS: 2,
  /** Reading again: pongs are counted until none came for this many seconds. */
  quietS: 1,
  /** ... or for at most this many seconds. */
  countForS: 15,
  /**
   * Pong bytes the peer may deliver once wsgate reads again: 16 MiB. What the kernel's buffers hold
   * on loopback (the peer's send buffer, up to 4 MiB by Linux's default tcp_wmem, and wsgate's
   * receive buffer, which does not grow while nothing is read) is a few MiB; a peer that answers
   * only the latest ping, or stops reading while its answers back up, delivers no more than that and
   * what it holds itself. One that answers every ping into an unbounded queue delivers about what
   * wsgate wrote (31 MiB of pongs for 32 MiB of pings).
   */
  pongBudgetBytes: 16 * 1024 * 1024,
} as const;

/** 17.4.2, 18.5.2: a large message whose echo wsgate reads at 1 KiB/s, while it writes further messages. */
export const SLOW_ECHO = {
  /**
   * The large message: 16 MiB, in fragments of 64 KiB. Its echo cannot all leave: the kernel's
   * buffers toward wsgate (the peer's send buffer, up to 4 MiB by Linux's default tcp_wmem, and
   * wsgate's receive buffer, which does not grow while it reads slowly) hold a few MiB of it.
   */
  messageBytes: 16 * 1024 * 1024,
  fragmentBytes: 64 * 1024,
  /**
   * wsgate reads at this rate for `windowS` seconds: long enough that a peer reading at a modest
   * 3 MiB/s takes the message in 5.3 s and then 17 MiB of further messages.
   */
  readBytesPerSecond: 1024,
  windowS: 11,
  /** Further 64 KiB messages written after it, each once the previous was taken, up to this many bytes. */
  furtherCapBytes: 48 * 1024 * 1024,
  /** A write the peer has not taken within this many seconds: it stopped reading. */
  stalledAfterS: 1,
  /**
   * Bytes of further messages the peer may hold as echoes that cannot leave: 4 MiB, a bounded queue
   * of its own. Held is what it echoed, once wsgate reads freely again, past the large message and
   * what was still in the kernel's buffers toward it at the window's end (the echoes of bytes it
   * read only then). A peer with back-pressure stops reading (ws: about 0.1 MiB); one that reads on
   * and drops what it cannot send (load shedding) echoes little; one that queues every echo holds
   * everything it read past the message.
   */
  heldBudgetBytes: 4 * 1024 * 1024,
  /**
   * The same where the kernel's buffers cannot be read (the peer's socket is not on this machine):
   * they are counted in, a few MiB each way, so the bound is 16 MiB.
   */
  heldBudgetUnreadUnknownBytes: 16 * 1024 * 1024,
} as const;

/** The stall cases' own time limit beyond the stall budget: the case ends the connection then (s). */
export const STALL_MARGIN_S = 2;

/** A server under test must drop TCP this soon after it answered wsgate's close (RFC 6455 §7.1.1: at once). */
export const SERVER_DROP_MS = 2000;

/** The connection's whole time: the flood, the counting, the close (ms). */
export const pingFloodBudget: AttackBudget = { advisory: ClosingAdvisory.pingFlood, closeWithinMs: 60_000, memoryGrowth: MEMORY_GROWTH.small };
export const slowEchoBudget: AttackBudget = { advisory: ClosingAdvisory.slowReader, closeWithinMs: 60_000, memoryGrowth: MEMORY_GROWTH.echo };
/**
 * The CPU time a peer may spend over a case in which it only waits for wsgate (a close that never
 * comes, a connection never closed), in ms, scaled by the run's `time` budget: waiting costs next to
 * nothing (ws: under 50 ms with its close timer); a peer that polls for the close burns a core for
 * as long as it waits (a server spinning 5 s: about 5,000 ms).
 */
export const WAITING_CPU_MS = 1000;

export const unansweredCloseBudget: AttackBudget = {
  advisory: ClosingAdvisory.unansweredClose,
  closeWithinMs: 0,
  stall: true,
  memoryGrowth: MEMORY_GROWTH.small,
  cpuMs: WAITING_CPU_MS,
};
/** A client under test: the stall budget; a server under test: SERVER_DROP_MS. */
export function neverClosedBudget(peer: 'server' | 'client'): AttackBudget {
  return peer === 'server'
    ? { advisory: ClosingAdvisory.neverClosed, closeWithinMs: SERVER_DROP_MS, memoryGrowth: MEMORY_GROWTH.small, cpuMs: WAITING_CPU_MS }
    : { advisory: ClosingAdvisory.neverClosed, closeWithinMs: 0, stall: true, memoryGrowth: MEMORY_GROWTH.small, cpuMs: WAITING_CPU_MS };
}
