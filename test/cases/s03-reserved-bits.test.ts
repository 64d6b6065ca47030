/**
 * Group 3 (reserved bits): the ws client against the original's verdicts, the RSV bits and deliveries
 * on the wire, and a client that ignores RSV bits.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CaseResult } from '../../src/model/report.js';
import { REFERENCE_CLIENT, fixture } from '../support/harness.js';
import { entries, get, startGroup, tf, verdictOf, wsVerdict, type GroupServer } from './group-runs.js';

const HELLO = [13, 'Hello, world!'] as const;

describe('group 3: reserved bits', () => {
  let g: GroupServer;
  let ws: Map<string, CaseResult>;
  let acceptsRsv: Map<string, CaseResult>;
  before(async () => {
    g = await startGroup(['3.*']);
    ws = await g.run(REFERENCE_CLIENT, 'ws');
    acceptsRsv = await g.run(fixture('accepts-rsv'), 'accepts-rsv');
  });
  after(() => g.close());

  test('7 cases in Autobahn order', () => {
    assert.deepEqual(g.ids, ['3.1', '3.2', '3.3', '3.4', '3.5', '3.6', '3.7']);
  });

  test('the ws client gets the verdicts the original gave it (OK/OK, ws fails with 1002)', () => {
    for (const id of g.ids) assert.deepEqual(verdictOf(get(ws, id)), wsVerdict(id), id);
  });

  test('every case: the peer must fail the connection itself with 1002, a kill timer of 1 s', () => {
    for (const id of g.ids) {
      const r = get(ws, id);
      assert.deepEqual(r.expectedClose, { closedByMe: false, closeCode: [1002], requireClean: false }, id);
      assert.deepEqual(entries(r, 'KL'), [['KL', 1]], id);
      assert.equal(r.closedByMe, false, id);
    }
  });

  test('the frames with RSV bits, as Autobahn sends them (3.6 is a binary frame, whatever its title says)', () => {
    assert.deepEqual(entries(get(ws, '3.1'), 'TF')[0], tf(HELLO, 1, { rsv: 1 }));
    assert.deepEqual(entries(get(ws, '3.5'), 'TF')[0], tf([8, '0x00fffefdfcfb00ff'], 2, { rsv: 5 }));
    assert.deepEqual(entries(get(ws, '3.6'), 'TF')[0], tf(HELLO, 2, { rsv: 6 }));
    assert.deepEqual(entries(get(ws, '3.7'), 'TF')[0], tf([0, ''], 8, { rsv: 7 }));
    // 0xf8: FIN, RSV1-3 set, opcode 8; 0x00: unmasked, length 0.
    assert.ok(entries(get(ws, '3.7'), 'TO').some((e) => e[0] === 'TO' && e[1][1] === 'f800'));
  });

  test('3.2-3.4: an echo expected first (NON-STRICT without it), then RSV = 2, 3, 4 in the three deliveries', () => {
    const deliveries = { '3.2': {}, '3.3': { sync: true }, '3.4': { chopSize: 1 } } as const;
    for (const [id, rsv] of [
      ['3.2', 2],
      ['3.3', 3],
      ['3.4', 4],
    ] as const) {
      const r = get(ws, id);
      const d = deliveries[id];
      assert.deepEqual(entries(r, 'TF').slice(0, 3), [tf(HELLO, 1, d), tf(HELLO, 1, { ...d, rsv }), tf([0, ''], 9, d)], id);
      assert.deepEqual(r.expected, { OK: [['message', 'Hello, world!', false]], 'NON-STRICT': [] }, id);
      assert.deepEqual(r.received, r.expected.OK, id);
    }
    // Octet-wise: three frames of 15, 15 and 2 bytes, one byte per write. ws fails the connection at
    // the first octet of the second frame (RSV1), and the writes stop once the closing handshake is
    // done, as Autobahn's chops do: how many went before depends on the machine's pace (at least the
    // first frame and that octet, at most all 32).
    const octets = get(ws, '3.4').txOctetStats['1'] ?? 0;
    assert.ok(octets >= 16 && octets <= 32, `${octets} one-octet writes`);
  });

  test('a client that ignores RSV bits echoes what it should refuse: FAILED, and our kill timer closes', () => {
    const echoed: Record<string, unknown[]> = {
      '3.1': [['message', 'Hello, world!', false]],
      '3.2': [
        ['message', 'Hello, world!', false],
        ['message', 'Hello, world!', false],
        ['pong', ''],
      ],
      '3.3': [
        ['message', 'Hello, world!', false],
        ['message', 'Hello, world!', false],
        ['pong', ''],
      ],
      '3.4': [
        ['message', 'Hello, world!', false],
        ['message', 'Hello, world!', false],
        ['pong', ''],
      ],
      '3.5': [['message', '0x00fffefdfcfb00ff', true]],
      '3.6': [['message', 'Hello, world!', true]],
    };
    for (const [id, received] of Object.entries(echoed)) {
      const r = get(acceptsRsv, id);
      assert.deepEqual(r.received, received, id);
      // The peer never fails, so the kill timer fails the connection (close 1001 "Going Away"); the peer
      // echoes that code. Closed by the wrong endpoint: the closing verdict fails too.
      assert.deepEqual(verdictOf(r), { behavior: 'FAILED', behaviorClose: 'FAILED', remoteCloseCode: 1001 }, id);
      assert.equal(r.resultClose, 'The connection was failed by the wrong endpoint', id);
      assert.equal(r.closedByMe, true, id);
      assert.equal(r.failedByMe, true, id);
      assert.equal(r.localCloseCode, 1001, id);
      assert.equal(r.localCloseReason, 'Going Away', id);
      assert.equal(r.wasClean, true, id);
      assert.deepEqual(entries(r, 'KLE'), [['KLE']], id);
    }
  });

  test('the same client passes 3.7: it takes the close frame with RSV bits as a close and answers it', () => {
    // Autobahn cannot tell this from a correct peer: a close with no code is accepted in place of 1002.
    const r = get(acceptsRsv, '3.7');
    assert.deepEqual(verdictOf(r), { behavior: 'OK', behaviorClose: 'OK', remoteCloseCode: null });
    assert.equal(r.closedByMe, false);
    assert.equal(r.failedByMe, false);
    assert.equal(r.localCloseCode, 1000);
  });
});
