/**
 * Group 2: pings and pongs.
 *
 * RFC 6455 §5.5.2: "Upon receipt of a Ping frame, an endpoint MUST send a Pong frame in response,
 * unless it already received a Close frame." §5.5.3: "A Pong frame sent in response to a Ping frame
 * must have identical "Application data" as found in the message body of the Ping frame being replied
 * to." and "A Pong frame MAY be sent unsolicited. [...] A response to an unsolicited Pong frame is not
 * expected." §5.5: "All control frames MUST have a payload length of 125 bytes or less".
 */
import { CloseCode, Opcode } from '../protocol/constants.js';
import { closedByMe, defineCase, failedByPeer, hex, pong } from './define.js';
import type { ScriptedCase } from './types.js';

/** 2.1-2.4, 2.6: one ping the peer must answer with a pong carrying the same payload. */
function pingCase(id: string, description: string, payload: Buffer | string, options: { chopSize?: number; closeAfter?: number } = {}): ScriptedCase {
  return defineCase({
    id,
    description,
    expectation: "The client answers with a pong carrying the same payload, then answers the fuzzer's close (1000) cleanly.",
    expect: { OK: [pong(payload)] },
    close: closedByMe(),
    run(t) {
      t.sendFrame({ opcode: Opcode.Ping, payload, chopSize: options.chopSize ?? null });
      t.closeAfter(options.closeAfter ?? 1);
    },
  });
}

/** 2.7, 2.8: an unsolicited pong, then our close; the peer must not answer the pong. */
function unsolicitedPongCase(id: string, description: string, payload: string): ScriptedCase {
  return defineCase({
    id,
    description,
    expectation: 'The client sends nothing in reply to the pong and answers the close (1000) cleanly.',
    expect: { OK: [] },
    close: closedByMe(),
    run(t) {
      t.sendFrame({ opcode: Opcode.Pong, payload });
      t.sendClose(CloseCode.Normal);
      t.closeAfter(1);
    },
  });
}

/** 2.10, 2.11: ten pings in a row, payloads "payload-0" to "payload-9". */
function tenPingsCase(id: string, description: string, chopSize: number | null): ScriptedCase {
  const payloads = Array.from({ length: 10 }, (_, i) => `payload-${i}`);
  return defineCase({
    id,
    description,
    expectation:
      "The client answers every ping with a pong carrying its payload, in order, then answers the fuzzer's close (1000) cleanly. " +
      '(The RFC allows a peer to answer only the latest of several pings; this case expects all ten pongs all the same.)',
    expect: { OK: payloads.map((p) => pong(p)) },
    close: closedByMe(),
    run(t) {
      for (const payload of payloads) t.sendFrame({ opcode: Opcode.Ping, payload, chopSize });
      t.closeAfter(3);
    },
  });
}

/** Every case of this group. */
export const pingCases: readonly ScriptedCase[] = [
  pingCase('2.1', 'A ping with an empty payload.', ''),
  pingCase('2.2', 'A ping with the text payload "Hello, world!".', 'Hello, world!'),
  // 0x00 0xff 0xfe 0xfd 0xfc 0xfb 0x00 0xff: not UTF-8, which a ping payload need not be.
  pingCase('2.3', 'A ping with the 8-byte binary payload 0x00fffefdfcfb00ff (not UTF-8).', hex('00 ff fe fd fc fb 00 ff')),
  pingCase('2.4', 'A ping with a payload of 125 bytes (0xfe repeated), the most a control frame may carry.', Buffer.alloc(125, 0xfe)),
  defineCase({
    id: '2.5',
    description: 'A ping with a payload of 126 bytes (0xfe repeated), one more than a control frame may carry.',
    expectation: 'The client fails the connection at once (1002, protocol error) and sends no pong.',
    expect: { OK: [] },
    close: failedByPeer([CloseCode.ProtocolError]),
    run(t) {
      t.sendFrame({ opcode: Opcode.Ping, payload: Buffer.alloc(126, 0xfe) });
      t.killAfter(1);
    },
  }),
  pingCase('2.6', 'A ping with a payload of 125 bytes (0xfe repeated), written to TCP one byte at a time.', Buffer.alloc(125, 0xfe), {
    chopSize: 1,
    closeAfter: 2,
  }),
  unsolicitedPongCase('2.7', 'An unsolicited pong with an empty payload, then a close (1000).', ''),
  unsolicitedPongCase('2.8', 'An unsolicited pong with the payload "unsolicited pong payload", then a close (1000).', 'unsolicited pong payload'),
  defineCase({
    id: '2.9',
    description: 'An unsolicited pong with the payload "unsolicited pong payload", then a ping with the payload "ping payload".',
    expectation: 'The client ignores the pong, answers the ping with a pong carrying "ping payload", then answers the fuzzer\'s close (1000) cleanly.',
    expect: { OK: [pong('ping payload')] },
    close: closedByMe(),
    run(t) {
      t.sendFrame({ opcode: Opcode.Pong, payload: 'unsolicited pong payload' });
      t.sendFrame({ opcode: Opcode.Ping, payload: 'ping payload' });
      t.closeAfter(1);
    },
  }),
  tenPingsCase('2.10', 'Ten pings in a row, with the payloads "payload-0" to "payload-9".', null),
  tenPingsCase('2.11', 'Ten pings in a row, with the payloads "payload-0" to "payload-9", written to TCP one byte at a time.', 1),
];
