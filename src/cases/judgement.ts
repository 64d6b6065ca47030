/** A case's two verdicts (Autobahn's behavior and behaviorClose) with their explanations. */
import type { Figure } from '../model/figures.js';
import type { CloseVerdict, OutcomeVerdict } from '../model/verdicts.js';

export { budgetFigure, statedFigure, type Figure } from '../model/figures.js';

/** Both verdicts with their explanations (see play/verdict.ts). */
export interface Judgement {
  behavior: OutcomeVerdict;
  result: string;
  behaviorClose: CloseVerdict;
  resultClose: string;
  /** A robustness case's measured figures (absent for the catalogue's cases). */
  figures?: readonly Figure[];
}
