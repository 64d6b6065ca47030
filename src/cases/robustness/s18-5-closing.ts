/**
 * 18.5, back-pressure and closing against a client under test: the four attacks of 17.4
 * (closing-attacks.ts), with a client's budgets.
 */
import { closingCases } from './closing-attacks.js';
import { subgroup } from './subgroup.js';
import type { ScriptedCase } from '../types.js';

/** 18.5 in id order. */
export const closingClientCases: readonly ScriptedCase[] = subgroup(
  '18.5',
  'Back-pressure and closing: a ping flood unread, a slow reader of a large echo, an unanswered close, a connection never closed',
  closingCases('18.5', 'client'),
);
