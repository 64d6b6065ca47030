/**
 * A tape of wsgate's side of one connection, for `wsgate repro`: every logical write (the bytes
 * themselves, by reference), when it was made, and how far the peer had got by then; the case's own
 * events (timeouts); and how wsgate ended TCP. Cheap to keep: one small object per write and no copy
 * (a buffer handed to the socket is never changed afterwards: compressed messages are copied out of
 * the compressor's scratch, see PerMessageDeflate.compress); the run drops the tape of every passing
 * case as it is settled.
 */

/**
 * The most payload bytes a tape keeps. Past it the tape stops keeping bytes and says so (a run of
 * group 9's 16 MiB messages to a client that echoes them all stays within it; a flood does not).
 */
export const TAPE_BYTE_LIMIT = 96 * 1024 * 1024;

/** One logical write of wsgate's. */
export interface TapeWrite {
  /** Milliseconds since the connection started. */
  readonly t: number;
  /** Frame octets received from the peer so far (after the opening handshake). */
  readonly rx: number;
  /** Written while the opening handshake was under way (a request or response head). */
  readonly handshake: boolean;
  /** A write of its own (a chopped piece, a sync frame): it leaves in a TCP write of its own. */
  readonly sync: boolean;
  /** The bytes, in order (a frame header and its payload are two parts, not copied together). */
  readonly parts: readonly Buffer[];
  /** `length` bytes of `pattern` repeated after the parts (a streamed payload, never built whole). */
  readonly repeat: { readonly pattern: Buffer; readonly length: number } | null;
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
  private readonly startedAt = performance.now();

  /** `framesIn`: the frame octets received so far (after the opening handshake). */
  constructor(private readonly framesIn: () => number) {}

  /** Milliseconds since the connection started, to 0.1 ms. */
  now(): number {
    return Math.round((performance.now() - this.startedAt) * 10) / 10;
  }

  /** Octets received (any, handshake included). */
  received(length: number): void {
    this.octetsIn += length;
  }

  /** One logical write of `length` octets: `parts`, then `repeat` streamed. */
  write(parts: readonly Buffer[], repeat: TapeWrite['repeat'], sync: boolean, length: number, handshake: boolean): void {
    this.octetsOut += length;
    if (this.overflowed) return;
    const rx = this.framesIn();
    this.kept += length - (repeat?.length ?? 0) + (repeat?.pattern.length ?? 0);
    if (this.kept > TAPE_BYTE_LIMIT) {
      this.overflowed = true;
      return;
    }
    this.writes.push({ t: this.now(), rx, handshake, sync, parts, repeat });
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
