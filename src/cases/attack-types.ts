/**
 * What a robustness case (groups 17 and 18) is besides an ordinary case: an attack the engine plays
 * from the outside (raw TCP, timed, at several sizes) instead of one WebSocket connection, and a pure
 * function that judges the facts the engine measured. A case never touches a socket; measuring is
 * the engine's job (fuzzing-client/attacks/), once.
 */
import type { UpgradeRequestSpec } from '../protocol/client-handshake.js';
import type { Judgement } from './judgement.js';
import type { RobustnessBudgets } from './data/budgets.js';

/** Payload bytes written slowly after a frame header, to see whether the server waits for them. */
export interface Trickle {
  /** Bytes per write. */
  readonly pieceBytes: number;
  /** Pause between writes, in ms. */
  readonly everyMs: number;
  /** Stop after this many payload bytes (never more than the header declared). */
  readonly totalBytes: number;
}

/**
 * How a probe writes its request head (absent: all at once). `bytewise`: one byte per write, each
 * after the previous one was flushed, Nagle off. `paced`: a piece of `pieceBytes` every `everyMs` (a
 * server that keeps up reads each on its own). `trickle`: one byte every `everyMs` (the head the
 * case gives never ends: a stall, waited for up to the run's `stall` budget). `streamed`: the request
 * head up to a header `header` whose value is `totalBytes` of one reused piece, each write after the
 * previous one drained, stopped once the server answers or ends the connection (with `lineBytes`,
 * the piece is one whole line and the next line's name: `totalBytes` in lines of that size).
 */
export type ProbeDelivery =
  | { readonly kind: 'bytewise' }
  | { readonly kind: 'paced'; readonly pieceBytes: number; readonly everyMs: number }
  | { readonly kind: 'trickle'; readonly everyMs: number }
  | {
      readonly kind: 'streamed';
      readonly header: string;
      readonly pieceBytes: number;
      readonly totalBytes: number;
      /** The padding as many header lines of this many bytes each (all named `header`), not one line: under any limit on a line, over any on a head. */
      readonly lineBytes?: number;
    };

/** One raw TCP connection of an attack on a server under test. */
export interface AttackProbe {
  /** What the report calls it ("2,000 header lines"). */
  readonly label: string;
  /** The size it stands for (bytes of a header value, header lines, a declared length). */
  readonly size: number;
  /** The request head sent instead of the normal one, built from the normal one's parts; absent: the normal request. */
  readonly request?: (normal: UpgradeRequestSpec) => string;
  /** Once the server answered 101: bytes written at once (a frame header), then the trickle. */
  readonly afterOpen?: { readonly head: Uint8Array; readonly trickle?: Trickle };
  /** How long the engine waits for the answer (or, after `afterOpen`, for the server to end the connection), in ms, times the run's `time` budget. */
  readonly waitMs: number;
  /** How the request head is written (absent: at once). A `trickle` waits the run's `stall` budget instead of `waitMs`. */
  readonly delivery?: ProbeDelivery;
}

/** What the engine measured of one probe. */
export interface ProbeFacts {
  readonly label: string;
  readonly size: number;
  /** How long wsgate waited for the answer or the end (the probe's `waitMs`). */
  readonly waitMs: number;
  /** Request bytes wsgate wrote (all of them unless the server ended the connection first). */
  readonly requestBytes: number;
  /**
   * Of a streamed request: the most of it the server's process had read at any point (what wsgate
   * flushed less what the kernel held unread: util/kernel-queues.ts); null when the server's socket
   * was never seen (not on this machine, or gone before the first look). Absent for other deliveries.
   */
  readonly peerReadBytes?: number | null | undefined;
  /** The status of the server's answer, or null when none came. */
  readonly status: number | null;
  /** From the request's last byte written to the answer's first byte, in ms; null without an answer. */
  readonly answerMs: number | null;
  /** After `afterOpen`: from the frame header written to the server's close frame or end of TCP, in ms; null when it did neither in time. */
  readonly closedMs: number | null;
  /** The code of the server's close frame (after `afterOpen`), 1005 for one without a code, null for none. */
  readonly closeCode: number | null;
  /** Trickled payload bytes written before the server ended the connection (or the trickle ended). */
  readonly trickled: number;
  /** How the connection ended: the server closed it, reset it, refused it; or wsgate's wait ran out. */
  readonly ending: 'closed' | 'reset' | 'refused' | 'timeout';
  /** From the connection's start to the answer or the end (whichever came first), in ms. */
  readonly elapsedMs: number;
}

/** The answer time at one size, the shortest of its tries (noise only ever adds time). */
export interface SizedTime {
  readonly size: number;
  readonly ms: number;
}

/** What a growth attack measured: answers at growing sizes, up to what the server's HTTP layer takes. */
export interface GrowthFacts {
  /** Every probe, in the order played. */
  readonly probes: readonly ProbeFacts[];
  /** A small value's answer time: the fixed cost every size pays. */
  readonly base: SizedTime | null;
  /** The largest size the server answered itself (not refused by its HTTP layer), and its time. */
  readonly largest: SizedTime | null;
  /** The size nearest a quarter of the largest, and its time (linear growth: a quarter of the time). */
  readonly quarter: SizedTime | null;
  /** The smallest size the HTTP layer refused (431, 413, or no answer), or null when it took every size. */
  readonly cap: number | null;
}

/**
 * A header of growing size: `value(n)` of n bytes in the header `header`, at each of `sizes` until
 * the HTTP layer refuses one, then between the last taken and the first refused.
 */
export interface GrowthAttack extends AttackCost {
  readonly kind: 'growth';
  readonly header: string;
  readonly value: (n: number) => string;
  readonly sizes: readonly number[];
  /** Stop growing once an answer takes this long (ms): the figure is in. */
  readonly stopAfterMs: number;
  /** The verdict; `budgets` are the run's (its time budgets scaled: cases/data/budgets.ts). */
  readonly judge: (facts: GrowthFacts, budgets: RobustnessBudgets) => Judgement;
}

/** What every attack may hold the server to beside its judge. */
export interface AttackCost {
  /**
   * The most CPU time the server's process tree may spend over the case, in ms, times the run's
   * `time` budget (measured when wsgate started it: play/attack-figures.ts); absent, not judged.
   */
  readonly cpuMs?: number;
  /** The most the server's process tree may grow over the case, in bytes; absent, a raw attack's `small` (cases/data/budgets.ts). */
  readonly memoryGrowth?: number;
}

/** Fixed probes, one connection each, judged together. */
export interface ProbesAttack extends AttackCost {
  readonly kind: 'probes';
  readonly probes: readonly AttackProbe[];
  /** The verdict; `budgets` are the run's (its time budgets scaled: cases/data/budgets.ts). */
  readonly judge: (facts: readonly ProbeFacts[], budgets: RobustnessBudgets) => Judgement;
}

/** What a crowd attack measured: the crowd's connections, and the normal client's request beside them. */
export interface CrowdFacts {
  /** The crowd's connections, in the order opened. */
  readonly crowd: readonly ProbeFacts[];
  /** How many of the crowd were connected and written when the normal client connected. */
  readonly ready: number;
  /** The normal client's request, played once the crowd's were written. */
  readonly normal: ProbeFacts;
  /** The address the normal client came from when it was not the crowd's (another loopback address), or null: the same as the crowd's. */
  readonly normalFrom: string | null;
}

/**
 * A crowd of connections, each writing `crowd` (a request head, whole or never ended), then a normal
 * client's upgrade request beside them: its wait for the 101 is the figure. `hold`: the crowd's
 * connections are held open until the normal client is done, then wsgate closes them; otherwise each
 * waits for its own answer.
 */
export interface CrowdAttack extends AttackCost {
  readonly kind: 'crowd';
  readonly connections: number;
  readonly crowd: AttackProbe;
  readonly hold: boolean;
  /** How long the normal client waits for its answer (ms, times the run's `time` budget). */
  readonly normalWaitMs: number;
  readonly judge: (facts: CrowdFacts, budgets: RobustnessBudgets) => Judgement;
}

/**
 * What an HTTP/2 flood sends, one unit at a time (17.5: robustness/s17-5-h2.ts): on one
 * connection, a stream opened and reset, a CONTINUATION frame, a PING, a request whose answer is
 * never read; or (`cut-blocks`) a connection of its own each, an unfinished header block cut by a
 * TCP reset.
 */
export type H2Flood = 'rapid-reset' | 'continuation' | 'ping' | 'requests' | 'cut-blocks';

/**
 * One HTTP/2 connection (h2c with prior knowledge, or TLS with ALPN "h2"): the preface and SETTINGS,
 * then up to `units` of the flood (a stream opened and reset; a CONTINUATION frame; a PING), `batch`
 * per write, each write once the socket took the one before, until the server ends the connection.
 */
export interface H2FloodAttack extends AttackCost {
  readonly kind: 'h2-flood';
  readonly flood: H2Flood;
  readonly units: number;
  readonly batch: number;
  /** How long the server has to end the connection once it has read the whole flood, in ms (times the run's `time` budget). */
  readonly graceMs: number;
  /** The verdict; `budgets` are the run's (cases/data/budgets.ts). */
  readonly judge: (facts: H2FloodFacts, budgets: RobustnessBudgets) => Judgement;
}

/** What the engine measured of an HTTP/2 flood. */
export interface H2FloodFacts {
  readonly flood: H2Flood;
  /** The units the attack would send at most. */
  readonly units: number;
  /** Why the flood never began (no TCP connection, no SETTINGS, no extended CONNECT), or null. */
  readonly refused: string | null;
  /** Units wsgate wrote (handed to the socket) before it stopped. */
  readonly unitsWritten: number;
  /** Octets of the preface and the request ahead of the units, and of one unit (the units are alike in size, to within a few octets). */
  readonly headBytes: number;
  readonly unitBytes: number;
  /**
   * Units the server's process had read at the last look (wsgate's flushed bytes less the kernel's
   * queues at both ends: util/kernel-queues.ts), the most seen; null when its socket was never seen.
   */
  readonly unitsRead: number | null;
  /**
   * The server's end of the flood (its GOAWAY, or the end of TCP, the earlier): when, in ms from the
   * first unit, the units written and read then, and the GOAWAY's error code and last stream id (null:
   * TCP ended first); null when the server did neither.
   */
  readonly end: {
    readonly ms: number;
    readonly unitsWritten: number;
    readonly unitsRead: number | null;
    readonly goaway: { readonly code: number; readonly lastStreamId: number } | null;
  } | null;
  /** The stream ids wsgate opened: the last one (0 for a flood on one stream or none). */
  readonly lastStreamId: number;
  /** RST_STREAM frames and responses (HEADERS) the server sent. */
  readonly resetsIn: number;
  readonly responsesIn: number;
  /** How the connection ended: the server closed or reset TCP; or it was still open when wsgate gave up (`open`). */
  readonly ending: 'closed' | 'reset' | 'open';
  /** From the first unit written to the last, in ms. */
  readonly writingMs: number;
  /**
   * `requests`: where the answers to the requests the server had read were when the flood stopped
   * (null: not measured, the server's socket not on this machine, or the flood ended otherwise).
   * The kernel's bytes are the server's unacknowledged send queue and wsgate's unread receive queue
   * (with what Node had read ahead); wsgate then read the connection, and the answers that came
   * within those bytes were in the kernel. The others the server held itself.
   */
  readonly answers: {
    readonly kernelBytes: number;
    /** Answers (a stream's first HEADERS or RST_STREAM) within the kernel's bytes. */
    readonly inKernel: number;
    /** Answers wsgate read in all once it read on (until the server sent nothing for a while). */
    readonly read: number;
  } | null;
}

/**
 * Every kind of raw attack, by its `kind`. A kind only one subgroup uses may declare itself beside
 * its cases instead (declaration merging: `declare module '../cases/attack-types.js' { interface
 * AttackKinds { 'slow-read': SlowReadAttack } }`); the engine plays a kind once its player is in
 * fuzzing-client/attacks/play-attack.ts's table, which the compiler asks for.
 */
export interface AttackKinds {
  growth: GrowthAttack;
  probes: ProbesAttack;
  crowd: CrowdAttack;
  'h2-flood': H2FloodAttack;
}

/** An attack on a server under test (group 17). */
export type ServerAttack = AttackKinds[keyof AttackKinds];
