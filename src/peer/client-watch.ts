/**
 * The watch on a client under test, one for every way of reaching it (a client process per case, a
 * looping client, a browser launch): it samples the client's process tree under the robustness
 * profile (processes/tree-memory.ts), gives each attack case its memory window (from the case's
 * connection opening to its end), knows how the client's process ended, and hands the driver the
 * case's facts (PeerFacts, the crash that failed it). Facts only; explain/peer-words.ts words them.
 *
 * A client that plays many cases (a looping client, a browser's page) has each attack case's outcome
 * held until it shows it survived (it starts the next case, or exits with status 0). One that dies on
 * its own during an attack case fails that case with its error line (processes/crash.ts, as in
 * per-case mode; here also after its close frame, since the process was to play the cases after it),
 * and the cases it never started are not run: it drives the cases itself and would start again at
 * the first, so it is not restarted (per-case mode, without --client-loops, starts a process per case).
 * A client process per case fails its attack case when it died before its close frame.
 */
import type { CatalogueCase } from '../cases/types.js';
import type { CaseResult } from '../model/report.js';
import { isRobustness, type PeerFacts, type PeerMemory } from '../play/attack-figures.js';
import type { ClientCrash, ClientEnd, NotRunFact, PeerFailureFact, PeerFound } from '../model/peer.js';
import type { ClientProcess } from '../processes/client-process.js';
import { TreeMemory, type MemoryWindow } from '../processes/tree-memory.js';
import { connectionRoot, descendsFrom } from '../processes/listener.js';
import { procStat } from '../processes/proc.js';
import type { CaseOutcome } from './outcome.js';

/** What the watch says of a case that never opened a connection. */
const NEVER_OPENED: PeerMemory = { measured: false, why: 'the case never opened a connection' };

/** The watch on one client process tree, over the cases it plays. */
export class ClientWatch {
  private readonly windows = new Map<number, MemoryWindow>();
  /** Windows closed before the case's outcome was told (its end in per-case mode; a browser's page can move on early). */
  private readonly closed = new Map<number, PeerMemory>();
  /** Attack cases with a result, waiting for the client to show it survived them. */
  private readonly held = new Map<number, CaseOutcome>();
  private lastStarted: number | null = null;
  /** Why the cases not started yet are not run (the client died), or null. */
  private died: NotRunFact | null = null;

  private constructor(
    private readonly client: ClientProcess,
    private readonly caseAt: (index: number) => CatalogueCase | undefined,
    /** Sampled only when some case is an attack (the robustness profile). */
    private readonly sampler: TreeMemory | null,
    private readonly settle: (index: number, outcome: CaseOutcome) => void,
  ) {}

  /** A client process that plays the one case `def`, at `index` in the run. */
  static forCase(client: ClientProcess, def: CatalogueCase, index: number): ClientWatch {
    return new ClientWatch(
      client,
      (i) => (i === index ? def : undefined),
      isRobustness(def) ? TreeMemory.start(client.pid) : null,
      () => undefined,
    );
  }

  /** A client that plays the run's cases itself (index i + 1 is cases[i]); each outcome held by the watch goes to `settle`. */
  static forRun(client: ClientProcess, cases: readonly CatalogueCase[], settle: (index: number, outcome: CaseOutcome) => void): ClientWatch {
    return new ClientWatch(client, (i) => cases[i - 1], cases.some(isRobustness) ? TreeMemory.start(client.pid) : null, settle);
  }

  private attack(index: number): CatalogueCase | null {
    const def = this.caseAt(index);
    return def !== undefined && isRobustness(def) ? def : null;
  }

  /** Resolves once the tree holds within `slackBytes` for `quietMs` (at most `maxMs`); at once when nothing is sampled. */
  async steady(quietMs: number, slackBytes: number, maxMs: number): Promise<void> {
    await this.sampler?.steady(quietMs, slackBytes, maxMs);
  }

  /** Stops sampling. */
  stop(): void {
    this.sampler?.stop();
  }

  /**
   * A case's connection opened: the client survived the cases before it; an attack case's baseline is
   * sampled now (the client started and connected, before the attack). A case still open ends its
   * window here: what the tree does next is the new case's.
   */
  started(index: number, ports?: { client: number; server: number }): void {
    this.release((i) => i !== index);
    for (const [i, window] of [...this.windows]) {
      if (i === index) continue;
      this.closed.set(i, window.close());
      this.windows.delete(i);
    }
    this.lastStarted = index;
    if (this.attack(index) !== null && this.sampler !== null && !this.windows.has(index) && !this.closed.has(index))
      this.windows.set(index, this.elsewhere(ports) ?? this.sampler.window());
  }

  /**
   * The window of a case whose connection is held by a process outside the client command's tree (a
   * launcher detached it, as `docker run` does): that process's tree, found by the connection's
   * socket, sampled for the case alone; null when the connection is the command tree's own.
   */
  private elsewhere(ports: { client: number; server: number } | undefined): MemoryWindow | null {
    const root = this.client.pid;
    if (ports === undefined || root === undefined) return null;
    const owner = connectionRoot(ports.client, ports.server);
    if (owner === null || owner === process.pid || descendsFrom(owner, root)) return null;
    const sampler = TreeMemory.start(owner);
    const window = sampler.window();
    const found: PeerFound = { pid: owner, name: procStat(owner)?.name ?? '?', port: ports.client, why: 'detached', by: 'connection' };
    return {
      handedOver: (maxMs) => window.handedOver(maxMs),
      close: () => {
        const memory = window.close();
        sampler.stop();
        return memory.measured ? { ...memory, found } : memory;
      },
    };
  }

  /** A case ended (per-case mode: its result, the client's exit or its deadline): its memory window closes, the figure kept. */
  close(index: number): void {
    const window = this.windows.get(index);
    this.windows.delete(index);
    if (window !== undefined && !this.closed.has(index)) this.closed.set(index, window.close());
  }

  /** The memory of the case at `index`: its window's figure, or why there is none; null when nothing was sampled. */
  private memory(index: number): PeerMemory | null {
    const window = this.windows.get(index);
    this.windows.delete(index);
    const early = this.closed.get(index);
    this.closed.delete(index);
    return early ?? window?.close() ?? (this.sampler === null ? null : NEVER_OPENED);
  }

  /**
   * Per-case mode, once the client process has ended: an attack case whose client died on its own
   * (an uncaught exception, a signal wsgate did not send) failed of it, before its close frame or
   * after it (a client that writes its close and then dies of the error nothing handled is a crash
   * all the same: the next connection of the program finds it gone); an attack case's facts. Nothing
   * for a case that is no attack.
   */
  caseFacts(index: number, result: CaseResult | null): { peerFailure?: PeerFailureFact; peer?: PeerFacts } {
    const def = this.caseAt(index);
    const how = this.client.crash();
    const beforeClose = result === null || result.remoteCloseCode === null;
    const crash: ClientCrash | null =
      def?.attackBudget !== undefined && how !== null ? { end: { kind: 'died', ...how }, when: beforeClose ? 'before its close' : 'after its close' } : null;
    const memory = this.memory(index);
    const peer: PeerFacts | null = this.sampler === null ? null : { memory: memory ?? NEVER_OPENED, ...(crash === null ? {} : { crash }) };
    return {
      ...(crash === null ? {} : { peerFailure: { kind: 'client-crash', advisory: def?.attackBudget?.advisory ?? null, crash } }),
      ...(peer === null ? {} : { peer }),
    };
  }

  /** A case's result (a client that plays many): an attack case's outcome gets its memory window's facts and is held; true when held (not to settle now). */
  finished(index: number, outcome: CaseOutcome): boolean {
    if (this.attack(index) === null) return false;
    this.held.set(index, { ...outcome, peer: { memory: this.memory(index) } });
    return true;
  }

  /** How the client process died on its own (processes/crash.ts), or null: it runs, exited with 0, or wsgate stopped it. */
  crash(): ClientEnd | null {
    const how = this.client.crash();
    return how === null ? null : { kind: 'died', ...how };
  }

  /**
   * How the process ended, whatever its status, or null while it runs: a browser's, any end before
   * its page asked for the reports is one, and its output (D-Bus and GPU chatter) tells nothing about why.
   */
  exitEnd(): ClientEnd | null {
    if (!this.client.hasExited) return null;
    const { exitCode, signal } = this.client.snapshot(false);
    return { kind: 'died', exitCode, signal, errorLine: null };
  }

  /**
   * The client exited (`crash`: how it died on its own, or null), or, `hung`, a browser's page stopped
   * asking for cases (`crash` says how). The attack case it was in fails with why (a fact its
   * verdict reads: play/attack-figures.ts); the held cases are settled; the cases it never started
   * are not run. Returns the index of the attack case failed so, or null.
   */
  ended(crash: ClientEnd | null): number | null {
    const index = this.lastStarted;
    const def = index === null ? null : this.attack(index);
    const failed = crash !== null && index !== null && def?.attackBudget !== undefined;
    if (failed) {
      // Unlike per-case mode, dying after its close frame counts too: the process was to run the cases after it.
      const died: ClientCrash = { end: crash, when: 'during the case' };
      this.died = { kind: 'looping-client-died', during: def.id, end: crash };
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
