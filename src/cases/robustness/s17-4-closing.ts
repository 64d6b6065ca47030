/**
 * 17.4, back-pressure and closing against a server under test: a ping flood while wsgate reads
 * nothing, a large echo read at 1 KiB/s, the server's close left unanswered, TCP never ended by
 * wsgate. Written once for both roles (closing-attacks.ts); 18.5 plays them against a client.
 */
import { closingCases } from './closing-attacks.js';
import { subgroup } from './subgroup.js';
import type { ScriptedCase } from '../types.js';

/** 17.4 in id order. */
export const closingServerCases: readonly ScriptedCase[] = subgroup(
  '17.4',
  'Back-pressure and closing: a ping flood unread, a slow reader of a large echo, an unanswered close, a connection never closed',
  closingCases('17.4', 'server'),
);
