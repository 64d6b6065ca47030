/** Group 1: framing. */
import type { CatalogueCase } from './types.js';

/** Every case of this group. */
export const framingCases: readonly CatalogueCase[] = [];
