/**
 * What the gate concludes for a case, once, in the run skeleton: from a driver's raw outcome (the
 * gate rule on its result, or why it has none), or that it was not run (excluded for the agent, cut
 * short by the run's signal, never playable).
 */
import type { CatalogueCase } from '../cases/types.js';
import type { RunSettings } from '../config/run-config.js';
import type { CaseOutcome, PeerDeath } from '../drivers/driver.js';
import {
  caseWarningWords,
  crashSaid,
  diedDuringWords,
  excludedWords,
  livenessDownWords,
  livenessNextWords,
  missingWords,
  notRunWords,
  peerFailureWords,
} from '../explain/peer-words.js';
import type { NotRunFact, PeerFailureFact } from '../model/peer.js';
import { cpuBudgetOf, DEFAULT_BUDGETS, memoryBudgetOf, type RobustnessBudgets } from '../cases/data/budgets.js';
import { isRobustness, judgeRobustness, recordOf, type PeerFacts, type PeerSaid } from '../play/attack-figures.js';
import { passRecording } from '../play/recording.js';
import type { CaseResult, GateCase } from '../model/report.js';
import { caseTimeoutFor } from '../policy/case-limits.js';
import { caseFields, reasonWithoutResult, ruleForResult, type GateVerdict } from '../policy/rule.js';
import { agentFileBase, caseReportBase } from '../report/files.js';

/** Why a case the spec file leaves out for the agent was not run. */
export function excludedReason(agent: string, specFile: string | null): string {
  return excludedWords(agent, specFile);
}

/** What concluding a case reads of the run's configuration. */
export type OutcomeConfig = Pick<RunSettings, 'caseTimeout' | 'failOn'> & { budgets?: RobustnessBudgets };

/**
 * A robustness case's result with its one verdict (play/attack-figures.ts): the outcome, the text,
 * the figures. A new result: the one a driver holds is left as it played; the reports are written
 * from this one (Driver.writeReports).
 */
export function judgedResult(def: CatalogueCase, result: CaseResult, peer: PeerFacts, budgets: RobustnessBudgets = DEFAULT_BUDGETS): CaseResult {
  const verdict = judgeRobustness(def.attackBudget ?? null, recordOf(result), peerSaid(peer), budgets, memoryBudgetOf(def, budgets), cpuBudgetOf(def, budgets));
  const judged: CaseResult = { ...result, behavior: verdict.behavior, result: verdict.result, figures: verdict.figures };
  passRecording(result, judged);
  return judged;
}

/** A driver's facts of the peer as the verdict reads them: the liveness check and the client's end worded here, once. */
function peerSaid(peer: PeerFacts): PeerSaid {
  const { liveness, crash, ...rest } = peer;
  const said: PeerSaid = crash === undefined ? rest : { ...rest, crash: crashSaid(crash) };
  if (liveness === undefined) return said;
  if (liveness.down === null) return { ...said, liveness };
  return { ...said, liveness: { down: livenessDownWords(liveness.down), next: livenessNextWords(liveness.next) } };
}

/** The gate case of a played case: the gate rule on its result, or why it has none. */
export function conclude(def: CatalogueCase, index: number, outcome: CaseOutcome, config: OutcomeConfig, death: PeerDeath | null = null): GateCase {
  if (outcome.notRun !== undefined) return notRun(def, index, outcome.notRun);
  const { client } = outcome;
  const base = { index, ...caseFields(def), timeMs: Math.round(outcome.timeMs), client };
  if (outcome.result === null) {
    const why =
      outcome.missing === undefined
        ? reasonWithoutResult(client, outcome.limitS ?? caseTimeoutFor(def, config), outcome.sawConnection)
        : missingWords(outcome.missing);
    // Over TLS or HTTP/2, a client that never got through: that is the reason, before what its process did.
    const reason = outcome.transport == null ? why : `${outcome.transport.line}; ${why}`;
    return {
      ...base,
      status: 'failed',
      reason: outcome.peerFailure === undefined ? reason : `${peerFailureWords(outcome.peerFailure)}; ${reason}`,
      warnings: outcome.warnings.map(caseWarningWords),
      result: null,
      reportBase: null,
    };
  }
  const result = isRobustness(def) ? judgedResult(def, outcome.result, outcome.peer ?? { memory: null }, config.budgets) : outcome.result;
  const verdict = deathRule(livenessRule(ruleForResult(result, new Set(config.failOn)), result, outcome.peerFailure), def, death);
  const facts = [...outcome.warnings];
  if (client !== null && client.exitCode !== null && client.exitCode !== 0 && !client.timedOut)
    facts.push({ kind: 'client-status', exitCode: client.exitCode });
  const warnings = [...verdict.warnings, ...facts.map(caseWarningWords)];
  return {
    ...base,
    status: verdict.status,
    reason: verdict.reason,
    warnings,
    result,
    reportBase: caseReportBase(agentFileBase(result.agent), result.id),
    ...(death === null ? {} : { death }),
  };
}

/**
 * A peer that died or stopped serving after the case is FAILED whatever its verdicts say (the
 * robustness profile's liveness check); the verdicts' own reason is kept when they failed too.
 */
function livenessRule(verdict: GateVerdict, result: CaseResult, peerFailure: PeerFailureFact | undefined): GateVerdict {
  if (peerFailure === undefined || verdict.status === 'failed') return verdict;
  return {
    ...verdict,
    status: 'failed',
    reason: `the peer failed the liveness check after the case: ${peerFailureWords(peerFailure)}; outcome ${result.behavior}: ${result.result}`,
  };
}

/**
 * A peer that died during the case fails it, whatever its verdicts say of the wire (they keep the
 * original's values): the crash is the finding. Its verdicts' own reason follows when they failed too.
 */
function deathRule(verdict: GateVerdict, def: CatalogueCase, death: PeerDeath | null): GateVerdict {
  if (death === null) return verdict;
  const crash = diedDuringWords(death, def.id);
  return { ...verdict, status: 'failed', reason: verdict.status === 'failed' ? `${crash}; ${verdict.reason}` : crash };
}

/**
 * A case that was not run: excluded for the agent (`why`: the reason), or kept from running (`why`:
 * the fact, worded here and kept on the case: a run cut short reports it as an error).
 */
export function notRun(def: CatalogueCase, index: number, why: string | NotRunFact): GateCase {
  return {
    index,
    ...caseFields(def),
    status: 'skipped',
    reason: typeof why === 'string' ? why : notRunWords(why),
    ...(typeof why === 'string' ? {} : { notRun: why }),
    warnings: [],
    timeMs: 0,
    result: null,
    client: null,
    reportBase: null,
  };
}
