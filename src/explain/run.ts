/** A run's explanations and causes, computed once per case and shared by every renderer. */
import { caseLabel, type GateCase, type GateRun } from '../model/report.js';
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
