/**
 * Group 1: framing. Text and binary messages of sizes around the limits of the three payload length
 * encodings, each in one frame, each to be echoed.
 *
 * RFC 6455 §5.2: "The length of the "Payload data", in bytes: if 0-125, that is the payload length.
 * If 126, the following 2 bytes interpreted as a 16-bit unsigned integer are the payload length. If
 * 127, the following 8 bytes interpreted as a 64-bit unsigned integer (the most significant bit MUST
 * be 0) are the payload length."
 */
import { Opcode } from '../protocol/constants.js';
import { framingSizes, type FramingSize } from './data/framing-sizes.js';
import { closedByMe, defineCase, message } from './define.js';
import type { ScriptedCase } from './types.js';

function sizeCase(id: string, size: FramingSize, binary: boolean): ScriptedCase {
  const payload = binary ? Buffer.alloc(size.length, 0xfe) : '*'.repeat(size.length);
  const kind = binary ? 'binary' : 'text';
  const content = binary ? 'the byte 0xfe' : '"*"';
  const chopped = size.chopSize === null ? '' : `, written to TCP in chops of ${size.chopSize} bytes`;
  return defineCase({
    id,
    description:
      size.length === 0
        ? `A ${kind} message with an empty payload, in one frame.`
        : `A ${kind} message of ${size.length} bytes (${content} repeated), in one frame${chopped}.`,
    expectation: `The client echoes the ${kind} message back unchanged, then answers the fuzzer's close (1000) cleanly.`,
    expect: { OK: [message(payload, binary)] },
    close: closedByMe(),
    run(t) {
      t.sendFrame({ opcode: binary ? Opcode.Binary : Opcode.Text, payload, chopSize: size.chopSize });
      t.killAfter(size.killAfter);
    },
  });
}

/** Every case of this group: 1.1.x (text), then 1.2.x (binary). */
export const framingCases: readonly ScriptedCase[] = [
  ...framingSizes.map((s) => sizeCase(s.textId, s, false)),
  ...framingSizes.map((s) => sizeCase(s.binaryId, s, true)),
];
