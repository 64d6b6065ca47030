/**
 * Where a peer first did otherwise than a case requires, read from the case's result and frame log:
 * a list of detectors, each recognising one kind of divergence (no handshake, masking, a wrong close
 * code, the wrong endpoint closing, events that differ, …) and telling it as a story with its cause.
 */
import type { CaseResult } from '../model/report.js';
import type { WirePoint } from '../model/explanation.js';
import { CLOSE_ANSWER, FAIL_CODES, type Requirement } from './requirements.js';
import { eventFrame, eventsWords, eventWords, firstDivergence, quoteLogged } from './events.js';
import { frameWords, Op, ordinal, type LoggedFrame, type WireFacts } from './wire-facts.js';

export interface Story {
  peerDid: string;
  at: WirePoint | null;
  cause: { key: string; title: string };
  /** The requirement the cause breaks, when it is not the one the case tests (the closing handshake). */
  requirement?: Requirement;
}

function point(f: LoggedFrame): WirePoint {
  return { frame: f.n, offset: f.offset, ms: f.ms };
}

export function peerClose(facts: WireFacts): LoggedFrame | undefined {
  return facts.peerFrames.find((f) => f.opcode === Op.Close);
}

/**
 * Whether the peer sent a close frame: its frame in the log, a close code, or a clean close (which
 * takes a close frame from each side). The log alone does not tell: cases that send megabytes
 * switch it off (9.x), and the peer's close frame is then missing from it though the result holds it.
 */
export function peerSentClose(r: CaseResult, facts: WireFacts): boolean {
  return peerClose(facts) !== undefined || r.remoteCloseCode !== null || r.wasClean;
}

export function codeWords(code: number | null, reason: string | null): string {
  if (code === null) return 'no code';
  return `code ${code}${reason !== null && reason !== '' ? ` "${reason}"` : ''}`;
}

function expectedCodes(r: CaseResult): string {
  const ec = r.expectedClose;
  const codes = [...new Set('closeCode' in ec ? ec.closeCode : [])];
  return codes.length === 0 ? 'none' : `${codes.join(' or ')} (or none)`;
}

/** What one detector reads: the result, the requirement, the log, and the peer's close frame. */
interface Seen {
  r: CaseResult;
  req: Requirement;
  facts: WireFacts;
  /** The peer sent a close frame, logged or not (peerSentClose). */
  peerClosed: boolean;
  closeAt: WirePoint | null;
  key: (kind: string) => string;
}

type Detector = (s: Seen) => Story | null;

/** Autobahn's result text when the observed events match no expected list. */
const EVENTS_DIFFER = 'Actual events differ from any expected.';

/** What the peer did instead, where, and the cause it makes: the first detector that recognises the case. */
export function divergence(r: CaseResult, req: Requirement, facts: WireFacts): Story {
  const closeFrame = peerClose(facts);
  const seen: Seen = {
    r,
    req,
    facts,
    peerClosed: peerSentClose(r, facts),
    closeAt: closeFrame === undefined ? null : point(closeFrame),
    key: (kind) => `${req.key}:${kind}`,
  };
  for (const detect of DETECTORS) {
    const story = detect(seen);
    if (story !== null) return story;
  }
  // Any other pair (a close FAILED with events OK and the right endpoint, which Autobahn's rules do not produce).
  return { peerDid: `${r.result} ${r.resultClose}`, at: seen.closeAt, cause: { key: seen.key('other'), title: `${req.subject}: ${normalise(r.resultClose)}` } };
}

/**
 * Group 16 (RFC 8441) judges HTTP/2 facts the frame log does not hold (SETTINGS, stream ends, PING),
 * and group 17 (the robustness profile's attacks on a server) measured figures on raw connections:
 * their cases say what the peer did in their results, so the first non-OK axis's text is the story.
 */
const h2Rule: Detector = ({ r, key, req }) => {
  if (!r.id.startsWith('16.') && !r.id.startsWith('17.')) return null;
  if (r.resultClose.startsWith('The WebSocket opening handshake was never completed')) {
    const why = r.wasNotCleanReason === null ? '' : `: ${r.wasNotCleanReason}`;
    return {
      peerDid: `did not open the WebSocket over HTTP/2${why}`,
      at: null,
      cause: { key: key('not-opened'), title: `${req.subject}: the WebSocket did not open` },
    };
  }
  const closing = r.behavior === 'OK';
  const text = closing ? r.resultClose : r.result;
  const verdict = closing ? r.behaviorClose : r.behavior;
  const kind = verdict.toLowerCase().replace(/\s+/g, '-');
  return {
    peerDid: `broke it: ${text.length > 0 ? text[0]!.toLowerCase() + text.slice(1) : verdict}`.replace(/\.$/, ''),
    at: null,
    cause: { key: key(kind), title: `${req.subject}: ${verdict}` },
  };
};

const noHandshake: Detector = ({ r }) => {
  if (!r.resultClose.startsWith('The WebSocket opening handshake was never completed')) return null;
  const status = r.httpResponse.split('\r\n')[0] ?? '';
  const peerDid = r.isServer
    ? r.httpRequest === ''
      ? 'never sent an upgrade request'
      : 'did not complete the opening handshake'
    : status === '' || status === '?'
      ? 'sent no handshake response'
      : `answered "${status}" instead of 101`;
  return { peerDid, at: null, cause: { key: 'handshake:not-completed', title: 'the opening handshake was not completed' } };
};

/** RFC 6455 §5.1: a client masks every frame it sends, a server none; either way round fails the connection. */
const masking: Detector = ({ r, facts }) => {
  const wrong = facts.peerFrames.find((f) => f.masked !== r.isServer);
  if (wrong === undefined) return null;
  const side = r.isServer ? 'client' : 'server';
  const peerDid = `sent ${frameWords(wrong)} ${r.isServer ? 'without a mask' : 'masked'}`;
  return {
    peerDid,
    at: point(wrong),
    cause: { key: `masking:${side}`, title: r.isServer ? 'client frames not masked' : 'server frames masked' },
    requirement: {
      key: 'masking',
      rfc: 'RFC 6455 §5.1, §5.3',
      text: `a client must mask every frame it sends and a server must not mask any; on a frame that breaks this, the other side fails the connection (1002)`,
      subject: 'frame masking',
    },
  };
};

const notApplicable: Detector = ({ r }) => {
  if (r.behavior !== 'UNIMPLEMENTED') return null;
  const deflate = /permessage-deflate/i;
  const peerDid = r.isServer
    ? deflate.test(r.httpRequest)
      ? 'offered permessage-deflate with parameters this case cannot use'
      : 'offered no permessage-deflate (the case tests compression, so it says nothing about this peer)'
    : deflate.test(r.httpResponse)
      ? 'accepted permessage-deflate with parameters this case cannot use'
      : 'declined permessage-deflate (the case tests compression, so it says nothing about this peer)';
  const compression = /permessage-deflate/i.test(r.result) || r.id.startsWith('12.') || r.id.startsWith('13.');
  return {
    peerDid,
    at: null,
    cause: { key: 'unimplemented:deflate', title: compression ? 'permessage-deflate not negotiated: cases not applicable' : `not applicable: ${r.result}` },
  };
};

const informational: Detector = ({ r, req, peerClosed, closeAt, key }) => {
  if (r.behavior !== 'INFORMATIONAL' && r.behaviorClose !== 'INFORMATIONAL') return null;
  const closed = r.closedByMe ? "answered wsgate's close with" : 'closed with';
  const answer = !peerClosed ? 'sent no close frame' : `${closed} ${codeWords(r.remoteCloseCode, r.remoteCloseReason)}`;
  const peerDid = `${answer}; ${req.informational ?? 'the RFC leaves this case open, so it is reported, not judged'}`;
  return { peerDid, at: closeAt, cause: { key: key('informational'), title: `${req.subject}: informational only` } };
};

/**
 * The peer's answer to a normal close wsgate started at the end of a case: one cause whatever the
 * case was about, since the fault is in the peer's closing handshake.
 */
const closingAnswer: Detector = ({ r, peerClosed, closeAt }) => {
  // Events that went wrong first are the story; the closing is then told in the ending.
  if (!r.closedByMe || r.result === EVENTS_DIFFER) return null;
  const ec = r.expectedClose;
  if (r.behaviorClose === 'WRONG CODE' && 'closeCode' in ec && ec.closeCode.includes(1000)) {
    const peerDid = `answered wsgate's close (code ${r.localCloseCode ?? 'none'}) with ${codeWords(r.remoteCloseCode, r.remoteCloseReason)}`;
    const code = r.remoteCloseCode ?? 'none';
    return {
      peerDid,
      at: closeAt,
      cause: { key: `closing-answer:code-${code}`, title: `a close frame answered with code ${code} instead of its own code or 1000` },
      requirement: CLOSE_ANSWER,
    };
  }
  if (!peerClosed && r.behaviorClose === 'UNCLEAN' && r.behavior !== 'FAILED') {
    return {
      peerDid: "never answered wsgate's close frame",
      at: null,
      cause: { key: 'closing-answer:none', title: 'a close frame never answered' },
      requirement: CLOSE_ANSWER,
    };
  }
  return null;
};

const wrongCode: Detector = ({ r, req, closeAt, key }) => {
  if (r.behaviorClose !== 'WRONG CODE' || r.result === EVENTS_DIFFER) return null;
  const code = r.remoteCloseCode ?? 'none';
  if (r.closedByMe && r.remoteCloseCode !== null && r.remoteCloseCode === r.localCloseCode) {
    const peerDid = `echoed the close code back (${codeWords(r.remoteCloseCode, r.remoteCloseReason)}) where ${expectedCodes(r)} is required`;
    return { peerDid, at: closeAt, cause: { key: key('code-echoed'), title: `${req.subject}: the code echoed back instead of ${expectedCodes(r)}` } };
  }
  if (!r.closedByMe) {
    // The peer failed the connection itself, rightly, with the wrong code: one cause per code given
    // and codes required, whatever the case was about (a library picks the code in one place).
    const peerDid = `failed the connection, rightly, but with ${codeWords(r.remoteCloseCode, r.remoteCloseReason)} where ${expectedCodes(r)} is required`;
    return {
      peerDid,
      at: closeAt,
      cause: {
        key: `failing-code:${code}-for-${expectedCodes(r)
          .replace(/ \(or none\)$/, '')
          .replace(/ or /g, '-')}`,
        title: `the connection failed with close code ${code} where ${expectedCodes(r)} is required`,
      },
      requirement: FAIL_CODES,
    };
  }
  const peerDid = `answered wsgate's close frame (code ${r.localCloseCode ?? 'none'}) with ${codeWords(r.remoteCloseCode, r.remoteCloseReason)} where ${expectedCodes(r)} is required`;
  return { peerDid, at: closeAt, cause: { key: key(`code-${code}`), title: `${req.subject}: close code ${code} instead of ${expectedCodes(r)}` } };
};

/**
 * The peer should have failed the connection and wsgate had to close it, or the other way round.
 * An accepting peer is shown at the first event no expected list allows (5.15's expected echo of
 * "fragment1fragment2" is not the fault; the echo of "fragment4" after the stray frame is).
 */
const wrongEndpoint: Detector = ({ r, req, facts, peerClosed, closeAt, key }) => {
  const ec = r.expectedClose;
  if (!('closedByMe' in ec) || ec.closedByMe === r.closedByMe) return null;
  if (r.closedByMe) {
    const cause = { key: key('accepted'), title: `${req.subject} accepted` };
    const d = firstDivergence(r.expected, r.received);
    if (d?.have !== undefined) {
      const frame = eventFrame(facts, r.received, d.index);
      return {
        peerDid: `accepted it and sent ${sentWords(d.have, frame)} instead of failing the connection`,
        at: frame === undefined ? null : point(frame),
        cause,
      };
    }
    // A frame that made no event (wsgate refused it: an echo of invalid UTF-8), after the events the case allows.
    const frame = frameAfterEvents(facts, r.received);
    if (frame !== undefined) {
      const peerDid = `accepted it and sent ${frameWords(frame)}${frame.logged !== '' ? ` ${quoteLogged(frame.logged)}` : ''} instead of failing the connection`;
      return { peerDid, at: point(frame), cause };
    }
    const timer = facts.fired[0];
    const until = timer !== undefined && timer.seconds !== null ? ` until wsgate's ${timer.seconds} s timer ran out` : '';
    const at = timer?.ms != null ? { frame: null, offset: null, ms: timer.ms } : null;
    const open = r.received.length === 0 ? 'open and silent' : `open after ${eventsWords(r.received)}, which the case expects`;
    return { peerDid: `did not fail the connection: it kept it ${open}${until}`, at, cause };
  }
  const peerDid = peerClosed
    ? `failed the connection: it sent a close frame with ${codeWords(r.remoteCloseCode, r.remoteCloseReason)}`
    : `${dropWords(r)} without a close frame`;
  return { peerDid, at: closeAt, cause: { key: key('refused'), title: `${req.subject} refused` } };
};

/** The peer's first frame other than a close after the frames of its (allowed) events. */
function frameAfterEvents(facts: WireFacts, received: CaseResult['received']): LoggedFrame | undefined {
  const lastEvent = received.findLastIndex((e) => e[0] !== 'timeout');
  const last = lastEvent < 0 ? undefined : eventFrame(facts, received, lastEvent);
  return facts.peerFrames.find((f) => f.opcode !== Op.Close && (last === undefined || f.entry > last.entry));
}

/** An event the peer sent: its one frame ("text frame 1 (FIN, 9 bytes) "fragment4""), or the message and the frame that ended it. */
function sentWords(event: Parameters<typeof eventWords>[0], frame: LoggedFrame | undefined): string {
  if (frame === undefined) return eventWords(event);
  if (frame.opcode === Op.Continuation) return `${eventWords(event)}, ending at ${frameWords(frame)}`;
  return `${frameWords(frame)}${frame.logged !== '' ? ` ${quoteLogged(frame.logged)}` : ''}`;
}

/** What ending the connection was, in words: TCP's, or over HTTP/2 the stream's (RFC 8441 §5). */
function dropWords(r: CaseResult): string {
  return r.transport === 'h2' ? 'ended the HTTP/2 stream' : 'dropped the TCP connection';
}

/** wsgate dropped the connection because it could not read what the peer sent (data that cannot be inflated). */
const badData: Detector = ({ r, req, key }) => {
  const dropped = 'Dropped the connection without a close frame: ';
  if (r.behavior !== 'FAILED' || !r.result.startsWith(dropped)) return null;
  return {
    peerDid: `sent data wsgate had to reject: ${r.result.slice(dropped.length).replace(/\.$/, '')}`,
    at: null,
    cause: { key: key('bad-data'), title: `${req.subject}: the peer sent data that cannot be read` },
  };
};

const nonStrict: Detector = ({ r, req, peerClosed, closeAt, key }) => {
  if (r.behavior !== 'NON-STRICT') return null;
  const pauses = r.received.filter((e) => e[0] === 'timeout').map((e) => e[1]);
  const others = r.received.filter((e) => e[0] !== 'timeout');
  const waited = pauses.length > 0 ? `let the case's pause${pauses.length === 1 ? '' : 's'} ${pauses.join(', ')} pass` : '';
  const sent = others.length > 0 ? `sent ${eventsWords(others)}` : '';
  const closed = !peerClosed ? '' : `closed with ${codeWords(r.remoteCloseCode, r.remoteCloseReason)}`;
  const what = [waited, sent, closed].filter((p) => p !== '').join(', then ') || 'sent nothing the case expects';
  const peerDid = `${what}: ${req.nonStrict ?? 'the case accepts this outcome as non-strict, the strict one being the expected events'}`;
  return { peerDid, at: closeAt, cause: { key: key('non-strict'), title: `${req.subject}: handled non-strictly` } };
};

const outcomeFailed: Detector = ({ r, req, facts, key }) => {
  if (r.behavior !== 'FAILED') return null;
  if (r.result === EVENTS_DIFFER) return eventsStory(r, req, facts);
  return {
    peerDid: `did not do what the case checks: ${r.result.replace(/\.$/, '')}`,
    at: null,
    cause: { key: key(`own:${normalise(r.result)}`), title: `${req.subject}: ${normalise(r.result)}` },
  };
};

const closeFailed: Detector = ({ r, req, peerClosed, closeAt, key }) => {
  if (r.behaviorClose === 'UNCLEAN') {
    const why = r.wasNotCleanReason ?? 'no reason recorded';
    const peerDid = !peerClosed ? `${dropWords(r)} without a closing handshake (${why})` : `did not complete the closing handshake cleanly (${why})`;
    return { peerDid, at: closeAt, cause: { key: key('unclean'), title: `${req.subject}: connection not closed cleanly` } };
  }
  if (r.behaviorClose === 'FAILED BY CLIENT') {
    const peerDid =
      'did not close the TCP connection after the closing handshake, so wsgate (the client) had to: RFC 6455 §7.1.1 asks the server to close it first';
    return { peerDid, at: closeAt, cause: { key: 'tcp-close:server-kept-open', title: 'the server does not close TCP after the closing handshake' } };
  }
  return null;
};

/** In order: the first that recognises a result tells its story. */
const DETECTORS: readonly Detector[] = [
  h2Rule,
  noHandshake,
  masking,
  notApplicable,
  informational,
  closingAnswer,
  wrongCode,
  badData,
  wrongEndpoint,
  nonStrict,
  outcomeFailed,
  closeFailed,
];

/** The first event no expected list allows, told against the list that went furthest. */
function eventsStory(r: CaseResult, req: Requirement, facts: WireFacts): Story {
  const got = r.received;
  const d = firstDivergence(r.expected, got);
  const want = d?.want;
  const have = d?.have;
  const i = d?.index ?? 0;
  const frame = eventFrame(facts, got, i);
  const at = frame === undefined ? null : point(frame);
  if (want !== undefined && have === undefined) {
    return {
      peerDid: `never sent ${eventWords(want)} (the ${ordinal(i + 1)} event the case expects)`,
      at: null,
      cause: { key: `${req.key}:missing-${want[0]}`, title: `${req.subject}: ${want[0]} missing` },
    };
  }
  if (want === undefined && have !== undefined) {
    return {
      peerDid: `sent ${eventWords(have)}, which the case does not expect`,
      at,
      cause: { key: `${req.key}:extra-${have[0]}`, title: `${req.subject}: unexpected ${have[0]}` },
    };
  }
  if (want !== undefined && have !== undefined) {
    return {
      peerDid: `sent ${eventWords(have)} where the case expects ${eventWords(want)}`,
      at,
      cause: { key: `${req.key}:different-${want[0]}`, title: `${req.subject}: ${want[0]} differs` },
    };
  }
  return { peerDid: `sent ${eventsWords(got)}`, at, cause: { key: `${req.key}:events`, title: `${req.subject}: events differ` } };
}

/** A result text made into a title: numbers and quoted parts generalised (an advisory's id is a name, not a number). */
function normalise(text: string): string {
  return text
    .replace(/\.$/, '')
    .replace(/"[^"]*"|'[^']*'/g, '"…"')
    .replace(/(CVE-\d+-\d+|GHSA(?:-\w{4}){3}|#\d+)|\d+(\.\d+)?/g, (_m, id: string | undefined) => id ?? 'N')
    .slice(0, 120);
}
