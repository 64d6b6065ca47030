/**
 * Group 4 (reserved opcodes): the ws client against the original's verdicts, the table against
 * Autobahn's cases, and the frames on the wire.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { reservedOpcodeCases } from '../../src/cases/data/reserved-opcodes.js';
import type { CaseResult } from '../../src/model/report.js';
import { REFERENCE_CLIENT, fixture } from '../support/harness.js';
import { entries, get, startGroup, tf, verdictOf, wsVerdict, type GroupServer } from './group-runs.js';

const HELLO = [13, 'Hello, world!'] as const;

describe('group 4: reserved opcodes', () => {
  let g: GroupServer;
  let ws: Map<string, CaseResult>;
  let echoPeer: Map<string, CaseResult>;
  before(async () => {
    g = await startGroup(['4.*']);
    ws = await g.run(REFERENCE_CLIENT, 'ws');
    echoPeer = await g.run(fixture('accepts-rsv'), 'accepts-rsv');
  });
  after(() => g.close());

  test('10 cases in Autobahn order: opcodes 3-7, then 11-15', () => {
    assert.deepEqual(g.ids, ['4.1.1', '4.1.2', '4.1.3', '4.1.4', '4.1.5', '4.2.1', '4.2.2', '4.2.3', '4.2.4', '4.2.5']);
    assert.deepEqual(
      reservedOpcodeCases.map((c) => c.opcode),
      [3, 4, 5, 6, 7, 11, 12, 13, 14, 15],
    );
  });

  test('the ws client gets the verdicts the original gave it (OK/OK, ws fails with 1002)', () => {
    for (const id of g.ids) assert.deepEqual(verdictOf(get(ws, id)), wsVerdict(id), id);
  });

  // Each case's frames, then the close frame answering the peer's.
  test('a reserved opcode alone: 4.1.1, 4.1.2, 4.2.1, 4.2.2', () => {
    assert.deepEqual(entries(get(ws, '4.1.1'), 'TF').slice(0, 1), [tf([0, ''], 3)]);
    assert.deepEqual(entries(get(ws, '4.1.2'), 'TF').slice(0, 1), [tf([23, 'reserved opcode payload'], 4)]);
    assert.deepEqual(entries(get(ws, '4.2.1'), 'TF').slice(0, 1), [tf([0, ''], 11)]);
    assert.deepEqual(entries(get(ws, '4.2.2'), 'TF').slice(0, 1), [tf([23, 'reserved opcode payload'], 12)]);
    for (const id of ['4.1.1', '4.1.2', '4.2.1', '4.2.2']) {
      const r = get(ws, id);
      assert.deepEqual(r.expected, { OK: [] }, id);
      assert.deepEqual(r.received, [], id);
      assert.deepEqual(r.expectedClose, { closedByMe: false, closeCode: [1002], requireClean: false }, id);
      assert.deepEqual(entries(r, 'KL'), [['KL', 1]], id);
    }
  });

  test('between a text message and a ping: the echo expected first, NON-STRICT without it', () => {
    const middle: Record<string, readonly [number, string]> = {
      '4.1.3': [0, ''],
      '4.1.4': HELLO,
      '4.1.5': HELLO,
      '4.2.3': [0, ''],
      '4.2.4': HELLO,
      '4.2.5': HELLO,
    };
    for (const [id, payload] of Object.entries(middle)) {
      const r = get(ws, id);
      const opcode = reservedOpcodeCases.find((c) => c.id === id)?.opcode ?? -1;
      const d = id.endsWith('.5') ? { chopSize: 1 } : {};
      assert.deepEqual(entries(r, 'TF').slice(0, 3), [tf(HELLO, 1, d), tf(payload, opcode, d), tf([0, ''], 9, d)], id);
      assert.deepEqual(r.expected, { OK: [['message', 'Hello, world!', false]], 'NON-STRICT': [] }, id);
      assert.deepEqual(r.received, r.expected.OK, id);
    }
    // 4.1.5 and 4.2.5 write 15 + 15 + 2 bytes one at a time. ws may fail the connection as soon as
    // the reserved opcode's first two bytes are in (after 17), and the writes then stop wherever
    // the server noticed the close: at least 17 single-byte writes, at most 32.
    for (const id of ['4.1.5', '4.2.5']) {
      const single = get(ws, id).txOctetStats['1'] ?? 0;
      assert.ok(single >= 17 && single <= 32, `${id}: ${single} single-byte writes`);
    }
  });

  test('the echo peer of the fixtures (its one fault is RSV) passes every case, failing with 1002', () => {
    for (const id of g.ids) {
      assert.deepEqual(verdictOf(get(echoPeer, id)), { behavior: 'OK', behaviorClose: 'OK', remoteCloseCode: 1002 }, id);
    }
  });
});
