/** Helpers to declare cases and their expectations in a few lines. */
import type { ExpectedClose } from '../model/report.js';
import { categoryNames, isWsgateCase, subcategoryNames } from './categories.js';
import { toBuffer } from '../util/bytes.js';
import type { AttackCase, AttackCaseDef, CaseDef, CatalogueCase, Judgement, PeerEvent, ScriptedCase } from './types.js';

const ID_PATTERN = /^\d+(\.\d+)+$/;

/** Where a case sits in the catalogue: its category and subcategory follow from its id. */
function placement(id: string): { category: string; subcategory: string; origin: 'wsgate' | 'autobahn' } {
  if (!ID_PATTERN.test(id)) throw new Error(`case id ${JSON.stringify(id)} is not a dotted number`);
  const parts = id.split('.');
  const category = categoryNames[parts[0] ?? ''];
  if (category === undefined) throw new Error(`case ${id}: no category ${parts[0] ?? ''}`);
  // Ids with three parts have a subcategory ("6.9" of "6.9.2"); two-part ids ("2.5") have none.
  const subcategory = parts.length > 2 ? (subcategoryNames[`${parts[0] ?? ''}.${parts[1] ?? ''}`] ?? '') : '';
  return { category, subcategory, origin: isWsgateCase(id) ? 'wsgate' : 'autobahn' };
}

/** Places a scripted case in the catalogue. */
export function defineCase(def: CaseDef): ScriptedCase {
  return { ...def, ...placement(def.id) };
}

/** Places a raw attack in the catalogue (the robustness profile's attacks on a server). */
export function defineAttack(def: AttackCaseDef): AttackCase {
  return { ...def, ...placement(def.id) };
}

/** The case as the case runner plays it: a raw attack never reaches a runner (the attack engine plays it). */
export function scriptedCase(def: CatalogueCase): ScriptedCase {
  if (def.attack !== undefined) throw new Error(`case ${def.id} is a raw attack: the attack engine plays it, not a WebSocket connection`);
  return def;
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
