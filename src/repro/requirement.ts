/**
 * The requirement a case tests, for the top of a repro script. A stand-in until explain/requirements.ts
 * lands: the case's own expectation. Switching is this one import and line.
 */
import { catalogue } from '../cases/registry.js';

/** The RFC sections and the requirement a case tests. */
export function requirementFor(caseId: string): { rfc: string; text: string } {
  return { rfc: 'RFC 6455', text: catalogue.find((c) => c.id === caseId)?.expectation ?? '' };
}
