/**
 * Group 14 (wsgate's own; Autobahn has no group 14): the opening handshake as the client sees it,
 * extension negotiation, permessage-deflate streams a compressor may legally produce, and close
 * reasons at the edges. Opt-in with `--extended`; the 517 Autobahn cases keep their ids and indices.
 *
 * 14.1-14.3 answer the upgrade request with a response the client must refuse, then send a text
 * message at once (in the same TCP write): a client that echoes it took the connection as
 * established. Refusing means dropping the connection (or sending a close frame, tolerated with any
 * code), never a data frame. 14.4 answers with responses the client must accept, 14.5 sends
 * compressed messages that stretch the decompressor, 14.6 close frames with unusual reasons.
 */
import { acceptWithoutGuid, head, mustAccept, mustRefuse, swapCase, SWITCHING, upgradeLines } from './handshake-scripts.js';
import { closeReasonCases, inflateCases } from './s14-messages.js';
import type { ScriptedCase } from './types.js';

// ---- 14.1: the status line and the required header fields ------------------------------------------

const statusAndHeaderCases: ScriptedCase[] = [
  // RFC 6455 §4.1: "If the response lacks a |Sec-WebSocket-Accept| header field or the
  // |Sec-WebSocket-Accept| contains a value other than the base64-encoded SHA-1 of the concatenation
  // of the |Sec-WebSocket-Key| (as a string, not base64-decoded) with the string
  // "258EAFA5-E914-47DA-95CA-C5AB0DC85B11" but ignoring any leading and trailing whitespace, the
  // client MUST _Fail the WebSocket Connection_."
  mustRefuse({
    id: '14.1.1',
    description: 'A 101 response whose Sec-WebSocket-Accept is the base64 SHA-1 of the key alone (the GUID left out), then a text message. (RFC 6455 §4.1)',
    expectation: 'RFC 6455 §4.1: a Sec-WebSocket-Accept other than base64(SHA-1(key + GUID)) means the client MUST _Fail the WebSocket Connection_.',
    lines: (info) => ['Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Accept: ${acceptWithoutGuid(info)}`],
  }),
  mustRefuse({
    id: '14.1.2',
    description: 'A 101 response without a Sec-WebSocket-Accept header field, then a text message. (RFC 6455 §4.1)',
    expectation: 'RFC 6455 §4.1: a response that lacks a Sec-WebSocket-Accept header field means the client MUST _Fail the WebSocket Connection_.',
    lines: () => ['Upgrade: websocket', 'Connection: Upgrade'],
  }),
  mustRefuse({
    id: '14.1.8',
    description:
      'A 101 response whose Sec-WebSocket-Accept is the right value with the letter case of every letter swapped, then a text message. (RFC 6455 §4.1, RFC 4648 §4)',
    expectation:
      'RFC 6455 §4.1: the value must be the base64-encoded SHA-1; base64 letters are case-sensitive (RFC 4648 §4), so this is another value and the client MUST _Fail the WebSocket Connection_.',
    lines: (info) => ['Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Accept: ${swapCase(info.accept)}`],
  }),
  // RFC 6455 §4.1: "If the status code received from the server is not 101, the client handles the
  // response per HTTP [RFC2616] procedures." §4.2.2: "Any status code other than 101 indicates that
  // the WebSocket handshake has not completed and that the semantics of HTTP still apply."
  mustRefuse({
    id: '14.1.3',
    description:
      'A 200 OK response that otherwise carries every upgrade header field (Upgrade, Connection, a correct Sec-WebSocket-Accept), then a text message as its body. (RFC 6455 §4.1, §4.2.2)',
    expectation: 'RFC 6455 §4.1: a status other than 101 is handled per HTTP; the WebSocket handshake has not completed.',
    statusLine: 'HTTP/1.1 200 OK',
    lines: upgradeLines,
  }),
  mustRefuse({
    id: '14.1.4',
    description: 'A 301 Moved Permanently response whose Location is the URL just requested, then a text message. (RFC 6455 §4.1)',
    expectation:
      'RFC 6455 §4.1: "the server might redirect the client using a 3xx status code (but clients are not required to follow them)". A client that follows it meets the same answer and must give up in the end.',
    statusLine: 'HTTP/1.1 301 Moved Permanently',
    lines: (info) => [`Location: ws://${info.request.headers.get('host')?.[0] ?? '127.0.0.1'}${info.request.target}`, 'Content-Length: 0'],
  }),
  mustRefuse({
    id: '14.1.5',
    description: 'A 403 Forbidden response (with Content-Length: 0), then a text message. (RFC 6455 §4.1)',
    expectation: 'RFC 6455 §4.1: a status other than 101 is handled per HTTP; the WebSocket handshake has not completed.',
    statusLine: 'HTTP/1.1 403 Forbidden',
    lines: () => ['Content-Length: 0'],
  }),
  // RFC 6455 §4.1: "If the response lacks an |Upgrade| header field or the |Upgrade| header field
  // contains a value that is not an ASCII case-insensitive match for the value "websocket", the
  // client MUST _Fail the WebSocket Connection_."
  mustRefuse({
    id: '14.1.6',
    description: 'A 101 response without an Upgrade header field (Connection and a correct Sec-WebSocket-Accept present), then a text message. (RFC 6455 §4.1)',
    expectation: 'RFC 6455 §4.1: a response that lacks an Upgrade header field means the client MUST _Fail the WebSocket Connection_.',
    lines: (info) => ['Connection: Upgrade', `Sec-WebSocket-Accept: ${info.accept}`],
  }),
  // RFC 6455 §4.1: "If the response lacks a |Connection| header field or the |Connection| header
  // field doesn't contain a token that is an ASCII case-insensitive match for the value "Upgrade",
  // the client MUST _Fail the WebSocket Connection_."
  mustRefuse({
    id: '14.1.7',
    description: 'A 101 response with "Connection: keep-alive" (no Upgrade token), then a text message. (RFC 6455 §4.1)',
    expectation: 'RFC 6455 §4.1: a Connection header field without the token "Upgrade" means the client MUST _Fail the WebSocket Connection_.',
    lines: (info) => ['Upgrade: websocket', 'Connection: keep-alive', `Sec-WebSocket-Accept: ${info.accept}`],
  }),
];

// ---- 14.2: extensions and subprotocols the client did not offer ------------------------------------

const negotiationCases: ScriptedCase[] = [
  // RFC 6455 §4.1: "If the response includes a |Sec-WebSocket-Extensions| header field and this
  // header field indicates the use of an extension that was not present in the client's handshake
  // (the server has indicated an extension not requested by the client), the client MUST _Fail the
  // WebSocket Connection_."
  mustRefuse({
    id: '14.2.1',
    description: 'A valid 101 response that also says "Sec-WebSocket-Extensions: x-wsgate-not-offered", then a text message. (RFC 6455 §4.1)',
    expectation: 'RFC 6455 §4.1: an extension in the response that the client did not request means the client MUST _Fail the WebSocket Connection_.',
    lines: (info) => [...upgradeLines(info), 'Sec-WebSocket-Extensions: x-wsgate-not-offered'],
  }),
  // RFC 6455 §4.1: "If the response includes a |Sec-WebSocket-Protocol| header field and this header
  // field indicates the use of a subprotocol that was not present in the client's handshake (the
  // server has indicated a subprotocol not requested by the client), the client MUST _Fail the
  // WebSocket Connection_."
  mustRefuse({
    id: '14.2.2',
    description: 'A valid 101 response that also says "Sec-WebSocket-Protocol: x-wsgate-not-offered", then a text message. (RFC 6455 §4.1)',
    expectation: 'RFC 6455 §4.1: a subprotocol in the response that the client did not request means the client MUST _Fail the WebSocket Connection_.',
    lines: (info) => [...upgradeLines(info), 'Sec-WebSocket-Protocol: x-wsgate-not-offered'],
  }),
  mustRefuse({
    id: '14.2.3',
    description:
      'A valid 101 response that accepts permessage-deflate although the client offered no extension, then a text message. (RFC 6455 §4.1, RFC 7692 §5)',
    expectation: 'RFC 6455 §4.1: an extension in the response that the client did not request means the client MUST _Fail the WebSocket Connection_.',
    needs: 'no-deflate-offer',
    deflate: true,
    lines: (info) => [...upgradeLines(info), 'Sec-WebSocket-Extensions: permessage-deflate'],
  }),
];

// ---- 14.3: permessage-deflate responses with parameters the client must reject ---------------------

// RFC 7692 §7.1: "A client MUST _Fail the WebSocket Connection_ if the peer server accepted an
// extension negotiation offer for this extension with an extension negotiation response meeting any
// of the following conditions: The negotiation response contains an extension parameter not defined
// for use in a response. The negotiation response contains an extension parameter with an invalid
// value. The negotiation response contains multiple extension parameters with the same name. The
// client does not support the configuration that the response represents."
function deflateResponse(id: string, params: string, what: string, rule: string): ScriptedCase {
  return mustRefuse({
    id,
    description: `A valid 101 response accepting permessage-deflate with ${what}: "Sec-WebSocket-Extensions: permessage-deflate; ${params}", then an uncompressed text message. (RFC 7692 §7.1)`,
    expectation: `RFC 7692 §7.1: a response that contains ${rule} means the client MUST _Fail the WebSocket Connection_.`,
    needs: 'deflate-offer',
    deflate: true,
    lines: (info) => [...upgradeLines(info), `Sec-WebSocket-Extensions: permessage-deflate; ${params}`],
  });
}

const deflateParamCases: ScriptedCase[] = [
  deflateResponse('14.3.1', 'x-wsgate-not-offered', 'a parameter the client did not offer', 'an extension parameter not defined for use in a response'),
  // RFC 7692 §7.1.2.1: the value of server_max_window_bits is a decimal integer from 8 to 15.
  deflateResponse(
    '14.3.2',
    'server_max_window_bits=7',
    'server_max_window_bits out of range',
    'an extension parameter with an invalid value (server_max_window_bits must be 8 to 15)',
  ),
  deflateResponse(
    '14.3.3',
    'client_max_window_bits=16',
    'client_max_window_bits out of range',
    'an extension parameter with an invalid value (client_max_window_bits must be 8 to 15)',
  ),
  deflateResponse(
    '14.3.4',
    'server_no_context_takeover; server_no_context_takeover',
    'a parameter given twice',
    'multiple extension parameters with the same name',
  ),
];

// ---- 14.4: responses the client must accept --------------------------------------------------------

const acceptCases: ScriptedCase[] = [
  // RFC 6455 §4.2.2: "At this point, the server may begin sending (and receiving) data." A client
  // reads the frames that follow the response in the same TCP segment.
  mustAccept({
    id: '14.4.1',
    description: 'A valid 101 response and two messages (text, binary) in one TCP write. (RFC 6455 §4.2.2)',
    expectation:
      'RFC 6455 §4.2.2: once the response is sent "the server may begin sending (and receiving) data"; frames in the segment of the response are data of the connection.',
    delivery: 'together',
    response: (info) => head(SWITCHING, upgradeLines(info)),
  }),
  // RFC 6455 §4.1: "The client MUST validate the server's response as follows" — on the response as a
  // byte stream, wherever TCP cuts it.
  mustAccept({
    id: '14.4.2',
    description: 'A valid 101 response written one octet per TCP write, each after the previous one was flushed; then two messages. (RFC 6455 §4.1)',
    expectation: 'RFC 6455 §4.1: the client validates the response, wherever TCP cuts it.',
    delivery: 'bytewise',
    response: (info) => head(SWITCHING, upgradeLines(info)),
  }),
  // RFC 6455 §4.1: "an ASCII case-insensitive match for the value "websocket"" / "a token that is an
  // ASCII case-insensitive match for the value "Upgrade""; RFC 7230 §3.2: "Each header field consists
  // of a case-insensitive field name followed by a colon".
  mustAccept({
    id: '14.4.3',
    description:
      'A valid 101 response with header names and tokens in unusual letter case: "uPGRADE: WebSocket", "CONNECTION: UPGRADE", "sec-websocket-accept: ...". (RFC 6455 §4.1, RFC 7230 §3.2)',
    expectation: 'RFC 6455 §4.1 matches Upgrade and Connection tokens ASCII case-insensitively; RFC 7230 §3.2 field names are case-insensitive.',
    delivery: 'separate',
    response: (info) => head(SWITCHING, ['uPGRADE: WebSocket', 'CONNECTION: UPGRADE', `sec-websocket-accept: ${info.accept}`]),
  }),
  // RFC 7230 §3.2: "header-field = field-name ":" OWS field-value OWS" with §3.2.3 "OWS = *( SP /
  // HTAB )"; RFC 6455 §4.1 compares the Sec-WebSocket-Accept value "ignoring any leading and trailing
  // whitespace".
  mustAccept({
    id: '14.4.4',
    description:
      'A valid 101 response with no space after one colon and runs of spaces around the other values: "Upgrade:websocket", "Connection:   Upgrade  ", "Sec-WebSocket-Accept:   ...  ". (RFC 7230 §3.2, RFC 6455 §4.1)',
    expectation:
      'RFC 7230 §3.2: optional whitespace (spaces or tabs) surrounds a field value; RFC 6455 §4.1 ignores leading and trailing whitespace of Sec-WebSocket-Accept.',
    delivery: 'separate',
    response: (info) => head(SWITCHING, ['Upgrade:websocket', 'Connection:   Upgrade  ', `Sec-WebSocket-Accept:   ${info.accept}  `]),
  }),
  mustAccept({
    id: '14.4.5',
    description:
      'A valid 101 response with a horizontal tab before and after every header value: "Upgrade:\twebsocket\t", "Connection:\tUpgrade\t", "Sec-WebSocket-Accept:\t...\t". (RFC 7230 §3.2, RFC 6455 §4.1)',
    expectation: 'RFC 7230 §3.2.3: "OWS = *( SP / HTAB )"; a tab is whitespace like a space.',
    delivery: 'separate',
    response: (info) => head(SWITCHING, ['Upgrade:\twebsocket\t', 'Connection:\tUpgrade\t', `Sec-WebSocket-Accept:\t${info.accept}\t`]),
  }),
  // RFC 7230 §6.1: "Connection = 1#connection-option"; RFC 6455 §4.1 asks for "a token" matching
  // "Upgrade" in the field, not for the whole value.
  mustAccept({
    id: '14.4.6',
    description: 'A valid 101 response with "Connection: keep-alive, Upgrade". (RFC 7230 §6.1, RFC 6455 §4.1)',
    expectation: 'RFC 7230 §6.1: Connection is a list; RFC 6455 §4.1 asks for a token "Upgrade" in it.',
    delivery: 'separate',
    response: (info) => head(SWITCHING, ['Upgrade: websocket', 'Connection: keep-alive, Upgrade', `Sec-WebSocket-Accept: ${info.accept}`]),
  }),
  // RFC 7230 §3.1.2: "A client SHOULD ignore the reason-phrase content." §3.2.1: "A proxy MUST forward
  // unrecognized header fields"; a recipient ignores the ones it does not know.
  mustAccept({
    id: '14.4.7',
    description:
      'A valid 101 response with another reason phrase ("HTTP/1.1 101 Web Socket Protocol Handshake", as old servers sent it) and an unknown header field first. (RFC 7230 §3.1.2, RFC 6455 §4.1)',
    expectation: 'RFC 7230 §3.1.2: "A client SHOULD ignore the reason-phrase content"; unknown header fields carry no meaning for the handshake.',
    delivery: 'separate',
    response: (info) =>
      head('HTTP/1.1 101 Web Socket Protocol Handshake', [
        'X-Wsgate-Note: extra field',
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Accept: ${info.accept}`,
      ]),
  }),
];

/** Group 14, in id order. */
export const handshakeCases: readonly ScriptedCase[] = [
  ...statusAndHeaderCases,
  ...negotiationCases,
  ...deflateParamCases,
  ...acceptCases,
  ...inflateCases,
  ...closeReasonCases,
];
