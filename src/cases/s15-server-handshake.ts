/**
 * Group 15 (wsgate's own; selected with `--role server --extended`): what a server must refuse, from
 * the client's side. 15.1 sends upgrade requests RFC 6455 §4.2.1 makes the server refuse with an HTTP
 * error, 15.2 permessage-deflate offers RFC 7692 §7 makes it decline (answer without the extension),
 * 15.3 a frame RFC 6455 §5.1 makes it fail the connection on. Only MUSTs, each quoted.
 */
import { CloseCode, Opcode } from '../protocol/constants.js';
import type { UpgradeRequestSpec } from '../protocol/client-handshake.js';
import { Behavior, CloseBehavior } from '../model/verdicts.js';
import { defineCase, failedByPeer } from './define.js';
import type { AdjustFacts, ScriptedCase, Judgement } from './types.js';

/** What a case changes in the normal request: header lines replaced (null: left out), the method. */
interface RequestChange {
  method?: string;
  /** Header name (as sent) → value, or null to leave the header out. */
  headers?: Readonly<Record<string, string | null>>;
}

/** The normal request's head with the change applied, in the normal order (new headers last). */
function changedRequest(normal: UpgradeRequestSpec, change: RequestChange): string {
  const lines: Array<[string, string]> = [
    ['Host', normal.host],
    ['Upgrade', 'websocket'],
    ['Connection', 'Upgrade'],
    ['Sec-WebSocket-Key', normal.key],
    ['Sec-WebSocket-Version', '13'],
    ...(normal.headers ?? []).map(([n, v]) => [n, v] as [string, string]),
  ];
  const changes = change.headers ?? {};
  const out: string[] = [`${change.method ?? 'GET'} ${normal.target} HTTP/1.1`];
  for (const [name, value] of lines) {
    if (!(name in changes)) out.push(`${name}: ${value}`);
    else if (changes[name] !== null) out.push(`${name}: ${changes[name] ?? ''}`);
  }
  for (const [name, value] of Object.entries(changes)) {
    if (value !== null && !lines.some(([n]) => n === name)) out.push(`${name}: ${value}`);
  }
  return `${out.join('\r\n')}\r\n\r\n`;
}

/** The status code of a response head, or null when none came. */
function statusOf(httpResponse: string | undefined): number | null {
  const m = /^HTTP\/\d\.\d (\d{3})/.exec(httpResponse ?? '');
  return m === null ? null : Number(m[1]);
}

/** Whether a response head carries a header (case-insensitive name) whose value matches. */
function headerMatches(httpResponse: string | undefined, name: string, value: RegExp): boolean {
  return (httpResponse ?? '').split('\r\n').some((line) => {
    const colon = line.indexOf(':');
    return colon > 0 && line.slice(0, colon).trim().toLowerCase() === name && value.test(line.slice(colon + 1).trim());
  });
}

/** Both verdicts of a refusal case: the outcome as judged, the close by whether the server established the connection. */
const judged = (behavior: Judgement['behavior'], result: string, established = behavior === Behavior.Failed): Judgement => ({
  behavior,
  result,
  behaviorClose: established ? CloseBehavior.Failed : CloseBehavior.Ok,
  resultClose: established ? 'The server took the connection as established.' : 'The server did not establish the connection.',
});

/**
 * A request the server must refuse: any HTTP status but 101 passes (an error status is what
 * §4.2.1 asks for), closing the connection without a response is NON-STRICT, a 101 fails.
 * `check` adds a requirement of the refusal itself (15.1.1's Sec-WebSocket-Version).
 */
function mustRefuse(spec: {
  id: string;
  description: string;
  expectation: string;
  change: RequestChange;
  check?: (facts: AdjustFacts) => string | null;
}): ScriptedCase {
  return defineCase({
    id: spec.id,
    description: spec.description,
    expectation: spec.expectation,
    expect: {},
    close: failedByPeer([CloseCode.ProtocolError]),
    schedule: { maxSeconds: 6 },
    upgradeRequest: (normal) => changedRequest(normal, spec.change),
    // Opened (only possible where wsgate's own checks of the 101 passed): leave at once.
    run: (t) => t.sendClose(CloseCode.Normal),
    adjust: (_verdict, facts) => {
      const status = statusOf(facts.httpResponse);
      if (status === 101) return judged(Behavior.Failed, 'The server answered 101 Switching Protocols: it accepted a request it must refuse.');
      if (status === null)
        return judged(Behavior.NonStrict, 'The server closed the connection without an HTTP response (RFC 6455 §4.2.1 asks for an error status, such as 400).');
      const problem = spec.check?.(facts) ?? null;
      if (problem !== null) return judged(Behavior.Failed, `The server refused with HTTP ${status}, but ${problem}.`, false);
      return judged(Behavior.Ok, `The server refused with HTTP ${status}.`);
    },
  });
}

const refusedRequests: ScriptedCase[] = [
  // RFC 6455 §4.4: "If this version does not match a version understood by the server, the server
  // MUST abort the WebSocket handshake described in Section 4 and instead send an appropriate HTTP
  // error code (such as 426 Upgrade Required) and a |Sec-WebSocket-Version| header field indicating
  // the version(s) the server is capable of understanding."
  mustRefuse({
    id: '15.1.1',
    description: 'An upgrade request with Sec-WebSocket-Version: 12. (RFC 6455 §4.4)',
    expectation:
      'RFC 6455 §4.4: for a version it does not understand the server MUST abort the handshake and send an HTTP error code (such as 426 Upgrade Required) and a Sec-WebSocket-Version header field naming the versions it understands (13).',
    change: { headers: { 'Sec-WebSocket-Version': '12' } },
    check: (facts) =>
      headerMatches(facts.httpResponse, 'sec-websocket-version', /(^|[\s,])13($|[\s,])/)
        ? null
        : 'the response has no Sec-WebSocket-Version header field naming 13 (RFC 6455 §4.4)',
  }),
  // RFC 6455 §4.2.1: "If the server, while reading the handshake, finds that the client did not send
  // a handshake that matches the description below [...], the server MUST stop processing the
  // client's handshake and return an HTTP response with an appropriate error code (such as 400 Bad
  // Request)." Item 5: "A |Sec-WebSocket-Key| header field with a base64-encoded [...] value that,
  // when decoded, is 16 bytes in length."
  mustRefuse({
    id: '15.1.2',
    description: 'An upgrade request without a Sec-WebSocket-Key header field. (RFC 6455 §4.2.1)',
    expectation:
      'RFC 6455 §4.2.1 item 5: a request without Sec-WebSocket-Key does not match the handshake, so the server MUST return an HTTP error (such as 400 Bad Request).',
    change: { headers: { 'Sec-WebSocket-Key': null } },
  }),
  mustRefuse({
    id: '15.1.3',
    description: 'An upgrade request whose Sec-WebSocket-Key decodes to 8 bytes, not 16 ("AAAAAAAAAAA="). (RFC 6455 §4.2.1)',
    expectation: 'RFC 6455 §4.2.1 item 5: the key must decode to 16 bytes; otherwise the server MUST return an HTTP error (such as 400 Bad Request).',
    change: { headers: { 'Sec-WebSocket-Key': 'AAAAAAAAAAA=' } },
  }),
  // Item 6: "A |Sec-WebSocket-Version| header field, with a value of 13."
  mustRefuse({
    id: '15.1.4',
    description: 'An upgrade request without a Sec-WebSocket-Version header field. (RFC 6455 §4.2.1)',
    expectation: 'RFC 6455 §4.2.1 item 6: a request without Sec-WebSocket-Version: 13 does not match the handshake, so the server MUST return an HTTP error.',
    change: { headers: { 'Sec-WebSocket-Version': null } },
  }),
  // Item 3: "An |Upgrade| header field containing the value "websocket", treated as an ASCII
  // case-insensitive value."
  mustRefuse({
    id: '15.1.5',
    description: 'An upgrade request whose Upgrade header field is "h2c" instead of "websocket". (RFC 6455 §4.2.1)',
    expectation:
      'RFC 6455 §4.2.1 item 3: without Upgrade: websocket the request does not match the handshake, so the server MUST return an HTTP error (or answer it as plain HTTP, never with a WebSocket 101).',
    change: { headers: { Upgrade: 'h2c' } },
  }),
  // Item 1: "An HTTP/1.1 or higher GET request".
  mustRefuse({
    id: '15.1.6',
    description: 'An upgrade request with the method POST instead of GET. (RFC 6455 §4.2.1)',
    expectation: 'RFC 6455 §4.2.1 item 1: the opening handshake is a GET request; a POST does not match it, so the server MUST return an HTTP error.',
    change: { method: 'POST', headers: { 'Content-Length': '0' } },
  }),
];

/**
 * An offer the server must decline: "A server MUST decline an extension negotiation offer for this
 * extension if any of the following conditions are met: o The negotiation offer contains an extension
 * parameter not defined for use in an offer. o The negotiation offer contains an extension parameter
 * with an invalid value. o The negotiation offer contains multiple extension parameters with the same
 * name." (RFC 7692 §7). Declining is answering without the extension: a 101 without it passes, a
 * refused handshake is NON-STRICT (it declines more than the offer), accepting it fails.
 */
function mustDecline(id: string, offer: string, what: string): ScriptedCase {
  return defineCase({
    id,
    description: `An upgrade request offering "${offer}" (${what}), then a text message once open. (RFC 7692 §7)`,
    expectation: `RFC 7692 §7: the server MUST decline an offer with ${what}: it answers without permessage-deflate (and echoes the message), or refuses the handshake (NON-STRICT).`,
    expect: {},
    close: failedByPeer([CloseCode.Normal]),
    schedule: { maxSeconds: 6 },
    upgradeRequest: (normal) => changedRequest(normal, { headers: { 'Sec-WebSocket-Extensions': offer } }),
    run: (t) => {
      if (t.deflateActive) t.setOutcome(Behavior.Failed, 'The server accepted the offer (its response names permessage-deflate).');
      else t.setOutcome(Behavior.Ok, 'The server declined the offer (its response has no permessage-deflate).');
      t.sendClose(CloseCode.Normal);
    },
    adjust: (verdict, facts) => {
      const status = statusOf(facts.httpResponse);
      if (status === 101 && !facts.connectionWasOpen) {
        // wsgate failed the handshake itself: the server's answer named permessage-deflate in a way no client could take.
        return judged(Behavior.Failed, 'The server accepted the offer (its response names permessage-deflate).');
      }
      if (status !== 101)
        return judged(
          Behavior.NonStrict,
          status === null
            ? 'The server closed the connection without a response instead of declining the offer.'
            : `The server refused the handshake (HTTP ${status}) instead of declining the offer.`,
        );
      return { ...verdict, behaviorClose: CloseBehavior.Ok, resultClose: 'Connection was properly closed' };
    },
  });
}

const declinedOffers: ScriptedCase[] = [
  mustDecline('15.2.1', 'permessage-deflate; no_such_parameter', 'an extension parameter not defined for use in an offer'),
  mustDecline('15.2.2', 'permessage-deflate; server_max_window_bits=7', 'an extension parameter with an invalid value (window bits 7, below 8)'),
  mustDecline('15.2.3', 'permessage-deflate; server_no_context_takeover; server_no_context_takeover', 'two extension parameters with the same name'),
];

// RFC 6455 §5.1: "The server MUST close the connection upon receiving a frame that is not masked.
// In this case, a server MAY send a Close frame with a status code of 1002 (protocol error)".
const unmaskedFrame = defineCase({
  id: '15.3.1',
  description: 'A text message "Hello, world!" in one frame that is not masked. (RFC 6455 §5.1)',
  expectation:
    'RFC 6455 §5.1: the server MUST close the connection upon receiving a frame that is not masked (it MAY send a close frame with 1002 first); it does not echo the message.',
  expect: { OK: [] },
  close: failedByPeer([CloseCode.ProtocolError]),
  schedule: { maxSeconds: 3 },
  run: (t) => {
    t.sendFrame({ opcode: Opcode.Text, payload: 'Hello, world!', unmasked: true });
    t.killAfter(1);
  },
});

/** Group 15: a server's refusals, from the client's side. */
export const serverHandshakeCases: readonly ScriptedCase[] = [...refusedRequests, ...declinedOffers, unmaskedFrame];
