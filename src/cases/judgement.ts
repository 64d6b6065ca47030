/** A case's two verdicts (Autobahn's behavior and behaviorClose) with their explanations. */
import type { CloseVerdict, OutcomeVerdict } from '../model/verdicts.js';

/**
 * One measured figure of a robustness case beside its budget: the per-case JSON's `figures` (wsgate's
 * own key), the HTML's figure table, the console line's failing figure. The prose of the result says
 * the same; this is the part a script reads.
 */
export interface Figure {
  /** A stable machine name, kebab-case ("connection-ms", "peer-read-bytes", "memory-growth-bytes"). */
  readonly name: string;
  /** What it is, in a few words, for people ("the connection ended after"). */
  readonly label: string;
  readonly value: number;
  readonly unit: 'ms' | 'bytes' | 'count';
  /** The budget it is held to, in the same unit, or null: stated, not judged. */
  readonly budget: number | null;
  /** The verdict failed on this figure (over its budget, or past what the case allows). */
  readonly over: boolean;
}

/** Both verdicts with their explanations (see play/verdict.ts). */
export interface Judgement {
  behavior: OutcomeVerdict;
  result: string;
  behaviorClose: CloseVerdict;
  resultClose: string;
  /** A robustness case's measured figures (absent for the catalogue's cases). */
  figures?: readonly Figure[];
}

/** A figure held to a budget: `over` when the value is past it. */
export function budgetFigure(name: string, label: string, value: number, unit: Figure['unit'], budget: number): Figure {
  return { name, label, value, unit, budget, over: value > budget };
}

/** A figure stated without a budget (never the one failed on). */
export function statedFigure(name: string, label: string, value: number, unit: Figure['unit']): Figure {
  return { name, label, value, unit, budget: null, over: false };
}
