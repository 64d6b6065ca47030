/**
 * Explanations of cases that did not pass, computed from what the case expected and what its report
 * recorded (verdicts, events, the frame log and its times): never written per run by hand. One pure
 * function per source: a case's result, or a case that produced none.
 */
import type { CaseResult, GateCase } from '../model/report.js';
import type { Explanation, WirePoint } from '../model/explanation.js';
import type { PeerDeath } from '../model/peer.js';
import { diedDuringWords } from './peer-words.js';
import { Utf8Validator } from '../protocol/utf8.js';
import { codeWords, divergence, peerSentClose } from './divergence.js';
import { requirementFor, type Requirement } from './requirements.js';
import { loggedBytes, Op, ordinal, wireFacts, type WireFacts } from './wire-facts.js';

/** The explanation of a gate case that did not pass cleanly, or null (OK on both axes, or not run). */
export function explainCase(gc: GateCase): Explanation | null {
  if (gc.death !== undefined) return explainDeath(gc, gc.death);
  if (gc.result !== null) return explainResult(gc.result);
  if (gc.status !== 'failed') return null;
  return explainNoResult(gc.id, gc.description, gc.reason);
}

/**
 * A case the peer's process died during: the death is the finding, whatever the wire's verdicts
 * (which keep the original's values, and are said after it).
 */
function explainDeath(gc: GateCase, death: PeerDeath): Explanation {
  const r = gc.result;
  return finish(
    {
      verdict: r === null ? 'NO RESULT' : `${r.behavior} / ${r.behaviorClose}`,
      did: didPhrase(gc.description),
      requirement: {
        rfc: 'RFC 6455 §7.1.7',
        text: `failing a WebSocket connection closes that connection, not the endpoint: the ${death.role} goes on serving`,
      },
      peerDid: diedDuringWords(death, gc.id),
      at: null,
      ending: r === null ? 'no WebSocket connection was recorded for the case' : `the wire's verdicts were ${r.behavior} / ${r.behaviorClose}`,
      cause: { key: `died:${death.role}`, title: `the ${death.role} under test died during the case` },
    },
    true,
  );
}

/** Whether a result needs explaining: any verdict other than OK on either axis. */
export function needsExplaining(r: Pick<CaseResult, 'behavior' | 'behaviorClose'>): boolean {
  return r.behavior !== 'OK' || r.behaviorClose !== 'OK';
}

/**
 * A case that produced no result: the gate's reason is what the peer did. When the case never got
 * a connection (no client command started, no server, nothing dialled) it is a fault of the run,
 * not of the protocol: no RFC requirement was tested and wsgate sent nothing, so neither is claimed.
 */
export function explainNoResult(id: string, description: string, reason: string): Explanation {
  const found = noResultKind(reason);
  // The handshake groups (14, 15, 16) test the opening handshake itself: a peer that never got a
  // WebSocket there (a client that gave up on a bad answer, an HTTP/2 request wsgate refused) failed
  // the case's own requirement, not the run.
  const kind = HANDSHAKE_GROUPS.test(id) && found.requirement?.rfc === RUN_FAULT ? { ...found, requirement: null, played: true } : found;
  const req = kind.requirement ?? requirementFor(id, null);
  return finish(
    {
      verdict: 'NO RESULT',
      did: kind.played ? didPhrase(description) : 'sent nothing of the case: it never had a WebSocket connection',
      requirement: { rfc: req.rfc, text: req.text },
      peerDid: reason,
      at: null,
      ending: 'no WebSocket connection was recorded for the case',
      cause: { key: `no-result:${kind.key}`, title: `no result: ${kind.title}` },
    },
    true,
  );
}

/** The groups whose cases test the opening handshake (wsgate's 14-16). */
const HANDSHAKE_GROUPS = /^1[4-6]\./;

/** Where a requirement's RFC section goes, for a fault of the run (what must hold instead). */
export const RUN_FAULT = 'no RFC requirement (a fault of the run)';

interface NoResultKind {
  key: string;
  title: string;
  /** What was broken, when not the case's own requirement: a fault of the run, or the opening handshake. */
  requirement: { rfc: string; text: string } | null;
  /** Whether the case may have been played (wsgate may have sent some of it). */
  played: boolean;
}

const runFault = (text: string): NoResultKind['requirement'] => ({ rfc: RUN_FAULT, text });

/** RFC 6455 §4.1-4.2: no frame before the opening handshake completes. */
const OPENING_HANDSHAKE = { rfc: 'RFC 6455 §4.1, §4.2', text: 'the opening handshake must complete before any frame is sent' };

function noResultKind(reason: string): NoResultKind {
  const kind = (key: string, title: string, requirement: NoResultKind['requirement'], played = false): NoResultKind => ({ key, title, requirement, played });
  // First: these name TLS (ALPN) as the way HTTP/2 could have gone.
  if (/^HTTP\/2: |SETTINGS_ENABLE_CONNECT_PROTOCOL|HTTP\/2 SETTINGS|HTTP\/2 connection/.test(reason))
    return kind('http2', 'no HTTP/2 connection that could carry a WebSocket (RFC 8441)', null);
  if (/TLS/i.test(reason)) return kind('tls', 'the TLS handshake failed', runFault('the peer and wsgate must agree on TLS (certificate, protocol versions)'));
  if (/command not found|status 12[67]|could not be started/.test(reason))
    return kind('no-command', 'the client command could not be started', runFault('the client command must start (check --client)'));
  if (/^the server under test |found no server/.test(reason))
    return kind('server-stopped', 'the server under test stopped', runFault('the server under test must keep serving'));
  if (/killed by SIG|crash/.test(reason)) {
    const before = /before it connected/.test(reason);
    return kind('crash', 'the peer crashed', before ? runFault('the client must stay alive until it connects') : null, !before);
  }
  if (/did not finish|timed out|time limit/.test(reason)) return kind('timeout', 'the case ran out of time', null, true);
  if (/opening handshake/.test(reason)) return kind('handshake', 'the opening handshake was never completed', OPENING_HANDSHAKE);
  if (/before it connected|never connected|did not connect|did not run this case/.test(reason))
    return kind('no-connection', 'the client never connected', runFault('the client must dial the URL it is given ({url})'));
  if (/refused|unreachable|ECONNREFUSED|connect/.test(reason))
    return kind('unreachable', 'the server could not be reached', runFault('the server under test must accept connections'));
  return kind('other', reason.replace(/\d+(\.\d+)?/g, 'N'), null, true);
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
  const text = `${capital(e.cause.title)}. wsgate ${e.did}. ${capital(e.requirement.rfc)}: ${e.requirement.text}. ${capital(peer)}. Ending: ${e.ending}.`;
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
  const plain = description
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
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

/** How the connection ended, in words. */
function endingPhrase(r: CaseResult, facts: WireFacts): string {
  const timer = facts.fired[0];
  const timerWords = timer !== undefined && timer.seconds !== null ? ` when its ${timer.seconds} s timer ran out` : '';
  const parts: string[] = [];
  const peerClosed = peerSentClose(r, facts);
  if (r.closedByMe) {
    const why = r.failedByMe && r.localCloseReason !== null && r.localCloseReason !== '' ? ` ("${r.localCloseReason}")` : '';
    parts.push(
      `wsgate ${r.failedByMe ? 'failed the connection' : 'started the closing handshake'}${r.localCloseCode !== null ? ` with code ${r.localCloseCode}${why}` : ''}${timerWords}`,
    );
    parts.push(peerClosed ? `the peer answered with ${codeWords(r.remoteCloseCode, r.remoteCloseReason)}` : 'the peer sent no close frame');
  } else if (peerClosed) {
    parts.push(`the peer closed first, with ${codeWords(r.remoteCloseCode, r.remoteCloseReason)}`);
    if (r.localCloseCode !== null) parts.push(`wsgate answered with code ${r.localCloseCode}`);
  } else {
    parts.push('no close frame was exchanged');
  }
  const carrier = r.transport === 'h2' ? 'the HTTP/2 stream' : 'TCP';
  parts.push(`${r.droppedByMe ? 'wsgate' : 'the peer'} closed ${carrier}`);
  parts.push(r.wasClean ? 'clean' : `not clean${r.wasNotCleanReason !== null ? ` (${r.wasNotCleanReason})` : ''}`);
  return parts.join(', ');
}
