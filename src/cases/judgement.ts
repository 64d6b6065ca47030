/** A case's two verdicts (Autobahn's behavior and behaviorClose) with their explanations. */
import type { CloseVerdict, OutcomeVerdict } from '../model/verdicts.js';

/** Both verdicts with their explanations (see play/verdict.ts). */
export interface Judgement {
  behavior: OutcomeVerdict;
  result: string;
  behaviorClose: CloseVerdict;
  resultClose: string;
}
