/**
 * The repro runtime's entry: .ci/build-repro-runtime.mjs bundles it, with everything it imports
 * (this folder's glue, protocol/, core/'s receive path, play/verdict.ts), into the one text that
 * repro/script.ts puts into every script, after the script's `const DATA = ...`.
 */
import type { RuntimeData } from './data.js';
import { reproMain } from './roles.js';

/** The case's data: the script defines it above the runtime. */
declare const DATA: RuntimeData;

reproMain(DATA, process.argv.slice(2));
