/**
 * Group 9: limits and performance. Big messages (up to 16 MiB, in one frame, in up to 65537 fragments,
 * or written to TCP 64 bytes at a time) and runs of 1000 small messages, each to be echoed within the
 * case's time limit (Autobahn's WAITSECS). The cases judge the echoes themselves, by type and length
 * only; the frame log is off during the bulk transfer, and the summary shows how long each case took.
 *
 * RFC 6455 §5.4: "The primary purpose of fragmentation is to allow sending a message that is of
 * unknown size when the message is started without having to buffer that message." §10.4:
 * "Implementations that have implementation- and/or platform-specific limitations regarding the frame
 * size or total message size after reassembly from multiple frames MUST protect themselves against
 * exceeding those limits."
 */
import { CloseCode, Opcode } from '../protocol/constants.js';
import { Behavior, type OutcomeVerdict } from '../model/verdicts.js';
import {
  BINARY_PATTERN,
  CHOPPED_LENGTH,
  CHOPPED_WAITSECS,
  FRAGMENTED_LENGTH,
  FRAGMENTED_WAITSECS,
  TEXT_PATTERN,
  binaryChopSizes,
  binaryFragmentSizes,
  binarySizes,
  roundTrips,
  textChopSizes,
  textFragmentSizes,
  textSizes,
  type ChopRow,
  type FragmentRow,
  type RoundTripRow,
  type SizeRow,
} from './data/limits.js';
import { closedByMe, defineCase } from './define.js';
import type { CaseContext, ScriptedCase } from './types.js';

/** A size as the descriptions name it ("64 KiB", "4 MiB", "64 bytes"). */
function sizeName(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function kindOf(binary: boolean): string {
  return binary ? 'binary' : 'text';
}

/** Rough loopback throughput of a prompt client, for the scheduling estimate (`cost`) only. */
const LOOPBACK_BYTES_PER_SECOND = 200e6;
/** Rough time of one small-message round trip, for the same estimate. */
const ROUND_TRIP_SECONDS = 0.0002;

/**
 * The outcome so far, per connection: Autobahn sets `behavior` only when an echo is right, and
 * replaces `result` on every echo, so a later wrong echo keeps an earlier OK with the newer text.
 */
const behaviors = new WeakMap<CaseContext, OutcomeVerdict>();

function setResult(t: CaseContext, result: string, behavior?: OutcomeVerdict): void {
  const b = behavior ?? behaviors.get(t) ?? Behavior.Failed;
  behaviors.set(t, b);
  t.setOutcome(b, result);
}

// ---- 9.1-9.6: one big message, one echo ----

/** What one single-echo case sends and how long the peer has. */
interface BigMessage {
  id: string;
  description: string;
  binary: boolean;
  length: number;
  waitSecs: number;
  /** Autobahn's text for an echo of the wrong type (9.4.x repeat "binary" where "text" is meant). */
  wrongType: string;
  send(t: CaseContext): void;
}

function wrongTypeText(binary: boolean): string {
  return binary ? 'Expected binary message with payload, but got text.' : 'Expected text message with payload, but got binary.';
}

function bigMessageCase(m: BigMessage): ScriptedCase {
  const kind = kindOf(m.binary);
  return defineCase({
    id: m.id,
    description: m.description,
    expectation:
      `The client echoes a ${kind} message of ${m.length} bytes within ${m.waitSecs} s (only type and length are checked), ` +
      `then answers the fuzzer's close (1000) cleanly.`,
    expect: {},
    close: closedByMe([CloseCode.Normal]),
    reportTime: true,
    schedule: { maxSeconds: m.waitSecs + 2, runsAlone: true, cost: 0.1 + (2 * m.length) / LOOPBACK_BYTES_PER_SECOND },
    run(t) {
      // The frame log stays silent about the bulk transfer (no WLM entry, as Autobahn's createWirelog).
      t.setWirelog(false, { silent: true });
      setResult(t, `Did not receive message within ${m.waitSecs} seconds.`, Behavior.Failed);
      m.send(t);
      t.closeAfter(m.waitSecs);
    },
    messageLengthOnly: true,
    onMessage(t, _data, binary, length) {
      if (binary !== m.binary) setResult(t, m.wrongType);
      else if (length !== m.length) setResult(t, `Expected ${kind} message with payload of length ${m.length}, but got ${length}.`);
      else setResult(t, `Received ${kind} message of length ${length}.`, Behavior.Ok);
      t.setWirelog(true, { silent: true });
      t.sendClose(CloseCode.Normal);
    },
  });
}

/** 9.1.x / 9.2.x: the pattern repeated to the full length, in a single frame. */
function sizeCases(): ScriptedCase[] {
  const family = (binary: boolean) => (row: SizeRow) =>
    bigMessageCase({
      id: row.id,
      binary,
      length: row.length,
      waitSecs: row.waitSecs,
      description: binary
        ? `A binary message of ${sizeName(row.length)} (${row.length} bytes: 00 fe 23 fa f0 repeated), in one frame.`
        : `A text message of ${sizeName(row.length)} (${row.length} bytes: "${TEXT_PATTERN}" repeated), in one frame.`,
      wrongType: wrongTypeText(binary),
      send: (t) =>
        t.sendFrame({
          opcode: binary ? Opcode.Binary : Opcode.Text,
          payload: binary ? BINARY_PATTERN : TEXT_PATTERN,
          payloadLen: row.length,
        }),
    });
  return [...textSizes.map(family(false)), ...binarySizes.map(family(true))];
}

/** 9.3.x / 9.4.x: 4 MiB sent as a well-formed fragmented message. */
function fragmentCases(): ScriptedCase[] {
  const family = (binary: boolean) => (row: FragmentRow) => {
    const frames = Math.floor(FRAGMENTED_LENGTH / row.fragmentSize) + 1;
    const split =
      row.fragmentSize >= FRAGMENTED_LENGTH
        ? 'in one frame (the fragment size is the whole message)'
        : `in frames of ${sizeName(row.fragmentSize)}: ${frames - 1} full frames and an empty final frame`;
    return bigMessageCase({
      id: row.id,
      binary,
      length: FRAGMENTED_LENGTH,
      waitSecs: FRAGMENTED_WAITSECS,
      description: `A ${kindOf(binary)} message of 4 MiB (${row.fill === 0x2a ? '"*"' : `the byte 0x${row.fill.toString(16)}`} repeated), ${split}.`,
      // Autobahn's 9.4.x report a text echo as "got binary".
      wrongType: binary ? 'Expected binary message with payload, but got binary.' : wrongTypeText(false),
      send: (t) => t.sendMessage(Buffer.alloc(FRAGMENTED_LENGTH, row.fill), { binary, fragmentSize: row.fragmentSize }),
    });
  };
  return [...textFragmentSizes.map(family(false)), ...binaryFragmentSizes.map(family(true))];
}

/** 9.5.x / 9.6.x: 1 MiB in one frame, its bytes written to TCP a few at a time. */
function chopCases(): ScriptedCase[] {
  const family = (binary: boolean) => (row: ChopRow) =>
    bigMessageCase({
      id: row.id,
      binary,
      length: CHOPPED_LENGTH,
      waitSecs: CHOPPED_WAITSECS,
      description:
        `A ${kindOf(binary)} message of 1 MiB (${binary ? '00 fe 23 fa f0' : `"${TEXT_PATTERN}"`} repeated) in one frame, ` +
        `written to TCP in chops of ${row.chopSize} bytes, each after the previous one was flushed.`,
      wrongType: wrongTypeText(binary),
      send: (t) =>
        t.sendFrame({
          opcode: binary ? Opcode.Binary : Opcode.Text,
          payload: binary ? BINARY_PATTERN : TEXT_PATTERN,
          payloadLen: CHOPPED_LENGTH,
          chopSize: row.chopSize,
        }),
    });
  return [...textChopSizes.map(family(false)), ...binaryChopSizes.map(family(true))];
}

// ---- 9.7-9.8: 1000 round trips ----

/** Messages sent so far, per connection. */
const sentCounts = new WeakMap<CaseContext, number>();

function roundTripCase(id: string, row: RoundTripRow, binary: boolean): ScriptedCase {
  const kind = kindOf(binary);
  const sendOne = (t: CaseContext): void => {
    t.sendFrame(
      binary ? { opcode: Opcode.Binary, payload: Uint8Array.of(0xfe), payloadLen: row.length } : { opcode: Opcode.Text, payload: '*', payloadLen: row.length },
    );
    sentCounts.set(t, (sentCounts.get(t) ?? 0) + 1);
  };
  const finish = (t: CaseContext, behavior: OutcomeVerdict, result: string): void => {
    setResult(t, result, behavior);
    t.setWirelog(true);
    t.sendClose(CloseCode.Normal);
  };
  const messages =
    row.length === 0
      ? `${row.count} empty ${kind} messages`
      : `${row.count} ${kind} messages of ${row.length} bytes (${binary ? 'the byte 0xfe' : '"*"'} repeated)`;
  return defineCase({
    id,
    description: `${messages}, one at a time: each is sent once the previous one came back, to measure the round trip time.`,
    expectation: `The client echoes every ${kind} message with its length, all ${row.count} within ${row.waitSecs} s, then answers the fuzzer's close (1000) cleanly.`,
    expect: {},
    close: closedByMe([CloseCode.Normal]),
    reportTime: true,
    schedule: { maxSeconds: row.waitSecs + 2, runsAlone: true, cost: 0.1 + row.count * (ROUND_TRIP_SECONDS + (2 * row.length) / LOOPBACK_BYTES_PER_SECOND) },
    run(t) {
      // Logged as a WLM entry (Autobahn's enableWirelog).
      t.setWirelog(false);
      setResult(t, `Case did not finish within ${row.waitSecs} seconds.`, Behavior.Failed);
      t.closeAfter(row.waitSecs);
      sentCounts.set(t, 0);
      sendOne(t);
    },
    messageLengthOnly: true,
    onMessage(t, _data, isBinary, length) {
      if (isBinary !== binary || length !== row.length) {
        // Python prints the flag as True/False.
        const flag = isBinary ? 'True' : 'False';
        finish(t, Behavior.Failed, `Echo'ed message type or length differs from what I sent (got binary = ${flag}, payload length = ${length}).`);
      } else if ((sentCounts.get(t) ?? 0) < row.count) {
        sendOne(t);
      } else {
        finish(t, Behavior.Ok, "Ok, received all echo'ed messages in time.");
      }
    },
  });
}

/** Every case of this group, 9.1.1 to 9.8.6. */
export const limitsCases: readonly ScriptedCase[] = [
  ...sizeCases(),
  ...fragmentCases(),
  ...chopCases(),
  ...roundTrips.map((row) => roundTripCase(row.textId, row, false)),
  ...roundTrips.map((row) => roundTripCase(row.binaryId, row, true)),
];
