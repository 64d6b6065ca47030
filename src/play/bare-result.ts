/**
 * The case report of a case that is not one WebSocket connection (group 16's session cases: several
 * streams, raw HTTP/2 probes; group 17's attacks: raw connections, timed): Autobahn's fields with the case's verdicts, what was sent and answered
 * as the handshake texts, and no frame log.
 */
import type { CatalogueCase, Judgement } from '../cases/types.js';
import type { CaseResult } from '../model/report.js';

/** What a session case tells of itself besides its verdicts. */
export interface BareFacts {
  agent: string;
  index: number;
  started: string;
  durationMs: number;
  /** What wsgate sent and what the peer answered, as text (request fields, response fields or frames). */
  httpRequest: string;
  httpResponse: string;
  isServer: boolean;
  /** What the case's connections travelled on: HTTP/2 streams (the default: group 16), or raw HTTP/1.1 connections (null: an attack of group 17). */
  transport?: 'h2' | null;
}

/** A case report with no WebSocket frames: the verdicts and the exchange as text. */
export function bareResult(def: CatalogueCase, verdict: Judgement, facts: BareFacts): CaseResult {
  return {
    agent: facts.agent,
    behavior: verdict.behavior,
    behaviorClose: verdict.behaviorClose,
    case: facts.index,
    closedByMe: true,
    createStats: true,
    createWirelog: false,
    description: def.description,
    droppedByMe: true,
    duration: Math.round(facts.durationMs),
    expectation: def.expectation,
    expected: {},
    // A raw attack expects nothing of a closing handshake: it plays no WebSocket connection of its own.
    expectedClose: def.attack === undefined ? { ...def.close } : {},
    failedByMe: false,
    httpRequest: facts.httpRequest,
    httpResponse: facts.httpResponse,
    id: def.id,
    isServer: facts.isServer,
    localCloseCode: null,
    localCloseReason: null,
    received: [],
    remoteCloseCode: null,
    remoteCloseReason: null,
    reportCompressionRatio: false,
    reportTime: false,
    result: verdict.result,
    resultClose: verdict.resultClose,
    rxFrameStats: {},
    rxOctetStats: {},
    started: facts.started,
    trafficStats: null,
    txFrameStats: {},
    txOctetStats: {},
    wasClean: verdict.behaviorClose === 'OK',
    wasCloseHandshakeTimeout: false,
    wasNotCleanReason: null,
    wasOpenHandshakeTimeout: false,
    wasServerConnectionDropTimeout: false,
    wirelog: [],
    ...(facts.transport === null ? {} : { transport: 'h2' as const }),
    // A raw attack (group 17): its own verdict kept for the run's one verdict (attack-figures.ts).
    ...(def.attack === undefined
      ? {}
      : { attack: { own: { behavior: verdict.behavior, result: verdict.result, figures: verdict.figures ?? [] }, connection: null } }),
  };
}
