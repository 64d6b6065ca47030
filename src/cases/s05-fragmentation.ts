/**
 * Group 5: fragmentation.
 *
 * RFC 6455 §5.4: "A fragmented message consists of a single frame with the FIN bit clear and an opcode
 * other than 0, followed by zero or more frames with the FIN bit clear and the opcode set to 0, and
 * terminated by a single frame with the FIN bit set and an opcode of 0." "Control frames [...] MAY be
 * injected in the middle of a fragmented message. Control frames themselves MUST NOT be fragmented."
 * "An endpoint MUST be capable of handling control frames in the middle of a fragmented message."
 */
import { CloseCode, Opcode } from '../protocol/constants.js';
import { Delivery, deliveryPhrase, type DeliveryMode } from './data/delivery.js';
import { closedByMe, defineCase, failedByPeer, message, pong } from './define.js';
import type { CaseContext, ScriptedCase } from './types.js';

/** A frame as these cases write it: opcode, FIN, payload. */
type Frame = readonly [opcode: number, fin: boolean, payload: string];

const { Continuation: CONT, Text: TEXT, Ping: PING, Pong: PONG } = Opcode;

function send(t: CaseContext, frames: readonly Frame[], delivery: DeliveryMode): void {
  for (const [opcode, fin, payload] of frames) t.sendFrame({ opcode, fin, payload, ...delivery });
}

/** The peer must fail the connection (1002) without echoing anything. */
function failCase(id: string, description: string, frames: readonly Frame[], delivery: DeliveryMode, why: string): ScriptedCase {
  return defineCase({
    id,
    description,
    expectation: `The client fails the connection at once (1002, protocol error), since ${why}, and echoes nothing.`,
    expect: { OK: [] },
    close: failedByPeer([CloseCode.ProtocolError]),
    run(t) {
      send(t, frames, delivery);
      t.killAfter(1);
    },
  });
}

/** 5.1, 5.2: a control frame with FIN clear, then a continuation. */
function fragmentedControl(id: string, opcode: typeof PING | typeof PONG, name: string): ScriptedCase {
  return failCase(
    id,
    `A ${name} split into two fragments: a ${name} frame "fragment1" with FIN clear, then a continuation frame "fragment2".`,
    [
      [opcode, false, 'fragment1'],
      [CONT, true, 'fragment2'],
    ],
    Delivery.together,
    'control frames must not be fragmented',
  );
}

/** 5.3-5.5: a valid text message in two fragments. */
function twoFragments(id: string, delivery: DeliveryMode): ScriptedCase {
  return defineCase({
    id,
    description: `A text message in two fragments, "fragment1" (FIN clear) and a continuation "fragment2", ${deliveryPhrase(delivery)}.`,
    expectation: 'The client echoes the message "fragment1fragment2", then answers the fuzzer\'s close (1000) cleanly.',
    expect: { OK: [message('fragment1fragment2')] },
    close: closedByMe(),
    schedule: { cost: 1.05 },
    run(t) {
      send(
        t,
        [
          [TEXT, false, 'fragment1'],
          [CONT, true, 'fragment2'],
        ],
        delivery,
      );
      t.closeAfter(1);
    },
  });
}

/** 5.6-5.8: a valid text message in two fragments with a ping between them. */
function pingBetweenFragments(id: string, delivery: DeliveryMode): ScriptedCase {
  return defineCase({
    id,
    description: `A text message in two fragments, "fragment1" and "fragment2", with a ping "ping payload" between them, ${deliveryPhrase(delivery)}.`,
    expectation:
      'The client answers the ping with a pong "ping payload" first, then echoes the message "fragment1fragment2", then answers the fuzzer\'s close (1000) cleanly.',
    expect: { OK: [pong('ping payload'), message('fragment1fragment2')] },
    close: closedByMe(),
    run(t) {
      send(
        t,
        [
          [TEXT, false, 'fragment1'],
          [PING, true, 'ping payload'],
          [CONT, true, 'fragment2'],
        ],
        delivery,
      );
      t.closeAfter(1);
    },
  });
}

/** 5.9-5.14: a continuation frame with no message to continue, then a valid text message. */
function orphanContinuation(id: string, fin: boolean, delivery: DeliveryMode): ScriptedCase {
  return failCase(
    id,
    `A continuation frame "non-continuation payload" with FIN ${fin ? 'set' : 'clear'} while no message is open, then a text message "Hello, world!", ${deliveryPhrase(delivery)}.`,
    [
      [CONT, fin, 'non-continuation payload'],
      [TEXT, true, 'Hello, world!'],
    ],
    delivery,
    'there is no message to continue',
  );
}

/** 5.16, 5.17: twice over, a continuation with nothing to continue, then a text message in two fragments. */
function orphanThenMessageTwice(id: string, fin: boolean): ScriptedCase {
  const round: Frame[] = [
    [CONT, fin, 'fragment1'],
    [TEXT, false, 'fragment2'],
    [CONT, true, 'fragment3'],
  ];
  return failCase(
    id,
    `Twice: a continuation frame "fragment1" with FIN ${fin ? 'set' : 'clear'} while no message is open, then a text message in two fragments, "fragment2" and "fragment3".`,
    [...round, ...round],
    Delivery.together,
    'the first frame has no message to continue',
  );
}

/** 5.19, 5.20: five text fragments with a ping after the second and after the fourth, and a pause. */
function slowFragmentsWithPings(id: string, delivery: DeliveryMode): ScriptedCase {
  const fragments = ['fragment1', 'fragment2', 'fragment3', 'fragment4', 'fragment5'];
  return defineCase({
    id,
    description:
      'A text message in five fragments "fragment1" to "fragment5": the first two and a ping "pongme 1!", then one second later ' +
      'the next two, a ping "pongme 2!" and the last fragment. Everything is valid.' +
      (delivery === Delivery.perFrame ? ' Each frame is written to TCP on its own.' : ''),
    expectation:
      "The client answers the first ping before the message is complete, then the second, each pong carrying its ping's payload, " +
      "then echoes the whole message, then answers the fuzzer's close (1000) cleanly.",
    expect: { OK: [pong('pongme 1!'), pong('pongme 2!'), message(fragments.join(''))] },
    close: closedByMe(),
    schedule: { cost: 1.05, idle: true },
    async run(t) {
      send(
        t,
        [
          [TEXT, false, 'fragment1'],
          [CONT, false, 'fragment2'],
          [PING, true, 'pongme 1!'],
        ],
        delivery,
      );
      await t.pause(1);
      send(
        t,
        [
          [CONT, false, 'fragment3'],
          [CONT, false, 'fragment4'],
          [PING, true, 'pongme 2!'],
          [CONT, true, 'fragment5'],
        ],
        delivery,
      );
      t.closeAfter(1);
    },
  });
}

/** Every case of this group. */
export const fragmentationCases: readonly ScriptedCase[] = [
  fragmentedControl('5.1', PING, 'ping'),
  fragmentedControl('5.2', PONG, 'pong'),
  twoFragments('5.3', Delivery.together),
  twoFragments('5.4', Delivery.perFrame),
  twoFragments('5.5', Delivery.perOctet),
  pingBetweenFragments('5.6', Delivery.together),
  pingBetweenFragments('5.7', Delivery.perFrame),
  pingBetweenFragments('5.8', Delivery.perOctet),
  orphanContinuation('5.9', true, Delivery.together),
  orphanContinuation('5.10', true, Delivery.perFrame),
  orphanContinuation('5.11', true, Delivery.perOctet),
  orphanContinuation('5.12', false, Delivery.together),
  orphanContinuation('5.13', false, Delivery.perFrame),
  orphanContinuation('5.14', false, Delivery.perOctet),
  defineCase({
    id: '5.15',
    description:
      'A text message in two fragments, "fragment1" and "fragment2", then a continuation frame "fragment3" with FIN clear ' +
      'while no message is open, then a text message "fragment4", all written to TCP at once.',
    expectation: 'The client echoes the message "fragment1fragment2", then fails the connection (1002, protocol error), since there is no message to continue.',
    // A peer that fails before echoing the valid message (it read all frames first) is NON-STRICT.
    expect: { OK: [message('fragment1fragment2')], 'NON-STRICT': [] },
    close: failedByPeer([CloseCode.ProtocolError]),
    run(t) {
      send(
        t,
        [
          [TEXT, false, 'fragment1'],
          [CONT, true, 'fragment2'],
          [CONT, false, 'fragment3'],
          [TEXT, true, 'fragment4'],
        ],
        Delivery.together,
      );
      t.killAfter(1);
    },
  }),
  orphanThenMessageTwice('5.16', false),
  orphanThenMessageTwice('5.17', true),
  failCase(
    '5.18',
    'A text message in two fragments whose second frame is a text frame again: "fragment1" (text, FIN clear), then "fragment2" (text, FIN set).',
    [
      [TEXT, false, 'fragment1'],
      [TEXT, true, 'fragment2'],
    ],
    Delivery.together,
    'every frame after the first of a message must be a continuation frame',
  ),
  slowFragmentsWithPings('5.19', Delivery.together),
  slowFragmentsWithPings('5.20', Delivery.perFrame),
];
