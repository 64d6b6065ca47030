/**
 * What each case tests, as a requirement of the RFCs in our own words: the section, a short
 * paraphrase of what it asks of the peer, and the subject a failure is grouped under. Families are
 * keyed by id prefix (the longest one wins); a family whose cases ask two opposite things (group 6:
 * valid UTF-8 to accept, invalid to refuse) is split by what the case expects of the closing.
 */
import { everyCase } from '../catalogue/registry.js';
import type { ExpectedClose } from '../model/report.js';
import type { Requirement } from '../model/requirement.js';

export type { Requirement };

type Entry = Requirement | ((close: ExpectedClose | null) => Requirement);

const FAIL_1002 = 'must fail the connection (close code 1002, protocol error, or none) and act on nothing after it';

const utf8Invalid: Requirement = {
  key: 'utf8-invalid',
  rfc: 'RFC 6455 §8.1, §7.4.1',
  text: 'a text message that is not valid UTF-8 must fail the connection, with close code 1007 (or none), and must not be delivered',
  subject: 'invalid UTF-8 in a text message',
  nonStrict:
    'failing the connection only once the message (or frame) is complete, not at the first invalid byte, is allowed by RFC 6455 §8.1; failing fast is the strict behaviour',
};

const utf8Valid: Requirement = {
  key: 'utf8-valid',
  rfc: 'RFC 6455 §5.6, §8.1',
  text: 'a text message of valid UTF-8, however it is split into frames, must be accepted and delivered unchanged',
  subject: 'valid UTF-8 in a text message',
};

/** Valid input to accept, or invalid input to refuse, by what the case expects of the closing. */
function byClosing(valid: Requirement, invalid: Requirement): Entry {
  return (close) => (close !== null && close.closedByMe === false ? invalid : valid);
}

const H2_ORDERLY_END: Requirement = {
  key: 'h2-orderly-end',
  rfc: 'RFC 8441 §5',
  text: "after the closing handshake each side ends its stream with END_STREAM (TCP's orderly close); RST_STREAM is an abort, with CANCEL",
  subject: "the end of a WebSocket's HTTP/2 stream",
};

const H2_FLOW_CONTROL: Requirement = {
  key: 'h2-flow-control',
  rfc: 'RFC 9113 §6.9, RFC 8441 §5',
  text: 'a message larger than the flow-control windows crosses them: the sender waits for WINDOW_UPDATE, the receiver sends it as it reads, and the message arrives whole',
  subject: 'a message across HTTP/2 flow-control windows',
};

const H2_PING: Requirement = {
  key: 'h2-ping',
  rfc: 'RFC 9113 §6.7, RFC 8441 §5',
  text: 'an HTTP/2 PING is answered by a PING with ACK and the same 8 bytes, and a WebSocket ping by a pong on its stream: each on its own layer',
  subject: 'an HTTP/2 PING beside a WebSocket ping',
};

const TABLE: ReadonlyArray<readonly [string, Entry]> = [
  [
    '1',
    {
      key: 'framing-lengths',
      rfc: 'RFC 6455 §5.2',
      text: 'payload lengths in all three encodings (7-bit, 16-bit, 64-bit) must be read and the message delivered whole',
      subject: 'a message at a payload-length boundary',
    },
  ],
  [
    '2',
    {
      key: 'ping-pong',
      rfc: 'RFC 6455 §5.5.2, §5.5.3',
      text: 'every ping must be answered by a pong with the same application data, as soon as practical',
      subject: 'a ping',
    },
  ],
  [
    '2.5',
    {
      key: 'control-too-long',
      rfc: 'RFC 6455 §5.5',
      text: `a control frame carries at most 125 bytes of payload: a longer one is a protocol error, so the peer ${FAIL_1002}`,
      subject: 'a control frame longer than 125 bytes',
    },
  ],
  [
    '2.7',
    { key: 'unsolicited-pong', rfc: 'RFC 6455 §5.5.3', text: 'an unsolicited pong must be ignored: no answer is expected', subject: 'an unsolicited pong' },
  ],
  [
    '2.8',
    { key: 'unsolicited-pong', rfc: 'RFC 6455 §5.5.3', text: 'an unsolicited pong must be ignored: no answer is expected', subject: 'an unsolicited pong' },
  ],
  [
    '2.9',
    {
      key: 'unsolicited-pong',
      rfc: 'RFC 6455 §5.5.3',
      text: 'an unsolicited pong must be ignored, and the ping after it answered',
      subject: 'an unsolicited pong',
    },
  ],
  [
    '3',
    {
      key: 'rsv-bits',
      rfc: 'RFC 6455 §5.2',
      text: `RSV bits must be 0 unless a negotiated extension defines them: with one set, the peer ${FAIL_1002}`,
      subject: 'a frame with a reserved (RSV) bit set',
      nonStrict:
        'failing the connection before echoing the valid message sent just ahead of the bad frame (reading ahead) is allowed; the strict behaviour handles frames in order',
    },
  ],
  [
    '4',
    {
      key: 'reserved-opcode',
      rfc: 'RFC 6455 §5.2',
      text: `opcodes 3-7 and 11-15 are reserved: on receiving one, the peer ${FAIL_1002}`,
      subject: 'a frame with a reserved opcode',
      nonStrict:
        'failing the connection before echoing the valid message sent just ahead of the bad frame (reading ahead) is allowed; the strict behaviour handles frames in order',
    },
  ],
  [
    '5',
    {
      key: 'fragmentation',
      rfc: 'RFC 6455 §5.4',
      text: 'fragments must be reassembled into one message, with control frames between them handled at once',
      subject: 'a fragmented message',
    },
  ],
  [
    '5.1',
    {
      key: 'control-fragmented',
      rfc: 'RFC 6455 §5.4, §5.5',
      text: `control frames must not be fragmented: on a ping or pong without FIN, the peer ${FAIL_1002}`,
      subject: 'a fragmented control frame',
    },
  ],
  [
    '5.2',
    {
      key: 'control-fragmented',
      rfc: 'RFC 6455 §5.4, §5.5',
      text: `control frames must not be fragmented: on a ping or pong without FIN, the peer ${FAIL_1002}`,
      subject: 'a fragmented control frame',
    },
  ],
  [
    '5.9',
    {
      key: 'stray-continuation',
      rfc: 'RFC 6455 §5.4',
      text: `a continuation frame with no message open is a protocol error: the peer ${FAIL_1002}`,
      subject: 'a continuation frame with no message open',
    },
  ],
  ...['5.10', '5.11', '5.12', '5.13', '5.14', '5.15', '5.16', '5.17'].map(
    (id) =>
      [
        id,
        {
          key: 'stray-continuation',
          rfc: 'RFC 6455 §5.4',
          text: `a continuation frame with no message open is a protocol error: the peer ${FAIL_1002}`,
          subject: 'a continuation frame with no message open',
          nonStrict:
            'failing the connection before echoing the valid message sent ahead of the bad frame (reading ahead) is allowed; the strict behaviour handles frames in order',
        },
      ] as const,
  ),
  [
    '5.18',
    {
      key: 'data-frame-inside-message',
      rfc: 'RFC 6455 §5.4',
      text: `a new text or binary frame while a fragmented message is open is a protocol error: the peer ${FAIL_1002}`,
      subject: 'a data frame inside a fragmented message',
    },
  ],
  [
    '5.19',
    {
      key: 'ping-inside-message',
      rfc: 'RFC 6455 §5.4, §5.5.2',
      text: 'pings between the fragments of a message must be answered as they come, not after the message',
      subject: 'pings between fragments',
    },
  ],
  [
    '5.20',
    {
      key: 'ping-inside-message',
      rfc: 'RFC 6455 §5.4, §5.5.2',
      text: 'pings between the fragments of a message must be answered as they come, not after the message',
      subject: 'pings between fragments',
    },
  ],
  ['6', byClosing(utf8Valid, utf8Invalid)],
  [
    '7',
    {
      key: 'closing-handshake',
      rfc: 'RFC 6455 §5.5.1, §7.1.2',
      text: 'a close frame must be answered with a close frame, after which nothing more is sent or acted on',
      subject: 'the closing handshake',
    },
  ],
  [
    '7.1.6',
    {
      key: 'closing-handshake',
      rfc: 'RFC 6455 §5.5.1',
      text: 'a close frame must be answered with a close frame',
      subject: 'the closing handshake',
      informational:
        'the case sends a large message, a small one, a close and a ping back to back: how much the peer echoes before it closes depends on its speed, which the RFC does not fix',
    },
  ],
  [
    '7.3',
    {
      key: 'close-payload',
      rfc: 'RFC 6455 §5.5, §5.5.1',
      text: 'a close payload is empty or a 2-byte code and an optional UTF-8 reason, at most 125 bytes: a valid one is answered with a close, a 1-byte or over-long one is a protocol error (close code 1002)',
      subject: 'the close frame payload',
    },
  ],
  [
    '7.5',
    {
      key: 'close-reason-utf8',
      rfc: 'RFC 6455 §5.5.1, §8.1',
      text: 'a close reason must be valid UTF-8: an invalid one must fail the connection (close code 1007, or 1002)',
      subject: 'a close reason that is not UTF-8',
    },
  ],
  [
    '7.7',
    {
      key: 'close-code-valid',
      rfc: 'RFC 6455 §7.4.1, §7.4.2',
      text: 'a close frame with a valid code (1000-1003, 1007-1011, 3000-4999) must be answered with a close (echoing the code, or 1000)',
      subject: 'a valid close code',
    },
  ],
  [
    '7.9',
    {
      key: 'close-code-invalid',
      rfc: 'RFC 6455 §7.4.1, §7.4.2',
      text: 'a close code that is reserved or must not be sent (0-999, 1004-1006, 1015-2999) is a protocol error: the peer must close with 1002',
      subject: 'an invalid close code',
    },
  ],
  [
    '7.13',
    {
      key: 'close-code-out-of-range',
      rfc: 'RFC 6455 §7.4.2',
      text: 'close codes are defined up to 4999',
      subject: 'a close code above 4999',
      informational:
        'RFC 6455 defines close codes only up to 4999 and does not say what a peer does with a larger one, so any answer is reported, none is judged',
    },
  ],
  [
    '9',
    {
      key: 'large-messages',
      rfc: 'RFC 6455 §5.4, §10.4',
      text: 'large messages must be received whole (a peer may limit their size, but then closes with 1009), in time',
      subject: 'a large message',
    },
  ],
  [
    '9.7',
    {
      key: 'round-trips',
      rfc: 'RFC 6455 §5.6',
      text: 'many messages one after another must each be delivered (the round trip time is measured)',
      subject: 'messages in quick succession',
    },
  ],
  [
    '9.8',
    {
      key: 'round-trips',
      rfc: 'RFC 6455 §5.6',
      text: 'many messages one after another must each be delivered (the round trip time is measured)',
      subject: 'messages in quick succession',
    },
  ],
  [
    '10',
    {
      key: 'auto-fragmentation',
      rfc: 'RFC 6455 §5.4',
      text: 'a message may be split into frames of any size by the sender and must be delivered whole',
      subject: 'a message split into many frames',
    },
  ],
  [
    '12',
    {
      key: 'deflate-messages',
      rfc: 'RFC 7692 §7.2',
      text: 'with permessage-deflate negotiated, compressed messages must be inflated (and compressed ones sent) correctly',
      subject: 'compressed messages',
    },
  ],
  [
    '13',
    {
      key: 'deflate-parameters',
      rfc: 'RFC 7692 §7.1',
      text: 'the negotiated permessage-deflate parameters (context takeover, window bits) must be honoured on both sides',
      subject: 'negotiated permessage-deflate parameters',
    },
  ],
  [
    '14.1',
    {
      key: 'handshake-response',
      rfc: 'RFC 6455 §4.1',
      text: 'a client must fail the connection when the response is not a valid 101 upgrade with the right Sec-WebSocket-Accept',
      subject: 'an invalid handshake response',
    },
  ],
  [
    '14.2',
    {
      key: 'handshake-not-offered',
      rfc: 'RFC 6455 §4.1',
      text: 'a client must fail the connection when the response names an extension or subprotocol it did not offer',
      subject: 'an extension or subprotocol not offered',
    },
  ],
  [
    '14.3',
    {
      key: 'deflate-response-params',
      rfc: 'RFC 7692 §7.1',
      text: 'a client must fail the connection when the permessage-deflate response has a parameter it did not offer, an invalid value or a duplicate',
      subject: 'invalid permessage-deflate response parameters',
    },
  ],
  [
    '14.4',
    {
      key: 'handshake-leniency',
      rfc: 'RFC 6455 §4.1, RFC 7230 §3.2',
      text: 'a valid 101 response must be accepted whatever its letter case, optional whitespace, header order or TCP segmentation',
      subject: 'a valid handshake response in an unusual form',
    },
  ],
  [
    '14.5',
    {
      key: 'deflate-inflate-forms',
      rfc: 'RFC 7692 §7.2.2, §7.2.3',
      text: 'compressed messages in these legal forms must be inflated',
      subject: 'compressed messages in a legal but unusual form',
    },
  ],
  [
    '14.6',
    {
      key: 'close-reason-edges',
      rfc: 'RFC 6455 §5.5.1, §8.1',
      text: 'a close reason of up to 123 bytes of valid UTF-8 is legal; one that is not UTF-8 must fail the connection (1007)',
      subject: 'close reasons at the edges',
    },
  ],
  [
    '15.1',
    {
      key: 'upgrade-request-refused',
      rfc: 'RFC 6455 §4.2.1, §4.4',
      text: 'a server must refuse an invalid upgrade request with an HTTP error (400, or 426 with Sec-WebSocket-Version for a version it does not speak), not 101',
      subject: 'an invalid upgrade request',
    },
  ],
  [
    '15.2',
    {
      key: 'deflate-offer-declined',
      rfc: 'RFC 7692 §7',
      text: 'a server must decline a permessage-deflate offer with an unknown, invalid or duplicate parameter (or refuse the handshake)',
      subject: 'an invalid permessage-deflate offer',
    },
  ],
  [
    '16.1.1',
    {
      key: 'h2-settings',
      rfc: 'RFC 8441 §3',
      text: 'a server that takes WebSockets over HTTP/2 says so with SETTINGS_ENABLE_CONNECT_PROTOCOL = 1 in its SETTINGS; without it a client must not send an extended CONNECT',
      subject: 'the SETTINGS_ENABLE_CONNECT_PROTOCOL setting',
    },
  ],
  [
    '16.1.2',
    {
      key: 'h2-connect-answer',
      rfc: 'RFC 8441 §5',
      text: 'an extended CONNECT for websocket is answered with a 2xx status (HTTP/2 has no 101), with no Sec-WebSocket-Key or Sec-WebSocket-Accept processing',
      subject: 'the answer to an extended CONNECT',
    },
  ],
  [
    '16.1.3',
    {
      key: 'h2-connect-malformed',
      rfc: 'RFC 8441 §4',
      text: 'an extended CONNECT without :scheme is malformed (":scheme and :path ... MUST also be included"): it is refused with a stream error or a 4xx, never answered 2xx',
      subject: 'an extended CONNECT without :scheme',
    },
  ],
  ['16.1.4', H2_ORDERLY_END],
  [
    '16.1.5',
    {
      key: 'h2-several-streams',
      rfc: 'RFC 8441 §1, RFC 9113 §5',
      text: 'several WebSockets on one HTTP/2 connection each carry their own messages, in order, however their frames interleave, and each ends with END_STREAM',
      subject: 'several WebSockets on one HTTP/2 connection',
    },
  ],
  [
    '16.1.6',
    {
      key: 'h2-abort',
      rfc: 'RFC 8441 §5, RFC 9113 §5.4.2',
      text: 'RST_STREAM CANCEL aborts one WebSocket only: the HTTP/2 connection stays usable for another',
      subject: 'a WebSocket aborted with RST_STREAM CANCEL',
    },
  ],
  ['16.1.7', H2_FLOW_CONTROL],
  ['16.1.8', H2_PING],
  [
    '16.2.1',
    {
      key: 'h2-connect-request',
      rfc: 'RFC 8441 §4, §5',
      text: "the extended CONNECT carries :method CONNECT, :protocol websocket, the connection's :scheme, a :path, an :authority and sec-websocket-version 13",
      subject: 'the extended CONNECT request',
    },
  ],
  [
    '16.2.2',
    {
      key: 'h2-open-on-2xx',
      rfc: 'RFC 8441 §5',
      text: 'a 2xx answer opens the WebSocket: over HTTP/2 there is no Sec-WebSocket-Accept to check',
      subject: 'a 2xx answer without Sec-WebSocket-Accept',
    },
  ],
  ['16.2.3', H2_ORDERLY_END],
  ['16.2.4', H2_FLOW_CONTROL],
  ['16.2.5', H2_PING],
  [
    '15.3',
    {
      key: 'unmasked-frame',
      rfc: 'RFC 6455 §5.1',
      text: 'a server must fail the connection (close code 1002) on a frame from the client that is not masked',
      subject: 'an unmasked client frame',
    },
  ],
];

/** What every case asks of the peer's answer to a close frame wsgate sends at its end. */
export const CLOSE_ANSWER: Requirement = {
  key: 'closing-answer',
  rfc: 'RFC 6455 §5.5.1, §7.4.1',
  text: 'a close frame must be answered with a close frame that echoes its status code (or says 1000)',
  subject: 'the answer to a close frame',
};

/** What an endpoint that fails the connection says in its close frame. */
export const FAIL_CODES: Requirement = {
  key: 'failing-code',
  rfc: 'RFC 6455 §7.4.1, §7.1.7',
  text: 'an endpoint that fails the connection gives the reason: 1002 for a protocol error, 1007 for data that does not fit the message type (text that is not UTF-8), or no code',
  subject: 'the code of a failed connection',
};

const FALLBACK: Requirement = { key: 'other', rfc: 'RFC 6455', text: 'the behaviour the case describes', subject: 'the case' };

/** The requirements the cases declare themselves (the robustness profile), by id. */
let declared: ReadonlyMap<string, Requirement> | null = null;

/** The requirement a case tests: its own, if it declares one; else by its id (and, for group 6, what it expects of the closing). */
export function requirementFor(caseId: string, expectedClose?: ExpectedClose | Record<string, never> | null): Requirement {
  declared ??= new Map(everyCase.flatMap((c) => (c.requirement === undefined ? [] : [[c.id, c.requirement] as const])));
  const own = declared.get(caseId);
  if (own !== undefined) return own;
  const parts = caseId.split('.');
  for (let n = parts.length; n > 0; n--) {
    const prefix = parts.slice(0, n).join('.');
    const entry = TABLE.find(([p]) => p === prefix)?.[1];
    if (entry === undefined) continue;
    if (typeof entry !== 'function') return entry;
    return entry(expectedClose !== undefined && expectedClose !== null && 'closedByMe' in expectedClose ? (expectedClose as ExpectedClose) : null);
  }
  return FALLBACK;
}
