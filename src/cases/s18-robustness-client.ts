/**
 * Group 18 (wsgate's own; selected with `--robustness` when a client is tested, never by default):
 * the denial-of-service attacks on WebSocket clients, each replayed from its advisory.
 */
import type { CatalogueCase } from './types.js';

/** Group 18: attacks on a client under test. */
export const robustnessClientCases: readonly CatalogueCase[] = [];
