/** A run's explanations and causes, computed once per case and shared by every renderer. */
import { caseLabel, type GateCase, type GateCell, type GateRun, type GateView } from '../model/report.js';
import type { CauseGroup, Explanation } from '../model/explanation.js';
import { groupCauses } from './causes.js';
import { explainCase } from './explain.js';

const cache = new WeakMap<GateCase, Explanation | null>();

/** The explanation of a case (null when it passed with OK on both axes, or was not run). */
export function explanationOf(c: GateCase): Explanation | null {
  let e = cache.get(c);
  if (e === undefined) {
    e = explainCase(c);
    cache.set(c, e);
  }
  return e;
}

/** The gate's cells and causes of a run's cases, per agent (index.html shows them beside Autobahn's verdicts). */
export function gateView(tested: ReadonlyArray<{ agent: string; cases: readonly GateCase[] }>): GateView {
  const gate = new Map<string, Map<string, GateCell>>();
  for (const { agent, cases } of tested) {
    const cells = new Map<string, GateCell>();
    for (const c of cases) {
      const e = c.status === 'failed' ? explanationOf(c) : null;
      cells.set(c.id, { status: c.status, cause: e?.cause.title ?? null, why: e?.text ?? c.reason });
    }
    gate.set(agent, cells);
  }
  return { gate, causes: runCauses({ cases: tested.flatMap((t) => t.cases) }) };
}

/** The causes of a run's failing cases, most cases first. */
export function runCauses(run: Pick<GateRun, 'cases'>): CauseGroup[] {
  const explained: { label: string; explanation: Explanation }[] = [];
  for (const c of run.cases) {
    if (c.status !== 'failed') continue;
    const e = explanationOf(c);
    if (e !== null) explained.push({ label: caseLabel(c), explanation: e });
  }
  return groupCauses(explained);
}
