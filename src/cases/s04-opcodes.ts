/**
 * Group 4: reserved opcodes, non-control (4.1.x: 3-7) and control (4.2.x: 11-15).
 *
 * RFC 6455 §5.2: "If an unknown opcode is received, the receiving endpoint MUST _Fail the WebSocket
 * Connection_."
 */
import { CloseCode, Opcode } from '../protocol/constants.js';
import { Delivery, deliveryPhrase, PER_OCTET_RACE_SCHEDULE } from './data/delivery.js';
import { reservedOpcodeCases, type ReservedOpcodeCase } from './data/reserved-opcodes.js';
import { defineCase, failedByPeer, message } from './define.js';
import type { ScriptedCase } from './types.js';

const HELLO = 'Hello, world!';

function opcodeCase(c: ReservedOpcodeCase): ScriptedCase {
  const kind = c.opcode < 8 ? 'non-control' : 'control';
  const frame = `a frame with the reserved ${kind} opcode ${c.opcode} and ${c.payload === '' ? 'an empty payload' : `the payload "${c.payload}"`}`;
  return defineCase({
    id: c.id,
    description: c.betweenMessageAndPing
      ? `A text message "${HELLO}", then ${frame}, then a ping with an empty payload, ${deliveryPhrase(c.delivery)}.`
      : `${frame.charAt(0).toUpperCase()}${frame.slice(1)}.`,
    expectation: c.betweenMessageAndPing
      ? 'The client echoes the text message, then fails the connection (1002, protocol error) on the reserved opcode, and sends no pong.'
      : 'The client fails the connection at once (1002, protocol error) on the reserved opcode.',
    // A peer that fails before echoing the first message (it read all frames first) is NON-STRICT.
    expect: c.betweenMessageAndPing ? { OK: [message(HELLO)], 'NON-STRICT': [] } : { OK: [] },
    close: failedByPeer([CloseCode.ProtocolError]),
    ...(c.betweenMessageAndPing && c.delivery === Delivery.perOctet ? { schedule: PER_OCTET_RACE_SCHEDULE } : {}),
    run(t) {
      if (c.betweenMessageAndPing) t.sendFrame({ opcode: Opcode.Text, payload: HELLO, ...c.delivery });
      t.sendFrame({ opcode: c.opcode, payload: c.payload, ...c.delivery });
      if (c.betweenMessageAndPing) t.sendFrame({ opcode: Opcode.Ping, ...c.delivery });
      t.killAfter(1);
    },
  });
}

/** Every case of this group. */
export const opcodeCases: readonly ScriptedCase[] = reservedOpcodeCases.map(opcodeCase);
