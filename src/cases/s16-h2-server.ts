/**
 * Group 16.1 (wsgate's own; `--role server --http2 --extended`): RFC 8441's rules for a server under
 * test, from the HTTP/2 client's side. 16.1.1-16.1.3 are raw probes (wsgate's own frames: a request
 * Node's http2 will not send, an answer it will not read); 16.1.4, 16.1.7 and 16.1.8 are one
 * WebSocket each; 16.1.5 and 16.1.6 hold several WebSockets on one HTTP/2 connection.
 */
import { Opcode } from '../protocol/constants.js';
import { SETTINGS_ENABLE_CONNECT_PROTOCOL } from '../protocol/h2-connect.js';
import { h2ErrorName } from '../protocol/h2-frames.js';
import { Behavior, CloseBehavior } from '../model/verdicts.js';
import { closedByMe, defineCase, message, pong } from './define.js';
import { CANCEL, failOutcome, H2_PROBE, orderlyEnd, patterned } from './h2-judging.js';
import type { H2ProbeAnswer, H2SessionContext, H2WebSocket } from './h2-types.js';
import type { ScriptedCase, Judgement } from './types.js';

const NOT_JUDGED = 'Not judged: the case opens no single WebSocket to close.';

/** A session case's verdicts: the outcome as found, the closing not judged (or judged by the case). */
function outcome(ok: boolean, result: string, close?: { verdict: Judgement['behaviorClose']; text: string }): Judgement {
  return { behavior: ok ? Behavior.Ok : Behavior.Failed, result, behaviorClose: close?.verdict ?? CloseBehavior.Ok, resultClose: close?.text ?? NOT_JUDGED };
}

/** How a probe's request was answered, in words. */
function answerWords(a: H2ProbeAnswer): string {
  if (a.status !== null) return `answered :status ${a.status}`;
  if (a.reset !== null) return `reset the stream with RST_STREAM ${h2ErrorName(a.reset)}`;
  if (a.goaway !== null) return `ended the connection with GOAWAY ${h2ErrorName(a.goaway)}`;
  return a.closed ? 'closed the connection without an answer' : 'sent no answer in time';
}

/** Every session case's frame: a session with open WebSockets, closed at the end whatever happens. */
async function withSession(s: H2SessionContext, count: number, body: (ws: H2WebSocket[]) => Promise<Judgement>): Promise<Judgement> {
  const session = await s.connect();
  if (typeof session === 'string') return outcome(false, `No HTTP/2 connection for WebSockets: ${session}.`);
  try {
    const opened = await Promise.all(Array.from({ length: count }, () => session.open()));
    const refused = opened.find((o): o is string => typeof o === 'string');
    if (refused !== undefined) return outcome(false, `An extended CONNECT on the connection was not answered 2xx: ${refused}.`);
    return await body(opened as H2WebSocket[]);
  } finally {
    session.close();
  }
}

/** Closes each WebSocket; the closing verdict says whether each stream ended with END_STREAM (a reset with a code other than CANCEL: WRONG CODE). */
async function closeAll(ws: readonly H2WebSocket[]): Promise<{ verdict: Judgement['behaviorClose']; text: string }> {
  const ends = await Promise.all(ws.map((w) => w.close()));
  const bad = ends.findIndex((e) => !e.peerEnded || e.peerReset !== null);
  const e = ends[bad];
  if (e === undefined)
    return { verdict: CloseBehavior.Ok, text: `Each of the ${ws.length} streams ended with the server's END_STREAM after the closing handshake.` };
  const verdict = e.peerReset !== null && e.peerReset !== CANCEL ? CloseBehavior.WrongCode : CloseBehavior.Unclean;
  return {
    verdict,
    text: `Stream ${bad + 1} did not end with the server's END_STREAM (${e.peerReset === null ? 'none came' : `RST_STREAM ${h2ErrorName(e.peerReset)}`}); RFC 8441 §5: the orderly closure is END_STREAM.`,
  };
}

const settingsCases: ScriptedCase[] = [
  // RFC 8441 §3: "Upon receipt of SETTINGS_ENABLE_CONNECT_PROTOCOL with a value of 1, a client MAY
  // use the Extended CONNECT as defined in this document when creating new streams." §3: "A sender
  // MUST NOT send a SETTINGS_ENABLE_CONNECT_PROTOCOL parameter with the value of 0 after previously
  // sending a value of 1." A server that takes WebSockets over HTTP/2 says so in its SETTINGS.
  defineCase({
    id: '16.1.1',
    description: "Opens an HTTP/2 connection (preface and an empty SETTINGS) and reads the server's first SETTINGS; sends no request. (RFC 8441 §3)",
    expectation: "RFC 8441 §3: the server's SETTINGS carry SETTINGS_ENABLE_CONNECT_PROTOCOL (0x8) = 1; without it a client must not send an extended CONNECT.",
    expect: {},
    close: closedByMe(),
    run() {},
    h2: {
      async session(s) {
        const a = await s.probe({ send: false });
        if (a.settings === null) return outcome(false, `The server sent no SETTINGS (it ${answerWords(a)}).`);
        const value = a.settings.get(SETTINGS_ENABLE_CONNECT_PROTOCOL);
        if (value === 1) return outcome(true, "The server's SETTINGS carry SETTINGS_ENABLE_CONNECT_PROTOCOL = 1.");
        return outcome(
          false,
          `The server's SETTINGS ${value === undefined ? 'do not carry SETTINGS_ENABLE_CONNECT_PROTOCOL' : `carry SETTINGS_ENABLE_CONNECT_PROTOCOL = ${value}`}: a client may not open a WebSocket over HTTP/2 with it (RFC 8441 §3).`,
        );
      },
    },
  }),
  // RFC 8441 §5: "Implementations using this extended CONNECT to bootstrap WebSockets do not do the
  // processing of the Sec-WebSocket-Key and Sec-WebSocket-Accept request and response header fields
  // of [RFC6455] ..." and "the server ... responds with a 2xx series status code" ("A 2xx series
  // status code ... is the equivalent of the 101 status code"); RFC 9113 §8.6: "HTTP/2 removes support
  // for the 101 (Switching Protocols) informational status code".
  defineCase({
    id: '16.1.2',
    description:
      'Sends an extended CONNECT (:method CONNECT, :protocol websocket, :scheme, :path, :authority, Sec-WebSocket-Version 13) with no Sec-WebSocket-Key, and reads the answer. (RFC 8441 §4, §5)',
    expectation:
      'RFC 8441 §5: the server answers a 2xx status (the equivalent of 101 over HTTP/1.1), without asking for a Sec-WebSocket-Key; RFC 9113 §8.6: HTTP/2 has no 101.',
    expect: {},
    close: closedByMe(),
    run() {},
    h2: {
      async session(s) {
        const a = await s.probe({ send: true });
        if (a.status !== null && a.status >= 200 && a.status < 300) return outcome(true, `The server answered :status ${a.status}.`);
        const hint = a.status === 101 ? ' (101 Switching Protocols does not exist in HTTP/2, RFC 9113 §8.6)' : '';
        return outcome(false, `The server ${answerWords(a)}${hint} where RFC 8441 §5 asks for a 2xx status.`);
      },
    },
  }),
  // RFC 8441 §4: "On requests that contain the :protocol pseudo-header field, the :scheme and :path
  // pseudo-header fields of the target URI (see Section 5) MUST also be included." RFC 9113 §8.1.1: a
  // malformed request is treated as a stream error of type PROTOCOL_ERROR (or answered 4xx).
  defineCase({
    id: '16.1.3',
    description: "Sends an extended CONNECT without the :scheme pseudo-header field (every other field as in 16.1.2), in wsgate's own frames. (RFC 8441 §4)",
    expectation:
      'RFC 8441 §4: :scheme MUST be included with :protocol; the malformed request is refused (RST_STREAM PROTOCOL_ERROR, a 4xx, or a connection error), never answered 2xx.',
    expect: {},
    close: closedByMe(),
    run() {},
    h2: {
      async session(s) {
        const a = await s.probe({ send: true, omit: [':scheme'] });
        if (a.status !== null && a.status >= 200 && a.status < 300)
          return outcome(false, `The server accepted an extended CONNECT without :scheme: it answered :status ${a.status}.`);
        if (a.status === null && a.reset === null && a.goaway === null && !a.closed)
          return outcome(false, 'The server neither answered nor refused an extended CONNECT without :scheme in time.');
        return outcome(true, `The server refused it: it ${answerWords(a)}.`);
      },
    },
  }),
];

const closeCase: ScriptedCase = defineCase({
  // RFC 8441 §5: "the orderly TCP-level closures are represented as END_STREAM flags"; RFC 6455
  // §7.1.1: after the closing handshake the server closes the connection first.
  id: '16.1.4',
  description: `Sends a text message ("${H2_PROBE}"), then a close frame once it is echoed. (RFC 8441 §5)`,
  expectation: 'RFC 8441 §5: the server echoes the message, answers the close frame, and ends its side of the stream with END_STREAM (no RST_STREAM).',
  expect: { OK: [message(H2_PROBE)] },
  close: closedByMe(),
  run(t) {
    t.sendMessage(H2_PROBE);
  },
  adjust: orderlyEnd,
});

const sessionCases: ScriptedCase[] = [
  // RFC 8441 §1: "... allowing WebSockets to share an HTTP/2 connection with other streams"; RFC 9113
  // §5: "A single HTTP/2 connection can contain multiple concurrently open streams ... Streams can be
  // established and used unilaterally" and frames of several streams interleave.
  defineCase({
    id: '16.1.5',
    description:
      'Opens three WebSockets on one HTTP/2 connection, sends three text messages on each, interleaved (stream 1, 2, 3, 1, 2, 3, ...), then closes each. (RFC 8441 §1, RFC 9113 §5)',
    expectation: 'Each message comes back on its own stream, in order, and each stream ends with END_STREAM after its closing handshake.',
    expect: {},
    close: closedByMe(),
    run() {},
    h2: {
      session: (s) =>
        withSession(s, 3, async (ws) => {
          for (let i = 1; i <= 3; i++) for (const [k, w] of ws.entries()) w.sendText(`stream ${k + 1} message ${i}`);
          for (const [k, w] of ws.entries()) {
            for (let i = 1; i <= 3; i++) {
              const got = await w.nextText(5000);
              if (got !== `stream ${k + 1} message ${i}`)
                return outcome(
                  false,
                  `WebSocket ${k + 1} of 3 on the connection answered ${got === null ? 'nothing' : JSON.stringify(got.slice(0, 60))} where "stream ${k + 1} message ${i}" was due.`,
                );
            }
          }
          return outcome(true, 'Each of the three WebSockets echoed its own three messages, in order.', await closeAll(ws));
        }),
    },
  }),
  // RFC 8441 §5: "RST exceptions are represented with the RST_STREAM frame with the CANCEL error
  // code"; RFC 9113 §5.4.2: a stream error "does not affect the processing of other streams".
  defineCase({
    id: '16.1.6',
    description:
      'Opens a WebSocket, has a message echoed, resets its stream with RST_STREAM CANCEL (an abort); then opens a second WebSocket on the same HTTP/2 connection and has a message echoed there. (RFC 8441 §5)',
    expectation:
      'RFC 8441 §5: CANCEL aborts that WebSocket only: the HTTP/2 connection stays usable, and the second WebSocket works and closes with END_STREAM.',
    expect: {},
    close: closedByMe(),
    run() {},
    h2: {
      async session(s) {
        const session = await s.connect();
        if (typeof session === 'string') return outcome(false, `No HTTP/2 connection for WebSockets: ${session}.`);
        try {
          const first = await session.open();
          if (typeof first === 'string') return outcome(false, `The first extended CONNECT was not answered 2xx: ${first}.`);
          first.sendText('before the abort');
          if ((await first.nextText(5000)) !== 'before the abort') return outcome(false, 'The first WebSocket did not echo its message.');
          first.reset(CANCEL);
          const second = await session.open();
          if (typeof second === 'string')
            return outcome(false, `After wsgate reset a stream with CANCEL, a new extended CONNECT on the connection failed: ${second}.`);
          second.sendText('after the abort');
          const got = await second.nextText(5000);
          if (got !== 'after the abort')
            return outcome(
              false,
              `After wsgate reset a stream with CANCEL, a new WebSocket on the connection answered ${got === null ? 'nothing' : JSON.stringify(got.slice(0, 60))}.`,
            );
          return outcome(true, 'After the abort, a second WebSocket on the same connection echoed its message.', await closeAll([second]));
        } finally {
          session.close();
        }
      },
    },
  }),
];

/** 16.1.7's message: 64 times the 16 KiB window wsgate advertises. */
const WINDOWED = patterned(1024 * 1024);

const streamCases: ScriptedCase[] = [
  // RFC 8441 §5: "... the data is transmitted in DATA frames" under HTTP/2's flow control; RFC 9113
  // §6.9.1: "A sender MUST NOT send a flow-controlled frame with a length that exceeds the space
  // available in either of the flow-control windows advertised by the receiver."
  defineCase({
    id: '16.1.7',
    description:
      'Advertises a 16 KiB stream window (SETTINGS_INITIAL_WINDOW_SIZE 16384), sends a 1 MiB binary message, and waits for its echo. (RFC 8441 §5, RFC 9113 §6.9)',
    expectation: "RFC 9113 §6.9.1: the server sends the echo within wsgate's windows (64 of them, each opened by a WINDOW_UPDATE), and it comes back whole.",
    expect: { OK: [message(WINDOWED, true)] },
    close: closedByMe(),
    schedule: { cost: 0.3 },
    h2: { settings: { initialWindowSize: 16384 } },
    run(t) {
      t.sendMessage(WINDOWED, { binary: true });
    },
    adjust: orderlyEnd,
  }),
  // RFC 8441 §5: the WebSocket's frames are the stream's data; its ping is "handled by the WebSocket
  // layer", apart from HTTP/2's own PING (RFC 9113 §6.7: "Receivers of a PING frame that does not
  // include an ACK flag MUST send a PING frame with the ACK flag set in response, with an identical
  // frame payload").
  defineCase({
    id: '16.1.8',
    description:
      'Sends a WebSocket ping ("wsgate ping") on the stream and an HTTP/2 PING (8 bytes) on the connection at the same time. (RFC 8441 §5, RFC 9113 §6.7)',
    expectation: 'Each is answered on its own layer: a pong with the same payload on the stream, a PING with ACK and the same 8 bytes on the connection.',
    expect: { OK: [pong('wsgate ping')] },
    close: closedByMe(),
    suppressClose: true,
    async run(t) {
      t.sendFrame({ opcode: Opcode.Ping, payload: 'wsgate ping' });
      const acked = (await t.h2?.ping(Buffer.from('wsgate16'), 2000)) === true;
      if (!acked) failOutcome(t, 'The HTTP/2 PING got no ACK with the same 8 bytes within 2 s.');
      await t.pause(0.2);
      t.sendClose(1000);
    },
    adjust: orderlyEnd,
  }),
];

/** Group 16.1, in id order. */
export const h2ServerCases: readonly ScriptedCase[] = [...settingsCases, closeCase, ...sessionCases, ...streamCases];
