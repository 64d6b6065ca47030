/**
 * The resident memory of a process and all its descendants, sampled from Linux's /proc while a
 * robustness case runs: the figure the report states beside the `memory` budget. The tree (who is a
 * descendant, from the ppid in /proc/PID/stat) is found by a scan of /proc, which costs a read per
 * process on the machine; it is redone once a second and when a window opens, while the every-100-ms
 * sample reads only the tree's own /proc/PID/status (VmRSS). A sum over a tree counts pages its
 * processes share once per process: growth is the figure to trust, not the level. Never throws.
 */
import type { PeerMemory } from '../play/attack-figures.js';
import { isLive, procPids, procStat, residentBytes, TICKS_PER_S } from './proc.js';

/**
 * How long a process of the tree must be seen before a window opens to be watched for ending during
 * it: a forking server's child for the case before, still ending, is gone by then.
 */
export const SETTLE_MS = 100;

/** One case's stretch of the sampling: opened at its baseline, closed with its peak. */
export interface MemoryWindow {
  /** Takes a last sample and stops the window: its baseline (first sample), peak and growth. */
  close(): PeerMemory;
  /**
   * Resolves once the tree has no more processes than the watched ones it started with (a pool's
   * handover in flight at the case's end, the old worker still draining beside its successor, is
   * let finish and measured), or after `maxMs`: at once for a window that watches nothing.
   */
  handedOver(maxMs: number): Promise<void>;
}

/** How long a case's end waits for a pool's handover in flight (HANDOVER_MS): a retiring worker's drain. */
export const HANDOVER_MS = 3000;

/** How often the tree's memory is read. */
export const SAMPLE_MS = 100;
/** How often the tree itself (its descendants) is looked for again. */
export const RESCAN_MS = 1000;

/** The ppid of every live process, or null where /proc cannot be read. */
function parents(): Map<number, number> | null {
  const pids = procPids();
  if (pids === null) return null;
  const ppid = new Map<number, number>();
  for (const pid of pids) {
    const stat = procStat(pid);
    if (isLive(stat)) ppid.set(pid, stat.ppid);
  }
  return ppid;
}

/** root and its live descendants (root alone when /proc cannot be scanned). */
function treeOf(root: number): number[] {
  const ppid = parents();
  if (ppid === null) return [root];
  const children = new Map<number, number[]>();
  for (const [pid, parent] of ppid) children.set(parent, [...(children.get(parent) ?? []), pid]);
  const tree: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** A process as /proc/PID/stat names it: its comm and its start time (ticks after boot), which tell a reused pid apart. */
export interface ProcessIdentity {
  readonly name: string;
  readonly startTicks: number;
}

/** The processes a window watches for ending, by pid. */
export type SettledProcesses = ReadonlyMap<number, ProcessIdentity>;

/** A live process's identity; null when gone or a zombie. */
function identity(pid: number): ProcessIdentity | null {
  const stat = procStat(pid);
  return isLive(stat) ? { name: stat.name, startTicks: stat.startTicks } : null;
}

/** A window as the sampling fills it. `each`, kept for a watched window only: every sample's bytes by pid. */
interface OpenWindow {
  baseline: number;
  peak: number;
  samples: number;
  cpuPeak: number;
  readonly each: Array<ReadonlyMap<number, number>> | null;
}

/**
 * The peak of samples by pid with each ended process and a successor living beside it counted once
 * (the larger of the two): while a pool hands a place over, the old worker and its successor both
 * hold memory for one place, and the old one's is about to be freed.
 */
export function placesPeak(each: ReadonlyArray<ReadonlyMap<number, number>>, ended: ReadonlySet<number>, joined: ReadonlySet<number>): number {
  let peak = 0;
  for (const sample of each) {
    let total = 0;
    const old: number[] = [];
    const successors: number[] = [];
    for (const [pid, bytes] of sample) {
      total += bytes;
      if (ended.has(pid)) old.push(bytes);
      else if (joined.has(pid)) successors.push(bytes);
    }
    old.sort((a, b) => b - a);
    successors.sort((a, b) => b - a);
    for (let i = 0; i < Math.min(old.length, successors.length); i++) total -= Math.min(old[i] as number, successors[i] as number);
    peak = Math.max(peak, total);
  }
  return peak;
}

/** Samples the tree under a root pid every SAMPLE_MS until stopped; windows read the samples. */
export class TreeMemory {
  private tree: number[] = [];
  private scannedAt = -Infinity;
  private readonly timer: NodeJS.Timeout | null;
  private readonly open = new Set<OpenWindow>();
  /** Why nothing can be measured (no /proc, no process), or null. */
  private readonly unavailable: string | null;
  private stopped = false;

  private constructor(private readonly root: number | undefined) {
    this.unavailable = TreeMemory.why(root);
    this.timer = this.unavailable === null ? setInterval(() => this.sample(), SAMPLE_MS) : null;
    // Sampling never keeps wsgate alive.
    this.timer?.unref();
  }

  /** Starts sampling the tree under `root` (the shell of a command wsgate started). */
  static start(root: number | undefined): TreeMemory {
    return new TreeMemory(root);
  }

  private static why(root: number | undefined): string | null {
    if (root === undefined) return 'the process did not start';
    if (procPids() === null) return 'this system has no /proc to read it from';
    return residentBytes(root) === null ? 'the process had already ended' : null;
  }

  /**
   * CPU ticks (user and kernel) the tree has spent so far: its processes' own (a zombie's too), and
   * the root's reaped children's. The root is read first, so a child it reaps meanwhile is missed
   * rather than counted twice; a process that has ended and been reaped by a parent not read is
   * missed too, which is why a window keeps the highest reading it saw, not only its last.
   */
  private cpuTicks(): number {
    if (this.root === undefined) return 0;
    let ticks = 0;
    for (const pid of new Set([this.root, ...this.tree])) {
      const s = procStat(pid);
      if (s !== null) ticks += s.utime + s.stime + (pid === this.root ? s.cutime + s.cstime : 0);
    }
    return ticks;
  }

  /** The tree's resident set now, in bytes (null when nothing of it is left), rescanning the tree when due. */
  private sample(rescan = false): number | null {
    if (this.root === undefined) return null;
    if (rescan || performance.now() - this.scannedAt >= RESCAN_MS) {
      this.tree = treeOf(this.root);
      this.scannedAt = performance.now();
    }
    const ticks = this.cpuTicks();
    for (const w of this.open) w.cpuPeak = Math.max(w.cpuPeak, ticks);
    let total = 0;
    let any = false;
    const byPid = new Map<number, number>();
    for (const pid of this.tree) {
      const bytes = residentBytes(pid);
      if (bytes === null) continue;
      total += bytes;
      byPid.set(pid, bytes);
      any = true;
    }
    if (!any) return null;
    for (const w of this.open) {
      w.peak = Math.max(w.peak, total);
      w.samples += 1;
      w.each?.push(byPid);
    }
    return total;
  }

  /**
   * Opens a window: its baseline is a sample taken now (the tree scanned afresh). With `watch` (from
   * settled()), close() names those of its processes that ended meanwhile while the root lived on (a
   * server's worker that died and was replaced).
   */
  window(options: { watch?: SettledProcesses } = {}): MemoryWindow {
    const baseline = this.unavailable === null ? this.sample(true) : null;
    if (baseline === null) {
      const why = this.unavailable ?? 'the process had already ended';
      return { close: () => ({ measured: false, why }), handedOver: async () => undefined };
    }
    const cpu0 = this.cpuTicks();
    const settled = options.watch ?? new Map<number, ProcessIdentity>();
    const w: OpenWindow = { baseline, peak: baseline, samples: 1, cpuPeak: cpu0, each: options.watch === undefined ? null : [] };
    this.open.add(w);
    return {
      handedOver: async (maxMs) => {
        if (options.watch === undefined || this.root === undefined) return;
        const t0 = performance.now();
        while (!this.stopped && performance.now() - t0 < maxMs) {
          const others = treeOf(this.root).filter((pid) => pid !== this.root).length;
          if (others <= settled.size) return;
          await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
        }
      },
      close: () => {
        // The tree scanned afresh: a process it gained since the last scan (a shell's child, started
        // just after the window opened) is counted in the last sample at least.
        if (this.open.has(w)) this.sample(true);
        this.open.delete(w);
        const rootLives = this.root !== undefined && identity(this.root) !== null;
        const endedPids = rootLives ? [...settled].filter(([pid, was]) => identity(pid)?.startTicks !== was.startTicks) : [];
        const ended = endedPids.map(([pid, was]) => `pid ${pid}, ${was.name}`);
        // The tree's CPU time only grows; a reading that went down lost a process that ended (its
        // ticks gone with it), so the window's highest reading is the one to trust.
        const cpuMs = ((Math.max(w.cpuPeak, this.cpuTicks()) - cpu0) * 1000) / TICKS_PER_S;
        const measured = { measured: true, baselineBytes: w.baseline, peakBytes: w.peak, growthBytes: w.peak - w.baseline, samples: w.samples, cpuMs } as const;
        // Only a watched tree (a server's) states which of its processes ended: a client's children may come and go.
        if (options.watch === undefined) return measured;
        // Processes live at the close that the window did not watch: those that took the ended ones' places.
        const joinedPids = rootLives
          ? this.tree.filter((pid) => pid !== this.root && identity(pid) !== null && settled.get(pid)?.startTicks !== identity(pid)?.startTicks)
          : [];
        const joined = joinedPids.length;
        if (endedPids.length === 0 || joined === 0) return { ...measured, ended, joined };
        // A place handed over: the old process and its successor counted once while both lived.
        const peak = Math.max(w.baseline, placesPeak(w.each ?? [], new Set(endedPids.map(([pid]) => pid)), new Set(joinedPids)));
        return { ...measured, peakBytes: peak, growthBytes: peak - w.baseline, handoverBytes: w.peak - peak, ended, joined };
      },
    };
  }

  /** The tree's processes but the root, seen in two scans SETTLE_MS apart (the same process in both), with their identities. */
  async settled(): Promise<SettledProcesses> {
    const out = new Map<number, ProcessIdentity>();
    if (this.root === undefined || this.unavailable !== null) return out;
    const first = new Map(treeOf(this.root).map((pid) => [pid, identity(pid)]));
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    for (const pid of treeOf(this.root)) {
      const id = identity(pid);
      if (pid !== this.root && id !== null && first.get(pid)?.startTicks === id.startTicks) out.set(pid, id);
    }
    return out;
  }

  /**
   * Resolves true once the tree's resident set has stayed within `slackBytes` for `quietMs`, false
   * after `maxMs`, when nothing can be measured, or once stopped: a browser grows for seconds after its launch,
   * which no case should be charged with.
   */
  async steady(quietMs: number, slackBytes: number, maxMs: number): Promise<boolean> {
    const t0 = performance.now();
    const seen: Array<{ at: number; bytes: number }> = [];
    while (this.unavailable === null && !this.stopped && performance.now() - t0 < maxMs) {
      const bytes = this.sample();
      if (bytes === null) return false;
      const at = performance.now();
      seen.push({ at, bytes });
      const recent = seen.filter((s) => at - s.at <= quietMs).map((s) => s.bytes);
      if (at - t0 >= quietMs && Math.max(...recent) - Math.min(...recent) <= slackBytes) return true;
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
    return false;
  }

  /** Stops sampling (open windows keep what they saw). */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearInterval(this.timer);
  }
}
