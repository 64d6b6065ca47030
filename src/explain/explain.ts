/**
 * Explanations of cases that did not pass, computed from what the case expected and what its report
 * recorded (verdicts, events, the frame log and its times): never written per run by hand. One pure
 * function per source: a case's result, or a case that produced none.
 */
import type { CaseResult, GateCase, ReportEvent } from '../model/report.js';
import type { Explanation, WirePoint } from '../model/explanation.js';
import { Utf8Validator } from '../protocol/utf8.js';
import { CLOSE_ANSWER, requirementFor, type Requirement } from './requirements.js';
import { frameWords, loggedBytes, Op, ordinal, wireFacts, type LoggedFrame, type WireFacts } from './wire-facts.js';

/** The explanation of a gate case that did not pass cleanly, or null (OK on both axes, or not run). */
export function explainCase(gc: GateCase): Explanation | null {
  if (gc.result !== null) return explainResult(gc.result);
  if (gc.status !== 'failed') return null;
  return explainNoResult(gc.id, gc.description, gc.reason);
}

/** Whether a result needs explaining: any verdict other than OK on either axis. */
export function needsExplaining(r: Pick<CaseResult, 'behavior' | 'behaviorClose'>): boolean {
  return r.behavior !== 'OK' || r.behaviorClose !== 'OK';
}

/** A case that produced no result: the gate's reason is what the peer did. */
export function explainNoResult(id: string, description: string, reason: string): Explanation {
  const req = requirementFor(id, null);
  const kind = noResultKind(reason);
  const did = didPhrase(description);
  const ending = 'no WebSocket connection was recorded for the case';
  return finish({
    verdict: 'NO RESULT',
    did,
    requirement: { rfc: req.rfc, text: req.text },
    peerDid: reason,
    at: null,
    ending,
    cause: { key: `no-result:${kind.key}`, title: kind.title },
  }, true);
}

function noResultKind(reason: string): { key: string; title: string } {
  if (/TLS/i.test(reason)) return { key: 'tls', title: 'no result: the TLS handshake failed' };
  if (/command not found|status 127/.test(reason)) return { key: 'no-command', title: 'no result: the client command was not found' };
  if (/before it connected|never connected|did not connect/.test(reason)) return { key: 'no-connection', title: 'no result: the client never connected' };
  if (/timed out|time limit|did not finish|still running/.test(reason)) return { key: 'timeout', title: 'no result: the case ran out of time' };
  if (/signal|crash|killed/.test(reason)) return { key: 'crash', title: 'no result: the peer crashed' };
  if (/refused|unreachable|ECONNREFUSED|connect/.test(reason)) return { key: 'unreachable', title: 'no result: the server could not be reached' };
  return { key: 'other', title: `no result: ${reason.replace(/\d+(\.\d+)?/g, 'N')}` };
}

/** The explanation of a result, or null when both verdicts are OK. */
export function explainResult(r: CaseResult): Explanation | null {
  if (!needsExplaining(r)) return null;
  const req = requirementFor(r.id, r.expectedClose);
  const facts = wireFacts(r);
  const story = divergence(r, req, facts);
  const broken = story.requirement ?? req;
  return finish({
    verdict: `${r.behavior} / ${r.behaviorClose}`,
    did: didPhrase(r.description) + utf8Where(req, facts),
    requirement: { rfc: broken.rfc, text: broken.text },
    peerDid: story.peerDid,
    at: story.at,
    ending: endingPhrase(r, facts),
    cause: story.cause,
  });
}

/**
 * Fills in the two sentences made of the parts. `peerDid` continues "the peer …", unless the gate's
 * own reason stands in for it (a case with no result), which is a sentence of its own.
 */
function finish(e: Omit<Explanation, 'text' | 'short'>, ownSentence = false): Explanation {
  const where = pointWords(e.at);
  const peer = `${ownSentence ? '' : 'the peer '}${e.peerDid}${where === '' ? '' : ` (${where})`}`;
  const text = `${capital(e.cause.title)}. wsgate ${e.did}. ${e.requirement.rfc}: ${e.requirement.text}. ${capital(peer)}. Ending: ${e.ending}.`;
  const short = `${peer} — ${e.requirement.rfc}`;
  return { ...e, text, short };
}

/** "frame 2, byte 15 of its stream, 1003.2 ms after the start". */
export function pointWords(at: WirePoint | null): string {
  if (at === null) return '';
  const parts: string[] = [];
  if (at.frame !== null) parts.push(`its frame ${at.frame}`);
  if (at.offset !== null) parts.push(`stream offset ${at.offset}`);
  if (at.ms !== null) parts.push(`at ${at.ms} ms`);
  return parts.join(', ');
}

function capital(s: string): string {
  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1);
}

/** The case's description as what wsgate did: its first sentence, without markup or payload dumps. */
function didPhrase(description: string): string {
  const plain = description.replace(/<br\s*\/?>/gi, ' ').replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();
  const first = plain.split(/(?<=[.!?])\s+(?=[A-Z0-9])/)[0] ?? plain;
  // Autobahn's own descriptions (a report it wrote, judged by wsgate) start with the verb.
  const body = first.replace(/[.]$/, '').replace(/^Sends? /, '');
  return `sent ${body.length > 0 ? body[0]!.toLowerCase() + body.slice(1) : 'the case'}`;
}

/**
 * For a message of invalid UTF-8: which of wsgate's frames holds the first invalid byte, found by
 * validating the logged payloads in order (empty when the log does not hold them whole).
 */
function utf8Where(req: Requirement, facts: WireFacts): string {
  if (req.key !== 'utf8-invalid') return '';
  const v = new Utf8Validator();
  let inMessage = false;
  let count = 0;
  let messageOffset = 0;
  for (const f of facts.ownFrames) {
    if (f.opcode === Op.Text) {
      v.reset();
      inMessage = true;
      count = 0;
      messageOffset = 0;
    } else if (f.opcode !== Op.Continuation || !inMessage) continue;
    count++;
    const data = loggedBytes(f.logged);
    if (data === null || data.length !== f.length) return '';
    const state = v.validate(data);
    if (!state.valid) {
      return `; the first invalid byte is at offset ${state.index} of the message (0x${data[state.index - messageOffset]?.toString(16).padStart(2, '0') ?? '??'}), in its ${ordinal(count)} frame`;
    }
    messageOffset += data.length;
    if (f.fin) {
      if (!state.endsOnCodePoint) return `; the message ends inside a UTF-8 sequence, in its ${ordinal(count)} frame`;
      inMessage = false;
    }
  }
  return '';
}

interface Story {
  peerDid: string;
  at: WirePoint | null;
  cause: { key: string; title: string };
  /** The requirement the cause breaks, when it is not the one the case tests (the closing handshake). */
  requirement?: Requirement;
}

function point(f: LoggedFrame): WirePoint {
  return { frame: f.n, offset: f.offset, ms: f.ms };
}

/** The first frame of the peer that is not part of the closing handshake (an echo, a pong…). */
function firstDataOrControl(facts: WireFacts): LoggedFrame | undefined {
  return facts.peerFrames.find((f) => f.opcode !== Op.Close);
}

function peerClose(facts: WireFacts): LoggedFrame | undefined {
  return facts.peerFrames.find((f) => f.opcode === Op.Close);
}

function codeWords(code: number | null, reason: string | null): string {
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
  closeFrame: LoggedFrame | undefined;
  closeAt: WirePoint | null;
  key: (kind: string) => string;
}

type Detector = (s: Seen) => Story | null;

/** Autobahn's result text when the observed events match no expected list. */
const EVENTS_DIFFER = 'Actual events differ from any expected.';

/** What the peer did instead, where, and the cause it makes: the first detector that recognises the case. */
function divergence(r: CaseResult, req: Requirement, facts: WireFacts): Story {
  const closeFrame = peerClose(facts);
  const seen: Seen = { r, req, facts, closeFrame, closeAt: closeFrame === undefined ? null : point(closeFrame), key: (kind) => `${req.key}:${kind}` };
  for (const detect of DETECTORS) {
    const story = detect(seen);
    if (story !== null) return story;
  }
  // Any other pair (a close FAILED with events OK and the right endpoint, which Autobahn's rules do not produce).
  return { peerDid: `${r.result} ${r.resultClose}`, at: seen.closeAt, cause: { key: seen.key('other'), title: `${req.subject}: ${normalise(r.resultClose)}` } };
}

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
const masking: Detector = ({ r }) => {
  const wrong = wireFacts(r).peerFrames.find((f) => f.masked !== r.isServer);
  if (wrong === undefined) return null;
  const side = r.isServer ? 'client' : 'server';
  const peerDid = `sent ${frameWords(wrong)} ${r.isServer ? 'without a mask' : 'masked'}`;
  return {
    peerDid,
    at: point(wrong),
    cause: { key: `masking:${side}`, title: r.isServer ? 'client frames not masked' : 'server frames masked' },
    requirement: { key: 'masking', rfc: 'RFC 6455 §5.1, §5.3', text: `a client must mask every frame it sends and a server must not mask any; on a frame that breaks this, the other side fails the connection (1002)`, subject: 'frame masking' },
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
  return { peerDid, at: null, cause: { key: 'unimplemented:deflate', title: compression ? 'permessage-deflate not negotiated: cases not applicable' : `not applicable: ${r.result}` } };
};

const informational: Detector = ({ r, req, closeFrame, closeAt, key }) => {
  if (r.behavior !== 'INFORMATIONAL' && r.behaviorClose !== 'INFORMATIONAL') return null;
  const answer = closeFrame === undefined ? 'sent no close frame' : `closed with ${codeWords(r.remoteCloseCode, r.remoteCloseReason)}`;
  const peerDid = `${answer}; ${req.informational ?? 'the RFC leaves this case open, so it is reported, not judged'}`;
  return { peerDid, at: closeAt, cause: { key: key('informational'), title: `${req.subject}: informational only` } };
};

/**
 * The peer's answer to a normal close wsgate started at the end of a case: one cause whatever the
 * case was about, since the fault is in the peer's closing handshake.
 */
const closingAnswer: Detector = ({ r, closeFrame, closeAt }) => {
  // Events that went wrong first are the story; the closing is then told in the ending.
  if (!r.closedByMe || r.result === EVENTS_DIFFER) return null;
  const ec = r.expectedClose;
  if (r.behaviorClose === 'WRONG CODE' && 'closeCode' in ec && ec.closeCode.includes(1000)) {
    const peerDid = `answered wsgate's close (code ${r.localCloseCode ?? 'none'}) with ${codeWords(r.remoteCloseCode, r.remoteCloseReason)}`;
    const code = r.remoteCloseCode ?? 'none';
    return { peerDid, at: closeAt, cause: { key: `closing-answer:code-${code}`, title: `a close frame answered with code ${code} instead of its own code or 1000` }, requirement: CLOSE_ANSWER };
  }
  if (closeFrame === undefined && r.remoteCloseCode === null && r.behaviorClose === 'UNCLEAN' && r.behavior !== 'FAILED') {
    return { peerDid: "never answered wsgate's close frame", at: null, cause: { key: 'closing-answer:none', title: 'a close frame never answered' }, requirement: CLOSE_ANSWER };
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
  const opening = r.closedByMe ? `answered wsgate's close frame (code ${r.localCloseCode ?? 'none'}) with` : 'closed with';
  const peerDid = `${opening} ${codeWords(r.remoteCloseCode, r.remoteCloseReason)} where ${expectedCodes(r)} is required`;
  return { peerDid, at: closeAt, cause: { key: key(`code-${code}`), title: `${req.subject}: close code ${code} instead of ${expectedCodes(r)}` } };
};

/** The peer should have failed the connection and wsgate had to close it, or the other way round. */
const wrongEndpoint: Detector = ({ r, req, facts, closeFrame, closeAt, key }) => {
  const ec = r.expectedClose;
  if (!('closedByMe' in ec) || ec.closedByMe === r.closedByMe) return null;
  if (r.closedByMe) {
    const echo = firstDataOrControl(facts);
    const timer = facts.fired[0];
    if (echo !== undefined) {
      const peerDid = `accepted it and sent ${frameWords(echo)}${echo.logged !== '' ? ` ${quoteLogged(echo.logged)}` : ''} instead of failing the connection`;
      return { peerDid, at: point(echo), cause: { key: key('accepted'), title: `${req.subject} accepted` } };
    }
    const until = timer !== undefined && timer.seconds !== null ? ` until wsgate's ${timer.seconds} s timer ran out` : '';
    const at = timer?.ms != null ? { frame: null, offset: null, ms: timer.ms } : null;
    return { peerDid: `did not fail the connection: it kept it open and silent${until}`, at, cause: { key: key('accepted'), title: `${req.subject} accepted` } };
  }
  const peerDid = closeFrame !== undefined ? `failed the connection: it sent a close frame with ${codeWords(r.remoteCloseCode, r.remoteCloseReason)}` : 'dropped the TCP connection without a close frame';
  return { peerDid, at: closeAt, cause: { key: key('refused'), title: `${req.subject} refused` } };
};

const nonStrict: Detector = ({ r, req, closeAt, key }) => {
  if (r.behavior !== 'NON-STRICT') return null;
  const peerDid = `sent ${eventsWords(r.received)}: ${req.nonStrict ?? 'the case accepts this outcome as non-strict, the strict one being the expected events'}`;
  return { peerDid, at: closeAt, cause: { key: key('non-strict'), title: `${req.subject}: handled non-strictly` } };
};

const outcomeFailed: Detector = ({ r, req, facts, key }) => {
  if (r.behavior !== 'FAILED') return null;
  if (r.result === EVENTS_DIFFER) return eventsStory(r, req, facts);
  const dropped = 'Dropped the connection without a close frame: ';
  if (r.result.startsWith(dropped)) {
    return { peerDid: `sent data wsgate had to reject: ${r.result.slice(dropped.length).replace(/\.$/, '')}`, at: null, cause: { key: key('bad-data'), title: `${req.subject}: the peer sent data that cannot be read` } };
  }
  return { peerDid: `did not do what the case checks: ${r.result.replace(/\.$/, '')}`, at: null, cause: { key: key(`own:${normalise(r.result)}`), title: `${req.subject}: ${normalise(r.result)}` } };
};

const closeFailed: Detector = ({ r, req, closeFrame, closeAt, key }) => {
  if (r.behaviorClose === 'UNCLEAN') {
    const why = r.wasNotCleanReason ?? 'no reason recorded';
    const peerDid = closeFrame === undefined ? `dropped the TCP connection without a closing handshake (${why})` : `did not complete the closing handshake cleanly (${why})`;
    return { peerDid, at: closeAt, cause: { key: key('unclean'), title: `${req.subject}: connection not closed cleanly` } };
  }
  if (r.behaviorClose === 'FAILED BY CLIENT') {
    const peerDid = 'did not close the TCP connection after the closing handshake, so wsgate (the client) had to: RFC 6455 §7.1.1 asks the server to close it first';
    return { peerDid, at: closeAt, cause: { key: 'tcp-close:server-kept-open', title: 'the server does not close TCP after the closing handshake' } };
  }
  return null;
};

/** In order: the first that recognises a result tells its story. */
const DETECTORS: readonly Detector[] = [noHandshake, masking, notApplicable, informational, closingAnswer, wrongCode, wrongEndpoint, nonStrict, outcomeFailed, closeFailed];

/** The first point where the observed events leave the expected ones. */
function eventsStory(r: CaseResult, req: Requirement, facts: WireFacts): Story {
  const expected = r.expected.OK ?? r.expected['NON-STRICT'] ?? [];
  const got = r.received;
  let i = 0;
  while (i < expected.length && i < got.length && sameReportEvent(expected[i]!, got[i]!)) i++;
  const want = expected[i];
  const have = got[i];
  const frame = eventFrame(facts, i);
  const at = frame === undefined ? null : point(frame);
  if (want !== undefined && have === undefined) {
    return { peerDid: `never sent ${eventWords(want)} (the ${ordinal(i + 1)} event the case expects)`, at: null, cause: { key: `${req.key}:missing-${want[0]}`, title: `${req.subject}: ${want[0]} missing` } };
  }
  if (want === undefined && have !== undefined) {
    return { peerDid: `sent ${eventWords(have)}, which the case does not expect`, at, cause: { key: `${req.key}:extra-${have[0]}`, title: `${req.subject}: unexpected ${have[0]}` } };
  }
  if (want !== undefined && have !== undefined) {
    return { peerDid: `sent ${eventWords(have)} where the case expects ${eventWords(want)}`, at, cause: { key: `${req.key}:different-${want[0]}`, title: `${req.subject}: ${want[0]} differs` } };
  }
  return { peerDid: `sent ${eventsWords(got)}`, at, cause: { key: `${req.key}:events`, title: `${req.subject}: events differ` } };
}

/** The peer frame that completed its i-th event (a message's final frame, or a pong). */
function eventFrame(facts: WireFacts, i: number): LoggedFrame | undefined {
  let n = -1;
  for (const f of facts.peerFrames) {
    if (f.opcode === Op.Pong || ((f.opcode === Op.Text || f.opcode === Op.Binary || f.opcode === Op.Continuation) && f.fin)) n++;
    if (n === i) return f;
  }
  return undefined;
}

function sameReportEvent(a: ReportEvent, b: ReportEvent): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A logged payload in a sentence: text quoted, anything with control characters (or not text) as hex; cut at 40 characters. */
function quoteLogged(logged: string): string {
  const cut = logged.endsWith(' ...');
  const body = cut ? logged.slice(0, -4) : logged;
  // eslint-disable-next-line no-control-regex
  const text = !body.startsWith('0x') && !/[\u0000-\u001f\u007f]/.test(body);
  const shown = text ? body : body.startsWith('0x') ? body : `0x${Buffer.from(body, 'utf8').toString('hex')}`;
  const short = shown.length > 40 || cut ? `${shown.slice(0, 40)}…` : shown;
  return text ? `"${short}"` : short;
}

/** An event as words: 'a text message "Hello"', 'a pong "ping payload"', 'timeout A'. */
export function eventWords(e: ReportEvent): string {
  switch (e[0]) {
    case 'message':
      return `a ${e[2] ? 'binary' : 'text'} message ${quoteLogged(e[1])}`;
    case 'ping':
      return `a ping ${quoteLogged(e[1])}`;
    case 'pong':
      return `a pong ${quoteLogged(e[1])}`;
    case 'timeout':
      return `nothing before the case's timer ${e[1]}`;
  }
}

function eventsWords(events: readonly ReportEvent[]): string {
  if (events.length === 0) return 'nothing';
  const shown = events.slice(0, 3).map(eventWords).join(', ');
  return events.length > 3 ? `${shown} and ${events.length - 3} more` : shown;
}

/** A result text made into a title: numbers and quoted parts generalised. */
function normalise(text: string): string {
  return text
    .replace(/\.$/, '')
    .replace(/"[^"]*"|'[^']*'/g, '"…"')
    .replace(/\d+(\.\d+)?/g, 'N')
    .slice(0, 120);
}

/** How the connection ended, in words. */
function endingPhrase(r: CaseResult, facts: WireFacts): string {
  const timer = facts.fired[0];
  const timerWords = timer !== undefined && timer.seconds !== null ? ` when its ${timer.seconds} s timer ran out` : '';
  const parts: string[] = [];
  const peerClosed = peerClose(facts) !== undefined || r.remoteCloseCode !== null;
  if (r.closedByMe) {
    const why = r.failedByMe && r.localCloseReason !== null && r.localCloseReason !== '' ? ` ("${r.localCloseReason}")` : '';
    parts.push(`wsgate ${r.failedByMe ? 'failed the connection' : 'started the closing handshake'}${r.localCloseCode !== null ? ` with code ${r.localCloseCode}${why}` : ''}${timerWords}`);
    parts.push(peerClosed ? `the peer answered with ${codeWords(r.remoteCloseCode, r.remoteCloseReason)}` : 'the peer sent no close frame');
  } else if (peerClosed) {
    parts.push(`the peer closed first, with ${codeWords(r.remoteCloseCode, r.remoteCloseReason)}`);
    if (r.localCloseCode !== null) parts.push(`wsgate answered with code ${r.localCloseCode}`);
  } else {
    parts.push('no close frame was exchanged');
  }
  parts.push(r.droppedByMe ? 'wsgate closed TCP' : 'the peer closed TCP');
  parts.push(r.wasClean ? 'clean' : `not clean${r.wasNotCleanReason !== null ? ` (${r.wasNotCleanReason})` : ''}`);
  return parts.join(', ');
}

