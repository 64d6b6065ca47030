/**
 * 18.2: a 1 GiB decompression bomb from about 1 MB, in one frame and in fragments, and the same
 * frame with RSV1 after a 101 that declined permessage-deflate.
 */
import type { Requirement } from '../model/requirement.js';
import { subgroup } from './subgroup.js';
import { CloseCode, Opcode } from '../protocol/constants.js';
import { bombLength, bombPieceAt } from '../protocol/deflate/bomb.js';
import { encodeFrameHeader } from '../protocol/frame-writer.js';
import { Behavior, CloseBehavior } from '../model/verdicts.js';
import { scaledS } from '../cases/data/budgets.js';
import { acceptFirstOffer, acceptOffer } from '../cases/data/deflate-cases.js';
import { BOMB, bombBudget, REFUSE_WITHIN_S, unnegotiatedBombBudget } from './data/attacks-client.js';
import { defineCase, failedByPeer } from '../cases/define.js';
import { echoedFigure, ownFiguresOnly, withOwnFigures } from './own-figures.js';
import type { CaseContext, ScriptedCase, Judgement } from '../cases/types.js';

const RSV1 = 4;

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

const bombRequirement: Requirement = {
  key: 'decompression-bomb',
  rfc: 'RFC 7692 §8.1, RFC 6455 §10.4',
  text: 'a client refuses a compressed message that inflates past its limit (1009 or a drop) with bounded memory, and its process survives (CVE-2026-1526: undici before 6.24.0 inflated without limit; CVE-2018-1000518: Python websockets)',
  subject: 'a decompression bomb',
};

const NO_DEFLATE: Judgement = {
  behavior: Behavior.Unimplemented,
  result: 'permessage-deflate was not negotiated (the client offered none): the bomb was not sent.',
  behaviorClose: CloseBehavior.Ok,
  resultClose: 'Not judged: the case does not apply to this client.',
};

function bombCase(id: string, fragmented: boolean): ScriptedCase {
  const how = fragmented
    ? `in ${BOMB.pieces / BOMB.piecesPerWrite} fragments (a binary frame with RSV1, then continuations), each inflating to 64 MiB`
    : 'in one binary frame with RSV1';
  return defineCase({
    id,
    requirement: bombRequirement,
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
    adjust: (verdict, facts) => (facts.deflateActive === true ? withOwnFigures(facts, verdict) : NO_DEFLATE),
    onMessage(t, _data, binary, length) {
      t.record({ kind: 'message', data: Buffer.alloc(0), binary });
      t.setOutcome(Behavior.Failed, `The client echoed a message of ${length} bytes: it took the bomb.`, [echoedFigure(length)]);
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
  requirement: {
    key: 'client-rsv1-unnegotiated',
    rfc: 'RFC 6455 §5.2',
    text: 'a client fails the connection on a frame with RSV1 set when no extension was negotiated, at its first byte, inflating nothing (aiohttp GHSA-mq44-7p77-q5h7 inflated such frames: a decompression bomb without the extension)',
    subject: 'a compressed frame without permessage-deflate',
  },
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
    t.setOutcome(Behavior.Failed, `The client echoed a message of ${length} bytes: it took a frame with RSV1 though no extension was negotiated.`, [
      echoedFigure(length),
    ]);
    t.sendClose(CloseCode.Normal);
  },
  adjust: ownFiguresOnly,
});

/** 18.2 in id order. */
export const bombClientCases: readonly ScriptedCase[] = subgroup(
  '18.2',
  'Decompression bombs: 1 GiB of zeros from about 1 MB (undici CVE-2026-1526, websockets CVE-2018-1000518)',
  [bombCase('18.2.1', false), bombCase('18.2.2', true), unnegotiatedBombCase],
);
