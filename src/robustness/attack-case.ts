/**
 * What every raw attack of group 17 shares (s17-1-handshake.ts, s17-2-frames.ts, s17-5-h2.ts): the
 * normal upgrade request with lines added, and the case's shape around its attack.
 */
import type { UpgradeRequestSpec } from '../protocol/client-handshake.js';
import type { ServerAttack } from '../cases/attack-types.js';
import type { Requirement } from '../model/requirement.js';
import type { Advisory } from './data/attacks.js';
import { defineAttack } from '../cases/define.js';
import type { AttackCase } from '../cases/types.js';

/** The normal upgrade request with header lines added: `before` ahead of the upgrade fields, `after` behind them. */
export function requestWith(normal: UpgradeRequestSpec, after: ReadonlyArray<readonly [string, string]>, before: readonly string[] = []): string {
  const lines = [
    `GET ${normal.target} HTTP/1.1`,
    `Host: ${normal.host}`,
    ...before,
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Key: ${normal.key}`,
    'Sec-WebSocket-Version: 13',
    ...after.map(([n, v]) => `${n}: ${v}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** What every raw attack shares: its advisory and RFC in its description, the liveness check in its expectation, run alone (its times are the figures). */
export function attackCase(spec: {
  id: string;
  advisory: Advisory;
  /** What the case asks of the server, with the advisory's flaw named. */
  requirement: Requirement;
  rfc: string;
  description: string;
  expectation: string;
  attack: ServerAttack;
  maxSeconds: number;
  stall?: boolean;
}): AttackCase {
  return defineAttack({
    id: spec.id,
    description: `${spec.description} (${spec.rfc}; ${spec.advisory.id}: ${spec.advisory.what})`,
    requirement: spec.requirement,
    expectation: `${spec.expectation} Afterwards the server still echoes a message on a fresh connection, and (when wsgate started it) its process is alive.`,
    schedule: {
      maxSeconds: spec.maxSeconds,
      runsAlone: true,
      cost: spec.stall === true ? 90 : spec.maxSeconds / 4,
      ...(spec.stall === true ? { stall: true } : {}),
    },
    attack: spec.attack,
  });
}
