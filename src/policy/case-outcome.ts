/** What the gate concludes for a case: from its result, its client process, or that it was not run. */
import type { CatalogueCase } from '../cases/types.js';
import type { RunSettings } from '../config/run-config.js';
import { caseTimeoutFor } from './case-limits.js';
import type { CaseResult, ClientRun, GateCase } from '../model/report.js';
import { agentFileBase, caseReportBase } from '../report/files.js';
import { caseFields, reasonWithoutResult, ruleForResult } from './rule.js';

/** Why a case the spec file leaves out for the agent was not run. */
export function excludedReason(agent: string, specFile: string | null): string {
  return `excluded for agent ${JSON.stringify(agent)} by exclude-agent-cases${specFile === null ? '' : ` in ${specFile}`}`;
}

/** What concluding a case reads of the run's configuration. */
export type OutcomeConfig = Pick<RunSettings, 'caseTimeout' | 'failOn'>;

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
