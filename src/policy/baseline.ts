/**
 * The baseline file (`--baseline FILE`): non-OK cases a project accepts for now, each with a reason.
 * A baselined case that fails does not fail the build; one that passes now is reported so the
 * baseline can shrink; any other failure fails as before. `--write-baseline` writes the current
 * failures as a starting point, each with its cause's title as the reason.
 *
 *   { "version": 1,
 *     "cases":  { "6.4.1": { "reason": "fails fast only at frame end" },
 *                 "12.*":  { "reason": "no deflate yet", "agents": ["my-client*"] } },
 *     "causes": { "closing-answer:code-1001": { "reason": "answers every close with 1001 until v3" } } }
 *
 * Case keys are case patterns with Autobahn's rules (an exact id, or `*` patterns as in --cases).
 * Cause keys (optional, since a baseline without them reads as before) name a failure's cause by its
 * key or its title, exactly or with `*` (any run, anchored): a cause accepts whichever cases fail
 * that way. `agents` (optional) limits an entry to agents matching one of its patterns.
 */
import { z } from 'zod';
import { everyCase } from '../catalogue/registry.js';
import { selectCases, SelectionError } from '../cases/select.js';
import type { BaselineMark, GateCase, GateRun } from '../model/report.js';
import type { Cause } from '../model/explanation.js';
import { UsageError } from '../errors.js';
import { explanationOf } from '../explain/run.js';
import { wildcard } from '../util/patterns.js';
import { readJsonFile } from '../config/json-file.js';

/** The one format version written and read. */
export const BASELINE_VERSION = 1;

const entrySchema = z.strictObject({
  reason: z.string().trim().min(1),
  agents: z.array(z.string().min(1)).optional(),
});

const baselineSchema = z.strictObject({
  version: z.literal(BASELINE_VERSION),
  cases: z.record(z.string(), entrySchema),
  causes: z.record(z.string(), entrySchema).optional(),
});

/** One accepted pattern: of case ids, or of a failure's cause. */
export interface BaselineEntry {
  /** The key as written ("7.9.*", "closing-answer:code-1001"). */
  pattern: string;
  reason: string;
  agents: string[] | null;
  /** Whether it accepts a failing case: by its id, or by its cause (key or title). */
  accepts: (id: string, cause: Cause | null) => boolean;
}

/** A loaded baseline. */
export interface Baseline {
  file: string;
  entries: BaselineEntry[];
}

function fail(file: string, message: string): UsageError {
  return new UsageError(`${file}: ${message}`);
}

/** Validates a parsed baseline; throws one UsageError naming the key. */
export function parseBaseline(file: string, value: unknown): Baseline {
  const parsed = baselineSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue?.path.map(String) ?? [];
    let message: string;
    if (issue?.code === 'unrecognized_keys') {
      message = `unknown key "${[...at, issue.keys[0] ?? ''].join('.')}" (a baseline has "version", "cases" and "causes"; an entry has "reason" and "agents")`;
    } else if (at.length === 0) {
      message = 'a baseline must be a JSON object {"version": 1, "cases": {...}}';
    } else if (at[0] === 'version') {
      message = `"version" must be ${BASELINE_VERSION}`;
    } else if (at.length === 1) {
      message = `"${at[0]}" must be an object mapping ${at[0] === 'causes' ? 'causes (a key or a title)' : 'case patterns'} to {"reason": "..."}`;
    } else if (at.length === 2) {
      message = `"${at[0]}.${at[1] ?? ''}" must be an object {"reason": "...", "agents": [...]}`;
    } else if (at[2] === 'reason') {
      message = `"${at[0]}.${at[1] ?? ''}.reason" must be a non-empty string: say why the ${at[0] === 'causes' ? 'cause' : 'case'} is accepted`;
    } else {
      message = `"${at[0]}.${at[1] ?? ''}.agents" must be an array of non-empty strings (agent patterns)`;
    }
    throw fail(file, message);
  }
  const entries: BaselineEntry[] = [];
  for (const [pattern, entry] of Object.entries(parsed.data.cases)) {
    if (pattern.trim() === '') throw fail(file, '"cases": an empty case pattern');
    let ids: Set<string>;
    try {
      // Against every case wsgate has, its own groups included: a baseline may hold a case of an --extended or --robustness run.
      ids = new Set(selectCases(everyCase, [pattern]).map((c) => c.id));
    } catch (err) {
      if (err instanceof SelectionError) throw fail(file, `"cases": ${err.message}`);
      throw err;
    }
    entries.push({ pattern, reason: entry.reason.trim(), agents: entry.agents ?? null, accepts: (id) => ids.has(id) });
  }
  for (const [pattern, entry] of Object.entries(parsed.data.causes ?? {})) {
    if (pattern.trim() === '') throw fail(file, '"causes": an empty cause');
    const re = wildcard(pattern.trim());
    const accepts = (_id: string, cause: Cause | null): boolean => cause !== null && (re.test(cause.key) || re.test(cause.title));
    entries.push({ pattern, reason: entry.reason.trim(), agents: entry.agents ?? null, accepts });
  }
  return { file, entries };
}

/** Reads and validates a baseline file; throws UsageError (exit 2) with one line on any problem. */
export function loadBaseline(file: string): Baseline {
  return readJsonFile(file, 'the baseline', (json) => parseBaseline(file, json));
}

/** The first entry (case entries before cause entries) that accepts case `id`, failing of `cause`, for `agent`; or null. */
export function baselineEntryFor(baseline: Baseline, agent: string, id: string, cause: Cause | null): BaselineEntry | null {
  for (const e of baseline.entries) {
    if (!e.accepts(id, cause)) continue;
    if (e.agents === null || e.agents.some((a) => wildcard(a).test(agent))) return e;
  }
  return null;
}

/**
 * Applies the baseline to a run's cases: a failed case it names becomes 'skipped' with
 * baseline.state 'accepted' (the failure kept in baseline.failure); a passed case it names keeps
 * passing with baseline.state 'passing' and a warning. Other cases are returned unchanged.
 */
export function applyBaseline(cases: readonly GateCase[], agent: string, baseline: Baseline): GateCase[] {
  return cases.map((c) => {
    if (c.baseline !== undefined) return c;
    const cause = c.status === 'failed' ? (explanationOf(c)?.cause ?? null) : null;
    const entry = baselineEntryFor(baseline, agent, c.id, cause);
    if (entry === null) return c;
    if (c.status === 'failed') {
      const mark: BaselineMark = {
        state: 'accepted',
        pattern: entry.pattern,
        reason: entry.reason,
        failure: c.reason,
        ...(cause !== null ? { cause: cause.title } : {}),
      };
      // A reason that is the failure's own words (a baseline written before causes) is not said twice.
      const said = entry.reason === c.reason ? 'accepted failure (baseline)' : `accepted failure (baseline: ${entry.reason})`;
      return { ...c, status: 'skipped', reason: `${said}: ${c.reason}`, baseline: mark };
    }
    if (c.status === 'passed') {
      const mark: BaselineMark = { state: 'passing', pattern: entry.pattern, reason: entry.reason, failure: null };
      const note = `passes now: can be removed from the baseline (${JSON.stringify(entry.pattern)} in ${baseline.file})`;
      return { ...c, warnings: [...c.warnings, note], baseline: mark };
    }
    return c;
  });
}

/**
 * A baseline accepting every case that fails in `run` (accepted ones included), for `--write-baseline`.
 * The reason is the failure's cause, in its title's words (the failure's own text when it has no
 * explanation): edit it to say why the failure is accepted.
 */
export function baselineFromRun(run: GateRun): string {
  const cases: Record<string, { reason: string }> = {};
  for (const c of run.cases) {
    if (c.status === 'failed') cases[c.id] = { reason: explanationOf(c)?.cause.title ?? c.reason };
    else if (c.baseline?.state === 'accepted') cases[c.id] = { reason: c.baseline.reason };
  }
  return `${JSON.stringify({ version: BASELINE_VERSION, cases }, null, 2)}\n`;
}
