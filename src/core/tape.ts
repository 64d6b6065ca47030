/**
 * A tape of wsgate's side of one connection, for `wsgate repro`: every logical write, when it was
 * made, and how far the peer had got by then; the case's own events (timeouts); and how wsgate ended
 * TCP. Cheap to keep: small writes are copied into blocks of the tape's own and runs of writes are one
 * entry (9.3.1's 65536 fragments took 20 MiB as an object per write, bench group 9), large writes are
 * kept by reference (a buffer handed to the socket is never changed afterwards: compressed messages
 * are copied out of the compressor's scratch, see PerMessageDeflate.compress). The run drops the tape
 * of every passing case as it is settled.
 */

/** Parts up to this size are copied into the tape's blocks; larger ones are kept by reference. */
const SMALL_PART = 1024;
/** The size of those blocks (the first one is smaller). */
const BLOCK_SIZE = 64 * 1024;
const FIRST_BLOCK_SIZE = 4 * 1024;

/**
 * The most bytes a tape keeps (a streamed repeated payload counts as its pattern). Past it the tape
 * stops keeping writes and says so: the script replays up to there. Every case in flight holds its
 * tape until it is settled, so this bounds what recording adds to the heap. At 96 MiB the whole
 * catalogue's peak RSS went from 120 to 324 MiB and wsgate's CPU from 46 to 59 s (bench --whole-only,
 * --jobs 2: 12.x send up to 100 MiB of compressed messages); 8 MiB keeps the cases of groups 1-7,
 * 9.1-9.6 and 10 whole (a streamed payload is its pattern), and of 9.7/9.8, 12.x and 13.x those with
 * the smaller messages; the others replay their first 8 MiB.
 */
export const TAPE_BYTE_LIMIT = 8 * 1024 * 1024;

/**
 * One write of wsgate's, or a run of them: consecutive writes made within a millisecond of each other
 * with nothing more from the peer in between are one entry (65536 fragments of 9.3.1 leave in one loop
 * turn, and the repro writes them together too); a run of sync writes of one size is a chopped frame,
 * replayed a piece per loop turn.
 */
export interface TapeWrite {
  /** Milliseconds since the connection started (of the first write of the entry). */
  readonly t: number;
  /** Frame octets received from the peer so far (after the opening handshake). */
  readonly rx: number;
  /** Written while the opening handshake was under way (a request or response head). */
  readonly handshake: boolean;
  /** Sync writes, each a TCP write of its own (chopped pieces, sync frames). */
  readonly sync: boolean;
  /** The bytes in order: small writes copied into the tape's own blocks, large ones by reference. */
  readonly segments: Buffer[];
  /** Octets in segments. */
  total: number;
  /** `length` bytes of `pattern` repeated after the segments (a streamed payload, never built whole). */
  readonly repeat: { readonly pattern: Buffer; readonly length: number } | null;
  /** Sync writes of this size each (the last may be shorter): one per loop turn; 0: one write. */
  chop: number;
  /** When the entry's last write was made. */
  tEnd: number;
}

/** An event the case recorded itself (a timeout tag), when. */
export interface TapeMark {
  readonly t: number;
  readonly rx: number;
  readonly tag: string;
}

/** How wsgate ended TCP, when it did. */
export interface TapeEnd {
  readonly t: number;
  readonly rx: number;
  /** `abort`: destroyed at once; `after-flush`: FIN once everything written had left. */
  readonly how: 'abort' | 'after-flush';
  /** Why the close was unclean (a timeout, a failure by drop), or null. */
  readonly unclean: string | null;
}

/** What went each way on one connection, and what wsgate wrote. */
export class Tape {
  /** Octets received, handshake included. */
  octetsIn = 0;
  /** Octets sent, handshake included. */
  octetsOut = 0;
  readonly writes: TapeWrite[] = [];
  readonly marks: TapeMark[] = [];
  end: TapeEnd | null = null;
  /** Bytes kept; past TAPE_BYTE_LIMIT the tape is `overflowed` and keeps no more writes. */
  private kept = 0;
  overflowed = false;
  private readonly startedAt: number;
  private block: Buffer = Buffer.alloc(0);
  private blockUsed = 0;

  /** `framesIn`: the frame octets received so far (after the opening handshake); `clock`: ms, performance.now's. */
  constructor(
    private readonly framesIn: () => number,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.startedAt = clock();
  }

  /** Milliseconds since the connection started, to 0.1 ms. */
  now(): number {
    return Math.round((this.clock() - this.startedAt) * 10) / 10;
  }

  /** Octets received (any, handshake included). */
  received(length: number): void {
    this.octetsIn += length;
  }

  /** One logical write of `length` octets: `parts`, then `repeat` streamed. */
  write(parts: readonly Buffer[], repeat: TapeWrite['repeat'], sync: boolean, length: number, handshake: boolean): void {
    this.octetsOut += length;
    if (this.overflowed) return;
    this.kept += length - (repeat?.length ?? 0) + (repeat?.pattern.length ?? 0);
    if (this.kept > TAPE_BYTE_LIMIT) {
      this.overflowed = true;
      return;
    }
    const rx = this.framesIn();
    const t = this.now();
    const last = this.writes.at(-1);
    const piece = length - (repeat?.length ?? 0);
    if (repeat === null && last !== undefined && last.repeat === null && last.handshake === handshake && last.rx === rx && t - last.tEnd <= 1) {
      const size = last.chop || last.total;
      if (!sync && !last.sync) {
        this.append(last, parts, t);
        return;
      }
      if (sync && last.sync && size > 0 && piece <= size && last.total % size === 0) {
        last.chop = size;
        this.append(last, parts, t);
        return;
      }
    }
    const entry: TapeWrite = { t, rx, handshake, sync, segments: [], total: 0, repeat, chop: 0, tEnd: t };
    this.writes.push(entry);
    this.append(entry, parts, t);
  }

  /** Adds a write's bytes to an entry: a small part copied into the current block, a large one by reference. */
  private append(entry: TapeWrite, parts: readonly Buffer[], t: number): void {
    entry.tEnd = t;
    for (const p of parts) {
      entry.total += p.length;
      if (p.length > SMALL_PART) {
        entry.segments.push(p);
        continue;
      }
      if (this.block.length - this.blockUsed < p.length) {
        // Most tapes hold a few frames: the first block is small.
        this.block = Buffer.allocUnsafe(this.block.length === 0 ? FIRST_BLOCK_SIZE : BLOCK_SIZE);
        this.blockUsed = 0;
      }
      const start = this.blockUsed;
      this.blockUsed += p.copy(this.block, start);
      const lastSegment = entry.segments.at(-1);
      // The next bytes of the same block: the last segment grows instead of a new one.
      if (
        lastSegment !== undefined &&
        lastSegment.buffer === this.block.buffer &&
        lastSegment.byteOffset + lastSegment.length === this.block.byteOffset + start
      ) {
        entry.segments[entry.segments.length - 1] = this.block.subarray(start - lastSegment.length, this.blockUsed);
      } else entry.segments.push(this.block.subarray(start, this.blockUsed));
    }
  }

  /** A case's own event (a timeout tag). */
  mark(tag: string): void {
    this.marks.push({ t: this.now(), rx: this.framesIn(), tag });
  }

  /** wsgate ended TCP (the first time counts). */
  ended(how: TapeEnd['how'], unclean: string | null): void {
    this.end ??= { t: this.now(), rx: this.framesIn(), how, unclean };
  }
}
