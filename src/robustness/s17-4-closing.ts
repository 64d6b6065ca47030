/**
 * 17.4, back-pressure and closing against a server under test: a ping flood while wsgate reads
 * nothing, a large echo read at 1 KiB/s, the server's close left unanswered, TCP never ended by
 * wsgate. Written once for both roles (closing-attacks.ts); 18.5 plays them against a client.
 */
import { closingAttacks } from './closing-attacks.js';
import { subgroup } from './subgroup.js';
import type { ScriptedCase } from '../cases/types.js';

const c = closingAttacks('server');

/** 17.4 in id order. */
export const closingServerCases: readonly ScriptedCase[] = subgroup(
  '17.4',
  'Back-pressure and closing: a ping flood unread, a slow reader of a large echo, an unanswered close, a connection never closed',
  [c.pingFlood('17.4.1'), c.slowEcho('17.4.2'), c.unansweredClose('17.4.3'), c.neverClosed('17.4.4')],
);
