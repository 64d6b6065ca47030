/**
 * Group 3: reserved bits. Every case sends a frame with RSV bits set and no extension negotiated.
 *
 * RFC 6455 §5.2: "RSV1, RSV2, RSV3: 1 bit each. MUST be 0 unless an extension is negotiated that
 * defines meanings for non-zero values. If a nonzero value is received and none of the negotiated
 * extensions defines the meaning of such a nonzero value, the receiving endpoint MUST _Fail the
 * WebSocket Connection_."
 */
import { CloseCode, Opcode } from '../protocol/constants.js';
import { Delivery, deliveryPhrase, PER_OCTET_RACE_SCHEDULE, type DeliveryMode } from './data/delivery.js';
import { defineCase, failedByPeer, hex, message } from './define.js';
import type { ScriptedCase, TxFrame } from './types.js';

const HELLO = 'Hello, world!';

/** The peer must fail the connection itself; a close with no code is accepted too. */
const FAIL_1002 = failedByPeer([CloseCode.ProtocolError]);

/** 3.1, 3.5-3.7: one frame with RSV bits set; the peer must fail at once and echo nothing. */
function rsvFrameCase(id: string, description: string, frame: TxFrame): ScriptedCase {
  return defineCase({
    id,
    description,
    expectation: 'The client fails the connection at once (1002, protocol error): no extension was negotiated that gives the RSV bits a meaning.',
    expect: { OK: [] },
    close: FAIL_1002,
    run(t) {
      t.sendFrame(frame);
      t.killAfter(1);
    },
  });
}

/**
 * 3.2-3.4: a valid text message, the same message with RSV bits set, then an empty ping. A peer that
 * fails before echoing the first message (it read all three frames first) is NON-STRICT.
 */
function afterEchoCase(id: string, rsv: number, delivery: DeliveryMode): ScriptedCase {
  return defineCase({
    id,
    description: `A text message "${HELLO}", then the same message with RSV = ${rsv}, then a ping with an empty payload, ${deliveryPhrase(delivery)}.`,
    expectation: 'The client echoes the first message, then fails the connection (1002, protocol error) on the frame with RSV bits set, and sends no pong.',
    expect: { OK: [message(HELLO)], 'NON-STRICT': [] },
    close: FAIL_1002,
    ...(delivery === Delivery.perOctet ? { schedule: PER_OCTET_RACE_SCHEDULE } : {}),
    run(t) {
      t.sendFrame({ opcode: Opcode.Text, payload: HELLO, ...delivery });
      t.sendFrame({ opcode: Opcode.Text, payload: HELLO, rsv, ...delivery });
      t.sendFrame({ opcode: Opcode.Ping, ...delivery });
      t.killAfter(1);
    },
  });
}

/** Every case of this group. RSV is the three bits as a number: 4 = RSV1, 2 = RSV2, 1 = RSV3. */
export const reservedBitCases: readonly ScriptedCase[] = [
  rsvFrameCase('3.1', `A text message "${HELLO}" with RSV = 1 (RSV3 set).`, { opcode: Opcode.Text, payload: HELLO, rsv: 1 }),
  afterEchoCase('3.2', 2, Delivery.together),
  afterEchoCase('3.3', 3, Delivery.perFrame),
  afterEchoCase('3.4', 4, Delivery.perOctet),
  rsvFrameCase('3.5', 'A binary message 0x00fffefdfcfb00ff with RSV = 5 (RSV1 and RSV3 set).', {
    opcode: Opcode.Binary,
    payload: hex('00 ff fe fd fc fb 00 ff'),
    rsv: 5,
  }),
  // Autobahn's own description of 3.6 says "Ping", but the frame it sends is a binary message.
  rsvFrameCase('3.6', `A binary message "${HELLO}" with RSV = 6 (RSV1 and RSV2 set).`, {
    opcode: Opcode.Binary,
    payload: HELLO,
    rsv: 6,
  }),
  rsvFrameCase('3.7', 'A close frame with an empty payload and RSV = 7 (all three bits set).', { opcode: Opcode.Close, rsv: 7 }),
];
