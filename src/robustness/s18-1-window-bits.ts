/**
 * 18.1 (the robustness profile against a client, `--robustness`): the 101 accepts permessage-deflate
 * with window bits out of range (and at 8), then a compressed frame follows in the same write. Budgets
 * and advisories: data/attacks-client.ts; the figures are the engine's (play/attack-figures.ts), and
 * a client process that dies (before its close, or after it) fails the case whatever its verdict.
 */
import type { Requirement } from '../model/requirement.js';
import { subgroup } from './subgroup.js';
import zlib from 'node:zlib';
import { CloseCode, Opcode } from '../protocol/constants.js';
import { Behavior, CloseBehavior } from '../model/verdicts.js';
import { scaledS } from '../cases/data/budgets.js';
import { REFUSE_WITHIN_S, windowBitsBudget } from './data/attacks-client.js';
import { defineCase } from '../cases/define.js';
import { head, PROBE, refused, SWITCHING, unimplemented, unimplementedUnlessScripted, upgradeLines } from '../cases/handshake-scripts.js';
import { echoedFigure, withOwnFigures } from './own-figures.js';
import type { ScriptedCase, Judgement } from '../cases/types.js';

const RSV1 = 4;

/** PROBE as DEFLATE literals (no back-reference, so any window inflates it), sync tail removed (§7.2.1). */
const COMPRESSED_PROBE: Buffer = (() => {
  const out = zlib.deflateRawSync(Buffer.from(PROBE), { windowBits: 9, level: 1, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  return out.subarray(0, out.length - 4);
})();

const REFUSED = 'The client refused the response: it ended the connection without echoing the compressed message.';
const ACCEPTED = 'The client took the response and inflated the compressed message (its echo matches).';

// What 18.1 asks of a client: out-of-range values refused; 8, valid, taken or refused cleanly.
const outOfRange: Requirement = {
  key: 'window-bits-out-of-range',
  rfc: 'RFC 7692 §7.1, §7.1.2',
  text: 'a client fails the connection on a permessage-deflate answer whose window bits are out of range (8 to 15), and its process survives the compressed frame that follows (CVE-2026-2229: undici before 6.24.0 died of an uncaught RangeError)',
  subject: 'window bits out of range in the 101',
};
const eightBits: Requirement = {
  key: 'window-bits-eight',
  rfc: 'RFC 7692 §7.1, §7.1.2.1',
  text: 'a client takes window bits of 8 in a permessage-deflate answer (valid: 8 to 15) or fails the connection cleanly because it cannot use them (zlib has no 256-byte window), and its process survives the compressed frame that follows (CVE-2026-2229 is the out-of-range variant)',
  subject: 'window bits of 8 in the 101',
};

function windowBitsCase(id: string, param: string, bits: number): ScriptedCase {
  const valid = bits >= 8 && bits <= 15;
  const rule = valid
    ? `RFC 7692 §7.1.2.1: ${param} is "a decimal integer value without leading zeroes between 8 to 15, inclusive": 8 is valid. The client takes it and echoes the message, or fails the connection because it "does not support the configuration that the response represents" (§7.1; zlib has no 256-byte window): both are OK.`
    : `RFC 7692 §7.1: a response with "an extension parameter with an invalid value" (${param} must be 8 to 15, §7.1.2) means the client MUST _Fail the WebSocket Connection_: a close frame (1010 or any code) or a drop. Taking the value and inflating anyway is NON-STRICT.`;
  return defineCase({
    id,
    requirement: valid ? eightBits : outOfRange,
    description: `A 101 response accepting permessage-deflate with "${param}=${bits}", then in the same write a compressed text message ("${PROBE}", DEFLATE literals). (RFC 7692 §7.1, §7.1.2; ${windowBitsBudget.advisory})`,
    expectation: `${rule} Whatever it does, the client process must not die: one that exits on an uncaught exception or a signal, before its close or after it, is FAILED. Without a permessage-deflate offer from the client the case is UNIMPLEMENTED.`,
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
      t.setOutcome(Behavior.Ok, REFUSED);
      t.sendFrame({ opcode: Opcode.Text, rsv: RSV1, payload: COMPRESSED_PROBE });
      t.killAfter(scaledS(REFUSE_WITHIN_S, t.budgets));
    },
    onMessage(t, data, binary) {
      if (!binary && data.toString('utf8') === PROBE) t.setOutcome(valid ? Behavior.Ok : Behavior.NonStrict, ACCEPTED);
      else
        t.setOutcome(Behavior.Failed, `The client echoed a message other than the one sent (${binary ? 'binary' : 'text'}, ${data.length} bytes).`, [
          echoedFigure(data.length),
        ]);
      t.sendClose(CloseCode.Normal);
    },
    adjust(verdict, facts) {
      const scripted = unimplementedUnlessScripted('deflate-offer')(verdict, facts);
      if (scripted !== verdict) return scripted;
      return withOwnFigures(facts, judgeRefusal(verdict));
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

/** 18.1 in id order. */
export const windowBitsClientCases: readonly ScriptedCase[] = subgroup(
  '18.1',
  'permessage-deflate window bits out of range, then a compressed frame (undici CVE-2026-2229)',
  [
    // Each parameter below, at and above RFC 7692 §7.1.2.1's range (8 to 15).
    windowBitsCase('18.1.1', 'server_max_window_bits', 7),
    windowBitsCase('18.1.2', 'server_max_window_bits', 8),
    windowBitsCase('18.1.3', 'server_max_window_bits', 16),
    windowBitsCase('18.1.4', 'client_max_window_bits', 7),
    windowBitsCase('18.1.5', 'client_max_window_bits', 8),
    windowBitsCase('18.1.6', 'client_max_window_bits', 16),
  ],
);
