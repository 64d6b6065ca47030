/**
 * The scripts group 14 is made of: a response the client must refuse, one it must accept, compressed
 * messages it must inflate, and what each needs of the client's offers.
 */
import { createHash } from 'node:crypto';
import { CloseCode, Opcode } from '../protocol/constants.js';
import type { DeflateOffer } from '../protocol/deflate/params.js';
import type { ExpectedClose } from '../model/report.js';
import { Behavior, CloseBehavior } from '../model/verdicts.js';
import { acceptFirstOffer, acceptOffer } from './data/deflate-cases.js';
import { closedByMe, defineCase, message, wrongCodeFails } from './define.js';
import type { AdjustFacts, CaseContext, ScriptedCase, HandshakeDelivery, HandshakeRequestInfo, Judgement, TxFrame } from './types.js';

/** The text message sent right after the response. */
export const PROBE = 'Hello, wsgate';
/** Seconds a client has to drop a connection it must refuse before the server ends the case. */
export const REFUSE_WAIT = 2;
/** Seconds the accept and inflate cases wait for the echoes before failing the connection. */
export const ECHO_WAIT = 5;

/**
 * Close codes tolerated from a client that refuses a response with a close frame: it should just
 * close TCP (the connection was never established), and the code is not what these cases test.
 */
export const ANY_CLOSE_CODE = [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011];

/** The client must refuse: it drops TCP itself (a close frame first is tolerated), sends no data. */
export const refused: ExpectedClose = { closedByMe: false, closeCode: ANY_CLOSE_CODE, requireClean: false };

/** A response head from its status line and header lines (each given exactly as sent). */
export function head(statusLine: string, lines: readonly string[]): string {
  return `${[statusLine, ...lines].map((l) => `${l}\r\n`).join('')}\r\n`;
}

export const SWITCHING = 'HTTP/1.1 101 Switching Protocols';

/** The three header lines a valid 101 needs (RFC 6455 §4.2.2 item 5), in the usual spelling. */
export function upgradeLines(info: HandshakeRequestInfo): string[] {
  return ['Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Accept: ${info.accept}`];
}

/** The offer "permessage-deflate" with no parameter, for a response that accepts one never made. */
export const PLAIN_OFFER: DeflateOffer = {
  acceptNoContextTakeover: true,
  acceptMaxWindowBits: false,
  requestNoContextTakeover: false,
  requestMaxWindowBits: 0,
};

/** What a case needs of the client's offers before its response means anything. */
type Needs = 'deflate-offer' | 'no-deflate-offer' | null;

export function needsMet(needs: Needs, info: HandshakeRequestInfo): boolean {
  if (needs === 'deflate-offer') return info.deflateOffers.length > 0;
  if (needs === 'no-deflate-offer') return info.deflateOffers.length === 0;
  return true;
}

/**
 * A case whose response needs offers the client did not make sent the normal 101 and closed it
 * again: UNIMPLEMENTED (its empty event list would otherwise match), the closing not judged.
 */
export function unimplementedUnlessScripted(needs: Needs): (verdict: Judgement, facts: AdjustFacts) => Judgement {
  return (verdict, facts) => {
    if (facts.scriptedHandshake === true) return verdict;
    return {
      behavior: Behavior.Unimplemented,
      result: needsText(needs),
      behaviorClose: CloseBehavior.Ok,
      resultClose: 'Not judged: the case does not apply to this client.',
    };
  };
}

/**
 * A response the client must refuse. After it the server sends a text message in the same write and
 * waits: an echo fails the outcome; a 101 the client has not dropped after REFUSE_WAIT seconds is
 * failed by the server (closing FAILED: wrong endpoint); after a non-101 response a client may keep
 * the HTTP connection, so the server drops it silently.
 */
export function mustRefuse(def: {
  id: string;
  description: string;
  expectation: string;
  needs?: Needs;
  /** Default: 101 Switching Protocols. Decides how a connection the client keeps is judged. */
  statusLine?: string;
  /** The response's header lines, exactly as sent. */
  lines(info: HandshakeRequestInfo): string[];
  /** The server reads what follows with permessage-deflate on (the response accepted it). */
  deflate?: boolean;
}): ScriptedCase {
  const needs = def.needs ?? null;
  const statusLine = def.statusLine ?? SWITCHING;
  const switching = statusLine === SWITCHING;
  return defineCase({
    id: def.id,
    description: def.description,
    expectation:
      `${def.expectation} The client fails the connection: it closes TCP without sending any data frame ` +
      '(a close frame first is tolerated, with any code), and never echoes the text message the server sends ' +
      `right after the response.${needs === null ? '' : ` ${needsText(needs)}`}`,
    expect: { OK: [] },
    close: refused,
    suppressClose: true,
    adjust: unimplementedUnlessScripted(needs),
    handshake(info) {
      if (!needsMet(needs, info)) return null;
      const response = head(statusLine, def.lines(info));
      if (def.deflate !== true) return { head: response, delivery: 'together' };
      // Should the client take the response, its echo may come compressed: read it as such.
      const offer = info.deflateOffers[0] ?? PLAIN_OFFER;
      return { head: response, delivery: 'together', deflate: { offer, requestNoContextTakeover: false, requestMaxWindowBits: 0 } };
    },
    run(t) {
      if (!t.scriptedHandshake) {
        unimplemented(t, needsText(needs));
        return;
      }
      t.sendFrame({ opcode: Opcode.Text, payload: PROBE });
      if (switching) t.killAfter(REFUSE_WAIT);
      else t.continueLater(REFUSE_WAIT, () => t.dropConnection(), 'client-kept-http-connection');
    },
  });
}

export function needsText(needs: Needs): string {
  if (needs === 'deflate-offer') return 'Without a permessage-deflate offer from the client the case is UNIMPLEMENTED.';
  if (needs === 'no-deflate-offer') return 'When the client offers permessage-deflate the case is UNIMPLEMENTED.';
  return '';
}

/** The case does not apply: the normal 101 went out; close it normally. */
export function unimplemented(t: CaseContext, why: string): void {
  t.setOutcome(Behavior.Unimplemented, why);
  t.sendClose(CloseCode.Normal);
}

/**
 * A response the client must accept: the server then sends two messages (text and binary) and
 * closes with 1000 once both are echoed, as 1.1.1 does.
 */
export function mustAccept(def: {
  id: string;
  description: string;
  expectation: string;
  delivery: HandshakeDelivery;
  response(info: HandshakeRequestInfo): string;
}): ScriptedCase {
  const binary = Buffer.from('wsgate binary \u0000\u00ff', 'latin1');
  return defineCase({
    id: def.id,
    description: def.description,
    expectation: `${def.expectation} The client takes the connection as established and echoes a text and a binary message, then answers the close (1000) cleanly.`,
    expect: { OK: [message(PROBE), message(binary, true)] },
    close: closedByMe([CloseCode.Normal]),
    adjust: wrongCodeFails,
    handshake: (info) => ({ head: def.response(info), delivery: def.delivery }),
    run(t) {
      t.sendFrame({ opcode: Opcode.Text, payload: PROBE });
      t.sendFrame({ opcode: Opcode.Binary, payload: binary });
      t.killAfter(ECHO_WAIT);
    },
  });
}

/**
 * Compressed messages the client must inflate and echo. The frames are written as given (their
 * DEFLATE data crafted here, each message self-contained: no back-reference into an earlier one);
 * the server inflates the client's echo with the first offer it accepted, asking nothing.
 */
export function mustInflate(def: { id: string; description: string; expectation: string; rfc: string; frames: TxFrame[]; echoes: string[] }): ScriptedCase {
  return defineCase({
    id: def.id,
    description: `${def.description} Negotiation: the server accepts the client's first permessage-deflate offer, asking nothing. (${def.rfc})`,
    expectation: `${def.expectation} Without permessage-deflate negotiated the case is UNIMPLEMENTED.`,
    expect: { OK: def.echoes.map((e) => message(e)) },
    close: closedByMe([CloseCode.Normal]),
    adjust: wrongCodeFails,
    deflate: (offers) => acceptOffer(acceptFirstOffer, offers),
    run(t) {
      if (!t.deflateActive) {
        unimplemented(t, 'permessage-deflate was not negotiated (the client offered none).');
        return;
      }
      for (const frame of def.frames) t.sendFrame(frame);
      t.killAfter(ECHO_WAIT);
    },
  });
}

/** Upper case to lower and back: base64 compared case-insensitively would still match. */
export function swapCase(text: string): string {
  return text.replace(/[A-Za-z]/g, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()));
}

/** SHA-1 of the key without the GUID: the classic wrong Sec-WebSocket-Accept. */
export function acceptWithoutGuid(info: HandshakeRequestInfo): string {
  return createHash('sha1').update(info.request.key, 'latin1').digest('base64');
}
