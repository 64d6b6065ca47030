/**
 * A robustness case's measured figures beside their budgets, and what the engine keeps on a result
 * until the case's one verdict (play/attack-figures.ts judgeRobustness).
 */
import type { OutcomeVerdict } from './verdicts.js';

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

/** A figure held to a budget: `over` when the value is past it. */
export function budgetFigure(name: string, label: string, value: number, unit: Figure['unit'], budget: number): Figure {
  return { name, label, value, unit, budget, over: value > budget };
}

/** A figure stated without a budget (never the one failed on). */
export function statedFigure(name: string, label: string, value: number, unit: Figure['unit']): Figure {
  return { name, label, value, unit, budget: null, over: false };
}

/** The connection's facts of a scripted robustness case (the case runner's). */
export interface AttackFacts {
  /** ms from the open to the TCP close. */
  readonly durationMs: number;
  /** Octets wsgate wrote while the connection was open. */
  readonly sentBytes: number;
  /**
   * wsgate ended TCP (its timer ran out, or it dropped the connection after the closing handshake):
   * who ended the connection, not who started the closing handshake.
   */
  readonly droppedByMe: boolean;
  /** wsgate began the closing handshake (its limit ran out, or it closed after an echo). */
  readonly closedByMe: boolean;
}

/** What the engine keeps on a robustness case's result until its verdict: its own verdict and the connection's facts. */
export interface AttackRecord {
  /** The case's own verdict (its judge's, or Autobahn's judging and its adjustment), before any figure of the engine's. */
  readonly own: { readonly behavior: OutcomeVerdict; readonly result: string; readonly figures: readonly Figure[] };
  /** A scripted case's connection (null: a raw attack, which judges its connections itself). */
  readonly connection: AttackFacts | null;
}

/** A figure's value in its unit, for people ("5,000 ms", "160,890,880 bytes (153.4 MiB)", "3"). */
export function figureAmount(value: number, unit: Figure['unit']): string {
  const n = Math.round(value).toLocaleString('en-US');
  if (unit === 'ms') return `${n} ms`;
  if (unit === 'count') return n;
  return value >= 1024 * 1024 ? `${n} bytes (${(value / (1024 * 1024)).toFixed(1)} MiB)` : `${n} bytes`;
}

/** One figure in a line: "name: value (budget B, over)". */
export function figureLine(f: Figure): string {
  const budget = f.budget === null ? '' : ` (budget ${figureAmount(f.budget, f.unit)}${f.over ? ', over' : ''})`;
  return `${f.name}: ${figureAmount(f.value, f.unit)}${budget}`;
}
