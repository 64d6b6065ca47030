/**
 * 18.3: frame lengths a client must refuse at the header (top bit set, past its limit, 1 GiB
 * declared and trickled, 2^64 - 1), and the frame attacks of 17.2 played against a client.
 */
import type { Requirement } from '../model/requirement.js';
import { subgroup } from './subgroup.js';
import { CloseCode } from '../protocol/constants.js';
import { scaledS } from '../cases/data/budgets.js';
import { endlessContinuations, limitPlusOne, randomBytes, reservedOpcodeGiB } from './frame-attacks.js';
import { TRICKLE, declaredGiBBudget, length64Budget, REFUSE_WITHIN_S } from './data/attacks-client.js';
import { defineCase, failedByPeer, hex } from '../cases/define.js';
import type { ScriptedCase } from '../cases/types.js';

const lengthRequirement: Requirement = {
  key: 'client-length-refused',
  rfc: 'RFC 6455 §5.2, §10.4',
  text: 'a client fails the connection at a frame header whose length has its top bit set, lies past its limit, or declares 1 GiB, without reading the payload, and its process survives (CVE-2026-1528: undici before 6.24.0; CVE-2020-27813: gorilla/websocket)',
  subject: 'an oversized frame length',
};

// RFC 6455 §5.2: "Payload length: ... If 127, the following 8 bytes interpreted as a 64-bit unsigned
// integer (the most significant bit MUST be 0) are the payload length."
/** A binary frame whose 64-bit length (`length`, 8 bytes in hex) has its top bit set, then 16 bytes. */
function topBitLengthCase(id: string, length: string, what: string): ScriptedCase {
  return defineCase({
    id,
    requirement: lengthRequirement,
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

const lengthCases: readonly ScriptedCase[] = [
  topBitLengthCase('18.3.1', '80 00 00 00 00 00 00 10', 'has the most significant bit set'),
  // The shape of undici CVE-2026-1528: high 32 bits 0x7fffffff, so "(upper << 8) + lower" went negative.
  defineCase({
    id: '18.3.2',
    requirement: lengthRequirement,
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
    requirement: lengthRequirement,
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

/** 18.3 in id order: lengths refused at the header, then the frame attacks group 17 plays against a server (frame-attacks.ts). */
export const frameClientCases: readonly ScriptedCase[] = subgroup(
  '18.3',
  'Frames: lengths refused at the header (undici CVE-2026-1528, gorilla CVE-2020-27813), limit + 1 in fragments, endless continuations, random bytes',
  [
    ...lengthCases,
    reservedOpcodeGiB('18.3.4', 'client'),
    limitPlusOne('18.3.5', 'client'),
    endlessContinuations('18.3.6', 'client'),
    randomBytes('18.3.7', 'client'),
    // The other end of the range from 18.3.1: every bit set (-1 to a parser that reads it signed).
    topBitLengthCase('18.3.8', 'ff ff ff ff ff ff ff ff', 'is 2^64 − 1'),
  ],
);
