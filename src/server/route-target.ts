/** What a fuzzing-server request names (agent, case, permessage-deflate offers), checked. */
import type { CatalogueCase } from '../cases/types.js';
import { parseDeflateOffers, type DeflateOffer } from '../protocol/deflate/params.js';
import { parseExtensionsHeader, type UpgradeRequest } from '../protocol/handshake.js';
import type { ConnectAnswer } from './upgrade.js';

/** The longest agent name accepted: it names report files and table columns. */
export const MAX_AGENT_LENGTH = 256;

/** What a request names: the agent, the case (by index) and the client's permessage-deflate offers. */
export interface RouteTarget {
  agent: string | undefined;
  index: number | null;
  def: CatalogueCase | undefined;
  offers: readonly DeflateOffer[];
}

/** The refusal of an upgrade request: an HTTP status and a one-line reason. */
export function reject(status: number, reason: string): ConnectAnswer {
  return { kind: 'reject', status, reason };
}

/** A case index as a query gives it (up to nine digits), or null. */
export function parseIndex(value: string | null | undefined): number | null {
  if (value === null || value === undefined || !/^\s*\d{1,9}\s*$/.test(value)) return null;
  return Number(value.trim());
}

/** Why an agent name is refused, or null. */
export function agentProblem(agent: string): string | null {
  if (agent.trim() === '') return 'agent must not be empty';
  if (agent.length > MAX_AGENT_LENGTH) return `agent name longer than ${MAX_AGENT_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(agent)) return 'agent name contains control characters';
  return null;
}

/** The agent, case and permessage-deflate offers of a request, or the refusal of a bad one. */
export function parseTarget(request: UpgradeRequest, selected: readonly CatalogueCase[]): RouteTarget | ConnectAnswer {
  const q = request.query;
  const agents = q.getAll('agent');
  if (agents.length > 1) return reject(400, 'more than one agent parameter');
  const agent = agents[0];
  if (agent !== undefined) {
    const problem = agentProblem(agent);
    if (problem !== null) return reject(400, problem);
  }
  let index: number | null = null;
  const cases = q.getAll('case');
  const tuples = q.getAll('casetuple');
  if (cases.length > 1 || tuples.length > 1) return reject(400, 'more than one case parameter');
  if (tuples[0] !== undefined) {
    const at = selected.findIndex((c) => c.id === tuples[0]?.trim());
    if (at < 0) return reject(404, `no selected case has the id ${JSON.stringify(tuples[0])}`);
    index = at + 1;
  }
  if (cases[0] !== undefined) {
    index = parseIndex(cases[0]);
    if (index === null) return reject(400, `case must be a whole number, got ${JSON.stringify(cases[0])}`);
  }
  if (index !== null && (index < 1 || index > selected.length)) {
    return reject(404, `case ${index} not found: ${selected.length} cases are selected (1..${selected.length})`);
  }
  const def = index === null ? undefined : selected[index - 1];
  // Offers are parsed for every request, as Autobahn does: a malformed one is refused with 400.
  const extensionHeaders = request.headers.get('sec-websocket-extensions') ?? [];
  const offers = parseDeflateOffers(parseExtensionsHeader(extensionHeaders.join(', ')));
  if (!offers.ok) return reject(400, offers.reason);
  return { agent, index, def, offers: offers.offers };
}

/** Autobahn's getCaseInfo description: cut at the first tag, whitespace collapsed. */
export function prettyDescription(description: string): string {
  const cut = description.indexOf('<');
  return (cut >= 0 ? description.slice(0, cut) : description).replace(/\s+/g, ' ').trim();
}

/** The key of agent's run of the case at index. */
export function runKey(agent: string, index: number): string {
  return `${agent}\u0000${index}`;
}
