/**
 * The selection a fuzzing server was started with (`wsgate serve`, the API's startServer), kept in
 * its report directory as selection.json: the cases `wsgate judge` is to find results for there.
 */
import type { CatalogueCase } from '../cases/types.js';

export const SELECTION_FILE = 'selection.json';

/** The file's content: the tool and the case ids, in catalogue order. */
export function selectionJson(cases: readonly Pick<CatalogueCase, 'id'>[]): string {
  return `${JSON.stringify({ tool: 'wsgate', cases: cases.map((c) => c.id) }, null, 2)}\n`;
}

/** The case ids of a selection.json's content, or null when it is not one. */
export function selectionOf(json: unknown): string[] | null {
  if (typeof json !== 'object' || json === null) return null;
  const { tool, cases } = json as { tool?: unknown; cases?: unknown };
  if (tool !== 'wsgate' || !Array.isArray(cases) || !cases.every((c) => typeof c === 'string')) return null;
  return cases as string[];
}
