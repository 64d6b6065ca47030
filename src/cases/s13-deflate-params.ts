/**
 * Group 13: permessage-deflate with different parameters. The cases of 12.1 (the JSON document, the
 * same 18 message sizes), each subgroup under another rule for answering the client's offers: the
 * server may ask the client not to keep its compression context between messages, or to use a
 * smaller window. A rule the client's offers do not allow means no compression: UNIMPLEMENTED.
 *
 * RFC 7692 §7.1.1.2: "A server MAY include the "client_no_context_takeover" extension parameter in
 * the corresponding extension negotiation response to the offer." §7.1.2.2: "If a received extension
 * negotiation offer has the "client_max_window_bits" extension parameter, the server MAY include the
 * "client_max_window_bits" extension parameter in the corresponding extension negotiation response
 * to the offer."
 */
import { acceptRules, messageSizeRows, paramTestData, type DeflateRequest } from './data/deflate-cases.js';
import { deflateEchoCase } from './s12-deflate-payloads.js';
import type { ScriptedCase } from './types.js';

/** What the server asks for, in the words of the negotiation response. */
function asked(r: DeflateRequest): string {
  const params = [
    ...(r.noContextTakeover ? ['client_no_context_takeover'] : []),
    ...(r.maxWindowBits !== 0 ? [`client_max_window_bits=${r.maxWindowBits}`] : []),
  ];
  return params.length === 0 ? 'nothing' : params.join(' and ');
}

/** The accept rule in words (offers are tried in the client's order). */
function negotiation(requests: readonly DeflateRequest[]): string {
  const tries = requests.map((r) =>
    r.noContextTakeover || r.maxWindowBits !== 0
      ? `the first offer that allows ${asked(r)}, asking for ${r.noContextTakeover && r.maxWindowBits !== 0 ? 'both' : 'it'}`
      : "the client's first offer, asking nothing",
  );
  const rule = tries.length === 1 ? `accepts ${tries[0] ?? ''}` : `accepts, trying in turn: ${tries.join('; then ')}`;
  return `Negotiation: the server ${rule}. When no offer fits, the server declines permessage-deflate.`;
}

/** 7 accept rules × 18 message sizes. */
export const deflateParamCases: readonly ScriptedCase[] = acceptRules.flatMap(({ subgroup, requests }) =>
  messageSizeRows.map((row) =>
    deflateEchoCase({ id: `${subgroup}.${row.row}`, data: paramTestData, row, accept: requests, negotiation: negotiation(requests) }),
  ),
);
