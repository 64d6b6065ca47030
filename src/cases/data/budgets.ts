/**
 * The budgets of the robustness profile (groups 17 and 18) a run may set: what a peer is held to
 * beyond each case's own timers. Defaults here; `--budget NAME=VALUE` (run, serve, the action's
 * `budget` input, `run({ budgets })`) overrides one. A case reads them from its context
 * (`t.budgets`), a judge from its facts; the engine states each measured figure beside its budget.
 */

/** What a run holds a peer to under `--robustness`. */
export interface RobustnessBudgets {
  /**
   * `time`: multiplies every time budget of groups 17 and 18 (refusal, answer and closing times), for
   * a slow machine or a peer behind a proxy: 2 doubles them. Never the stall budget below.
   */
  readonly timeScale: number;
  /**
   * `message`: the peer's own message limit, in bytes. The limit+1 cases send one byte more than this,
   * in 4 KiB fragments; a peer that takes it whole has no limit at this size (ws's default maxPayload,
   * 100 MiB; a peer with a lower limit refuses earlier, which passes).
   */
  readonly messageLimit: number;
  /**
   * `memory`: the most the peer's process tree (when wsgate started it) may grow during one case, in
   * bytes (resident set, from /proc).
   */
  readonly memoryGrowth: number;
  /**
   * `stall`: how long a peer may keep a connection that stalls (a handshake trickled at one byte per
   * second, a close never answered, a connection never closed after the closing handshake) before it
   * drops it, in ms. Node's HTTP server drops a stalled request head after 60 to 90 s (headersTimeout
   * 60 s, checked every 30 s); ws drops an unanswered close after 30 s.
   */
  readonly stallMs: number;
}

/** The defaults, measured against the bundled peers and the releases in test/fixtures/robustness. */
export const DEFAULT_BUDGETS: RobustnessBudgets = {
  timeScale: 1,
  messageLimit: 100 * 1024 * 1024,
  // The bundled ws client, holding a message at its 100 MiB limit before it refuses the bomb of 18.2.2
  // (16 fragments), grew by 260-291 MiB over five runs (18.2.1, one frame: 196-205 MiB): twice that.
  memoryGrowth: 512 * 1024 * 1024,
  stallMs: 100_000,
};

/**
 * The cases' own memory budgets (AttackBudget.memoryGrowth; a raw attack of group 17, at most a
 * request head or a frame header, has `small`): one 512 MiB budget let a handshake grow the peer by
 * hundreds of MiB. The run's `memory` budget caps them all. Measured against the bundled peers (ws
 * with its limits as shipped) over a whole profile run: at most 6.5 MiB where `small` applies.
 */
export const MEMORY_GROWTH = {
  /** A handshake, a refused frame header, a stall, a flood of control frames: about nothing. */
  small: 32 * 1024 * 1024,
  /** A few MiB of valid messages echoed (17.2.6, 18.3.7: 3 MB before the random bytes; undici 6.24.0 grew by 30-35 MiB on them). */
  messages: 64 * 1024 * 1024,
  /** 1 MiB of one-byte fragments: 64 bytes a fragment (ws 8.20.1 keeps about 150, GHSA-96hv-2xvq-fx4p; 8.23.0 grows 5-8 MiB refusing them). */
  fragments: 64 * 1024 * 1024,
  /**
   * A 16 MiB message held with its echo, which cannot leave: a few copies of it (its fragments, the
   * message, the echo queued); the bundled ws client grew 66 MiB.
   */
  echo: 128 * 1024 * 1024,
  /**
   * Requests read while their answers could not leave (17.5.5): a fixed server reads about 100,000
   * before the kernel's buffers fill and it stops, and grows by it (Node.js 12.8.1: 58 MiB, the
   * bundled server on Node.js 20.20: 91 MiB): about twice that. 12.8.0, reading on, grew 155-172 MiB
   * (it fails on the answers it held).
   */
  answers: 192 * 1024 * 1024,
} as const;

/** A robustness case's memory budget: its own (a raw attack's is `small`), capped by the run's. */
export function memoryBudgetOf(
  def: {
    readonly attack?: { readonly memoryGrowth?: number | undefined } | undefined;
    readonly attackBudget?: { readonly memoryGrowth?: number; readonly memoryPerMessageLimit?: number } | undefined;
  },
  budgets: RobustnessBudgets,
): number {
  const perLimit = def.attackBudget?.memoryPerMessageLimit;
  const own =
    perLimit !== undefined
      ? perLimit * budgets.messageLimit + MEMORY_GROWTH.small
      : (def.attackBudget?.memoryGrowth ?? def.attack?.memoryGrowth ?? (def.attack !== undefined ? MEMORY_GROWTH.small : Number.POSITIVE_INFINITY));
  return Math.min(own, budgets.memoryGrowth);
}

/** A robustness case's CPU budget (ms of the peer's process tree over the case), or null: CPU is not judged. */
export function cpuBudgetOf(
  def: { readonly attack?: { readonly cpuMs?: number | undefined } | undefined; readonly attackBudget?: { readonly cpuMs?: number | undefined } | undefined },
  budgets: RobustnessBudgets,
): number | null {
  const own = def.attack?.cpuMs ?? def.attackBudget?.cpuMs;
  return own === undefined ? null : own * budgets.timeScale;
}

/** A wait of a robustness case (s) under the run's `time` factor: every deadline a case sets goes through it. */
export function scaledS(seconds: number, budgets: RobustnessBudgets): number {
  return seconds * budgets.timeScale;
}

/** A time budget of a case (ms) under the run's `time` factor. */
export function scaledMs(ms: number, budgets: RobustnessBudgets): number {
  return Math.round(ms * budgets.timeScale);
}
