/**
 * The repro runtime's verdict: Autobahn|Testsuite's rules (play/verdict.ts, ported), the echo
 * judging of the cases that judge echoes themselves (groups 9, 12, 13), and the case's own
 * adjustment (group 7). Copied into every script as source (see data.ts): self-contained.
 */
import type { ReproEvent, ReproFacts, ReproMessage, ReproVerdict, RuntimeData, RuntimeEvent } from './data.js';

/** An observed event equals an expected one: kind, flags and every payload byte. */
export function reproSameEvent(a: ReproEvent, e: RuntimeEvent): boolean {
  if (a.kind !== e[0]) return false;
  if (a.kind === 'timeout') return a.tag === e[1];
  if (a.kind === 'message' && a.binary !== e[2]) return false;
  return a.data.equals(Buffer.from(e[1], 'base64'));
}

/** The outcome of a case that judges echoes: every message wsgate sent must come back, in order. */
export function reproEchoOutcome(data: RuntimeData, facts: ReproFacts, echoed: readonly ReproMessage[], sent: readonly ReproMessage[]): { behavior: string; result: string } {
  if (data.needsDeflate && !facts.deflateOn) return { behavior: 'UNIMPLEMENTED', result: 'permessage-deflate was not negotiated.' };
  for (const [i, p] of echoed.entries()) {
    const s = sent[i];
    const which = `Echo ${i + 1}`;
    if (s === undefined) return { behavior: 'FAILED', result: `${which}: the peer sent more messages than it was sent.` };
    if (p.binary !== s.binary) return { behavior: 'FAILED', result: `${which}: ${p.binary ? 'binary' : 'text'} instead of ${s.binary ? 'binary' : 'text'}.` };
    if (p.data.length !== s.data.length) return { behavior: 'FAILED', result: `${which}: ${p.data.length} bytes instead of ${s.data.length}.` };
    if (data.echo === 'content' && !p.data.equals(s.data)) return { behavior: 'FAILED', result: `${which}: its content differs from what was sent.` };
  }
  if (sent.length === 0 || echoed.length < sent.length) return { behavior: 'FAILED', result: `Received ${echoed.length} of ${sent.length} echoes.` };
  return { behavior: 'OK', result: 'Every message was echoed.' };
}

/** Both verdicts, as Autobahn's case.py onConnectionLost computes them. */
export function reproJudge(data: RuntimeData, facts: ReproFacts, received: readonly ReproEvent[], echoed: readonly ReproMessage[], sent: readonly ReproMessage[]): ReproVerdict {
  let { behavior, result } = data.echo !== null ? reproEchoOutcome(data, facts, echoed, sent) : { behavior: 'FAILED', result: 'Actual events differ from any expected.' };
  // Autobahn's cases set their expected events when the connection opens.
  for (const [outcome, list] of Object.entries(facts.open ? data.expect : {})) {
    if (list !== undefined && list.length === received.length && received.every((e, i) => reproSameEvent(e, list[i] as RuntimeEvent))) {
      behavior = outcome;
      result = 'Actual events match at least one expected.';
      break;
    }
  }
  const c = data.close;
  let close: [string, string];
  if (!facts.open) close = ['FAILED', 'The WebSocket opening handshake was never completed!'];
  else if (c.closedByMe !== facts.closedByMe) close = ['FAILED', 'The connection was failed by the wrong endpoint'];
  else if (c.requireClean && !facts.wasClean) close = ['UNCLEAN', 'The spec requires the connection to be failed cleanly here'];
  else if (facts.remoteCloseCode !== null && !c.closeCode.includes(facts.remoteCloseCode)) close = ['WRONG CODE', `The close code should have been ${c.closeCode.join(',')} or empty`];
  else if (data.role === 'server' && facts.droppedByMe) close = ['FAILED BY CLIENT', 'It is preferred that the server close the TCP connection'];
  else close = ['OK', 'Connection was properly closed'];
  // For the UTF-8 cases a close by the wrong endpoint means the peer never saw the invalid payload.
  if (facts.open && c.closedByWrongEndpointIsFatal === true && c.closedByMe !== facts.closedByMe) behavior = 'FAILED';
  let [behaviorClose, resultClose] = close;
  if (data.adjust === 'wrong-code-fails' && behaviorClose === 'WRONG CODE') [behavior, result] = ['FAILED', resultClose];
  if (data.adjust === 'informational') [behavior, behaviorClose] = ['INFORMATIONAL', 'INFORMATIONAL'];
  return { behavior, result, behaviorClose, resultClose };
}
