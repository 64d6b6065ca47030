/** Group 4: opcodes. */
import type { CatalogueCase } from './types.js';

/** Every case of this group. */
export const opcodeCases: readonly CatalogueCase[] = [];
