/**
 * Gives memory back after a case that moved large messages. Its buffers are garbage once the
 * connection is gone, but V8 collects them only when allocation pressure says so, so a run of
 * 16 MiB cases would otherwise hold several of them at once. A full collection (about 20 ms) once
 * finished cases have moved 32 MiB keeps the peak to about one heavy case's worth.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

let collect: (() => void) | null | undefined;

/** The collector, enabled on first use (the --expose-gc flag set at run time); null if unavailable. */
function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    v8.setFlagsFromString('--expose-gc');
    collect = vm.runInNewContext('gc') as () => void;
  } catch {
    collect = null;
  }
  return collect;
}

/**
 * A full collection now. Report writing renders a thousand files from results held since the run
 * began; without it V8 lets the old generation grow by tens of MiB of dead strings before it looks.
 */
export function releaseMemoryNow(): void {
  collector()?.();
}

/** A handled message this big is collected at once (see core/message-assembler.ts): a flood of them would pin memory. */
export const RELEASE_THRESHOLD = 8 * 1024 * 1024;

/**
 * Bytes moved by finished cases since the last collection asked for by them. A collection costs
 * 15-20 ms: one after every case that moved 8 MiB (each of group 9's 54) was 0.7 s of wsgate's 4.8 s
 * of CPU there; one per 32 MiB moved costs a third of that, for 5-10 MiB more peak RSS in group 9
 * (106 MiB), and still one per case in groups 12 and 13.
 */
let movedSinceCollection = 0;
const COLLECT_EVERY = 32 * 1024 * 1024;

/** Counts the bytes a finished case moved, and collects soon once they add up to COLLECT_EVERY. */
export function noteCaseTraffic(bytes: number): void {
  movedSinceCollection += bytes;
  if (movedSinceCollection < COLLECT_EVERY) return;
  movedSinceCollection = 0;
  releaseMemorySoon();
}

/** Runs a full garbage collection soon (once, however often it is asked for in one turn). */
let pending = false;
export function releaseMemorySoon(): void {
  if (pending) return;
  pending = true;
  setImmediate(() => {
    pending = false;
    collector()?.();
  });
}
