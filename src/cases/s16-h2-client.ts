/**
 * Group 16.2 (wsgate's own; `--http2 --extended`, a client under test): RFC 8441's rules for a
 * client, from the HTTP/2 server's side. Each case is one WebSocket (one extended CONNECT stream of
 * the client's, to /runCase). What a client's HTTP/2 library enforces before a case sees the stream
 * is not judged here: a request without :scheme or :path is refused by wsgate's own HTTP/2 layer
 * (nghttp2: RST_STREAM PROTOCOL_ERROR) before it reaches the fuzzing server.
 */
import { Opcode } from '../protocol/constants.js';
import { Behavior } from '../model/verdicts.js';
import { closedByMe, defineCase, message, pong } from './define.js';
import { failOutcome, H2_PROBE, orderlyEnd, patterned } from './h2-judging.js';
import type { H2CaseContext } from './h2-types.js';
import type { CaseContext, ScriptedCase } from './types.js';

/** What is wrong with the client's extended CONNECT (RFC 8441 §4, §5), or null. */
export function requestFault(h2: H2CaseContext): string | null {
  const f = h2.peerFields;
  const scheme = h2.secure ? 'https' : 'http';
  if (f[':method'] !== 'CONNECT') return `its :method is ${JSON.stringify(f[':method'] ?? '')}, not CONNECT`;
  if (f[':protocol'] !== 'websocket') return `its :protocol is ${JSON.stringify(f[':protocol'] ?? '')}, not websocket`;
  if (f[':scheme'] !== scheme)
    return `its :scheme is ${JSON.stringify(f[':scheme'] ?? '')} on a connection ${h2.secure ? 'over TLS' : 'without TLS'} (${scheme} expected)`;
  if (!(f[':path'] ?? '').startsWith('/')) return `its :path ${JSON.stringify(f[':path'] ?? '')} is not a path`;
  if ((f[':authority'] ?? '') === '') return 'it has no :authority';
  if (f['sec-websocket-version'] !== '13') return `its sec-websocket-version is ${JSON.stringify(f['sec-websocket-version'] ?? '')}, not 13`;
  return null;
}

/** Over HTTP/1.1 group 16 does not apply (it is selected with --http2 only). */
function h2Of(t: CaseContext): H2CaseContext | null {
  const h2 = t.h2 ?? null;
  if (h2 === null) t.setOutcome(Behavior.Unimplemented, 'The case needs a WebSocket over HTTP/2 (--http2).');
  return h2;
}

/** 16.2.4's message: sixteen times a 65535-octet window, the default of RFC 9113 §6.9.2. */
const LARGE = patterned(1024 * 1024);

const cases: ScriptedCase[] = [
  // RFC 8441 §4: "A new pseudo-header field :protocol MAY be included on request HEADERS indicating
  // the desired protocol to be spoken on the tunnel created by CONNECT." "On requests that contain
  // the :protocol pseudo-header field, the :scheme and :path pseudo-header fields of the target URI
  // (see Section 5) MUST also be included." §5: ":protocol ... MUST be "websocket"", and
  // "Sec-WebSocket-Version ... MUST be included as in RFC 6455".
  defineCase({
    id: '16.2.1',
    description: `Reads the client's extended CONNECT, answers 200, and sends a text message ("${H2_PROBE}"). (RFC 8441 §4, §5)`,
    expectation:
      'RFC 8441 §4, §5: the request carries :method CONNECT, :protocol websocket, the :scheme of the connection (http, or https over TLS), a :path, an :authority, and sec-websocket-version 13; the client echoes the message.',
    expect: { OK: [message(H2_PROBE)] },
    close: closedByMe(),
    run(t) {
      const h2 = h2Of(t);
      const fault = h2 === null ? null : requestFault(h2);
      if (fault !== null) failOutcome(t, `The client's extended CONNECT is not RFC 8441's: ${fault}.`);
      t.sendMessage(H2_PROBE);
    },
  }),
  // RFC 8441 §5: "Implementations using this extended CONNECT to bootstrap WebSockets do not do the
  // processing of the Sec-WebSocket-Key and Sec-WebSocket-Accept request and response header fields
  // of [RFC6455] as that functionality has been superseded by the :protocol pseudo-header field."
  defineCase({
    id: '16.2.2',
    description: `Answers the extended CONNECT with :status 200 and no Sec-WebSocket-Accept field, then sends a text message ("${H2_PROBE}"). (RFC 8441 §5)`,
    expectation:
      'RFC 8441 §5: a 2xx opens the WebSocket; there is no Sec-WebSocket-Accept to check, so the client takes the connection and echoes the message.',
    expect: { OK: [message(H2_PROBE)] },
    close: closedByMe(),
    run(t) {
      h2Of(t);
      t.sendMessage(H2_PROBE);
    },
  }),
  // RFC 8441 §5: "the orderly TCP-level closures are represented as END_STREAM flags"; the client
  // answers the server's END_STREAM with its own, as a TCP endpoint answers a FIN (RFC 6455 §7.1.1:
  // "the server SHOULD close it first").
  defineCase({
    id: '16.2.3',
    description: `Sends a text message ("${H2_PROBE}"), a close frame once it is echoed, and after the client's close frame ends its side of the stream (END_STREAM). (RFC 8441 §5)`,
    expectation: 'RFC 8441 §5: the client answers the close frame and then ends its own side with END_STREAM: no RST_STREAM, no half-open stream left.',
    expect: { OK: [message(H2_PROBE)] },
    close: closedByMe(),
    run(t) {
      h2Of(t);
      t.sendMessage(H2_PROBE);
    },
    adjust: orderlyEnd,
  }),
  // RFC 8441 §5: the WebSocket's data travels in DATA frames under HTTP/2's flow control; RFC 9113
  // §6.9: "flow control ... is used for both individual streams and the connection as a whole"; the
  // receiver opens its windows with WINDOW_UPDATE as it reads.
  defineCase({
    id: '16.2.4',
    description: "Sends a 1 MiB binary message (sixteen of HTTP/2's default 64 KiB windows). (RFC 8441 §5, RFC 9113 §6.9)",
    expectation:
      "RFC 9113 §6.9: the client opens its windows with WINDOW_UPDATE as it reads, so the message arrives whole, and echoes it within wsgate's windows.",
    expect: { OK: [message(LARGE, true)] },
    close: closedByMe(),
    schedule: { cost: 0.3 },
    run(t) {
      h2Of(t);
      t.sendMessage(LARGE, { binary: true });
    },
  }),
  // RFC 9113 §6.7: "Receivers of a PING frame that does not include an ACK flag MUST send a PING
  // frame with the ACK flag set in response, with an identical frame payload." The WebSocket's ping
  // is the stream's (RFC 6455 §5.5.2): the two do not stand for each other.
  defineCase({
    id: '16.2.5',
    description:
      'Sends a WebSocket ping ("wsgate ping") on the stream and an HTTP/2 PING (8 bytes) on the connection at the same time. (RFC 8441 §5, RFC 9113 §6.7)',
    expectation: 'Each is answered on its own layer: a pong with the same payload on the stream, a PING with ACK and the same 8 bytes on the connection.',
    expect: { OK: [pong('wsgate ping')] },
    close: closedByMe(),
    suppressClose: true,
    async run(t) {
      const h2 = h2Of(t);
      t.sendFrame({ opcode: Opcode.Ping, payload: 'wsgate ping' });
      const acked = (await h2?.ping(Buffer.from('wsgate16'), 2000)) === true;
      if (h2 !== null && !acked) failOutcome(t, 'The HTTP/2 PING got no ACK with the same 8 bytes within 2 s.');
      await t.pause(0.2);
      t.sendClose(1000);
    },
  }),
];

/** Group 16.2, in id order. */
export const h2ClientCases: readonly ScriptedCase[] = cases;
