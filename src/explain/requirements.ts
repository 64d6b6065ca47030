/**
 * What each case tests, as a requirement of the RFCs in our own words: the section, a short
 * paraphrase of what it asks of the peer, and the subject a failure is grouped under. Families are
 * keyed by id prefix (the longest one wins); a family whose cases ask two opposite things (group 6:
 * valid UTF-8 to accept, invalid to refuse) is split by what the case expects of the closing.
 */
import type { ExpectedClose } from '../model/report.js';

/** A requirement a case tests. */
export interface Requirement {
  /** Stable key, for grouping failures by cause ("utf8-invalid"). */
  key: string;
  /** Where it is written ("RFC 6455 §8.1, §7.4.1"). */
  rfc: string;
  /** What it asks of the peer, in our words. */
  text: string;
  /** The subject, as a noun phrase a cause title starts with ("invalid UTF-8 in a text message"). */
  subject: string;
  /** Why the NON-STRICT outcome is allowed but not the strict behaviour, for the cases that have one. */
  nonStrict?: string;
  /** Why the case only informs (INFORMATIONAL): what the RFC leaves open. */
  informational?: string;
}

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

/** 17.4 and 18.5: the back-pressure and closing attacks, the same four against either role. */
function closingRequirements(prefix: string, peer: 'server' | 'client'): Array<readonly [string, Requirement]> {
  const drop =
    peer === 'server' ? 'ends TCP at once (a server closes it first)' : 'ends TCP within the stall budget (a client waits for the server, but not forever)';
  return [
    [
      `${prefix}.1`,
      {
        key: 'ping-flood-bounded',
        rfc: 'RFC 6455 §5.5.3',
        text: `a ${peer} flooded with pings by a peer that reads nothing answers only some (RFC 6455 §5.5.3: the most recent may do) or stops reading: the pongs it delivers afterwards stay within the budget (CVE-2019-9512, the HTTP/2 ping flood)`,
        subject: 'a ping flood with nothing read',
      },
    ],
    [
      `${prefix}.2`,
      {
        key: 'slow-reader-bounded',
        rfc: 'RFC 6455 §10.4',
        text: `a ${peer} whose echo is read at 1 KiB/s stops reading further messages (back-pressure) or drops the connection, rather than queuing its echoes without bound (CVE-2019-9517, HTTP/2 internal data buffering)`,
        subject: 'a large echo read slowly',
      },
    ],
    [
      `${prefix}.3`,
      {
        key: 'unanswered-close-dropped',
        rfc: 'RFC 6455 §7.1.1, §7.1.7',
        text: `a ${peer} that failed the connection (1002 on a reserved opcode) and got no answer to its close ends TCP itself within the stall budget`,
        subject: 'a close frame left unanswered',
      },
    ],
    [
      `${prefix}.4`,
      {
        key: 'never-closed-dropped',
        rfc: 'RFC 6455 §7.1.1',
        text: `a ${peer} that answered wsgate's close ${drop}, though wsgate keeps TCP open`,
        subject: 'a connection never closed after the closing handshake',
      },
    ],
  ];
}
/** The frame attacks both roles play (17.2.3-17.2.6, 18.3.4-18.3.7): the peer is a server or a client. */
const RESERVED_OPCODE_GIB: Requirement = {
  key: 'reserved-opcode-length',
  rfc: 'RFC 6455 §5.2, §10.4',
  text: 'a peer fails the connection at a frame header with a reserved opcode declaring 1 GiB (1002, 1009 or a drop), without reading the payload, and survives (Java-WebSocket#1507 allocated the declared size up front)',
  subject: 'a reserved opcode declaring 1 GiB',
};
const LIMIT_PLUS_ONE: Requirement = {
  key: 'limit-plus-one-fragments',
  rfc: 'RFC 6455 §10.4, §7.4.1',
  text: 'a peer with a message limit fails the connection (1009, 1008 or a drop) once a message in 4 KiB fragments passes it, having taken at most the limit, and survives (ws#2331, ws#2332: per-fragment overhead far above the limit)',
  subject: 'a message one byte past the limit, in small fragments',
};
const ENDLESS_CONTINUATIONS: Requirement = {
  key: 'endless-continuations',
  rfc: 'RFC 6455 §5.4, §10.4',
  text: 'a peer fails the connection on an endless series of one-byte continuation frames, or at least keeps up with them and stays responsive (Netty CVE-2014-0193 grew without bound)',
  subject: 'endless one-byte continuation frames',
};
const RANDOM_BYTES: Requirement = {
  key: 'random-bytes',
  rfc: 'RFC 6455 §5.2, §7.1.7',
  text: 'a peer fails the connection on random bytes after the opening handshake (any close code, or a drop) within 10 s, and survives',
  subject: 'random bytes after the 101',
};
const SERVER_BOMB: Requirement = {
  key: 'server-decompression-bomb',
  rfc: 'RFC 6455 §10.4, RFC 7692 §8.1',
  text: 'a server refuses a compressed message that inflates past its limit (1009 or a drop) with bounded memory, and keeps serving (CVE-2018-1000518: Python websockets inflated without limit)',
  subject: 'a decompression bomb',
};

/** The frame attacks in a group's subgroup, from its `first` case on, in attack-frames.ts's order. */
function frameRequirements(subgroup: string, first: number): Array<readonly [string, Requirement]> {
  return [RESERVED_OPCODE_GIB, LIMIT_PLUS_ONE, ENDLESS_CONTINUATIONS, RANDOM_BYTES].map((r, i) => [`${subgroup}.${first + i}`, r] as const);
}

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
  // The robustness profile (group 17): each requirement names the advisory its case replays; every one also asks that the server keeps serving.
  [
    '17.1.1',
    {
      key: 'protocol-header-growth',
      rfc: 'RFC 6455 §4.1, §11.3.4',
      text: 'a server answers a long Sec-WebSocket-Protocol (up to what its HTTP layer accepts) within the budget, in time no more than linear in its size, and keeps serving (CVE-2021-32640: ws before 7.4.6 took quadratic time)',
      subject: 'a long Sec-WebSocket-Protocol header',
    },
  ],
  [
    '17.1.2',
    {
      key: 'extensions-header-growth',
      rfc: 'RFC 6455 §9.1, RFC 7230 §3.2.6',
      text: 'a server answers a long, malformed Sec-WebSocket-Extensions within the budget, in time no more than linear in its size, and keeps serving (CVE-2020-7662: websocket-extensions before 0.1.4 backtracked)',
      subject: 'a long malformed Sec-WebSocket-Extensions header',
    },
  ],
  [
    '17.1.3',
    {
      key: 'many-header-lines',
      rfc: 'RFC 6455 §4.2.1, RFC 7230 §3.2.5',
      text: "a server answers a request with thousands of header lines (an error status, or 101) and keeps serving (CVE-2024-37890: ws before 8.17.1 crashed past Node's 2,000-header limit)",
      subject: 'a request with thousands of header lines',
    },
  ],
  [
    '17.1.4',
    {
      key: 'many-header-lines',
      rfc: 'RFC 6455 §4.2.1, RFC 7230 §3.2.5',
      text: "a server answers a request with thousands of header lines (an error status, or 101) and keeps serving (CVE-2024-37890: ws before 8.17.1 crashed past Node's 2,000-header limit)",
      subject: 'a request with thousands of header lines',
    },
  ],
  [
    '17.1.5',
    {
      key: 'prototype-extension-names',
      rfc: 'RFC 6455 §9.1',
      text: 'a server answers extension offers named after Object.prototype properties (constructor, __proto__) and keeps serving (GHSA-5v72-xg48-5rpm: ws before 3.3.1 crashed)',
      subject: 'extension names such as constructor and __proto__',
    },
  ],
  [
    '17.1.12',
    {
      key: 'obs-text-values',
      rfc: 'RFC 9110 §5.5, RFC 6455 §4.1, §9.1',
      text: 'a server answers an upgrade whose Sec-WebSocket-Protocol or Sec-WebSocket-Extensions holds bytes above 0x7f (a 101 without the value, or an error such as 400) and keeps serving (http-rs/async-h1#187: a server panicked on such a value)',
      subject: 'header values with bytes above 0x7f',
    },
  ],
  [
    '17.1.6',
    {
      key: 'burst-beside-normal-client',
      rfc: 'RFC 6455 §4.1, §11.3.4',
      text: "a burst of upgrade requests with the longest Sec-WebSocket-Protocol the HTTP layer takes does not keep a normal client from its 101 within the budget (CVE-2021-32640: ws before 7.4.6's quadratic split blocked every client)",
      subject: 'a normal client beside a burst of slow requests',
    },
  ],
  [
    '17.1.7',
    {
      key: 'burst-beside-normal-client',
      rfc: 'RFC 6455 §9.1, RFC 7230 §3.2.6',
      text: 'a burst of upgrade requests with the longest malformed Sec-WebSocket-Extensions the HTTP layer takes does not keep a normal client from its 101 within the budget (CVE-2020-7662: websocket-extensions before 0.1.4 backtracked)',
      subject: 'a normal client beside a burst of slow requests',
    },
  ],
  [
    '17.1.8',
    {
      key: 'huge-header-refused',
      rfc: 'RFC 7230 §3.2.5',
      text: 'a server refuses a request header far larger than it wishes to process with a 4xx (431) or a drop, soon after its limit, not after reading it all, and keeps serving (CVE-2018-12121: Node.js kept 80 KB of headers per connection)',
      subject: 'a 20 MB request header',
    },
  ],
  [
    '17.1.9',
    {
      key: 'paced-request',
      rfc: 'RFC 7230 §3, RFC 6455 §4.1',
      text: 'a server reads a long request head written in small pieces at a cost that grows with its length, not its square: it answers or refuses it promptly, spending little CPU time (CVE-2023-43669: tungstenite before 0.20.1 parsed the head again on every read)',
      subject: 'a 1 MiB request head written in small pieces',
    },
  ],
  [
    '17.1.10',
    {
      key: 'slowloris',
      rfc: 'RFC 7230 §6.5, RFC 6455 §10.1',
      text: 'a server drops a request head trickled one byte per second by a timeout of its own, within the stall budget (CVE-2018-12122: Node.js held such a connection forever; Slowloris)',
      subject: 'a request head trickled one byte per second',
    },
  ],
  [
    '17.1.11',
    {
      key: 'half-open-upgrades',
      rfc: 'RFC 6455 §10.1, RFC 7230 §6.5',
      text: 'hundreds of connections holding a partial upgrade request do not keep a normal client from its 101 within the budget (CVE-2007-6750: Slowloris took every worker of Apache)',
      subject: 'a normal client beside half-open upgrades',
    },
  ],
  [
    '17.2.1',
    {
      key: 'length-top-bit',
      rfc: 'RFC 6455 §5.2, §7.1.7',
      text: 'a server fails the connection at a frame header whose 64-bit length has its most significant bit set, or is 2^64 - 1 (1002, 1009 or a drop), and keeps serving (CVE-2020-27813: gorilla/websocket overflowed its read limit)',
      subject: 'a 64-bit frame length with the top bit set',
    },
  ],
  [
    '17.2.2',
    {
      key: 'declared-length-refused',
      rfc: 'RFC 6455 §10.4, §7.4.1',
      text: 'a server with a message limit refuses a frame declaring more at its header (1009, 1002 or a drop), not after reading the payload, and keeps serving (Java-WebSocket#1507 allocated the declared size up front)',
      subject: 'a frame declaring 1 GiB',
    },
  ],
  ...closingRequirements('17.4', 'server'),
  // 17.5: the HTTP/2 floods (--robustness --http2), on one HTTP/2 connection each.
  [
    '17.5.1',
    {
      key: 'h2-rapid-reset',
      rfc: 'RFC 9113 §5.1.2, §10.5',
      text: 'a server bounds streams opened and reset at once: it ends the connection (GOAWAY, or TCP) before it has taken 10,000 of them, and keeps serving (CVE-2023-44487: nghttp2 before 1.57, Node.js before 20.8.1, took them all)',
      subject: 'streams opened and reset at once (HTTP/2 Rapid Reset)',
    },
  ],
  [
    '17.5.2',
    {
      key: 'h2-continuation-flood',
      rfc: 'RFC 9113 §6.10, §10.5.1',
      text: 'a server bounds a header block that never ends: it ends the connection (GOAWAY, or TCP) before it has read 100,000 CONTINUATION frames, and keeps serving (CVE-2024-28182: nghttp2 before 1.61, Node.js before 20.13.0, decoded them all)',
      subject: 'an endless run of CONTINUATION frames',
    },
  ],
  [
    '17.5.3',
    {
      key: 'h2-ping-flood',
      rfc: 'RFC 9113 §6.7, §10.5',
      text: 'a server bounds the PING acknowledgements it queues for a client that reads none: it ends the connection (or stops reading) before it has read the whole flood, and keeps serving (CVE-2019-9512)',
      subject: 'an HTTP/2 PING flood whose acknowledgements are never read',
    },
  ],
  [
    '17.5.4',
    {
      key: 'h2-cut-header-block',
      rfc: 'RFC 9113 §5.4.1, §6.10',
      text: 'a server survives connections reset while their header block (HEADERS and CONTINUATION frames) is still being decoded (CVE-2024-27983: Node.js 20.12.0 aborted on an assertion)',
      subject: 'header blocks cut by a TCP reset',
    },
  ],
  ...frameRequirements('17.2', 3),
  ...['17.3.1', '17.3.2'].map((id): [string, Requirement] => [id, SERVER_BOMB]),
  [
    '17.3',
    {
      key: 'offer-window-bits',
      rfc: 'RFC 7692 §7, §7.1.2',
      text: 'a server declines a permessage-deflate offer whose window bits are out of range (8 to 15) or refuses the handshake, never accepts the value, and survives the compressed message that follows',
      subject: 'window bits out of range in the offer',
    },
  ],
  // Group 18 (attacks on a client): each requirement names the advisory too; every one also asks that the client process survives.
  [
    '18.1',
    {
      key: 'window-bits-out-of-range',
      rfc: 'RFC 7692 §7.1, §7.1.2',
      text: 'a client fails the connection on a permessage-deflate answer whose window bits are out of range (8 to 15), and its process survives the compressed frame that follows (CVE-2026-2229: undici before 6.24.0 died of an uncaught RangeError)',
      subject: 'window bits out of range in the 101',
    },
  ],
  ...['18.1.2', '18.1.5'].map((id): [string, Requirement] => [
    id,
    {
      key: 'window-bits-eight',
      rfc: 'RFC 7692 §7.1, §7.1.2.1',
      text: 'a client takes window bits of 8 in a permessage-deflate answer (valid: 8 to 15) or fails the connection cleanly because it cannot use them (zlib has no 256-byte window), and its process survives the compressed frame that follows (CVE-2026-2229 is the out-of-range variant)',
      subject: 'window bits of 8 in the 101',
    },
  ]),
  [
    '18.2',
    {
      key: 'decompression-bomb',
      rfc: 'RFC 7692 §8.1, RFC 6455 §10.4',
      text: 'a client refuses a compressed message that inflates past its limit (1009 or a drop) with bounded memory, and its process survives (CVE-2026-1526: undici before 6.24.0 inflated without limit; CVE-2018-1000518: Python websockets)',
      subject: 'a decompression bomb',
    },
  ],
  [
    '18.2.3',
    {
      key: 'client-rsv1-unnegotiated',
      rfc: 'RFC 6455 §5.2',
      text: 'a client fails the connection on a frame with RSV1 set when no extension was negotiated, at its first byte, inflating nothing (aiohttp GHSA-mq44-7p77-q5h7 inflated such frames: a decompression bomb without the extension)',
      subject: 'a compressed frame without permessage-deflate',
    },
  ],
  ...frameRequirements('18.3', 4),
  [
    '18.3',
    {
      key: 'client-length-refused',
      rfc: 'RFC 6455 §5.2, §10.4',
      text: 'a client fails the connection at a frame header whose length has its top bit set, lies past its limit, or declares 1 GiB, without reading the payload, and its process survives (CVE-2026-1528: undici before 6.24.0; CVE-2020-27813: gorilla/websocket)',
      subject: 'an oversized frame length',
    },
  ],
  [
    '18.4.1',
    {
      key: 'client-many-header-lines',
      rfc: 'RFC 6455 §4.1, §4.2.2',
      text: 'a client takes a 101 with thousands of header lines or fails the connection, within the budget, and its process survives (CVE-2024-37890: ws before 8.17.1 crashed on more header lines than Node keeps; CVE-2018-12121)',
      subject: 'a 101 with 10,000 header lines',
    },
  ],
  [
    '18.4.2',
    {
      key: 'client-huge-header',
      rfc: 'RFC 6455 §4.1, RFC 9112 §2.3',
      text: 'a client bounds the response head it reads: it fails the connection on a header of megabytes soon after its limit, not after reading it all (CVE-2018-12121: Node.js kept 80 KB of headers per connection until its heap ran out)',
      subject: 'an 8 MiB header in the 101',
    },
  ],
  [
    '18.4.3',
    {
      key: 'client-paced-response',
      rfc: 'RFC 6455 §4.1, §4.2.2',
      text: 'a client reads a long 101 written in small pieces at a cost that grows with its length, not its square: it takes it and echoes, or refuses it at its own limit, spending little CPU time (CVE-2023-43669: tungstenite before 0.20.1 parsed the head again on every read)',
      subject: 'a 1 MiB response head written in small pieces',
    },
  ],
  [
    '18.4.4',
    {
      key: 'client-handshake-timeout',
      rfc: 'RFC 6455 §4.1, §10.1',
      text: 'a client drops a 101 trickled one byte per second by a handshake timeout of its own, within the stall budget (CVE-2018-12122: Node.js held a trickled head forever; Slowloris)',
      subject: 'a 101 trickled one byte per second',
    },
  ],
  [
    '18.4.6',
    {
      key: 'client-obs-text-protocol',
      rfc: 'RFC 6455 §4.1, RFC 9110 §5.5',
      text: 'a client fails the connection on a 101 naming a subprotocol it never offered, here of bytes above 0x7f, and its process survives (denoland/deno#32594: Deno panicked on such a value)',
      subject: 'a subprotocol of bytes above 0x7f in the 101',
    },
  ],
  [
    '18.4.5',
    {
      key: 'client-prototype-extension-names',
      rfc: 'RFC 6455 §4.1, §9.1',
      text: 'a client fails the connection on a 101 accepting extensions it never offered, named constructor, __proto__, toString, and its process survives (GHSA-5v72-xg48-5rpm: ws before 3.3.1 crashed on such names)',
      subject: 'extension names such as constructor in the 101',
    },
  ],
  ...closingRequirements('18.5', 'client'),
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

/** The requirement a case tests, by its id (and, for group 6, what it expects of the closing). */
export function requirementFor(caseId: string, expectedClose?: ExpectedClose | Record<string, never> | null): Requirement {
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
