/**
 * What the gate concludes for a case, once, in the run skeleton: from a driver's raw outcome (the
 * gate rule on its result, or why it has none), or that it was not run (excluded for the agent, cut
 * short by the run's signal, never playable).
 */
import type { CatalogueCase } from '../cases/types.js';
import type { RunSettings } from '../config/run-config.js';
import type { CaseOutcome } from '../drivers/driver.js';
import type { CaseResult, GateCase } from '../model/report.js';
import { caseTimeoutFor } from '../policy/case-limits.js';
import { caseFields, reasonWithoutResult, ruleForResult } from '../policy/rule.js';
import { agentFileBase, caseReportBase } from '../report/files.js';

/** Why a case the spec file leaves out for the agent was not run. */
export function excludedReason(agent: string, specFile: string | null): string {
  return `excluded for agent ${JSON.stringify(agent)} by exclude-agent-cases${specFile === null ? '' : ` in ${specFile}`}`;
}

/** What concluding a case reads of the run's configuration. */
export type OutcomeConfig = Pick<RunSettings, 'caseTimeout' | 'failOn'>;

/** The gate case of a played case: the gate rule on its result, or why it has none. */
export function conclude(def: CatalogueCase, index: number, outcome: CaseOutcome, config: OutcomeConfig): GateCase {
  if (outcome.notRun !== undefined) return notRun(def, index, outcome.notRun);
  const { result, client } = outcome;
  const base = { index, ...caseFields(def), timeMs: Math.round(outcome.timeMs), client };
  const crash = crashBeforeClose(def, outcome);
  if (result === null) {
    const why = outcome.missing ?? reasonWithoutResult(client, outcome.limitS ?? caseTimeoutFor(def, config), outcome.sawConnection);
    // Over TLS or HTTP/2, a client that never got through: that is the reason, before what its process did.
    const reason = outcome.transportFailure == null ? why : `${outcome.transportFailure}; ${why}`;
    return { ...base, status: 'failed', reason: crash === null ? reason : `${crash}; ${reason}`, warnings: outcome.warnings, result: null, reportBase: null };
  }
  if (crash !== null) return crashed(base, result, crash, outcome.warnings);
  const verdict = ruleForResult(result, new Set(config.failOn));
  const warnings = [...verdict.warnings, ...outcome.warnings];
  if (client !== null && client.exitCode !== null && client.exitCode !== 0 && !client.timedOut) {
    warnings.push(`the client exited with status ${client.exitCode}`);
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

/**
 * A robustness case (one with an attack budget) whose client process died on its own before it sent
 * its close frame: the attack took the client down, whatever the case's own verdict was.
 */
function crashBeforeClose(def: CatalogueCase, outcome: CaseOutcome): string | null {
  if (def.attack === undefined || outcome.clientCrash == null) return null;
  if (outcome.result !== null && outcome.result.remoteCloseCode !== null) return null;
  return `the client process died before its close (${def.attack.advisory.split(':')[0] ?? ''}): it ${outcome.clientCrash}`;
}

/** FAILED for a crashed client: the reason and the outcome say so; the case's own verdict follows. */
function crashed(base: Omit<GateCase, 'status' | 'reason' | 'warnings' | 'result' | 'reportBase'>, result: CaseResult, crash: string, warnings: string[]): GateCase {
  const own = `The case's own verdict was ${result.behavior}: ${result.result}`;
  return {
    ...base,
    status: 'failed',
    reason: `outcome FAILED: ${crash}`,
    warnings,
    result: { ...result, behavior: 'FAILED', result: `${crash[0]?.toUpperCase() ?? ''}${crash.slice(1)}. ${own}` },
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
