/** What the gate concludes for a case: from its result, its client process, or that it was not run. */
import type { CatalogueCase } from '../cases/types.js';
import type { RunConfig } from '../config/schema.js';
import type { CaseResult, ClientRun, GateCase } from '../model/report.js';
import { agentFileBase, caseReportBase } from '../report/files.js';
import { caseFields, reasonWithoutResult, ruleForResult } from './rule.js';

/** Seconds a case may take when --case-timeout is not given (unless its own timers need longer). */
export const DEFAULT_CASE_TIMEOUT = 30;

/** The effective per-case timeout: --case-timeout as given, else 30 s or the case's own longest wait plus 5 s. */
export function caseTimeoutFor(def: CatalogueCase, config: Pick<RunConfig, 'caseTimeout'>): number {
  if (config.caseTimeout !== null) return config.caseTimeout;
  return Math.max(DEFAULT_CASE_TIMEOUT, (def.schedule?.maxSeconds ?? 0) + 5);
}

/** Why a case the spec file leaves out for the agent was not run. */
export function excludedReason(config: Pick<RunConfig, 'agent' | 'specFile'>): string {
  return `excluded for agent ${JSON.stringify(config.agent)} by exclude-agent-cases${config.specFile === null ? '' : ` in ${config.specFile}`}`;
}

/** What concluding a case reads of the run's configuration. */
export type OutcomeConfig = Pick<RunConfig, 'caseTimeout' | 'failOn'>;

/** The gate case of a case that ran (or whose client failed before it could). */
export function conclude(
  def: CatalogueCase,
  index: number,
  result: CaseResult | null,
  clientRun: ClientRun | null,
  sawConnection: boolean,
  config: OutcomeConfig,
  extraWarnings: string[],
  timeMs: number,
): GateCase {
  const base = {
    index,
    ...caseFields(def),
    timeMs: Math.round(timeMs),
    client: clientRun,
  };
  if (result === null) {
    const reason = reasonWithoutResult(clientRun, caseTimeoutFor(def, config), sawConnection);
    return { ...base, status: 'failed', reason, warnings: extraWarnings, result: null, reportBase: null };
  }
  const verdict = ruleForResult(result, new Set(config.failOn));
  const warnings = [...verdict.warnings, ...extraWarnings];
  if (clientRun !== null && clientRun.exitCode !== null && clientRun.exitCode !== 0 && !clientRun.timedOut) {
    warnings.push(`the client exited with status ${clientRun.exitCode}`);
  }
  return {
    ...base,
    status: verdict.status,
    reason: verdict.reason,
    warnings,
    result,
    reportBase: caseReportBase(agentFileBase(result.agent), result.id),
  };
}

/** A case that was not run (excluded, or the run was interrupted). */
export function notRun(def: CatalogueCase, index: number, reason: string): GateCase {
  return {
    index,
    ...caseFields(def),
    status: 'skipped',
    reason,
    warnings: [],
    timeMs: 0,
    result: null,
    client: null,
    reportBase: null,
  };
}
