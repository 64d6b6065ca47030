/** Group 10: miscellaneous (auto-fragmentation). */
import type { CatalogueCase } from './types.js';

/** Every case of this group. */
export const miscCases: readonly CatalogueCase[] = [];
