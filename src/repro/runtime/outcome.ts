/**
 * The repro runtime's verdict: play/verdict.ts's judgeCase (Autobahn's rules, the run's own code)
 * on the facts the session kept, after the outcome the case's script would have set itself where
 * it judges echoes (groups 9, 12, 13: the script cannot carry the case's code, so that outcome is
 * rebuilt from what wsgate sent and what came back), and the case's adjustment of the verdicts.
 */
import type { PeerEvent } from '../../cases/types.js';
import { wrongCodeFails } from '../../cases/define.js';
import { Behavior, CloseBehavior, type OutcomeVerdict } from '../../model/verdicts.js';
import { judgeCase, type ConnectionFacts, type Judgement } from '../../play/verdict.js';
import type { ReproMessage, RuntimeData, RuntimeEvent } from './data.js';

/** An embedded expected event as the verdict compares it. */
function peerEvent(e: RuntimeEvent): PeerEvent {
  if (e[0] === 'timeout') return { kind: 'timeout', tag: e[1] };
  if (e[0] === 'pong') return { kind: 'pong', data: Buffer.from(e[1], 'base64') };
  return { kind: 'message', data: Buffer.from(e[1], 'base64'), binary: e[2] };
}

/** The outcome of a case that judges echoes: every message wsgate sent must come back, in order. */
function echoOutcome(
  data: RuntimeData,
  deflateOn: boolean,
  echoed: readonly ReproMessage[],
  sent: readonly ReproMessage[],
): { behavior: OutcomeVerdict; result: string } {
  if (data.needsDeflate && !deflateOn) return { behavior: Behavior.Unimplemented, result: 'permessage-deflate was not negotiated.' };
  const failed = (result: string): { behavior: OutcomeVerdict; result: string } => ({ behavior: Behavior.Failed, result });
  for (const [i, p] of echoed.entries()) {
    const s = sent[i];
    const which = `Echo ${i + 1}`;
    if (s === undefined) return failed(`${which}: the peer sent more messages than it was sent.`);
    if (p.binary !== s.binary) return failed(`${which}: ${p.binary ? 'binary' : 'text'} instead of ${s.binary ? 'binary' : 'text'}.`);
    if (p.length !== s.length) return failed(`${which}: ${p.length} bytes instead of ${s.length}.`);
    if (data.echo === 'content' && !p.data.equals(s.data)) return failed(`${which}: its content differs from what was sent.`);
  }
  if (sent.length === 0 || echoed.length < sent.length) return failed(`Received ${echoed.length} of ${sent.length} echoes.`);
  return { behavior: Behavior.Ok, result: 'Every message was echoed.' };
}

/** What the session saw of the peer, for the verdict. */
export interface Observed {
  facts: ConnectionFacts;
  deflateOn: boolean;
  received: readonly PeerEvent[];
  echoed: readonly ReproMessage[];
  sent: readonly ReproMessage[];
}

/** Both verdicts, as the run computes them. */
export function reproVerdict(data: RuntimeData, o: Observed): Judgement {
  const initial =
    data.echo !== null ? echoOutcome(data, o.deflateOn, o.echoed, o.sent) : { behavior: Behavior.Failed, result: 'Actual events differ from any expected.' };
  // Autobahn's cases set their expected events when the connection opens.
  const expected = o.facts.connectionWasOpen ? data.expect : {};
  const lists = Object.fromEntries(Object.entries(expected).flatMap(([k, list]) => (list === undefined ? [] : [[k, list.map(peerEvent)]])));
  const close = { ...data.close, closedByWrongEndpointIsFatal: data.close.closedByWrongEndpointIsFatal === true };
  const verdict = judgeCase(lists, close, o.received, initial, o.facts);
  if (data.adjust === 'wrong-code-fails') return wrongCodeFails(verdict);
  if (data.adjust === 'informational') return { ...verdict, behavior: Behavior.Informational, behaviorClose: CloseBehavior.Informational };
  return verdict;
}
