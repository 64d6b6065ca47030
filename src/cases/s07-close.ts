/** Group 7: close handling. */
import type { CatalogueCase } from './types.js';

/** Every case of this group. */
export const closeCases: readonly CatalogueCase[] = [];
