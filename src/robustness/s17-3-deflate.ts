/**
 * 17.3, permessage-deflate against a server under test: the decompression bomb of 18.2 sent by wsgate
 * as the client, and offers whose window bits are out of range followed by a compressed message.
 * Each is a scripted connection with an attack budget; the liveness check follows every one.
 */
import zlib from 'node:zlib';
import { CloseCode, Opcode } from '../protocol/constants.js';
import { bombPieceAt } from '../protocol/deflate/bomb.js';
import { Behavior, CloseBehavior } from '../model/verdicts.js';
import { BOMB } from './data/attacks-client.js';
import { scaledS } from '../cases/data/budgets.js';
import { FrameAdvisory, windowBitsOfferBudget } from './data/attacks-frames.js';
import { defineCase, failedByPeer } from '../cases/define.js';
import { echoedFigure, ownFiguresOnly, withOwnFigures } from './own-figures.js';
import { subgroup } from './subgroup.js';
import type { Requirement } from '../model/requirement.js';
import type { AdjustFacts, AttackBudget, CaseContext, ScriptedCase, Judgement } from '../cases/types.js';

const RSV1 = 4;
// What 17.3 asks of a server.
const bombRequirement: Requirement = {
  key: 'server-decompression-bomb',
  rfc: 'RFC 6455 §10.4, RFC 7692 §8.1',
  text: 'a server refuses a compressed message that inflates past its limit (1009 or a drop) with bounded memory, and keeps serving (CVE-2018-1000518: Python websockets inflated without limit)',
  subject: 'a decompression bomb',
};

const offerRequirement: Requirement = {
  key: 'offer-window-bits',
  rfc: 'RFC 7692 §7, §7.1.2',
  text: 'a server declines a permessage-deflate offer whose window bits are out of range (8 to 15) or refuses the handshake, never accepts the value, and survives the compressed message that follows',
  subject: 'window bits out of range in the offer',
};

const serverBombBudget: AttackBudget = { advisory: FrameAdvisory.bomb, closeWithinMs: BOMB.refuseWithinS * 1000 };

// ---- 17.3.1, 17.3.2: a decompression bomb ------------------------------------------------------------

/** The bomb as frames of `piecesPerFrame` pieces (all of them: one frame), each written after the previous one. */
function sendBomb(t: CaseContext, piecesPerFrame: number): void {
  const frames = BOMB.pieces / piecesPerFrame;
  for (let f = 0; f < frames; f++) {
    const payload = Buffer.concat(Array.from({ length: piecesPerFrame }, (_, k) => bombPieceAt(f * piecesPerFrame + k, BOMB.pieces)));
    t.sendFrame({ opcode: f === 0 ? Opcode.Binary : Opcode.Continuation, fin: f === frames - 1, rsv: f === 0 ? RSV1 : 0, payload, sync: true });
  }
}

// RFC 6455 §10.4: a limit on "the total message size after reassembly"; RFC 7692 §8.1 ("the
// decompression ... may need a lot of memory") is the reason; §7.4.1: 1009.
function bombCase(id: string, fragmented: boolean): ScriptedCase {
  const perFrame = fragmented ? BOMB.piecesPerWrite : BOMB.pieces;
  const how = fragmented
    ? `in ${BOMB.pieces / perFrame} fragments (a binary frame with RSV1, then continuations), each inflating to 64 MiB`
    : 'in one binary frame with RSV1';
  return defineCase({
    id,
    requirement: bombRequirement,
    description: `wsgate offers permessage-deflate; once the server accepted it, a compressed message of about 1 MB that inflates to 1 GiB of zeros, ${how}, made from one small compressed piece repeated. (RFC 6455 §10.4, RFC 7692 §8.1; ${serverBombBudget.advisory})`,
    expectation: `A server with a message limit fails the connection past it (1009, or a drop) within ${BOMB.refuseWithinS} s, with bounded memory, and echoes nothing; afterwards it still serves. Inflating the whole gigabyte (an echo, or no refusal in time) is FAILED. A server that declines permessage-deflate: UNIMPLEMENTED. Another close code is WRONG CODE, and the peer's: ws before 8.18.2 answers the bomb in one frame with 1007, the error its inflater raised on the data still queued after it stopped at its limit (ws#2285), where the limit's 1009 was due.`,
    expect: {},
    close: failedByPeer([CloseCode.MessageTooBig]),
    suppressClose: true,
    attackBudget: serverBombBudget,
    messageLengthOnly: true,
    deflateOffers: [{ requestNoContextTakeover: false, requestMaxWindowBits: 0 }],
    schedule: { maxSeconds: BOMB.refuseWithinS + 3, runsAlone: true, cost: 1 },
    run(t) {
      if (!t.deflateActive) {
        t.setOutcome(Behavior.Unimplemented, 'The server declined permessage-deflate: there is nothing to inflate.');
        t.sendClose(CloseCode.Normal);
        return;
      }
      t.setWirelog(false, { silent: true });
      t.setOutcome(Behavior.Ok, 'The server ended the connection without echoing the message.');
      sendBomb(t, perFrame);
      t.killAfter(scaledS(BOMB.refuseWithinS, t.budgets));
    },
    onMessage(t, _data, binary, length) {
      t.record({ kind: 'message', data: Buffer.alloc(0), binary });
      t.setOutcome(
        Behavior.Failed,
        `The server answered the bomb with a message (${length.toLocaleString('en-US')} bytes) instead of failing the connection: it inflated it.`,
        [echoedFigure(length)],
      );
      t.sendClose(CloseCode.Normal);
    },
    adjust: ownFiguresOnly,
  });
}

// ---- 17.3.3-17.3.8: window bits out of range in the offer --------------------------------------------

const PROBE = 'wsgate: a compressed message after an odd offer.';
/** PROBE as DEFLATE literals (no back-reference: any window inflates it), sync tail removed (RFC 7692 §7.2.1). */
const COMPRESSED_PROBE: Buffer = (() => {
  const out = zlib.deflateRawSync(Buffer.from(PROBE), { windowBits: 9, level: 0, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  return out.subarray(0, out.length - 4);
})();

function statusOf(httpResponse: string | undefined): number | null {
  const m = /^HTTP\/\d\.\d (\d{3})/.exec(httpResponse ?? '');
  return m === null ? null : Number(m[1]);
}

const settled = (behavior: Judgement['behavior'], result: string): Judgement => ({
  behavior,
  result,
  behaviorClose: CloseBehavior.Ok,
  resultClose: 'Not judged: the case is about the answer to the offer.',
});

// RFC 7692 §7: "A server MUST decline an extension negotiation offer for this extension if ... The
// negotiation offer contains an extension parameter with an invalid value"; §7.1.2.1/§7.1.2.2: 8 to 15.
function windowBitsOffer(id: string, param: string, bits: number): ScriptedCase {
  const valid = bits >= 8 && bits <= 15;
  const offer = `permessage-deflate; ${param}=${bits}`;
  return defineCase({
    id,
    requirement: offerRequirement,
    description: `An upgrade request offering "${offer}", then a text message ("${PROBE}"), compressed (DEFLATE literals) when the server accepted permessage-deflate. (RFC 7692 §7, §7.1.2; ${windowBitsOfferBudget.advisory})`,
    expectation: `${valid ? '8 is valid: the server accepts or declines the offer' : `${bits} is out of range (8 to 15): the server MUST decline the offer (a 101 without permessage-deflate), or refuses the handshake`}; either way it echoes the message it then gets and keeps serving. Accepting an invalid value breaks that MUST but harms no one here: NON-STRICT (the conformance check is 15.2.2, with --extended); dying or not echoing is FAILED.`,
    expect: {},
    close: failedByPeer([CloseCode.Normal]),
    attackBudget: windowBitsOfferBudget,
    schedule: { maxSeconds: 5 },
    upgradeRequest: (normal) => requestWithOffer(normal, offer),
    run(t) {
      if (t.deflateActive) t.sendFrame({ opcode: Opcode.Text, rsv: RSV1, payload: COMPRESSED_PROBE });
      else t.sendMessage(PROBE);
      t.setOutcome(Behavior.Failed, `The server ${t.deflateActive ? 'accepted the offer' : 'declined the offer'} but did not echo the message.`);
      t.killAfter(scaledS(3, t.budgets));
    },
    onMessage(t, data, binary) {
      const echoed = !binary && data.toString('utf8') === PROBE;
      const took = t.deflateActive ? 'accepted the offer' : 'declined the offer';
      if (!echoed) t.setOutcome(Behavior.Failed, `The server ${took}, then echoed something else (${data.length} bytes).`, [echoedFigure(data.length)]);
      else if (t.deflateActive && !valid)
        t.setOutcome(
          Behavior.NonStrict,
          `The server accepted an offer with ${param}=${bits} (out of range: RFC 7692 §7 says it MUST decline) and inflated the message.`,
        );
      else t.setOutcome(Behavior.Ok, `The server ${took} and echoed the message.`);
      t.sendClose(CloseCode.Normal);
    },
    adjust: (verdict, facts) => withOwnFigures(facts, judgeOfferAnswer(verdict, facts)),
  });
}

/** What the answer to an offer with odd window bits makes of the verdict: a refused handshake is fine, an answer no client takes is not. */
function judgeOfferAnswer(verdict: Judgement, facts: AdjustFacts): Judgement {
  const status = statusOf(facts.httpResponse);
  if (status === null) return settled(Behavior.Ok, 'The server closed the connection without an answer (it refused the handshake).');
  if (status !== 101) return settled(Behavior.Ok, `The server refused the handshake (HTTP ${status}).`);
  // wsgate refused the 101 itself: the server's answer named permessage-deflate with a value no client takes.
  if (!facts.connectionWasOpen)
    return settled(
      Behavior.Failed,
      `The server accepted the offer with an answer no client can take: ${(facts.httpResponse ?? '').split('\r\n').find((l) => /^sec-websocket-extensions:/i.test(l)) ?? '(no extension line)'}.`,
    );
  return { ...verdict, behaviorClose: CloseBehavior.Ok, resultClose: 'Not judged: wsgate closes once the message is echoed (or the wait ran out).' };
}

/** The normal request with the offer as its only Sec-WebSocket-Extensions. */
function requestWithOffer(
  normal: { target: string; host: string; key: string; headers?: ReadonlyArray<readonly [string, string]> | null },
  offer: string,
): string {
  const lines = [
    `GET ${normal.target} HTTP/1.1`,
    `Host: ${normal.host}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Key: ${normal.key}`,
    'Sec-WebSocket-Version: 13',
    `Sec-WebSocket-Extensions: ${offer}`,
  ];
  for (const [n, v] of normal.headers ?? []) lines.push(`${n}: ${v}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** 17.3: permessage-deflate against a server, in id order. */
export const deflateServerCases: readonly ScriptedCase[] = subgroup('17.3', 'permessage-deflate: a decompression bomb, window bits out of range in the offer', [
  bombCase('17.3.1', false),
  bombCase('17.3.2', true),
  // Each parameter below, at and above RFC 7692 §7.1.2.1's range (8 to 15).
  windowBitsOffer('17.3.3', 'server_max_window_bits', 7),
  windowBitsOffer('17.3.4', 'server_max_window_bits', 8),
  windowBitsOffer('17.3.5', 'server_max_window_bits', 16),
  windowBitsOffer('17.3.6', 'client_max_window_bits', 7),
  windowBitsOffer('17.3.7', 'client_max_window_bits', 8),
  windowBitsOffer('17.3.8', 'client_max_window_bits', 16),
]);
