/** Group 3: reserved bits. */
import type { CatalogueCase } from './types.js';

/** Every case of this group. */
export const reservedBitCases: readonly CatalogueCase[] = [];
