/**
 * Group 18 (wsgate's own, the robustness profile: `--robustness`): the attacks that have taken
 * WebSocket clients down, played by wsgate as a hostile server. Each case quotes the RFC rule the
 * client must keep and the advisory it replays; budgets and advisories are data
 * (data/attacks-client.ts), the figures are measured by the engine (play/attack-figures.ts), and a
 * client process that dies before its close fails the case whatever its verdict (run/conclude.ts).
 *
 * 18.1 answers permessage-deflate with window bits out of range (and at 8), then sends a compressed
 * frame; 18.2 sends a 1 GiB decompression bomb, in one frame and in fragments; 18.3 sends frame
 * lengths a client must refuse at the header; 18.4 (s18-robustness-handshake.ts) floods and slows the 101.
 */
import zlib from 'node:zlib';
import { CloseCode, Opcode } from '../../protocol/constants.js';
import { bombLength, bombPieceAt } from '../../protocol/deflate/bomb.js';
import { encodeFrameHeader } from '../../protocol/frame-writer.js';
import { Behavior, CloseBehavior } from '../../model/verdicts.js';
import { scaledS } from '../data/budgets.js';
import { acceptFirstOffer, acceptOffer } from '../data/deflate-cases.js';
import { closingCases } from './closing-attacks.js';
import { endlessContinuations, limitPlusOne, randomBytes, reservedOpcodeGiB } from './frame-attacks.js';
import {
  BOMB,
  TRICKLE,
  WINDOW_BITS_ROWS,
  bombBudget,
  declaredGiBBudget,
  length64Budget,
  REFUSE_WITHIN_S,
  unnegotiatedBombBudget,
  windowBitsBudget,
} from './data/attacks-client.js';
import { defineCase, failedByPeer, hex } from '../define.js';
import { head, PROBE, refused, SWITCHING, unimplemented, unimplementedUnlessScripted, upgradeLines } from '../handshake-scripts.js';
import { echoedFigure, ownFiguresOnly, stateOutcome, withOwnFigures } from './own-figures.js';
import { clientHandshakeCases } from './s18-robustness-handshake.js';
import type { CaseContext, CatalogueCase, Judgement } from '../types.js';

const RSV1 = 4;

// ---- 18.1: window bits out of range, then a compressed frame --------------------------------------

/** PROBE as DEFLATE literals (no back-reference, so any window inflates it), sync tail removed (§7.2.1). */
const COMPRESSED_PROBE: Buffer = (() => {
  const out = zlib.deflateRawSync(Buffer.from(PROBE), { windowBits: 9, level: 1, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  return out.subarray(0, out.length - 4);
})();

const REFUSED = 'The client refused the response: it ended the connection without echoing the compressed message.';
const ACCEPTED = 'The client took the response and inflated the compressed message (its echo matches).';

function windowBitsCase(id: string, param: string, bits: number): CatalogueCase {
  const valid = bits >= 8 && bits <= 15;
  const rule = valid
    ? `RFC 7692 §7.1.2.1: ${param} is "a decimal integer value without leading zeroes between 8 to 15, inclusive": 8 is valid. The client takes it and echoes the message, or fails the connection because it "does not support the configuration that the response represents" (§7.1; zlib has no 256-byte window): both are OK.`
    : `RFC 7692 §7.1: a response with "an extension parameter with an invalid value" (${param} must be 8 to 15, §7.1.2) means the client MUST _Fail the WebSocket Connection_: a close frame (1010 or any code) or a drop. Taking the value and inflating anyway is NON-STRICT.`;
  return defineCase({
    id,
    description: `A 101 response accepting permessage-deflate with "${param}=${bits}", then in the same write a compressed text message ("${PROBE}", DEFLATE literals). (RFC 7692 §7.1, §7.1.2; ${windowBitsBudget.advisory})`,
    expectation: `${rule} Whatever it does, the client process must not die: one that exits on an uncaught exception or a signal before its close is FAILED. Without a permessage-deflate offer from the client the case is UNIMPLEMENTED.`,
    expect: {},
    close: refused,
    suppressClose: true,
    attackBudget: windowBitsBudget,
    schedule: { maxSeconds: REFUSE_WITHIN_S + 2 },
    handshake(info) {
      const offer = info.deflateOffers[0];
      if (offer === undefined) return null;
      const response = head(SWITCHING, [...upgradeLines(info), `Sec-WebSocket-Extensions: permessage-deflate; ${param}=${bits}`]);
      // Should the client take it, its echo may come compressed: read it as such.
      return { head: response, delivery: 'together', deflate: { offer, requestNoContextTakeover: false, requestMaxWindowBits: 0 } };
    },
    run(t) {
      if (!t.scriptedHandshake) {
        unimplemented(t, 'permessage-deflate was not negotiated (the client offered none).');
        return;
      }
      stateOutcome(t, Behavior.Ok, REFUSED);
      t.sendFrame({ opcode: Opcode.Text, rsv: RSV1, payload: COMPRESSED_PROBE });
      t.killAfter(scaledS(REFUSE_WITHIN_S, t.budgets));
    },
    onMessage(t, data, binary) {
      if (!binary && data.toString('utf8') === PROBE) stateOutcome(t, valid ? Behavior.Ok : Behavior.NonStrict, ACCEPTED);
      else
        stateOutcome(t, Behavior.Failed, `The client echoed a message other than the one sent (${binary ? 'binary' : 'text'}, ${data.length} bytes).`, [
          echoedFigure(data.length),
        ]);
      t.sendClose(CloseCode.Normal);
    },
    adjust(verdict, facts) {
      const scripted = unimplementedUnlessScripted('deflate-offer')(verdict, facts);
      if (scripted !== verdict) return scripted;
      return withOwnFigures(verdict, judgeRefusal(verdict));
    },
  });
}

/** A client that took the response is not judged on its closing; one that did neither is FAILED. */
function judgeRefusal(verdict: Judgement): Judgement {
  if (verdict.result === ACCEPTED)
    return { ...verdict, behaviorClose: CloseBehavior.Ok, resultClose: 'Not judged: the client took the response; wsgate closed after the echo.' };
  if (verdict.result === REFUSED && verdict.behaviorClose === CloseBehavior.Failed) {
    return {
      ...verdict,
      behavior: Behavior.Failed,
      result: `The client neither refused the response nor echoed the compressed message within ${REFUSE_WITHIN_S} s.`,
    };
  }
  return verdict;
}

const windowBitsCases: CatalogueCase[] = WINDOW_BITS_ROWS.map((row, i) => windowBitsCase(`18.1.${i + 1}`, row.param, row.bits));

// ---- 18.2: a decompression bomb ---------------------------------------------------------------------

// RFC 6455 §10.4: "Implementations SHOULD impose a limit on frame sizes and the total message size
// after reassembly from multiple frames." §7.4.1: 1009 "indicates that an endpoint is terminating the
// connection because it has received a message that is too big for it to process."

/** Writes the bomb: `fragmented` as one frame per write (binary, then continuations), else one frame. */
function sendBomb(t: CaseContext, fragmented: boolean): void {
  const writes = BOMB.pieces / BOMB.piecesPerWrite;
  const piecesOf = (w: number): Buffer =>
    Buffer.concat(Array.from({ length: BOMB.piecesPerWrite }, (_, k) => bombPieceAt(w * BOMB.piecesPerWrite + k, BOMB.pieces)));
  if (!fragmented) t.sendRaw(encodeFrameHeader(Opcode.Binary, true, RSV1, bombLength(BOMB.pieces), null));
  for (let w = 0; w < writes; w++) {
    const body = piecesOf(w);
    if (!fragmented) {
      t.sendRaw(body, { sync: true });
      continue;
    }
    const header = encodeFrameHeader(w === 0 ? Opcode.Binary : Opcode.Continuation, w === writes - 1, w === 0 ? RSV1 : 0, body.length, null);
    t.sendRaw(Buffer.concat([header, body]), { sync: true });
  }
}

const NO_DEFLATE: Judgement = {
  behavior: Behavior.Unimplemented,
  result: 'permessage-deflate was not negotiated (the client offered none): the bomb was not sent.',
  behaviorClose: CloseBehavior.Ok,
  resultClose: 'Not judged: the case does not apply to this client.',
};

function bombCase(id: string, fragmented: boolean): CatalogueCase {
  const how = fragmented
    ? `in ${BOMB.pieces / BOMB.piecesPerWrite} fragments (a binary frame with RSV1, then continuations), each inflating to 64 MiB`
    : 'in one binary frame with RSV1';
  return defineCase({
    id,
    description: `After a normal permessage-deflate negotiation, a compressed message of about 1 MB that inflates to 1 GiB of zeros, ${how}, written as it is generated (wsgate never holds it). (RFC 6455 §10.4, §7.4.1; ${bombBudget.advisory})`,
    expectation: `RFC 6455 §10.4: a client SHOULD limit the message size after reassembly; past its limit it fails the connection with 1009 (or drops it) within ${BOMB.refuseWithinS} s, with bounded memory, and echoes nothing. A client that inflates the whole gigabyte is too slow or echoes it: FAILED. Without permessage-deflate the case is UNIMPLEMENTED.`,
    expect: { OK: [] },
    close: failedByPeer([CloseCode.MessageTooBig]),
    suppressClose: true,
    attackBudget: bombBudget,
    messageLengthOnly: true,
    schedule: { maxSeconds: BOMB.refuseWithinS + 2, runsAlone: true, cost: 1 },
    deflate: (offers) => acceptOffer(acceptFirstOffer, offers),
    run(t) {
      if (!t.deflateActive) {
        t.sendClose(CloseCode.Normal);
        return;
      }
      sendBomb(t, fragmented);
      t.killAfter(scaledS(BOMB.refuseWithinS, t.budgets));
    },
    // A client that offered no permessage-deflate is not judged: the bomb was never sent.
    adjust: (verdict, facts) => (facts.deflateActive === true ? withOwnFigures(verdict) : NO_DEFLATE),
    onMessage(t, _data, binary, length) {
      t.record({ kind: 'message', data: Buffer.alloc(0), binary });
      stateOutcome(t, Behavior.Failed, `The client echoed a message of ${length} bytes: it took the bomb.`, [echoedFigure(length)]);
      // Nothing left to wait for: the verdict is in.
      t.sendClose(CloseCode.Normal);
    },
  });
}

// RFC 6455 §5.2: RSV1 "MUST be 0 unless an extension is negotiated that defines meanings for non-zero
// values. If a nonzero value is received and none of the negotiated extensions defines the meaning of
// such a nonzero value, the receiving endpoint MUST _Fail the WebSocket Connection_."
const unnegotiatedBombCase = defineCase({
  id: '18.2.3',
  description: `The 101 declines permessage-deflate (whatever the client offered); then 18.2.1's bomb in one binary frame with RSV1 set, as if the extension were in use. (RFC 6455 §5.2; ${unnegotiatedBombBudget.advisory})`,
  expectation: `RFC 6455 §5.2: RSV1 without a negotiated extension MUST fail the connection: the client fails it at the frame's first byte (1002, or a drop) within ${REFUSE_WITHIN_S} s, inflating nothing and echoing nothing, and its process does not die. Inflating the frame (its memory grows) or echoing anything is FAILED.`,
  expect: { OK: [] },
  close: failedByPeer([CloseCode.ProtocolError]),
  suppressClose: true,
  attackBudget: unnegotiatedBombBudget,
  messageLengthOnly: true,
  schedule: { maxSeconds: REFUSE_WITHIN_S + 2, runsAlone: true, cost: 1 },
  run(t) {
    sendBomb(t, false);
    t.killAfter(scaledS(REFUSE_WITHIN_S, t.budgets));
  },
  onMessage(t, _data, binary, length) {
    t.record({ kind: 'message', data: Buffer.alloc(0), binary });
    stateOutcome(t, Behavior.Failed, `The client echoed a message of ${length} bytes: it took a frame with RSV1 though no extension was negotiated.`, [
      echoedFigure(length),
    ]);
    t.sendClose(CloseCode.Normal);
  },
  adjust: ownFiguresOnly,
});

const bombCases: CatalogueCase[] = [bombCase('18.2.1', false), bombCase('18.2.2', true), unnegotiatedBombCase];

// ---- 18.3: frame lengths refused at the header -----------------------------------------------------

// RFC 6455 §5.2: "Payload length: ... If 127, the following 8 bytes interpreted as a 64-bit unsigned
// integer (the most significant bit MUST be 0) are the payload length."
/** A binary frame whose 64-bit length (`length`, 8 bytes in hex) has its top bit set, then 16 bytes. */
function topBitLengthCase(id: string, length: string, what: string): CatalogueCase {
  return defineCase({
    id,
    description: `A binary frame whose 64-bit length ${what} (82 7f ${length}), then 16 bytes. (RFC 6455 §5.2; ${length64Budget.advisory})`,
    expectation: `RFC 6455 §5.2: "the most significant bit MUST be 0"; the client fails the connection at the header (1002, or 1009, or a drop) within ${REFUSE_WITHIN_S} s, and its process does not die.`,
    expect: { OK: [] },
    close: failedByPeer([CloseCode.ProtocolError, CloseCode.MessageTooBig]),
    suppressClose: true,
    attackBudget: length64Budget,
    schedule: { maxSeconds: REFUSE_WITHIN_S + 2 },
    run(t) {
      t.sendRaw(Buffer.concat([hex(`82 7f ${length}`), Buffer.alloc(16)]));
      t.killAfter(scaledS(REFUSE_WITHIN_S, t.budgets));
    },
  });
}

const lengthCases: CatalogueCase[] = [
  topBitLengthCase('18.3.1', '80 00 00 00 00 00 00 10', 'has the most significant bit set'),
  // The shape of undici CVE-2026-1528: high 32 bits 0x7fffffff, so "(upper << 8) + lower" went negative.
  defineCase({
    id: '18.3.2',
    description: `A binary frame declaring 0x7fffffff00000010 bytes (top bit clear: legal, about 2^63), then 16 bytes. (RFC 6455 §5.2, §10.4; ${length64Budget.advisory})`,
    expectation: `RFC 6455 §10.4: a client limits frame sizes; a length past its limit fails the connection at the header with 1009 (1002 tolerated, or a drop) within ${REFUSE_WITHIN_S} s, and its process does not die.`,
    expect: { OK: [] },
    close: failedByPeer([CloseCode.MessageTooBig, CloseCode.ProtocolError]),
    suppressClose: true,
    attackBudget: length64Budget,
    schedule: { maxSeconds: REFUSE_WITHIN_S + 2 },
    run(t) {
      t.sendRaw(Buffer.concat([hex('82 7f 7f ff ff ff 00 00 00 10'), Buffer.alloc(16)]));
      t.killAfter(scaledS(REFUSE_WITHIN_S, t.budgets));
    },
  }),
  defineCase({
    id: '18.3.3',
    description: `A binary frame declaring 1 GiB (82 7f 00 00 00 00 40 00 00 00), its payload trickled at ${TRICKLE.bytes} bytes every ${TRICKLE.everyS} s while the connection is open. (RFC 6455 §10.4; ${declaredGiBBudget.advisory})`,
    expectation: `RFC 6455 §10.4: a client whose message limit is below 1 GiB refuses the frame at its header (1009, or a drop) within ${REFUSE_WITHIN_S} s, not after reading (or allocating) the payload.`,
    expect: { OK: [] },
    close: failedByPeer([CloseCode.MessageTooBig]),
    suppressClose: true,
    attackBudget: declaredGiBBudget,
    schedule: { maxSeconds: REFUSE_WITHIN_S + 2, idle: true },
    async run(t) {
      t.sendRaw(hex('82 7f 00 00 00 00 40 00 00 00'));
      t.killAfter(scaledS(REFUSE_WITHIN_S, t.budgets));
      const piece = Buffer.alloc(TRICKLE.bytes);
      while (t.isOpen) {
        t.sendRaw(piece, { sync: true });
        await t.pause(TRICKLE.everyS);
      }
    },
  }),
];

/** Group 18, in id order: the robustness profile for a client under test. */
export const robustnessClientCases: readonly CatalogueCase[] = [
  ...windowBitsCases,
  ...bombCases,
  ...lengthCases,
  // The frame attacks group 17 plays against a server (attack-frames.ts), here against a client.
  reservedOpcodeGiB('18.3.4', 'client'),
  limitPlusOne('18.3.5', 'client'),
  endlessContinuations('18.3.6', 'client'),
  randomBytes('18.3.7', 'client'),
  // The other end of the range from 18.3.1: every bit set (-1 to a parser that reads it signed).
  topBitLengthCase('18.3.8', 'ff ff ff ff ff ff ff ff', 'is 2^64 − 1'),
  ...clientHandshakeCases,
  ...closingCases('18.5', 'client'),
];
