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
import { createHash } from 'node:crypto';
import { CloseCode, Opcode } from '../protocol/constants.js';
import type { DeflateOffer } from '../protocol/deflate.js';
import type { ExpectedClose } from '../model/report.js';
import { Behavior, CloseBehavior } from '../model/verdicts.js';
import { acceptFirstOffer, acceptOffer } from './data/deflate-cases.js';
import { closedByMe, defineCase, hex, message, wrongCodeFails } from './define.js';
import type { AdjustFacts, CaseContext, CatalogueCase, HandshakeDelivery, HandshakeRequestInfo, Judgement, TxFrame } from './types.js';

/** The text message sent right after the response. */
const PROBE = 'Hello, wsgate';
/** Seconds a client has to drop a connection it must refuse before the server ends the case. */
const REFUSE_WAIT = 2;
/** Seconds the accept and inflate cases wait for the echoes before failing the connection. */
const ECHO_WAIT = 5;

/**
 * Close codes tolerated from a client that refuses a response with a close frame: it should just
 * close TCP (the connection was never established), and the code is not what these cases test.
 */
const ANY_CLOSE_CODE = [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011];

/** The client must refuse: it drops TCP itself (a close frame first is tolerated), sends no data. */
const refused: ExpectedClose = { closedByMe: false, closeCode: ANY_CLOSE_CODE, requireClean: false };

/** A response head from its status line and header lines (each given exactly as sent). */
function head(statusLine: string, lines: readonly string[]): string {
  return [statusLine, ...lines].map((l) => `${l}\r\n`).join('') + '\r\n';
}

const SWITCHING = 'HTTP/1.1 101 Switching Protocols';

/** The three header lines a valid 101 needs (RFC 6455 §4.2.2 item 5), in the usual spelling. */
function upgradeLines(info: HandshakeRequestInfo): string[] {
  return ['Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Accept: ${info.accept}`];
}

/** The offer "permessage-deflate" with no parameter, for a response that accepts one never made. */
const PLAIN_OFFER: DeflateOffer = { acceptNoContextTakeover: true, acceptMaxWindowBits: false, requestNoContextTakeover: false, requestMaxWindowBits: 0 };

/** What a case needs of the client's offers before its response means anything. */
type Needs = 'deflate-offer' | 'no-deflate-offer' | null;

function needsMet(needs: Needs, info: HandshakeRequestInfo): boolean {
  if (needs === 'deflate-offer') return info.deflateOffers.length > 0;
  if (needs === 'no-deflate-offer') return info.deflateOffers.length === 0;
  return true;
}

/**
 * A case whose response needs offers the client did not make sent the normal 101 and closed it
 * again: UNIMPLEMENTED (its empty event list would otherwise match), the closing not judged.
 */
function unimplementedUnlessScripted(needs: Needs): (verdict: Judgement, facts: AdjustFacts) => Judgement {
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
function mustRefuse(def: {
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
}): CatalogueCase {
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

function needsText(needs: Needs): string {
  if (needs === 'deflate-offer') return 'Without a permessage-deflate offer from the client the case is UNIMPLEMENTED.';
  if (needs === 'no-deflate-offer') return 'When the client offers permessage-deflate the case is UNIMPLEMENTED.';
  return '';
}

/** The case does not apply: the normal 101 went out; close it normally. */
function unimplemented(t: CaseContext, why: string): void {
  t.setOutcome(Behavior.Unimplemented, why);
  t.sendClose(CloseCode.Normal);
}

/**
 * A response the client must accept: the server then sends two messages (text and binary) and
 * closes with 1000 once both are echoed, as 1.1.1 does.
 */
function mustAccept(def: {
  id: string;
  description: string;
  expectation: string;
  delivery: HandshakeDelivery;
  response(info: HandshakeRequestInfo): string;
}): CatalogueCase {
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
function mustInflate(def: { id: string; description: string; expectation: string; rfc: string; frames: TxFrame[]; echoes: string[] }): CatalogueCase {
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

/** RSV1: "the "Per-Message Compressed" bit" (RFC 7692 §6), set on the first frame of a compressed message. */
const RSV1 = 4;

// "Hello" in one fixed-Huffman block (BFINAL 0), then Z_SYNC_FLUSH's empty stored block, whose
// header bits are in the 7th octet: f2 48 cd c9 c9 07 00 | 00 00 ff ff (LEN 0000, NLEN ffff).
const HELLO_SYNC_FLUSHED = hex('f2 48 cd c9 c9 07 00 00 00 ff ff');
/** The same with the 4 tail octets removed, as RFC 7692 §7.2.1 has the sender do. */
const HELLO = hex('f2 48 cd c9 c9 07 00');
// "Hello" in one fixed-Huffman block with BFINAL set (0xf3: BFINAL 1, BTYPE 01), as zlib's Z_FINISH ends it.
const HELLO_BFINAL = hex('f3 48 cd c9 c9 07 00');
/**
 * The single octet 0x00 at a block boundary starts a stored block (BFINAL 0, BTYPE 00, padding); the
 * 00 00 ff ff the receiver appends completes it as an empty one (RFC 7692 §7.2.3.6).
 */
const EMPTY_BLOCK = hex('00');

/** Upper case to lower and back: base64 compared case-insensitively would still match. */
function swapCase(text: string): string {
  return text.replace(/[A-Za-z]/g, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()));
}

/** SHA-1 of the key without the GUID: the classic wrong Sec-WebSocket-Accept. */
function acceptWithoutGuid(info: HandshakeRequestInfo): string {
  return createHash('sha1').update(info.request.key, 'latin1').digest('base64');
}

// ---- 14.1: the status line and the required header fields ------------------------------------------

const statusAndHeaderCases: CatalogueCase[] = [
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
    description: 'A 101 response whose Sec-WebSocket-Accept is the right value with the letter case of every letter swapped, then a text message. (RFC 6455 §4.1, RFC 4648 §4)',
    expectation: 'RFC 6455 §4.1: the value must be the base64-encoded SHA-1; base64 letters are case-sensitive (RFC 4648 §4), so this is another value and the client MUST _Fail the WebSocket Connection_.',
    lines: (info) => ['Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Accept: ${swapCase(info.accept)}`],
  }),
  // RFC 6455 §4.1: "If the status code received from the server is not 101, the client handles the
  // response per HTTP [RFC2616] procedures." §4.2.2: "Any status code other than 101 indicates that
  // the WebSocket handshake has not completed and that the semantics of HTTP still apply."
  mustRefuse({
    id: '14.1.3',
    description: 'A 200 OK response that otherwise carries every upgrade header field (Upgrade, Connection, a correct Sec-WebSocket-Accept), then a text message as its body. (RFC 6455 §4.1, §4.2.2)',
    expectation: 'RFC 6455 §4.1: a status other than 101 is handled per HTTP; the WebSocket handshake has not completed.',
    statusLine: 'HTTP/1.1 200 OK',
    lines: upgradeLines,
  }),
  mustRefuse({
    id: '14.1.4',
    description: 'A 301 Moved Permanently response whose Location is the URL just requested, then a text message. (RFC 6455 §4.1)',
    expectation: 'RFC 6455 §4.1: "the server might redirect the client using a 3xx status code (but clients are not required to follow them)". A client that follows it meets the same answer and must give up in the end.',
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

const negotiationCases: CatalogueCase[] = [
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
    description: 'A valid 101 response that accepts permessage-deflate although the client offered no extension, then a text message. (RFC 6455 §4.1, RFC 7692 §5)',
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
function deflateResponse(id: string, params: string, what: string, rule: string): CatalogueCase {
  return mustRefuse({
    id,
    description: `A valid 101 response accepting permessage-deflate with ${what}: "Sec-WebSocket-Extensions: permessage-deflate; ${params}", then an uncompressed text message. (RFC 7692 §7.1)`,
    expectation: `RFC 7692 §7.1: a response that contains ${rule} means the client MUST _Fail the WebSocket Connection_.`,
    needs: 'deflate-offer',
    deflate: true,
    lines: (info) => [...upgradeLines(info), `Sec-WebSocket-Extensions: permessage-deflate; ${params}`],
  });
}

const deflateParamCases: CatalogueCase[] = [
  deflateResponse('14.3.1', 'x-wsgate-not-offered', 'a parameter the client did not offer', 'an extension parameter not defined for use in a response'),
  // RFC 7692 §7.1.2.1: the value of server_max_window_bits is a decimal integer from 8 to 15.
  deflateResponse('14.3.2', 'server_max_window_bits=7', 'server_max_window_bits out of range', 'an extension parameter with an invalid value (server_max_window_bits must be 8 to 15)'),
  deflateResponse('14.3.3', 'client_max_window_bits=16', 'client_max_window_bits out of range', 'an extension parameter with an invalid value (client_max_window_bits must be 8 to 15)'),
  deflateResponse('14.3.4', 'server_no_context_takeover; server_no_context_takeover', 'a parameter given twice', 'multiple extension parameters with the same name'),
];

// ---- 14.4: responses the client must accept --------------------------------------------------------

const acceptCases: CatalogueCase[] = [
  // RFC 6455 §4.2.2: "At this point, the server may begin sending (and receiving) data." A client
  // reads the frames that follow the response in the same TCP segment.
  mustAccept({
    id: '14.4.1',
    description: 'A valid 101 response and two messages (text, binary) in one TCP write. (RFC 6455 §4.2.2)',
    expectation: 'RFC 6455 §4.2.2: once the response is sent "the server may begin sending (and receiving) data"; frames in the segment of the response are data of the connection.',
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
    description: 'A valid 101 response with header names and tokens in unusual letter case: "uPGRADE: WebSocket", "CONNECTION: UPGRADE", "sec-websocket-accept: ...". (RFC 6455 §4.1, RFC 7230 §3.2)',
    expectation: 'RFC 6455 §4.1 matches Upgrade and Connection tokens ASCII case-insensitively; RFC 7230 §3.2 field names are case-insensitive.',
    delivery: 'separate',
    response: (info) => head(SWITCHING, ['uPGRADE: WebSocket', 'CONNECTION: UPGRADE', `sec-websocket-accept: ${info.accept}`]),
  }),
  // RFC 7230 §3.2: "header-field = field-name ":" OWS field-value OWS" with §3.2.3 "OWS = *( SP /
  // HTAB )"; RFC 6455 §4.1 compares the Sec-WebSocket-Accept value "ignoring any leading and trailing
  // whitespace".
  mustAccept({
    id: '14.4.4',
    description: 'A valid 101 response with no space after one colon and runs of spaces around the other values: "Upgrade:websocket", "Connection:   Upgrade  ", "Sec-WebSocket-Accept:   ...  ". (RFC 7230 §3.2, RFC 6455 §4.1)',
    expectation: 'RFC 7230 §3.2: optional whitespace (spaces or tabs) surrounds a field value; RFC 6455 §4.1 ignores leading and trailing whitespace of Sec-WebSocket-Accept.',
    delivery: 'separate',
    response: (info) => head(SWITCHING, ['Upgrade:websocket', 'Connection:   Upgrade  ', `Sec-WebSocket-Accept:   ${info.accept}  `]),
  }),
  mustAccept({
    id: '14.4.5',
    description: 'A valid 101 response with a horizontal tab before and after every header value: "Upgrade:\twebsocket\t", "Connection:\tUpgrade\t", "Sec-WebSocket-Accept:\t...\t". (RFC 7230 §3.2, RFC 6455 §4.1)',
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
    description: 'A valid 101 response with another reason phrase ("HTTP/1.1 101 Web Socket Protocol Handshake", as old servers sent it) and an unknown header field first. (RFC 7230 §3.1.2, RFC 6455 §4.1)',
    expectation: 'RFC 7230 §3.1.2: "A client SHOULD ignore the reason-phrase content"; unknown header fields carry no meaning for the handshake.',
    delivery: 'separate',
    response: (info) =>
      head('HTTP/1.1 101 Web Socket Protocol Handshake', ['X-Wsgate-Note: extra field', 'Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Accept: ${info.accept}`]),
  }),
];

// ---- 14.5: compressed messages the client must inflate ---------------------------------------------

// RFC 7692 §7.2.2: "An endpoint uses the following algorithm to decompress a message. 1. Append 4
// octets of 0x00 0x00 0xff 0xff to the tail end of the payload of the message. 2. Decompress the
// resulting data using DEFLATE." Every payload below is valid DEFLATE data under that algorithm and
// leaves the decompressor at a block boundary, so a following message inflates as usual.
const inflateCases: CatalogueCase[] = [
  // RFC 7692 §7.2.3.6 (Generating an Empty Fragment): a sender that has flushed what it compressed
  // (the flush's empty stored block kept, as it is not the end of the message yet) and then meets the
  // end of the message sends a final fragment holding the octet 0x00; with the appended 00 00 ff ff it
  // is one more empty stored block.
  mustInflate({
    id: '14.5.1',
    rfc: 'RFC 7692 §7.2.2, §7.2.3.6',
    description:
      'A compressed text message "Hello" in two frames: the data of a sync flush with its empty stored block kept ' +
      '(f2 48 cd c9 c9 07 00 00 00 ff ff), then a final continuation frame whose payload is the single octet 00; ' +
      'then a second compressed "Hello" (f2 48 cd c9 c9 07 00).',
    expectation: 'RFC 7692 §7.2.3.6: the final octet 00 and the appended 00 00 ff ff make one more empty stored block. The client echoes "Hello" twice.',
    frames: [
      { opcode: Opcode.Text, rsv: RSV1, payload: HELLO_SYNC_FLUSHED, fin: false },
      { opcode: Opcode.Continuation, payload: EMPTY_BLOCK },
      { opcode: Opcode.Text, rsv: RSV1, payload: HELLO },
    ],
    echoes: ['Hello', 'Hello'],
  }),
  // RFC 6455 §5.4: "A fragmented message consists of a single frame with the FIN bit clear and an
  // opcode other than 0, followed by zero or more frames with the FIN bit clear and the opcode set to
  // 0, and terminated by a single frame with the FIN bit set and an opcode of 0." Nothing bounds a
  // fragment's payload from below.
  mustInflate({
    id: '14.5.2',
    rfc: 'RFC 6455 §5.4, RFC 7692 §7.2.2',
    description: 'A compressed text message "Hello" in two frames: all the compressed data first (f2 48 cd c9 c9 07 00), then a final continuation frame with an empty payload.',
    expectation: 'The 00 00 ff ff appended at the end of the message completes the data. The client echoes "Hello".',
    frames: [
      { opcode: Opcode.Text, rsv: RSV1, payload: HELLO, fin: false },
      { opcode: Opcode.Continuation, payload: '' },
    ],
    echoes: ['Hello'],
  }),
  mustInflate({
    id: '14.5.3',
    rfc: 'RFC 7692 §7.2.2, §7.2.3.6',
    description: 'An empty text message compressed (payload 00: with the appended 00 00 ff ff, an empty stored block), then a compressed "Hello".',
    expectation: 'The first message inflates to nothing. The client echoes an empty text message, then "Hello".',
    frames: [
      { opcode: Opcode.Text, rsv: RSV1, payload: EMPTY_BLOCK },
      { opcode: Opcode.Text, rsv: RSV1, payload: HELLO },
    ],
    echoes: ['', 'Hello'],
  }),
  // RFC 7692 §7.2.3.4: "On platforms on which the flush method using an empty DEFLATE block with no
  // compression is not available, implementors can choose to flush data using DEFLATE blocks with
  // "BFINAL" set to 1."
  mustInflate({
    id: '14.5.4',
    rfc: 'RFC 7692 §7.2.3.4',
    description: 'A compressed text message "Hello" whose only DEFLATE block has BFINAL set (f3 48 cd c9 c9 07 00, as a Z_FINISH flush ends it).',
    expectation: 'RFC 7692 §7.2.3.4: a sender may flush with a block that has BFINAL set; the client inflates it (the 00 00 ff ff appended after the end of the stream is ignored) and echoes "Hello".',
    frames: [{ opcode: Opcode.Text, rsv: RSV1, payload: HELLO_BFINAL }],
    echoes: ['Hello'],
  }),
];

// ---- 14.6: close reasons at the edges --------------------------------------------------------------

/** 41 euro signs (e2 82 ac each): 123 octets, the longest reason a close frame can carry. */
const REASON_123 = '\u20ac'.repeat(41);
/** "Hello €" with its last octet cut: the reason ends inside a three-octet sequence (e2 82). */
const REASON_CUT = Buffer.from('Hello \u20ac', 'utf8').subarray(0, -1);

const closeReasonCases: CatalogueCase[] = [
  // RFC 6455 §5.5: "All control frames MUST have a payload length of 125 bytes or less"; §5.5.1: the
  // body is a 2-byte status code followed by UTF-8 data, so a reason has at most 123 octets.
  defineCase({
    id: '14.6.1',
    description: 'A close frame with code 1000 and a 123-octet reason made of 41 three-octet UTF-8 characters (U+20AC): the longest a close reason can be. (RFC 6455 §5.5, §5.5.1)',
    expectation: 'RFC 6455 §5.5.1: the client answers the close with 1000 (or no code) and closes cleanly.',
    expect: { OK: [] },
    close: closedByMe([CloseCode.Normal]),
    suppressClose: true,
    adjust: wrongCodeFails,
    run(t) {
      t.sendCloseFrame(CloseCode.Normal, REASON_123);
      t.killAfter(REFUSE_WAIT);
    },
  }),
  // RFC 6455 §5.5.1: "the data ... is not guaranteed to be human readable" but "MUST be UTF-8", and §8.1:
  // "When an endpoint is to interpret a byte stream as UTF-8 but finds that the byte stream is not, in
  // fact, a valid UTF-8 stream, that endpoint MUST _Fail the WebSocket Connection_."
  defineCase({
    id: '14.6.2',
    description: 'A close frame with code 1000 whose reason ends in the middle of a UTF-8 sequence ("Hello " then e2 82, the first two octets of U+20AC). (RFC 6455 §5.5.1, §8.1)',
    expectation: 'RFC 6455 §8.1: the reason is not valid UTF-8, so the client fails the connection: it answers with 1007 (or no code), or drops TCP.',
    expect: { OK: [] },
    close: { closedByMe: true, closeCode: [CloseCode.InvalidPayload], requireClean: false },
    suppressClose: true,
    adjust: wrongCodeFails,
    run(t) {
      t.sendCloseFrame(CloseCode.Normal, REASON_CUT);
      t.killAfter(REFUSE_WAIT);
    },
  }),
];

/** Group 14, in id order. */
export const handshakeCases: readonly CatalogueCase[] = [
  ...statusAndHeaderCases,
  ...negotiationCases,
  ...deflateParamCases,
  ...acceptCases,
  ...inflateCases,
  ...closeReasonCases,
];
