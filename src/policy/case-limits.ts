/** How long a case may take, in both roles: the one place the case time limit is decided. */
import type { CatalogueCase } from '../cases/types.js';
import type { RunSettings } from '../config/run-config.js';

/** Seconds a case may take when --case-timeout is not given (unless its own timers need longer). */
export const DEFAULT_CASE_TIMEOUT = 30;

/** The effective per-case limit in seconds: --case-timeout as given, else 30 s or the case's own longest wait plus 5 s. */
export function caseTimeoutFor(def: Pick<CatalogueCase, 'schedule'>, config: Pick<RunSettings, 'caseTimeout'>): number {
  if (config.caseTimeout !== null) return config.caseTimeout;
  return Math.max(DEFAULT_CASE_TIMEOUT, (def.schedule?.maxSeconds ?? 0) + 5);
}
