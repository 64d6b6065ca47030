/**
 * Group 10: miscellaneous. 10.1.1 sends a 64 KiB message the way an endpoint that fragments on its own
 * would (Autobahn's autoFragmentSize), and checks the fuzzer's own frame count besides the echo.
 *
 * RFC 6455 §5.4: "A fragmented message consists of a single frame with the FIN bit clear and an opcode
 * other than 0, followed by zero or more frames with the FIN bit clear and the opcode set to 0, and
 * terminated by a single frame with the FIN bit set and an opcode of 0."
 */
import { Opcode } from '../protocol/constants.js';
import { Behavior } from '../model/verdicts.js';
import { closedByMe, defineCase, message } from './define.js';
import type { ScriptedCase } from './types.js';

const LENGTH = 65536;
const FRAGMENT_SIZE = 1300;
/** 65536 = 50 × 1300 + 536: one text frame, then 50 continuation frames (the last one 536 bytes). */
const EXPECTED_TX_FRAMES = { [Opcode.Continuation]: 50, [Opcode.Text]: 1 } as const;

/** A frame count as Autobahn's result text prints it (a Python dict: "{0: 50, 1: 1}"). */
function pyDict(counts: Readonly<Record<number, number | undefined>>): string {
  return `{${[Opcode.Continuation, Opcode.Text].map((op) => `${op}: ${counts[op] ?? 0}`).join(', ')}}`;
}

const payload = '*'.repeat(LENGTH);

/** Every case of this group. */
export const miscCases: readonly ScriptedCase[] = [
  defineCase({
    id: '10.1.1',
    description: `A text message of ${LENGTH} bytes ("*" repeated), fragmented by the fuzzer into frames of at most ${FRAGMENT_SIZE} bytes.`,
    expectation:
      "The client echoes the message back unchanged, then answers the fuzzer's close (1000) cleanly. The fuzzer also checks that it sent one text frame and 50 continuation frames.",
    expect: { OK: [message(payload)] },
    close: closedByMe(),
    run(t) {
      t.sendMessage(payload, { fragmentSize: FRAGMENT_SIZE });
      t.killAfter(10);
    },
    adjust(verdict, facts) {
      if (!facts.connectionWasOpen) return { ...verdict, behavior: Behavior.Failed, result: 'WebSocket connection was never open' };
      const sent = {
        [Opcode.Continuation]: facts.txFrameStats[String(Opcode.Continuation)],
        [Opcode.Text]: facts.txFrameStats[String(Opcode.Text)],
      };
      if (sent[Opcode.Continuation] === EXPECTED_TX_FRAMES[Opcode.Continuation] && sent[Opcode.Text] === EXPECTED_TX_FRAMES[Opcode.Text]) {
        return verdict;
      }
      return {
        ...verdict,
        behavior: Behavior.Failed,
        result: `Frames transmitted ${pyDict(sent)} does not match what we expected ${pyDict(EXPECTED_TX_FRAMES)}.`,
      };
    },
  }),
];
