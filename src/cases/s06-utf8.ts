/**
 * Group 6: UTF-8 handling.
 *
 * RFC 6455 §8.1: "When an endpoint is to interpret a byte stream as UTF-8 but finds that the byte
 * stream is not, in fact, a valid UTF-8 stream, that endpoint MUST _Fail the WebSocket Connection_."
 */
import { CloseCode, Opcode } from '../protocol/constants.js';
import { utf8Vectors } from './data/utf8-vectors.js';
import { closedByMe, defineCase, failedByPeer, hex, message } from './define.js';
import type { CatalogueCase } from './types.js';

/** The fail timer of the decoder-vector cases: the peer has half a second to react. */
const VECTOR_FAIL_AFTER = 0.5;

/** 6.5-6.23: one unfragmented text message per vector, valid ones echoed, invalid ones refused. */
const vectorCases: CatalogueCase[] = utf8Vectors.map((v) => {
  const payload = hex(v.hex);
  return defineCase({
    id: v.id,
    description: `A text message whose payload is ${v.valid ? '' : 'not '}valid UTF-8, in one frame.<br><br>Payload: 0x${v.hex}`,
    expectation: v.valid
      ? 'The client echoes the message back unchanged.'
      : 'The client fails the connection at once, since the payload is not valid UTF-8, and echoes nothing.',
    expect: { OK: v.valid ? [message(payload)] : [] },
    close: v.valid ? closedByMe() : failedByPeer([CloseCode.InvalidPayload], { fatal: true }),
    run(t) {
      t.sendFrame({ opcode: Opcode.Text, payload });
      t.killAfter(VECTOR_FAIL_AFTER);
    },
  });
});

/** Every case of group 6 wsgate has. */
export const utf8Cases: readonly CatalogueCase[] = vectorCases;
