/**
 * What group 16 judges of HTTP/2 (RFC 8441) beyond Autobahn's verdicts: how the peer ended its
 * stream, and the helpers its cases share. RFC 8441 §5: "the orderly TCP-level closures are
 * represented as END_STREAM flags, and RST exceptions are represented with the RST_STREAM frame with
 * the CANCEL error code".
 */
import { h2ErrorName } from '../protocol/h2-frames.js';
import { Behavior, CloseBehavior } from '../model/verdicts.js';
import { timeout } from './define.js';
import type { AdjustFacts, CaseContext, Judgement } from './types.js';

/** RST_STREAM's CANCEL (RFC 9113 §7: 0x8), RFC 8441 §5's code for an abort. */
export const CANCEL = 0x8;

/** The text message group 16 sends and expects back. */
export const H2_PROBE = 'Hello, wsgate over HTTP/2';

/**
 * After a closing handshake the peer must end its side of the stream with END_STREAM: a reset
 * (with CANCEL an abort, with another code not RFC 8441's mapping at all) or no end at all is not
 * the orderly closure. Autobahn's verdicts stand when they already failed.
 */
export function orderlyEnd(verdict: Judgement, facts: AdjustFacts): Judgement {
  const h2 = facts.h2;
  // A closing that failed for another reason (the wrong endpoint, a wrong close code) keeps its verdict.
  if (h2 === undefined || !facts.connectionWasOpen || (verdict.behaviorClose !== CloseBehavior.Ok && verdict.behaviorClose !== CloseBehavior.Unclean))
    return verdict;
  const fail = (behaviorClose: Judgement['behaviorClose'], resultClose: string): Judgement => ({ ...verdict, behaviorClose, resultClose });
  if (h2.peerReset !== null && h2.peerReset !== CANCEL) {
    return fail(
      CloseBehavior.WrongCode,
      `The peer reset the stream with RST_STREAM ${h2ErrorName(h2.peerReset)}; RFC 8441 §5 ends a WebSocket with END_STREAM (an abort with RST_STREAM CANCEL).`,
    );
  }
  if (h2.peerReset === CANCEL) {
    return fail(CloseBehavior.Unclean, 'The peer reset the stream with RST_STREAM CANCEL (an abort, RFC 8441 §5) instead of ending it with END_STREAM.');
  }
  if (!h2.peerEnded) {
    return fail(
      CloseBehavior.Unclean,
      `The peer never ended its side of the stream with END_STREAM; wsgate reset it${h2.ownReset === null ? '' : ` (${h2ErrorName(h2.ownReset)})`} after waiting. RFC 8441 §5: the orderly closure is END_STREAM.`,
    );
  }
  return verdict;
}

/**
 * Fails the case's outcome with `why`: the result says it, and an event of its own keeps any
 * expected list from matching afterwards (Autobahn's lists would otherwise turn it back to OK).
 */
export function failOutcome(t: CaseContext, why: string): void {
  t.setOutcome(Behavior.Failed, why);
  t.record(timeout('h2-rule-broken'));
}

/** A payload of `n` bytes in a pattern a peer cannot echo right by accident (a cut or a reordering shows). */
export function patterned(n: number): Buffer {
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + (i >> 10)) & 0xff;
  return out;
}
