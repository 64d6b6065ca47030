/**
 * The catalogue: every case wsgate knows, in Autobahn's order, each id once: Autobahn's groups and
 * wsgate's own (cases/), and the robustness profile (robustness/).
 */
import { framingCases } from '../cases/s01-framing.js';
import { pingCases } from '../cases/s02-pings.js';
import { reservedBitCases } from '../cases/s03-reserved-bits.js';
import { opcodeCases } from '../cases/s04-opcodes.js';
import { fragmentationCases } from '../cases/s05-fragmentation.js';
import { utf8Cases } from '../cases/s06-utf8.js';
import { closeCases } from '../cases/s07-close.js';
import { limitsCases } from '../cases/s09-limits.js';
import { miscCases } from '../cases/s10-misc.js';
import { deflatePayloadCases } from '../cases/s12-deflate-payloads.js';
import { deflateParamCases } from '../cases/s13-deflate-params.js';
import { handshakeCases } from '../cases/s14-handshake.js';
import { serverHandshakeCases } from '../cases/s15-server-handshake.js';
import { h2ServerCases } from '../cases/s16-h2-server.js';
import { h2ClientCases } from '../cases/s16-h2-client.js';
import { h2FloodServerCases, robustnessClientCases, robustnessServerCases } from '../robustness/index.js';
import type { CatalogueCase, ScriptedCase } from '../cases/types.js';
import { compareIds } from '../cases/select.js';

export { compareIds };

/** Builds a catalogue from case lists: sorted by id, duplicates refused. */
export function buildCatalogue<T extends CatalogueCase>(...groups: ReadonlyArray<readonly T[]>): readonly T[] {
  const all = groups.flat().sort((a, b) => compareIds(a.id, b.id));
  for (let i = 1; i < all.length; i++) {
    if (all[i - 1]?.id === all[i]?.id) throw new Error(`case ${all[i]?.id ?? ''} is declared twice`);
  }
  return Object.freeze(all);
}

/** Autobahn's 517 cases, in Autobahn's order: the default selection (indices as Autobahn's). */
export const catalogue: readonly ScriptedCase[] = buildCatalogue(
  framingCases,
  pingCases,
  reservedBitCases,
  opcodeCases,
  fragmentationCases,
  utf8Cases,
  closeCases,
  limitsCases,
  miscCases,
  deflatePayloadCases,
  deflateParamCases,
);

/** Autobahn's cases followed by wsgate's own (group 14): the `--extended` selection. */
export const extendedCatalogue: readonly ScriptedCase[] = buildCatalogue(catalogue, handshakeCases);

/** What a run's WebSockets travel on: HTTP/1.1 upgrades, or HTTP/2 extended CONNECT streams (--http2). */
export type CaseTransport = 'http/1.1' | 'h2';

/**
 * The catalogue a run selects from: Autobahn's alone, or with wsgate's own groups (`extended`).
 * wsgate's group 14 scripts the server's handshake response, so it tests clients only; a server
 * under test (`under` 'server') gets group 15 instead (its refusals, from the client's side). Both
 * script HTTP/1.1 heads: over HTTP/2 (`transport` 'h2') the role's part of group 16 (RFC 8441's
 * rules) takes their place. `robustness` selects the role's robustness group instead of all of
 * these (17 for a server, 18 for a client): attacks, never part of another selection. Over HTTP/2
 * the robustness group is 17.5 alone (the HTTP/2 floods; the rest of 17 writes HTTP/1.1 requests), and
 * there is none for a client (config refuses `--robustness --http2` for one).
 */
export function catalogueFor(
  extended: boolean,
  under: 'client' | 'server' = 'client',
  transport: CaseTransport = 'http/1.1',
  robustness = false,
): readonly CatalogueCase[] {
  if (robustness && transport === 'h2') return under === 'server' ? h2RobustnessServerCatalogue : [];
  if (robustness) return under === 'server' ? robustnessServerCatalogue : robustnessClientCatalogue;
  if (!extended) return catalogue;
  if (transport === 'h2') return under === 'server' ? h2ServerCatalogue : h2ClientCatalogue;
  if (under === 'server') return serverExtendedCatalogue;
  return extendedCatalogue;
}

/** Autobahn's cases followed by wsgate's group 15: the `--extended` selection for a server under test. */
export const serverExtendedCatalogue: readonly ScriptedCase[] = buildCatalogue(catalogue, serverHandshakeCases);

/** Autobahn's cases followed by group 16.1: `--role server --http2 --extended`. */
export const h2ServerCatalogue: readonly ScriptedCase[] = buildCatalogue(catalogue, h2ServerCases);

/** Autobahn's cases followed by group 16.2: `--http2 --extended` (a client under test). */
export const h2ClientCatalogue: readonly ScriptedCase[] = buildCatalogue(catalogue, h2ClientCases);

/** Group 17 alone: `--role server --robustness`. */
export const robustnessServerCatalogue: readonly CatalogueCase[] = buildCatalogue(robustnessServerCases);

/** Group 17.5 alone: `--role server --robustness --http2` (the HTTP/2 floods). */
export const h2RobustnessServerCatalogue: readonly CatalogueCase[] = buildCatalogue(h2FloodServerCases);

/** Group 18 alone: `--robustness` (a client under test). */
export const robustnessClientCatalogue: readonly ScriptedCase[] = buildCatalogue(robustnessClientCases);

/** Every case wsgate knows, both roles' own groups included (14 to 18): what judging reports may meet. */
export const everyCase: readonly CatalogueCase[] = buildCatalogue(
  catalogue,
  handshakeCases,
  serverHandshakeCases,
  h2ServerCases,
  h2ClientCases,
  robustnessServerCases,
  h2FloodServerCases,
  robustnessClientCases,
);
