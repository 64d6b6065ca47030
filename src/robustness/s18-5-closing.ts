/**
 * 18.5, back-pressure and closing against a client under test: the four attacks of 17.4
 * (closing-attacks.ts), with a client's budgets.
 */
import { closingAttacks } from './closing-attacks.js';
import { subgroup } from './subgroup.js';
import type { ScriptedCase } from '../cases/types.js';

const c = closingAttacks('client');

/** 18.5 in id order. */
export const closingClientCases: readonly ScriptedCase[] = subgroup(
  '18.5',
  'Back-pressure and closing: a ping flood unread, a slow reader of a large echo, an unanswered close, a connection never closed',
  [c.pingFlood('18.5.1'), c.slowEcho('18.5.2'), c.unansweredClose('18.5.3'), c.neverClosed('18.5.4')],
);
