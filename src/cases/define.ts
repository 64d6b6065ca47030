/** Helpers to declare cases and their expectations in a few lines. */
import type { ExpectedClose } from '../model/report.js';
import { categoryNames, isWsgateCase, subcategoryNames } from './categories.js';
import { toBuffer } from '../util/bytes.js';
import type { CaseDef, CatalogueCase, Judgement, PeerEvent } from './types.js';

const ID_PATTERN = /^\d+(\.\d+)+$/;

/** Places a case in the catalogue: its category and subcategory follow from its id. */
export function defineCase(def: CaseDef): CatalogueCase {
  if (!ID_PATTERN.test(def.id)) throw new Error(`case id ${JSON.stringify(def.id)} is not a dotted number`);
  const parts = def.id.split('.');
  const category = categoryNames[parts[0] ?? ''];
  if (category === undefined) throw new Error(`case ${def.id}: no category ${parts[0] ?? ''}`);
  // Ids with three parts have a subcategory ("6.9" of "6.9.2"); two-part ids ("2.5") have none.
  const subcategory = parts.length > 2 ? (subcategoryNames[`${parts[0] ?? ''}.${parts[1] ?? ''}`] ?? '') : '';
  return { ...def, category, subcategory, origin: isWsgateCase(def.id) ? 'wsgate' : 'autobahn' };
}

/** A message event: what the peer must echo. */
export function message(data: Uint8Array | string, binary = false): PeerEvent {
  return { kind: 'message', data: toBuffer(data), binary };
}

/** A pong event with the given payload. */
export function pong(data: Uint8Array | string = ''): PeerEvent {
  return { kind: 'pong', data: toBuffer(data) };
}

/** The peer must answer our close and let us drop TCP: Autobahn's usual "closed by me, clean" rule. */
export function closedByMe(codes: number[] = [1000]): ExpectedClose {
  return { closedByMe: true, closeCode: codes, requireClean: true };
}

/**
 * The peer must fail the connection itself; `fatal` marks the UTF-8 cases where a close by the wrong
 * endpoint also fails the outcome (the peer then never noticed the invalid payload).
 */
export function failedByPeer(codes: number[], options: { fatal?: boolean } = {}): ExpectedClose {
  const close: ExpectedClose = { closedByMe: false, closeCode: codes, requireClean: false };
  if (options.fatal === true) close.closedByWrongEndpointIsFatal = true;
  return close;
}

/** Bytes from a hex string ("ce ba" or "ceba"). */
export function hex(text: string): Buffer {
  return Buffer.from(text.replace(/\s+/g, ''), 'hex');
}

/** The timeout event a case records itself when a delay ran out with the connection still open. */
export function timeout(tag: string): PeerEvent {
  return { kind: 'timeout', tag };
}

/** Autobahn's 7.x rule: a wrong close code also fails the outcome, with the closing reason as result. */
export function wrongCodeFails(verdict: Judgement): Judgement {
  if (verdict.behaviorClose !== 'WRONG CODE') return verdict;
  return { ...verdict, behavior: 'FAILED', result: verdict.resultClose };
}
