/**
 * How fast a connection reads from its peer (robustness cases: a peer that pings and is never read,
 * a slow reader of a large echo). The stream is paused after each chunk for as long as the rate asks
 * (a chunk is what the kernel gave, up to 64 KiB): the average holds, and meanwhile the peer's bytes
 * back up in the kernel's buffers, then in its own.
 */
import type { Duplex } from 'node:stream';

export class ReadRate {
  /** Bytes per second, or null: freely. */
  private rate: number | null = null;
  private timer: NodeJS.Timeout | null = null;

  /** `gone`: the connection is closed (the stream is not resumed any more). */
  constructor(
    private readonly stream: Duplex,
    private readonly gone: () => boolean,
  ) {}

  /** Whether a rate is set (a throttled connection reads again when it is dropped). */
  get limited(): boolean {
    return this.rate !== null;
  }

  /** Reads at most `bytesPerSecond` from now on (0: nothing, null: freely). */
  set(bytesPerSecond: number | null): void {
    this.rate = bytesPerSecond;
    this.stop();
    if (bytesPerSecond === null) this.stream.resume();
    else if (bytesPerSecond <= 0) this.stream.pause();
  }

  /** After a chunk of `bytes` was read: paused for as long as the rate asks. */
  took(bytes: number): void {
    const rate = this.rate;
    if (rate === null || this.gone()) return;
    this.stream.pause();
    if (rate <= 0) return;
    this.stop();
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.rate !== null && !this.gone()) this.stream.resume();
    }, (bytes / rate) * 1000);
  }

  /** Forgets the pending resume (the connection is gone). */
  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
