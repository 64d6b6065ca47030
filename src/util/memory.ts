/**
 * Gives memory back after a case that moved large messages. Its buffers are garbage once the
 * connection is gone, but V8 collects them only when allocation pressure says so, so a run of
 * 16 MiB cases would otherwise hold several of them at once. A full collection (about 20 ms) after
 * such a case keeps the peak to one case's worth.
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

/** Bytes a case must have moved before a collection is worth its pause. */
export const RELEASE_THRESHOLD = 8 * 1024 * 1024;

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
