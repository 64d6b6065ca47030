/**
 * The close codes of cases 7.7.x (codes a peer may send) and 7.9.x (codes it must refuse), checked
 * against Autobahn|Testsuite's case7_7_X.py and case7_9_X.py (the same codes, in the same order).
 */

/** One close-code case: its id and the code of the close frame the fuzzer sends. */
export interface CloseCodeCase {
  readonly id: string;
  readonly code: number;
}

/**
 * RFC 6455 §7.4.1 codes 1000-1003 and 1007-1011, the registered range 3000-3999 (§7.4.2) and the
 * private range 4000-4999, each end included. The peer may answer with 1000 or echo the code.
 */
export const validCloseCodes: readonly CloseCodeCase[] = [
  { id: '7.7.1', code: 1000 },
  { id: '7.7.2', code: 1001 },
  { id: '7.7.3', code: 1002 },
  { id: '7.7.4', code: 1003 },
  { id: '7.7.5', code: 1007 },
  { id: '7.7.6', code: 1008 },
  { id: '7.7.7', code: 1009 },
  { id: '7.7.8', code: 1010 },
  { id: '7.7.9', code: 1011 },
  { id: '7.7.10', code: 3000 },
  { id: '7.7.11', code: 3999 },
  { id: '7.7.12', code: 4000 },
  { id: '7.7.13', code: 4999 },
];

/**
 * Codes no endpoint may put on the wire: 0-999 ("not used", §7.4.2), 1004 (reserved), 1005 and 1006
 * ("MUST NOT be set as a status code in a Close control frame", §7.4.1), and unassigned codes of the
 * range 1000-2999 "reserved for definition by this protocol" (§7.4.2). The suite predates 1012-1014
 * and sends none of them.
 */
export const invalidCloseCodes: readonly CloseCodeCase[] = [
  { id: '7.9.1', code: 0 },
  { id: '7.9.2', code: 999 },
  { id: '7.9.3', code: 1004 },
  { id: '7.9.4', code: 1005 },
  { id: '7.9.5', code: 1006 },
  { id: '7.9.6', code: 1016 },
  { id: '7.9.7', code: 1100 },
  { id: '7.9.8', code: 2000 },
  { id: '7.9.9', code: 2999 },
];

/** Codes beyond the range RFC 6455 defines (0-4999): what the peer does is not specified (7.13.x). */
export const undefinedCloseCodes: readonly CloseCodeCase[] = [
  { id: '7.13.1', code: 5000 },
  { id: '7.13.2', code: 65535 },
];
