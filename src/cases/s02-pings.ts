/** Group 2: pings and pongs. */
import type { CatalogueCase } from './types.js';

/** Every case of this group. */
export const pingCases: readonly CatalogueCase[] = [];
