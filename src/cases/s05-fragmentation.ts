/** Group 5: fragmentation. */
import type { CatalogueCase } from './types.js';

/** Every case of this group. */
export const fragmentationCases: readonly CatalogueCase[] = [];
