/**
 * Group 17 (wsgate's own; selected with `--role server --robustness` only, never by default: these
 * cases can take a server down): the denial-of-service attacks that broke WebSocket servers in
 * production, each replayed from its advisory. 17.1 attacks the opening handshake, 17.2 the frame
 * header. Each case is an attack the engine plays (raw TCP, timed, at several sizes) and a pure
 * judge of what it measured (attack-judges.ts); after each, a normal echo on a fresh connection and
 * the server process checked (the liveness check): a server that died or stopped serving fails.
 */
import type { UpgradeRequestSpec } from '../../protocol/client-handshake.js';
import { closingCases } from './closing-attacks.js';
import { judgeGrowth, judgeRefusedAtHeader, judgeSurvives } from './attack-judges.js';
import type { AttackProbe, ServerAttack } from './attack-types.js';
import { ServerAdvisories, ServerBudgets } from './data/attacks.js';
import { attackCase, requestWith } from './attack-case.js';
import { closedByMe, defineCase, hex, message } from '../define.js';
import { floodServerCases } from './s17-robustness-floods.js';
import { frameServerCases } from './s17-robustness-frames.js';
import type { CatalogueCase } from '../types.js';

export { requestWith };

/** What the liveness check sends (and the server must echo). */
const LIVENESS_TEXT = 'wsgate liveness check.';

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
  advisory: ServerAdvisories.extensionsRegex,
  rfc: 'RFC 6455 §9.1, RFC 7230 §3.2.6',
  description:
    'Upgrade requests whose Sec-WebSocket-Extensions is a; b=" followed by n bytes of backslash-c pairs, never closed, for growing n, each on a fresh connection; the answer time measured at each size.',
  expectation: `Each answer (an HTTP error, or a 101 without the extension) comes within ${ServerBudgets.answerMs} ms, and its time grows no faster than the header's size.`,
  attack: growth('Sec-WebSocket-Extensions', (n) => `a; b="${'\\c'.repeat(Math.ceil(n / 2))}`),
  maxSeconds: 60,
});

/** n filler lines ahead of the upgrade fields (the advisory's proof of concept puts them first). */
function headerLines(id: string, n: number): CatalogueCase {
  return attackCase({
    id,
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

/** A frame header (binary, FIN, masked with 37 fa 21 3d) with a 64-bit length, sent after a normal 101. */
function frameHeader(label: string, length64: string, trickle = false): AttackProbe {
  const t = ServerBudgets.trickle;
  const waitMs = ServerBudgets.refuseAtHeaderMs + (trickle ? (t.totalBytes / t.pieceBytes) * t.everyMs : 1000);
  return { label, size: 0, afterOpen: { head: hex(`82 ff ${length64} 37 fa 21 3d`), ...(trickle ? { trickle: t } : {}) }, waitMs };
}

// RFC 6455 §5.2: "Payload length: ... If 127, the following 8 bytes interpreted as a 64-bit unsigned
// integer (the most significant bit MUST be 0) are the payload length." §7.1.7: an endpoint that
// finds a frame invalid MUST _Fail the WebSocket Connection_.
const topBitLengths = attackCase({
  id: '17.2.1',
  advisory: ServerAdvisories.gorillaLength,
  rfc: 'RFC 6455 §5.2, §7.1.7',
  description:
    'After a normal opening handshake, a binary frame header (0x82 0xff) with the 64-bit length 0x8000000000000000 (its most significant bit set) and no payload; then, on a fresh connection, 0xffffffffffffffff (2^64 - 1).',
  expectation: `The server fails the connection at the header, within ${ServerBudgets.refuseAtHeaderMs} ms: a close frame with 1002 (or 1009), or a dropped TCP connection.`,
  attack: {
    kind: 'probes',
    probes: [frameHeader('length 0x8000000000000000', '80 00 00 00 00 00 00 00'), frameHeader('length 2^64 - 1', 'ff ff ff ff ff ff ff ff')],
    judge: judgeRefusedAtHeader,
  },
  maxSeconds: 15,
});

// RFC 6455 §10.4: "implementations SHOULD impose a limit on frame sizes and the total message size
// after reassembly from multiple frames"; §7.4.1: 1009 "a message that is too big for it to process".
const declaredGigabyte = attackCase({
  id: '17.2.2',
  advisory: ServerAdvisories.declaredGigabyte,
  rfc: 'RFC 6455 §10.4, §7.4.1',
  description: `After a normal opening handshake, a binary frame header declaring 1 GiB (0x82 0xff 00 00 00 00 40 00 00 00), then its payload trickled: ${ServerBudgets.trickle.pieceBytes} bytes every ${ServerBudgets.trickle.everyMs} ms, at most ${ServerBudgets.trickle.totalBytes.toLocaleString('en-US')} bytes.`,
  expectation: `A server with a message limit below 1 GiB refuses the frame at its header, within ${ServerBudgets.refuseAtHeaderMs} ms (1009, 1002 or a dropped connection), not after reading the payload.`,
  attack: { kind: 'probes', probes: [frameHeader('1 GiB declared, trickled', '00 00 00 00 40 00 00 00', true)], judge: judgeRefusedAtHeader },
  maxSeconds: 20,
});

/** Group 17: attacks on a server under test. */
export const robustnessServerCases: readonly CatalogueCase[] = [
  protocolGrowth,
  extensionsGrowth,
  headerLines('17.1.3', 2000),
  headerLines('17.1.4', 10000),
  prototypeNames,
  ...floodServerCases,
  obsTextValues,
  topBitLengths,
  declaredGigabyte,
  ...frameServerCases,
  ...closingCases('17.4', 'server'),
];

/**
 * The liveness check after every group-17 case (not in the catalogue): a normal text message on a
 * fresh connection, echoed, then a clean close, as 1.1.2 asks of any server.
 */
export const livenessCase: CatalogueCase = defineCase({
  id: '17.0.1',
  description: 'Liveness: a text message of 22 bytes on a fresh connection, after an attack.',
  expectation: 'The server echoes it and closes the connection cleanly.',
  expect: { OK: [message(LIVENESS_TEXT)] },
  close: closedByMe(),
  schedule: { maxSeconds: 4 },
  run: (t) => {
    t.sendMessage(LIVENESS_TEXT);
    t.killAfter(2);
  },
});
