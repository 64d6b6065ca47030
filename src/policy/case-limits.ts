/** How long a case may take, in both roles: the one place the case time limit is decided. */
import type { CatalogueCase } from '../cases/types.js';
import type { RunSettings } from '../config/run-config.js';
import { DEFAULT_BUDGETS, type RobustnessBudgets } from '../cases/data/budgets.js';

/** Seconds a case may take when --case-timeout is not given (unless its own timers need longer). */
export const DEFAULT_CASE_TIMEOUT = 30;

/**
 * The effective per-case limit in seconds: --case-timeout as given, else 30 s or the case's own
 * longest wait plus 5 s. A robustness case's own wait follows the run's budgets: times the `time`
 * factor, and beyond the `stall` budget for a case that waits on a stalled connection.
 */
export function caseTimeoutFor(
  def: Pick<CatalogueCase, 'schedule' | 'attack' | 'attackBudget'>,
  config: Pick<RunSettings, 'caseTimeout'> & { budgets?: RobustnessBudgets },
): number {
  if (config.caseTimeout !== null) return config.caseTimeout;
  const budgets = config.budgets ?? DEFAULT_BUDGETS;
  const robustness = def.attack !== undefined || def.attackBudget !== undefined;
  const own = (def.schedule?.maxSeconds ?? 0) * (robustness ? Math.max(1, budgets.timeScale) : 1);
  const stalled = def.schedule?.stall === true || def.attackBudget?.stall === true ? budgets.stallMs / 1000 : 0;
  return Math.max(DEFAULT_CASE_TIMEOUT, Math.ceil(own + stalled) + 5);
}
