/**
 * The robustness profile (`--robustness`, never by default: these cases can take a peer down), one
 * file per subgroup: group 17 attacks a server under test, group 18 a client; 17.5 is the HTTP/2
 * floods (`--robustness --http2`). Each case declares the requirement it tests and the advisory it
 * replays (CONTRIBUTING.md says how to add one).
 */
import { handshakeServerCases } from './s17-1-handshake.js';
import { frameServerCases } from './s17-2-frames.js';
import { deflateServerCases } from './s17-3-deflate.js';
import { closingServerCases } from './s17-4-closing.js';
import { windowBitsClientCases } from './s18-1-window-bits.js';
import { bombClientCases } from './s18-2-bombs.js';
import { frameClientCases } from './s18-3-frames.js';
import { handshakeClientCases } from './s18-4-handshake.js';
import { closingClientCases } from './s18-5-closing.js';
import type { CatalogueCase, ScriptedCase } from '../cases/types.js';

export { h2FloodServerCases } from './s17-5-h2.js';
export { livenessCase } from './liveness.js';

/** Group 17 (17.1-17.4), in id order: attacks on a server under test. */
export const robustnessServerCases: readonly CatalogueCase[] = [...handshakeServerCases, ...frameServerCases, ...deflateServerCases, ...closingServerCases];

/** Group 18, in id order: attacks on a client under test. */
export const robustnessClientCases: readonly ScriptedCase[] = [
  ...windowBitsClientCases,
  ...bombClientCases,
  ...frameClientCases,
  ...handshakeClientCases,
  ...closingClientCases,
];
