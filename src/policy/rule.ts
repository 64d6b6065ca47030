/**
 * The gate rule: how two Autobahn verdicts become pass, fail or skip. It is the rule projects'
 * hand-written CI scripts apply to Autobahn's index.json today.
 */
import type { CatalogueCase } from '../cases/types.js';
import type { CaseResult, GateCase, GateStatus } from '../model/report.js';
import { FAILING_VERDICTS } from '../model/verdicts.js';

/** The fields of a gate case that come from its declaration. */
export function caseFields(def: CatalogueCase): Pick<GateCase, 'id' | 'category' | 'subcategory' | 'origin' | 'description'> {
  return { id: def.id, category: def.category, subcategory: def.subcategory, origin: def.origin, description: def.description };
}

/** The gate's conclusion for one case. */
export interface GateVerdict {
  status: GateStatus;
  reason: string;
  warnings: string[];
}

/**
 * Applies the rule to a case that produced a result: `failing` is the set of verdicts that fail it
 * (failingVerdicts). UNIMPLEMENTED skips the case unless it is in the set; NON-STRICT and
 * INFORMATIONAL outcomes that do not fail are warnings.
 */
export function ruleForResult(result: CaseResult, failing: ReadonlySet<string>): GateVerdict {
  const warnings: string[] = [];
  const { behavior, behaviorClose } = result;
  if (behavior === 'UNIMPLEMENTED' && !failing.has('UNIMPLEMENTED')) {
    return { status: 'skipped', reason: `unimplemented: ${result.result}`, warnings };
  }
  const failures: string[] = [];
  // A verdict outside the default rule says which option made it fail.
  const flag = (v: string): string => (FAILING_VERDICTS.has(v) ? '' : v === 'NON-STRICT' ? ' (--strict)' : ' (--fail-on)');
  if (failing.has(behavior)) failures.push(`outcome ${behavior}: ${result.result}${flag(behavior)}`);
  else if (behavior === 'NON-STRICT') warnings.push(`outcome NON-STRICT: ${result.result}`);
  if (failing.has(behaviorClose)) failures.push(`closing ${behaviorClose}: ${result.resultClose}${flag(behaviorClose)}`);
  if (failures.length > 0) return { status: 'failed', reason: failures.join('; '), warnings };
  return { status: 'passed', reason: '', warnings };
}

export { reasonWithoutResult } from '../explain/peer-words.js';
