/**
 * The frame-level and permessage-deflate attacks of the robustness profile as data: the advisory each
 * replays and the budgets a peer is held to. The cases (cases/attack-frames.ts) are written once and
 * played in both roles: 17.2.3-17.2.6 and 17.3.x against a server, 18.3.4-18.3.7 against a client.
 */
import type { AttackBudget } from '../../cases/types.js';
import { MEMORY_GROWTH } from '../../cases/data/budgets.js';

/** The public advisories these attacks replay, in the words a report quotes. */
export const FrameAdvisory = {
  reservedOpcode:
    'Java-WebSocket#1507 (the declared length allocated from the header, before a byte of payload), here behind a reserved opcode, which RFC 6455 §5.2 makes a reason to fail on its own',
  limitPlusOne:
    'ws#2331 and ws#2332: a message cut into many small fragments cost its receiver far more memory than the message limit it was checked against; RFC 6455 §10.4 asks for a limit "after reassembly from multiple frames"',
  endless:
    'Netty CVE-2014-0193: a text frame followed by an endless series of continuation frames grew the aggregator without bound (fixed in 3.9.1 and 4.0.19); ws#2331 and ws#2332: per-fragment overhead',
  randomBytes:
    'no single advisory: frame parsers that crashed or hung on malformed input (CVE-2020-27813, undici CVE-2026-1528) are the class; RFC 6455 §7.1.7 asks a peer to fail the connection on invalid data',
  bomb: 'Python websockets CVE-2018-1000518 (a server inflated a compressed message without limit), undici CVE-2026-1526 (the same in a client)',
  windowBits:
    'RFC 7692 §7.1.2: window bits are 8 to 15; a value passed on to zlib unchecked throws (undici CVE-2026-2229 died of it as a client); 15.2.2 checks the decline, this the survival',
} as const;

/** Seconds a peer has to refuse a frame it must refuse at its header (as 17.2.2 and 18.3.3). */
export const REFUSE_AT_HEADER_S = 2;

/** 17.2.3 / 18.3.4: a reserved opcode (0x3) declaring 1 GiB, its payload trickled. */
export const RESERVED_GIB = {
  opcode: 0x3,
  declared: 1024 * 1024 * 1024,
  /** Bytes per write, one write every `everyS` seconds, while the connection is open. */
  pieceBytes: 1024,
  everyS: 0.1,
} as const;

/** 17.2.4 / 18.3.5: limit + 1 bytes in fragments of 4 KiB, written in batches with back-pressure. */
export const LIMIT_PLUS_ONE = {
  fragmentBytes: 4096,
  /**
   * The message goes on past the limit by this much before its last fragment (FIN): a peer that
   * checks its limit only at FIN reads on to it, one that counts as fragments come refuses at the limit.
   */
  pastBytes: 16 * 1024 * 1024,
  /**
   * What a peer may have read of the message beyond its limit when it refuses it: its reads ahead of
   * its check (a socket read, 64 KiB in Node) and what was in flight, with room to spare.
   */
  slackBytes: 4 * 1024 * 1024,
  /** Fragments per batch: 256 KiB, then wsgate waits until its socket has taken them. */
  batch: 64,
  /** The peer has this long to refuse (or wsgate to send it all and see it taken), in seconds. */
  withinS: 30,
  /** After the last fragment, how long wsgate waits for an echo or a refusal, in seconds. */
  afterS: 5,
} as const;

/**
 * 17.2.5 / 18.3.6: a binary frame without FIN, then one-byte continuations. At the default 100 MiB
 * limit a peer that counts only bytes would need 100 million frames (700 MB on the wire as a client)
 * to refuse: no run can wait for that. So the attack is bounded by a count: 1,048,576 frames (64 times
 * ws's default of 16,384 fragments, 1 MiB of payload: under any message limit). A peer that fails the
 * connection before the count passes; one that takes them all and answers the close wsgate then sends
 * within the budget kept up and stayed responsive, but limits neither fragments nor their overhead:
 * NON-STRICT; one that falls behind past the budget, or dies, fails.
 */
export const ENDLESS = {
  frames: 1024 * 1024,
  /** Frames per batch, then wsgate waits until its socket has taken them. */
  batch: 16 * 1024,
  withinS: 30,
} as const;

/**
 * 17.2.6 / 18.3.7: first valid frames with random contents (binary messages of random sizes across
 * the three length encodings, some fragmented with pings between the fragments), so that a peer's
 * parser is exercised past a frame's first byte; then random bytes, 64 KiB every 100 ms, until 10 s
 * from the start. A random stream alone began 9b ff (RSV3, a reserved opcode): every peer refused it
 * at its first byte.
 */
export const RANDOM_BYTES = {
  seed: 0x17f4a5e,
  seconds: 10,
  pieceBytes: 64 * 1024,
  everyS: 0.1,
  /** Valid frames first: this many messages, ... */
  messages: 100,
  /** ... each at most this long (all three length encodings: 0-125, 126-65535, and 65536 itself needs the 64-bit one) ... */
  maxMessageBytes: 65536,
  /** ... a third of them in up to this many fragments, a ping of random payload (at most 125 bytes) after each fragment but the last. */
  maxFragments: 8,
} as const;

export const reservedGiBBudget: AttackBudget = {
  advisory: FrameAdvisory.reservedOpcode,
  closeWithinMs: REFUSE_AT_HEADER_S * 1000,
  memoryGrowth: MEMORY_GROWTH.small,
};
/**
 * Its memory follows the run's `message` budget: a peer holds up to its limit before it refuses (ws
 * with its limits as shipped grew 78-87 MiB refusing at 16,384 fragments), in a few copies: twice the
 * limit and `small` beside it (232 MiB at the default 100 MiB).
 */
export const limitPlusOneBudget: AttackBudget = {
  advisory: FrameAdvisory.limitPlusOne,
  closeWithinMs: LIMIT_PLUS_ONE.withinS * 1000,
  memoryPerMessageLimit: 2,
};
export const endlessBudget: AttackBudget = { advisory: FrameAdvisory.endless, closeWithinMs: ENDLESS.withinS * 1000, memoryGrowth: MEMORY_GROWTH.fragments };
export const randomBytesBudget: AttackBudget = {
  advisory: FrameAdvisory.randomBytes,
  closeWithinMs: RANDOM_BYTES.seconds * 1000,
  memoryGrowth: MEMORY_GROWTH.messages,
};
/** 17.3.3-17.3.8: the answer, the compressed message and its echo (or the refusal) within 4 s. */
export const windowBitsOfferBudget: AttackBudget = { advisory: FrameAdvisory.windowBits, closeWithinMs: 4000, memoryGrowth: MEMORY_GROWTH.small };
