/**
 * The verdict logic of Autobahn|Testsuite (case.py's onConnectionLost), as a pure function of what the
 * case expected and what the connection did. Two axes: `behavior` (the events) and `behaviorClose`
 * (the closing handshake).
 */
import type { ExpectedClose } from '../model/report.js';
import { Behavior, CloseBehavior, type CloseVerdict, type OutcomeVerdict } from '../model/verdicts.js';
import type { ExpectedEventLists, Judgement, PeerEvent } from '../cases/types.js';

export type { Judgement };

/** The facts about a finished connection that verdicts depend on. */
export interface ConnectionFacts {
  connectionWasOpen: boolean;
  closedByMe: boolean;
  droppedByMe: boolean;
  wasClean: boolean;
  remoteCloseCode: number | null;
  isServer: boolean;
}

/** Two events are equal when kind, payload bytes and flags are. */
export function sameEvent(a: PeerEvent, b: PeerEvent): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'message':
      return b.kind === 'message' && a.binary === b.binary && a.data.equals(b.data);
    case 'pong':
      return b.kind === 'pong' && a.data.equals(b.data);
    case 'timeout':
      return b.kind === 'timeout' && a.tag === b.tag;
  }
}

/** Two event lists are equal element by element. */
export function sameEvents(a: readonly PeerEvent[], b: readonly PeerEvent[]): boolean {
  return a.length === b.length && a.every((e, i) => sameEvent(e, b[i] as PeerEvent));
}

/** True when the observed events equal every expected list (Autobahn's finishWhenDone condition). */
export function matchesAllExpected(expected: ExpectedEventLists, received: readonly PeerEvent[]): boolean {
  return Object.values(expected).every((list) => sameEvents(received, list));
}

/** Computes both verdicts. */
export function judgeCase(
  expected: ExpectedEventLists,
  expectedClose: ExpectedClose,
  received: readonly PeerEvent[],
  initial: { behavior: OutcomeVerdict; result: string },
  facts: ConnectionFacts,
): Judgement {
  // Autobahn starts from FAILED (or what the case itself decided) and lets a matching list override it.
  let behavior = initial.behavior;
  let result = initial.result;
  for (const [outcome, list] of Object.entries(expected)) {
    if (list !== undefined && sameEvents(received, list)) {
      behavior = outcome as 'OK' | 'NON-STRICT';
      result = 'Actual events match at least one expected.';
      break;
    }
  }

  let behaviorClose: CloseVerdict;
  let resultClose: string;
  if (!facts.connectionWasOpen) {
    behaviorClose = CloseBehavior.Failed;
    resultClose = 'The WebSocket opening handshake was never completed!';
  } else {
    if (expectedClose.closedByMe !== facts.closedByMe) {
      behaviorClose = CloseBehavior.Failed;
      resultClose = 'The connection was failed by the wrong endpoint';
    } else if (expectedClose.requireClean && !facts.wasClean) {
      behaviorClose = CloseBehavior.Unclean;
      resultClose = 'The spec requires the connection to be failed cleanly here';
    } else if (facts.remoteCloseCode !== null && !expectedClose.closeCode.includes(facts.remoteCloseCode)) {
      behaviorClose = CloseBehavior.WrongCode;
      resultClose = `The close code should have been ${expectedClose.closeCode.join(',')} or empty`;
    } else if (!facts.isServer && facts.droppedByMe) {
      behaviorClose = CloseBehavior.FailedByClient;
      resultClose = 'It is preferred that the server close the TCP connection';
    } else {
      behaviorClose = CloseBehavior.Ok;
      resultClose = 'Connection was properly closed';
    }
    // For the UTF-8 cases a close by the wrong endpoint means the peer never saw the invalid payload.
    if (expectedClose.closedByWrongEndpointIsFatal === true && expectedClose.closedByMe !== facts.closedByMe) {
      behavior = Behavior.Failed;
    }
  }
  return { behavior, result, behaviorClose, resultClose };
}
