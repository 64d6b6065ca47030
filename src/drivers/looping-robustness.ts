/**
 * The robustness profile for a looping client (one process that runs every case through /runCase):
 * each attack case gets its own memory window of the client's process tree (from the case's
 * connection opening to its result), and its outcome is held until the client shows it survived
 * (it starts the next case, or exits with status 0). A client that dies on its own during an attack
 * case fails that case with its error line (processes/crash.ts, as in per-case mode; here also after
 * its close frame, since the process was to play the cases after it), and the cases
 * it never started are not run: a looping client drives the cases itself and would start again at
 * the first, so it is not restarted (per-case mode, without --client-loops, starts a process per case).
 */
import type { CatalogueCase } from '../cases/types.js';
import type { CaseResult } from '../model/report.js';
import { isRobustness, type PeerMemory } from '../play/attack-figures.js';
import type { ClientCrash, NotRunFact } from '../model/peer.js';
import type { MemoryWindow, TreeMemory } from '../processes/tree-memory.js';
import type { CaseOutcome } from './driver.js';

/** What the looping driver tells the watch, and how the watch settles a case. */
export class LoopingRobustness {
  private readonly windows = new Map<number, MemoryWindow>();
  /** Windows closed when the client moved on to a later case before this one ended (a browser's page can). */
  private readonly closed = new Map<number, PeerMemory>();
  /** Attack cases with a result, waiting for the client to show it survived them. */
  private readonly held = new Map<number, CaseOutcome>();
  private lastStarted: number | null = null;
  /** Why the cases not started yet are not run (the client died), or null. */
  private died: NotRunFact | null = null;

  constructor(
    private readonly cases: readonly CatalogueCase[],
    private readonly sampler: TreeMemory | null,
    private readonly settle: (index: number, outcome: CaseOutcome) => void,
  ) {}

  private attack(index: number): CatalogueCase | null {
    const def = this.cases[index - 1];
    return def !== undefined && isRobustness(def) ? def : null;
  }

  /**
   * A case's connection opened: the client survived the cases before it; an attack case's baseline is
   * sampled now. A case still open ends its window here: what the tree does next is the new case's.
   */
  started(index: number): void {
    this.release((i) => i !== index);
    for (const [i, window] of [...this.windows]) {
      if (i === index) continue;
      this.closed.set(i, window.close());
      this.windows.delete(i);
    }
    this.lastStarted = index;
    if (this.attack(index) !== null && this.sampler !== null && !this.windows.has(index)) this.windows.set(index, this.sampler.window());
  }

  /** A case's result: an attack case's outcome gets its memory window's facts and is held; true when held (not to settle now). */
  finished(index: number, _result: CaseResult, outcome: CaseOutcome): boolean {
    const def = this.attack(index);
    if (def === null) return false;
    const window = this.windows.get(index);
    this.windows.delete(index);
    const early = this.closed.get(index);
    this.closed.delete(index);
    const memory = early ?? window?.close() ?? (this.sampler === null ? null : { measured: false as const, why: 'the case never opened a connection' });
    this.held.set(index, { ...outcome, peer: { memory } });
    return true;
  }

  /**
   * The client exited (`crash`: how it died on its own, or null), or, `hung`, a browser's page stopped
   * asking for cases (`crash` says how). The attack case it was in fails with why (a fact its
   * verdict reads: play/attack-figures.ts); the held cases are settled; the cases it never started
   * are not run. Returns the index of the attack case failed so, or null.
   */
  ended(crash: string | null, hung = false): number | null {
    const index = this.lastStarted;
    const def = index === null ? null : this.attack(index);
    const failed = crash !== null && index !== null && def?.attackBudget !== undefined;
    if (failed) {
      // Unlike per-case mode, dying after its close frame counts too: the process was to run the cases after it.
      const died: ClientCrash = hung ? { how: crash, when: 'during the case', hung: true } : { how: crash, when: 'during the case' };
      this.died = { kind: 'looping-client-died', during: def.id, how: crash };
      const failed: CaseOutcome = this.held.get(index) ?? {
        result: null,
        resultAt: null,
        client: null,
        sawConnection: true,
        warnings: [],
        timeMs: 0,
        missing: { kind: 'no-result' },
      };
      const peerFailure = { kind: 'client-crash', advisory: def.attackBudget.advisory, crash: died } as const;
      this.held.set(index, { ...failed, peerFailure, peer: { memory: failed.peer?.memory ?? null, crash: died } });
    }
    for (const window of this.windows.values()) window.close();
    this.windows.clear();
    this.release(() => true);
    return failed ? index : null;
  }

  /** The outcome of a case the client never started before it died of an attack, or null. */
  unplayed(): CaseOutcome | null {
    return this.died === null ? null : { result: null, resultAt: null, client: null, sawConnection: false, warnings: [], timeMs: 0, notRun: this.died };
  }

  private release(which: (index: number) => boolean): void {
    for (const [index, outcome] of [...this.held]) {
      if (!which(index)) continue;
      this.held.delete(index);
      this.settle(index, outcome);
    }
  }
}
