/**
 * 17.1, the opening handshake against a server under test: the denial-of-service attacks that broke
 * WebSocket servers in production, each replayed from its advisory. Each case is an attack the
 * engine plays (raw TCP, timed, at several sizes) and a pure judge of what it measured
 * (attack-judges.ts); after each, a normal echo on a fresh connection and the server process checked
 * (the liveness check, liveness.ts): a server that died or stopped serving fails.
 */
import type { UpgradeRequestSpec } from '../protocol/client-handshake.js';
import { judgeGrowth, judgeSurvives } from './attack-judges.js';
import type { ServerAttack } from '../cases/attack-types.js';
import { ServerAdvisories, ServerBudgets } from './data/attacks.js';
import { attackCase, requestWith } from './attack-case.js';
import { handshakeFloodCases } from './handshake-floods.js';
import type { CatalogueCase } from '../cases/types.js';
import type { Requirement } from '../model/requirement.js';
import { subgroup } from './subgroup.js';

export { requestWith };

/** n distinct header lines as short as HTTP allows ("ab:x"), the advisory's proof of concept's shape. */
export function fillerLines(n: number): string[] {
  // RFC 7230 §3.2.6 token characters, as the advisory's proof of concept uses them.
  const chars = "!#$%&'*+-.0123456789abcdefghijklmnopqrstuvwxyz^_`|~";
  const width = n <= chars.length ** 2 ? 2 : 3;
  const name = (i: number): string => Array.from({ length: width }, (_, d) => chars[Math.floor(i / chars.length ** d) % chars.length]).join('');
  return Array.from({ length: n }, (_, i) => `${name(i)}:x`);
}

/** A growth attack on one header: `value(n)` at the budgets' sizes. */
function growth(header: string, value: (n: number) => string): ServerAttack {
  return {
    kind: 'growth',
    header,
    value,
    sizes: ServerBudgets.growthSizes,
    stopAfterMs: ServerBudgets.answerMs,
    judge: (facts, budgets) => judgeGrowth(header, facts, budgets),
  };
}

/** A request the server must survive: one probe per request head. */
function survives(probes: ReadonlyArray<{ label: string; size: number; request: (normal: UpgradeRequestSpec) => string }>): ServerAttack {
  return { kind: 'probes', probes: probes.map((p) => ({ ...p, waitMs: ServerBudgets.survivesMs })), judge: judgeSurvives };
}

// RFC 6455 §4.1 and §11.3.4: Sec-WebSocket-Protocol is a comma-separated list of tokens; §4.2.1: a
// request that does not match "MUST" get an HTTP error. Nothing lets the parsing of it take
// super-linear time.
const protocolGrowth = attackCase({
  id: '17.1.1',
  requirement: {
    key: 'protocol-header-growth',
    rfc: 'RFC 6455 §4.1, §11.3.4',
    text: 'a server answers a long Sec-WebSocket-Protocol (up to what its HTTP layer accepts) within the budget, in time no more than linear in its size, and keeps serving (CVE-2021-32640: ws before 7.4.6 took quadratic time)',
    subject: 'a long Sec-WebSocket-Protocol header',
  },
  advisory: ServerAdvisories.wsProtocolRegex,
  rfc: 'RFC 6455 §4.1, §11.3.4',
  description:
    "Upgrade requests whose Sec-WebSocket-Protocol is 'b', n spaces, 'x', for n from 1,000 up to what the server's HTTP layer accepts, each on a fresh connection; the answer time measured at each size.",
  expectation: `Each answer (101 or an HTTP error) comes within ${ServerBudgets.answerMs} ms, and its time grows no faster than the header's size.`,
  attack: growth('Sec-WebSocket-Protocol', (n) => `b${' '.repeat(n)}x`),
  maxSeconds: 60,
});

// RFC 6455 §9.1: Sec-WebSocket-Extensions = extension-list, with quoted-string parameter values
// (RFC 7230 §3.2.6); an unclosed quoted string is not one.
const extensionsGrowth = attackCase({
  id: '17.1.2',
  requirement: {
    key: 'extensions-header-growth',
    rfc: 'RFC 6455 §9.1, RFC 7230 §3.2.6',
    text: 'a server answers a long, malformed Sec-WebSocket-Extensions within the budget, in time no more than linear in its size, and keeps serving (CVE-2020-7662: websocket-extensions before 0.1.4 backtracked)',
    subject: 'a long malformed Sec-WebSocket-Extensions header',
  },
  advisory: ServerAdvisories.extensionsRegex,
  rfc: 'RFC 6455 §9.1, RFC 7230 §3.2.6',
  description:
    'Upgrade requests whose Sec-WebSocket-Extensions is a; b=" followed by n bytes of backslash-c pairs, never closed, for growing n, each on a fresh connection; the answer time measured at each size.',
  expectation: `Each answer (an HTTP error, or a 101 without the extension) comes within ${ServerBudgets.answerMs} ms, and its time grows no faster than the header's size.`,
  attack: growth('Sec-WebSocket-Extensions', (n) => `a; b="${'\\c'.repeat(Math.ceil(n / 2))}`),
  maxSeconds: 60,
});

const MANY_HEADER_LINES: Requirement = {
  key: 'many-header-lines',
  rfc: 'RFC 6455 §4.2.1, RFC 7230 §3.2.5',
  text: "a server answers a request with thousands of header lines (an error status, or 101) and keeps serving (CVE-2024-37890: ws before 8.17.1 crashed past Node's 2,000-header limit)",
  subject: 'a request with thousands of header lines',
};

/** n filler lines ahead of the upgrade fields (the advisory's proof of concept puts them first). */
function headerLines(id: string, n: number): CatalogueCase {
  return attackCase({
    id,
    requirement: MANY_HEADER_LINES,
    advisory: ServerAdvisories.wsHeaderCount,
    rfc: 'RFC 6455 §4.2.1, RFC 7230 §3.2.5',
    description: `An upgrade request with ${n.toLocaleString('en-US')} header lines ("ab:x") ahead of Upgrade, Connection, Sec-WebSocket-Key and Sec-WebSocket-Version.`,
    expectation: `The server answers (101, an HTTP error such as 400 or 431) within ${ServerBudgets.survivesMs} ms and keeps serving.`,
    attack: survives([{ label: `${n.toLocaleString('en-US')} header lines`, size: n, request: (normal) => requestWith(normal, [], fillerLines(n)) }]),
    maxSeconds: 10,
  });
}

/** Extension and parameter names an object-keyed parser may trip over, one request each. */
const PROTOTYPE_NAMES: readonly string[] = [
  'constructor',
  ',;constructor',
  'permessage-deflate; constructor',
  '__proto__; __proto__=1',
  'permessage-deflate; __proto__=1, toString; hasOwnProperty=x',
];

// RFC 6455 §9.1 lets a server ignore an extension it does not know: it answers without it.
const prototypeNames = attackCase({
  id: '17.1.5',
  requirement: {
    key: 'prototype-extension-names',
    rfc: 'RFC 6455 §9.1',
    text: 'a server answers extension offers named after Object.prototype properties (constructor, __proto__) and keeps serving (GHSA-5v72-xg48-5rpm: ws before 3.3.1 crashed)',
    subject: 'extension names such as constructor and __proto__',
  },
  advisory: ServerAdvisories.wsPrototypeNames,
  rfc: 'RFC 6455 §9.1',
  description: `Upgrade requests whose Sec-WebSocket-Extensions name extensions and parameters after Object.prototype's properties: ${PROTOTYPE_NAMES.map((v) => JSON.stringify(v)).join(', ')}, one request each.`,
  expectation: `The server answers each (a 101 without those extensions, or an HTTP error) within ${ServerBudgets.survivesMs} ms and keeps serving.`,
  attack: survives(
    PROTOTYPE_NAMES.map((v, i) => ({
      label: JSON.stringify(v),
      size: i,
      request: (normal: UpgradeRequestSpec) => requestWith(normal, [['Sec-WebSocket-Extensions', v]]),
    })),
  ),
  maxSeconds: 20,
});

/** Header values with bytes above 0x7f (obs-text), as latin1 puts them on the wire one byte each. */
const OBS_TEXT_VALUES: ReadonlyArray<readonly [string, string]> = [
  ['Sec-WebSocket-Protocol', 'chat\u00ff\u00fe'],
  ['Sec-WebSocket-Protocol', '\u00e9\u00e8, chat'],
  ['Sec-WebSocket-Extensions', 'permessage-deflate; x=\u00ff'],
  ['Sec-WebSocket-Extensions', '\u00c3\u00a9-ext'],
];

// RFC 9110 §5.5: "a recipient SHOULD treat other octets in field content (obs-text) as opaque data";
// RFC 6455 §4.1 and §9.1 name subprotocols and extensions from ASCII tokens. A server that cannot
// use such a value answers without it, or with an error: it must not die of it.
const obsTextValues = attackCase({
  id: '17.1.12',
  requirement: {
    key: 'obs-text-values',
    rfc: 'RFC 9110 §5.5, RFC 6455 §4.1, §9.1',
    text: 'a server answers an upgrade whose Sec-WebSocket-Protocol or Sec-WebSocket-Extensions holds bytes above 0x7f (a 101 without the value, or an error such as 400) and keeps serving (http-rs/async-h1#187: a server panicked on such a value)',
    subject: 'header values with bytes above 0x7f',
  },
  advisory: ServerAdvisories.obsTextValues,
  rfc: 'RFC 9110 §5.5, RFC 6455 §4.1, §9.1',
  description: `Upgrade requests whose Sec-WebSocket-Protocol or Sec-WebSocket-Extensions holds bytes above 0x7f (obs-text): ${OBS_TEXT_VALUES.map(([n, v]) => `${n}: ${JSON.stringify(v)}`).join('; ')} (each character one byte, latin1), one request each.`,
  expectation: `The server answers each (a 101 without the value, or an HTTP error such as 400) within ${ServerBudgets.survivesMs} ms and keeps serving.`,
  attack: survives(
    OBS_TEXT_VALUES.map(([name, value], i) => ({
      label: `${name}: ${JSON.stringify(value)}`,
      size: i,
      request: (normal: UpgradeRequestSpec) => requestWith(normal, [[name, value]]),
    })),
  ),
  maxSeconds: 20,
});

/** 17.1 in id order: header values, lines and names, then the floods and slow requests (handshake-floods.ts), then obs-text values. */
export const handshakeServerCases: readonly CatalogueCase[] = subgroup(
  '17.1',
  'Opening handshake: header values, lines and names, floods and slow requests that broke servers',
  [protocolGrowth, extensionsGrowth, headerLines('17.1.3', 2000), headerLines('17.1.4', 10000), prototypeNames, ...handshakeFloodCases, obsTextValues],
);
