/**
 * The spec's exclude-agent-cases, decided once for a run or a served server: whether a case is left
 * out for an agent (the skeleton reports it as not run; the fuzzing server closes its /runCase at
 * once and records nothing, as Autobahn does).
 */
import { agentCaseExcluder } from '../config/spec.js';
import type { SpecExtras } from '../config/schema.js';

/** The exclusion of a run's or a server's configuration: true leaves case `id` out for `agent`. */
export function agentExclusion(config: Pick<SpecExtras, 'excludeAgentCases' | 'patternSyntax'>): (agent: string, id: string) => boolean {
  return agentCaseExcluder(config.excludeAgentCases, config.patternSyntax);
}
