/**
 * Group 17's handshake floods and slow requests (17.1.6-17.1.11): a burst of the slowest requests
 * the HTTP layer accepts beside a normal client, a 20 MB header, a request one byte per packet,
 * Slowloris, and hundreds of half-open upgrades beside a normal client. Each is an attack the engine
 * plays over raw connections (fuzzing-client/attacks/) and a pure judge (flood-judges.ts); after
 * each, the liveness check. Budgets and advisories: data/floods.ts.
 */
import type { UpgradeRequestSpec } from '../protocol/client-handshake.js';
import type { AttackProbe, ServerAttack } from '../cases/attack-types.js';
import { DEFAULT_BUDGETS } from '../cases/data/budgets.js';
import { FloodAdvisories, FloodBudgets } from './data/floods.js';
import { judgeCrowd, judgePacedHead, judgeHugeHeader, judgeSlowloris } from './flood-judges.js';
import { attackCase, requestWith } from './attack-case.js';
import type { Requirement } from '../model/requirement.js';
import type { CatalogueCase } from '../cases/types.js';

const B = FloodBudgets;
const bytes = (n: number): string => n.toLocaleString('en-US');

/** A header value of n bytes, as 17.1.1 and 17.1.2 grow them. */
const SHAPES = {
  protocol: { header: 'Sec-WebSocket-Protocol', value: (n: number) => `b${' '.repeat(n)}x`, words: "'b', spaces, 'x'" },
  extensions: {
    header: 'Sec-WebSocket-Extensions',
    value: (n: number) => `a; b="${'\\c'.repeat(Math.ceil(n / 2))}`,
    words: 'a; b=" and backslash-c pairs, never closed',
  },
} as const;

/** A burst of one shape at the burst size on parallel connections, then a normal client. */
function burst(
  id: string,
  shape: keyof typeof SHAPES,
  advisory: (typeof FloodAdvisories)['protocolBurst' | 'extensionsBurst'],
  rfc: string,
  requirement: Requirement,
): CatalogueCase {
  const s = SHAPES[shape];
  const value = s.value(B.burstBytes);
  const crowdText = `each with a ${bytes(B.burstBytes)}-byte ${s.header}`;
  const attack: ServerAttack = {
    kind: 'crowd',
    connections: B.burstConnections,
    crowd: {
      label: `${s.header} of ${bytes(B.burstBytes)} bytes`,
      size: B.burstBytes,
      waitMs: B.burstWaitMs,
      request: (normal) => requestWith(normal, [[s.header, value]]),
    },
    hold: false,
    normalWaitMs: B.burstWaitMs,
    judge: (facts, budgets) => judgeCrowd(crowdText, facts, false, budgets),
  };
  return attackCase({
    id,
    requirement,
    advisory,
    rfc,
    description: `${B.burstConnections} upgrade requests at once, on parallel connections, each with a ${s.header} of ${bytes(B.burstBytes)} bytes (${s.words}: below Node's 16 KiB limit on a request head); once they are written, a normal client's upgrade request, timed.`,
    expectation: `The normal client's 101 comes within ${bytes(B.normalAnswerMs)} ms of its request, and every request of the burst is answered (101 or an HTTP error).`,
    attack,
    maxSeconds: 40,
  });
}

// RFC 7230 §3.2.5: "A server that receives a request header field, or set of fields, larger than it
// wishes to process MUST respond with an appropriate 4xx (Client Error) status code."
const hugeHeader = attackCase({
  id: '17.1.8',
  requirement: {
    key: 'huge-header-refused',
    rfc: 'RFC 7230 §3.2.5',
    text: 'a server refuses a request header far larger than it wishes to process with a 4xx (431) or a drop, soon after its limit, not after reading it all, and keeps serving (CVE-2018-12121: Node.js kept 80 KB of headers per connection)',
    subject: 'a 20 MB request header',
  },
  advisory: FloodAdvisories.largeHeaders,
  rfc: 'RFC 7230 §3.2.5, RFC 6455 §4.2.1',
  description: `A normal upgrade request with one more header line whose value is ${bytes(B.hugeHeader.totalBytes)} bytes, streamed in pieces of ${bytes(B.hugeHeader.pieceBytes)} bytes, each after the previous one drained, until the server answers or ends the connection; then, on a fresh connection, the same ${bytes(B.hugeHeader.totalBytes)} bytes as header lines of ${bytes(B.hugeHeaderLineBytes)} bytes each (under any limit on a line, as the advisory's exploits send them).`,
  expectation: `The server refuses the request (431, 400 or 413, or a dropped connection) within ${bytes(B.hugeHeaderMs)} ms of its first byte, long before its end, and keeps serving.`,
  attack: {
    kind: 'probes',
    probes: [
      {
        label: `a ${bytes(B.hugeHeader.totalBytes / 1e6)} MB header`,
        size: B.hugeHeader.totalBytes,
        waitMs: 2 * B.hugeHeaderMs,
        delivery: { kind: 'streamed', header: 'X-Wsgate-Pad', ...B.hugeHeader },
      },
      {
        label: `${bytes(B.hugeHeader.totalBytes / 1e6)} MB of ${bytes(B.hugeHeaderLineBytes)}-byte header lines`,
        size: B.hugeHeader.totalBytes,
        waitMs: 2 * B.hugeHeaderMs,
        delivery: { kind: 'streamed', header: 'X-Wsgate-Pad', ...B.hugeHeader, lineBytes: B.hugeHeaderLineBytes },
      },
    ],
    judge: judgeHugeHeader,
  },
  maxSeconds: 20,
});

// RFC 7230 §3: a message is a byte stream; nothing ties a request to how TCP cuts it.
/**
 * `total` bytes of padding in four header lines: each value a quarter (1,024 bytes for 4,096), under
 * the line limits servers keep (Python websockets 10: 4,110 bytes a line), so the request is valid.
 */
/** Padding header lines (X-Wsgate-Pad-1, -2 ...) of `lineBytes` each, `total` bytes of values in all. */
function padLines(total: number, lineBytes: number): Array<[string, string]> {
  return Array.from({ length: Math.ceil(total / lineBytes) }, (_, i) => [`X-Wsgate-Pad-${i + 1}`, 'a'.repeat(Math.min(lineBytes, total - i * lineBytes))]);
}

const P = B.pacedHead;
const paced = attackCase({
  id: '17.1.9',
  requirement: {
    key: 'paced-request',
    rfc: 'RFC 7230 §3, RFC 6455 §4.1',
    text: 'a server reads a long request head written in small pieces at a cost that grows with its length, not its square: it answers or refuses it promptly, spending little CPU time (CVE-2023-43669: tungstenite before 0.20.1 parsed the head again on every read)',
    subject: 'a 1 MiB request head written in small pieces',
  },
  advisory: FloodAdvisories.pacedHead,
  rfc: 'RFC 7230 §3, RFC 6455 §4.1',
  description: `A normal upgrade request with ${bytes(P.totalBytes)} bytes of padding in header lines of ${bytes(P.lineBytes)} bytes (X-Wsgate-Pad-1, -2 ...), written in ${bytes(P.pieceBytes)}-byte pieces, one every ${P.everyMs} ms, Nagle off: about ${bytes(Math.round(P.totalBytes / P.pieceBytes))} reads for a server that keeps up.`,
  expectation: `The server answers 101 within ${bytes(B.pacedAnswerMs)} ms of the last piece, or refuses the head at its own limit (an HTTP error or a drop), and its process tree spends at most ${bytes(B.pacedCpuMs)} ms of CPU time on the case (a parser that reads the head again from its start on every read spends time quadratic in its length).`,
  attack: {
    kind: 'probes',
    cpuMs: B.pacedCpuMs,
    probes: [
      {
        label: `a request of ${bytes(P.totalBytes)} bytes of padding in ${bytes(P.pieceBytes)}-byte pieces`,
        size: P.totalBytes,
        waitMs: B.pacedWaitMs,
        request: (normal) => requestWith(normal, padLines(P.totalBytes, P.lineBytes)),
        delivery: { kind: 'paced', pieceBytes: P.pieceBytes, everyMs: P.everyMs },
      },
    ],
    judge: judgePacedHead,
  },
  maxSeconds: 40,
});

/** A request head that never ends: the normal fields, then a padding header that lasts an hour at one byte a second. */
function endlessHead(normal: UpgradeRequestSpec): string {
  return requestWith(normal, [['X-Wsgate-Pad', 'a'.repeat(3600)]]).replace(/\r\n\r\n$/, '');
}

const slowlorisProbe: AttackProbe = {
  label: 'a request head trickled one byte per second',
  size: 0,
  waitMs: DEFAULT_BUDGETS.stallMs,
  request: endlessHead,
  delivery: { kind: 'trickle', everyMs: B.slowlorisEveryMs },
};

// RFC 7230 §6.5: "A server SHOULD sustain persistent connections" but "MAY close the connection"
// on a timeout; RFC 6455 §10.1 leaves resource limits to the server.
const slowloris = attackCase({
  id: '17.1.10',
  requirement: {
    key: 'slowloris',
    rfc: 'RFC 7230 §6.5, RFC 6455 §10.1',
    text: 'a server drops a request head trickled one byte per second by a timeout of its own, within the stall budget (CVE-2018-12122: Node.js held such a connection forever; Slowloris)',
    subject: 'a request head trickled one byte per second',
  },
  advisory: FloodAdvisories.slowloris,
  rfc: 'RFC 7230 §6.5, RFC 6455 §10.1',
  description: `An upgrade request head written one byte every ${bytes(B.slowlorisEveryMs)} ms, never ended (a padding header of an hour's bytes after the upgrade fields).`,
  expectation: `The server drops the connection (or answers an error such as 408) by a timeout of its own within the stall budget (--budget stall, default ${bytes(DEFAULT_BUDGETS.stallMs / 1000)} s; Node's http drops a stalled head after 60 to 90 s), and keeps serving. This case takes as long as the server's timeout.`,
  attack: { kind: 'probes', probes: [slowlorisProbe], judge: judgeSlowloris },
  // Its limit: the run's stall budget plus these seconds (policy/case-limits.ts).
  maxSeconds: 10,
  stall: true,
});

/** An upgrade request without its final empty line: complete fields, never a complete head. */
function partialHead(normal: UpgradeRequestSpec): string {
  return requestWith(normal, []).replace(/\r\n$/, '');
}

const halfOpen = attackCase({
  id: '17.1.11',
  requirement: {
    key: 'half-open-upgrades',
    rfc: 'RFC 6455 §10.1, RFC 7230 §6.5',
    text: 'hundreds of connections holding a partial upgrade request do not keep a normal client from its 101 within the budget (CVE-2007-6750: Slowloris took every worker of Apache)',
    subject: 'a normal client beside half-open upgrades',
  },
  advisory: FloodAdvisories.halfOpen,
  rfc: 'RFC 6455 §10.1, RFC 7230 §6.5',
  description: `${bytes(B.halfOpenConnections)} connections at once, each with an upgrade request whose final empty line never comes, held open; then a normal client's upgrade request from another loopback address than theirs (a cap on connections per client address is a defence, not a refusal), timed; then wsgate closes the ${bytes(B.halfOpenConnections)}.`,
  expectation: `The normal client's 101 comes within ${bytes(B.normalAnswerMs)} ms of its request, whatever the half-open connections hold.`,
  attack: {
    kind: 'crowd',
    connections: B.halfOpenConnections,
    crowd: { label: 'a partial request head', size: 0, waitMs: 30_000, request: partialHead },
    hold: true,
    normalWaitMs: 5000,
    judge: (facts, budgets) => judgeCrowd('each holding a partial request head', facts, true, budgets),
  },
  maxSeconds: 40,
});

/** 17.1.6-17.1.11, in id order (s17-1-handshake.ts places them in 17.1). */
export const handshakeFloodCases: readonly CatalogueCase[] = [
  burst('17.1.6', 'protocol', FloodAdvisories.protocolBurst, 'RFC 6455 §4.1, §11.3.4', {
    key: 'burst-beside-normal-client',
    rfc: 'RFC 6455 §4.1, §11.3.4',
    text: "a burst of upgrade requests with the longest Sec-WebSocket-Protocol the HTTP layer takes does not keep a normal client from its 101 within the budget (CVE-2021-32640: ws before 7.4.6's quadratic split blocked every client)",
    subject: 'a normal client beside a burst of slow requests',
  }),
  burst('17.1.7', 'extensions', FloodAdvisories.extensionsBurst, 'RFC 6455 §9.1, RFC 7230 §3.2.6', {
    key: 'burst-beside-normal-client',
    rfc: 'RFC 6455 §9.1, RFC 7230 §3.2.6',
    text: 'a burst of upgrade requests with the longest malformed Sec-WebSocket-Extensions the HTTP layer takes does not keep a normal client from its 101 within the budget (CVE-2020-7662: websocket-extensions before 0.1.4 backtracked)',
    subject: 'a normal client beside a burst of slow requests',
  }),
  hugeHeader,
  paced,
  slowloris,
  halfOpen,
];
