/**
 * Which cases a run plays (the selection and this shard's slice of it), which may run at the same
 * time, and in what order.
 *
 * The rule: every case may overlap every other, except the cases marked `runsAlone`: group 9, whose
 * duration is the measurement, and 3.4, 4.1.5 and 4.2.5, whose verdict is a race against a peer
 * that reads ahead (a message then an invalid frame, one octet per write: PER_OCTET_RACE_SCHEDULE).
 * --jobs N bounds the cases that work at once; the cases marked `idle` (their time is their own
 * pauses: 5.19, 5.20, 6.4.x) run beside them without taking a slot, except with --jobs 1, where
 * nothing overlaps. Any other case's verdict depends only on its own connection; the
 * timers that decide verdicts elsewhere (0.5-2 s fail and close timers) are hundreds of times a
 * prompt client's reaction time, and the number of jobs defaults to the number of cores, so
 * overlapping cases do not starve each other. The equality of verdicts and frame logs between
 * --jobs 1 and --jobs 8 is checked by test/gate/jobs.test.ts and, on the whole catalogue, by the bench.
 */
import type { CatalogueCase } from '../cases/types.js';
import { catalogueFor, everyCase } from '../catalogue/registry.js';
import { quickSample } from '../cases/quick.js';
import { selectCases } from '../cases/select.js';
import type { Shard } from '../config/parallel.js';
import { UsageError } from '../errors.js';

/** Estimated seconds of a case (its declared `cost`, else 0.05 s). */
export function caseCost(def: Pick<CatalogueCase, 'schedule'>): number {
  return def.schedule?.cost ?? 0.05;
}

/**
 * The cases of one shard, in catalogue order. Deterministic and balanced by expected duration:
 * longest case first, each to the shard with the least expected time so far (ties: the lower
 * shard), the classic LPT rule, within 4/3 of the best possible balance.
 */
export function shardCases<T extends Pick<CatalogueCase, 'id' | 'schedule'>>(cases: readonly T[], shard: Shard): T[] {
  const order = cases.map((c, i) => ({ c, i, cost: caseCost(c) }));
  // Stable: equal costs keep catalogue order, so the split never depends on sort internals.
  order.sort((a, b) => b.cost - a.cost || a.i - b.i);
  const load = new Array<number>(shard.count).fill(0);
  const owner = new Array<number>(cases.length);
  for (const { i, cost } of order) {
    let best = 0;
    for (let s = 1; s < shard.count; s++) if ((load[s] as number) < (load[best] as number) - 1e-9) best = s;
    load[best] = (load[best] as number) + cost;
    owner[i] = best;
  }
  return cases.filter((_, i) => owner[i] === shard.index - 1);
}

/**
 * The order in which a concurrent run starts its cases: the cases that run alone first (in
 * catalogue order, each on its own), then the rest longest first, so the long cases do not
 * end up last on one job while the others sit idle. With one job it is the catalogue order.
 */
export function runOrder<T extends Pick<CatalogueCase, 'schedule'>>(cases: readonly T[], jobs: number): number[] {
  const indices = cases.map((_, i) => i);
  if (jobs <= 1) return indices;
  const alone = indices.filter((i) => cases[i]?.schedule?.runsAlone === true);
  const rest = indices.filter((i) => cases[i]?.schedule?.runsAlone !== true);
  rest.sort((a, b) => caseCost(cases[b] as T) - caseCost(cases[a] as T) || a - b);
  return [...alone, ...rest];
}

/**
 * Runs `task` for the items in `order` with at most `jobs` working at once; an item whose `alone(i)`
 * is true starts only when nothing else runs, and nothing starts beside it. With more than one job,
 * an item whose `idle(i)` is true does not count toward `jobs` (it still waits for an `alone` item
 * to finish). Stops starting new items once `stop()` is true or a task failed. Resolves when every
 * started task has settled; rejects with the first task's error, if any.
 */
export async function runPool(
  order: readonly number[],
  jobs: number,
  alone: (i: number) => boolean,
  stop: () => boolean,
  task: (i: number) => Promise<void>,
  idle: (i: number) => boolean = () => false,
): Promise<void> {
  const queue = [...order];
  const running = new Set<Promise<void>>();
  let working = 0;
  let exclusive = false;
  let failure: { err: unknown } | null = null;
  while (queue.length > 0 && failure === null && !stop()) {
    const next = queue[0] as number;
    const needsAlone = alone(next);
    const takesSlot = jobs <= 1 || needsAlone || !idle(next);
    if (exclusive || (needsAlone && running.size > 0) || (jobs <= 1 && running.size > 0) || (takesSlot && working >= jobs)) {
      await Promise.race(running);
      continue;
    }
    queue.shift();
    exclusive = needsAlone;
    if (takesSlot) working += 1;
    const p: Promise<void> = task(next)
      .catch((err: unknown) => {
        failure ??= { err };
      })
      .finally(() => {
        running.delete(p);
        if (takesSlot) working -= 1;
        if (needsAlone) exclusive = false;
      });
    running.add(p);
  }
  await Promise.all(running);
  if (failure !== null) throw (failure as { err: unknown }).err;
}

/**
 * Runs `task` for every case under the catalogue's rule: up to `jobs` at once in runOrder's order,
 * `runsAlone` cases (group 9, the per-octet races) alone, `idle` cases beside the others; none starts once `stopped()`.
 */
export function runCasesScheduled<T extends Pick<CatalogueCase, 'schedule'>>(
  cases: readonly T[],
  jobs: number,
  stopped: () => boolean,
  task: (i: number) => Promise<void>,
): Promise<void> {
  return runPool(
    runOrder(cases, jobs),
    jobs,
    (i) => cases[i]?.schedule?.runsAlone === true,
    stopped,
    task,
    (i) => cases[i]?.schedule?.idle === true,
  );
}

/** What selects a run's cases (flags and spec file, resolved). */
export interface CaseSelection {
  cases: string[];
  excludeCases: string[];
  extended: boolean;
  shard: Shard | null;
  /** The side under test (absent: the client). */
  role?: 'client' | 'server';
  /** WebSockets over HTTP/2 (RFC 8441): group 16 instead of 14/15 with `extended`. */
  http2?: boolean;
  /** The quick profile (run --quick): of the selection, every group with a sample of 9, 12 and 13. */
  quick?: boolean;
  /** The robustness profile: the role's attacks (group 17 or 18) instead of the catalogue. */
  robustness?: boolean;
}

/**
 * The selected cases, then this shard's slice of them. An empty selection is a usage error; an
 * empty shard (more shards than cases) is not: it runs nothing and passes.
 */
export function selectForRun(config: CaseSelection): { cases: CatalogueCase[]; selected: number } {
  const from = catalogueFor(config.extended, config.role, config.http2 === true ? 'h2' : 'http/1.1', config.robustness === true);
  for (const pattern of config.cases) refuseOtherTransport(pattern, from, config.http2 === true);
  const patterns = selectCases(from, config.cases, config.excludeCases);
  if (patterns.length === 0) throw new UsageError('no case is selected: check --cases and --exclude-cases');
  const all = config.quick === true ? quickSample(patterns) : patterns;
  if (all.length === 0) throw new UsageError("no case is selected: --quick keeps none of --cases' cases (it samples groups 9, 12 and 13)");
  return { cases: config.shard === null ? all : shardCases(all, config.shard), selected: all.length };
}

/**
 * A --cases pattern that names only cases of the other transport is a usage error with its reason:
 * groups 14 and 15 script HTTP/1.1 heads (they cannot run over --http2), group 16 is RFC 8441's.
 */
function refuseOtherTransport(pattern: string, from: readonly CatalogueCase[], http2: boolean): void {
  if (selectCases(from, [pattern]).length > 0) return;
  const named = selectCases(everyCase, [pattern]).map((c) => c.id.split('.')[0]);
  if (http2 && named.some((g) => g === '14' || g === '15')) {
    throw new UsageError(
      `--cases ${pattern}: groups 14 and 15 script HTTP/1.1 opening handshakes and cannot run over --http2 (group 16 has RFC 8441's rules: --extended --cases '16.*')`,
    );
  }
  if (!http2 && named.includes('16')) throw new UsageError(`--cases ${pattern}: group 16 (WebSocket over HTTP/2, RFC 8441) runs with --http2 --extended only`);
}
