/**
 * Group 18's attacks as data: the advisory each replays and its budgets (the defaults a client under
 * test is held to). The engine measures the figures (play/attack-figures.ts); the cases
 * (s18-*.ts) only script what is sent.
 */
import type { AttackBudget } from '../../cases/types.js';
import { MEMORY_GROWTH } from '../../cases/data/budgets.js';

/** The public advisories group 18 replays, in the words a report quotes. */
export const ClientAdvisory = {
  windowBits:
    'undici CVE-2026-2229: an out-of-range server_max_window_bits passed the digits-only check, and the first compressed frame made createInflateRaw throw an uncaught RangeError that ended the process (fixed in 6.24.0 and 7.24.0)',
  bomb: 'undici CVE-2026-1526 (GHSA-vrm6-8vpv-qv8q): permessage-deflate inflated without bound (fixed in 6.24.0 and 7.24.0: a 4 MB limit); Python websockets CVE-2018-1000518',
  length64:
    'undici CVE-2026-1528: a 64-bit frame length overflowed the parser and crashed the client (fixed in 6.24.0 and 7.24.0); gorilla/websocket CVE-2020-27813: a length past the read limit',
  declaredGiB:
    'Java-WebSocket#1507: a 14-byte header made the peer allocate the declared length up front; a client must refuse a length past its limit at the header',
  unnegotiatedRsv1:
    'aiohttp GHSA-mq44-7p77-q5h7: a client inflated frames with RSV1 set though it had not negotiated permessage-deflate (a decompression bomb without the extension)',
} as const;

/** Seconds a client has to refuse a response or a frame before the server ends the case (as 14.1-14.3). */
export const REFUSE_WITHIN_S = 2;

/** 18.1: refuse (or take a valid 8) within the refusal time; never crash. */
export const windowBitsBudget: AttackBudget = { advisory: ClientAdvisory.windowBits, closeWithinMs: REFUSE_WITHIN_S * 1000, memoryGrowth: MEMORY_GROWTH.small };

/** 18.2: what the bomb inflates to, how it is cut, and how long a client has to refuse it. */
export const BOMB = {
  /** 1 GiB of zeros: 256 pieces of 4 MiB (about 1 MB on the wire). */
  pieces: 256,
  /** Pieces per TCP write (each write after the previous one was flushed): 64 MiB inflated each. */
  piecesPerWrite: 16,
  /** A client with a message limit refuses after inflating at most that much: seconds, not minutes. */
  refuseWithinS: 10,
} as const;

export const bombBudget: AttackBudget = { advisory: ClientAdvisory.bomb, closeWithinMs: BOMB.refuseWithinS * 1000 };
/** 18.2.3: RSV1 without the extension is refused at the frame's first byte: the refusal time, and about no memory. */
export const unnegotiatedBombBudget: AttackBudget = {
  advisory: ClientAdvisory.unnegotiatedRsv1,
  closeWithinMs: REFUSE_WITHIN_S * 1000,
  memoryGrowth: MEMORY_GROWTH.small,
};

/** 18.3: the declared 1 GiB frame's payload, trickled while the client has not refused. */
export const TRICKLE = {
  /** Bytes per write, one write every `everyS` seconds. */
  bytes: 1024,
  everyS: 0.1,
} as const;

export const length64Budget: AttackBudget = { advisory: ClientAdvisory.length64, closeWithinMs: REFUSE_WITHIN_S * 1000, memoryGrowth: MEMORY_GROWTH.small };
export const declaredGiBBudget: AttackBudget = {
  advisory: ClientAdvisory.declaredGiB,
  closeWithinMs: REFUSE_WITHIN_S * 1000,
  memoryGrowth: MEMORY_GROWTH.small,
};
