/**
 * 17.2, frames against a server under test: 64-bit lengths a server must refuse at the header
 * (played as raw attacks, judged by attack-judges.ts), then the frame attacks both roles play
 * (frame-attacks.ts): a reserved opcode declaring 1 GiB, limit + 1 in small fragments, endless
 * one-byte continuations, random bytes after valid messages.
 */
import { judgeRefusedAtHeader } from './attack-judges.js';
import { attackCase } from './attack-case.js';
import type { AttackProbe } from '../cases/attack-types.js';
import { ServerAdvisories, ServerBudgets } from './data/attacks.js';
import { endlessContinuations, limitPlusOne, randomBytes, reservedOpcodeGiB } from './frame-attacks.js';
import { subgroup } from './subgroup.js';
import { hex } from '../cases/define.js';
import type { CatalogueCase } from '../cases/types.js';

/** A frame header (binary, FIN, masked with 37 fa 21 3d) with a 64-bit length, sent after a normal 101. */
function frameHeader(label: string, length64: string, trickle = false): AttackProbe {
  const t = ServerBudgets.trickle;
  const waitMs = ServerBudgets.refuseAtHeaderMs + (trickle ? (t.totalBytes / t.pieceBytes) * t.everyMs : 1000);
  return { label, size: 0, afterOpen: { head: hex(`82 ff ${length64} 37 fa 21 3d`), ...(trickle ? { trickle: t } : {}) }, waitMs };
}

// RFC 6455 §5.2: "Payload length: ... If 127, the following 8 bytes interpreted as a 64-bit unsigned
// integer (the most significant bit MUST be 0) are the payload length." §7.1.7: an endpoint that
// finds a frame invalid MUST _Fail the WebSocket Connection_.
const topBitLengths = attackCase({
  id: '17.2.1',
  requirement: {
    key: 'length-top-bit',
    rfc: 'RFC 6455 §5.2, §7.1.7',
    text: 'a server fails the connection at a frame header whose 64-bit length has its most significant bit set, or is 2^64 - 1 (1002, 1009 or a drop), and keeps serving (CVE-2020-27813: gorilla/websocket overflowed its read limit)',
    subject: 'a 64-bit frame length with the top bit set',
  },
  advisory: ServerAdvisories.gorillaLength,
  rfc: 'RFC 6455 §5.2, §7.1.7',
  description:
    'After a normal opening handshake, a binary frame header (0x82 0xff) with the 64-bit length 0x8000000000000000 (its most significant bit set) and no payload; then, on a fresh connection, 0xffffffffffffffff (2^64 - 1).',
  expectation: `The server fails the connection at the header, within ${ServerBudgets.refuseAtHeaderMs} ms: a close frame with 1002 (or 1009), or a dropped TCP connection.`,
  attack: {
    kind: 'probes',
    probes: [frameHeader('length 0x8000000000000000', '80 00 00 00 00 00 00 00'), frameHeader('length 2^64 - 1', 'ff ff ff ff ff ff ff ff')],
    judge: judgeRefusedAtHeader,
  },
  maxSeconds: 15,
});

// RFC 6455 §10.4: "implementations SHOULD impose a limit on frame sizes and the total message size
// after reassembly from multiple frames"; §7.4.1: 1009 "a message that is too big for it to process".
const declaredGigabyte = attackCase({
  id: '17.2.2',
  requirement: {
    key: 'declared-length-refused',
    rfc: 'RFC 6455 §10.4, §7.4.1',
    text: 'a server with a message limit refuses a frame declaring more at its header (1009, 1002 or a drop), not after reading the payload, and keeps serving (Java-WebSocket#1507 allocated the declared size up front)',
    subject: 'a frame declaring 1 GiB',
  },
  advisory: ServerAdvisories.declaredGigabyte,
  rfc: 'RFC 6455 §10.4, §7.4.1',
  description: `After a normal opening handshake, a binary frame header declaring 1 GiB (0x82 0xff 00 00 00 00 40 00 00 00), then its payload trickled: ${ServerBudgets.trickle.pieceBytes} bytes every ${ServerBudgets.trickle.everyMs} ms, at most ${ServerBudgets.trickle.totalBytes.toLocaleString('en-US')} bytes.`,
  expectation: `A server with a message limit below 1 GiB refuses the frame at its header, within ${ServerBudgets.refuseAtHeaderMs} ms (1009, 1002 or a dropped connection), not after reading the payload.`,
  attack: { kind: 'probes', probes: [frameHeader('1 GiB declared, trickled', '00 00 00 00 40 00 00 00', true)], judge: judgeRefusedAtHeader },
  maxSeconds: 20,
});

/** 17.2 in id order. */
export const frameServerCases: readonly CatalogueCase[] = subgroup(
  '17.2',
  'Frames: lengths refused at the header, limit + 1 in fragments, endless continuations, random bytes',
  [
    topBitLengths,
    declaredGigabyte,
    reservedOpcodeGiB('17.2.3', 'server'),
    limitPlusOne('17.2.4', 'server'),
    endlessContinuations('17.2.5', 'server'),
    randomBytes('17.2.6', 'server'),
  ],
);
