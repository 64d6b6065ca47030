/**
 * Group 5 (fragmentation): the ws client against the original's verdicts, the fragments, deliveries
 * and timers on the wire, and the fixtures' echo peer as a second, independent client.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CaseResult } from '../../src/model/report.js';
import { REFERENCE_CLIENT, fixture } from '../support/harness.js';
import { entries, frameKinds, get, startGroup, tf, verdictOf, wsVerdict, type GroupServer } from './group-runs.js';

const F1 = [9, 'fragment1'] as const;
const F2 = [9, 'fragment2'] as const;
const ONE_WRITE = {};
const PER_FRAME = { sync: true };
const PER_OCTET = { chopSize: 1 };

describe('group 5: fragmentation', () => {
  let g: GroupServer;
  let ws: Map<string, CaseResult>;
  let echoPeer: Map<string, CaseResult>;
  before(async () => {
    g = await startGroup(['5.*']);
    // 5.19 and 5.20 take two seconds each: start them first, with the rest.
    const ids = ['5.19', '5.20', ...g.ids.filter((id) => id !== '5.19' && id !== '5.20')];
    ws = await g.run(REFERENCE_CLIENT, 'ws', ids);
    echoPeer = await g.run(fixture('accepts-rsv'), 'echo-peer', ids);
  });
  after(() => g.close());

  test('20 cases in Autobahn order', () => {
    assert.deepEqual(
      g.ids,
      Array.from({ length: 20 }, (_, i) => `5.${i + 1}`),
    );
  });

  test('the ws client gets the verdicts the original gave it', () => {
    for (const id of g.ids) assert.deepEqual(verdictOf(get(ws, id)), wsVerdict(id), id);
  });

  test('the echo peer of the fixtures, written independently, gets the same verdicts', () => {
    for (const id of g.ids) assert.deepEqual(verdictOf(get(echoPeer, id)), wsVerdict(id), id);
  });

  test('5.1, 5.2: a ping and a pong with FIN clear, then a continuation', () => {
    for (const [id, opcode] of [
      ['5.1', 9],
      ['5.2', 10],
    ] as const) {
      const r = get(ws, id);
      assert.deepEqual(entries(r, 'TF').slice(0, 2), [tf(F1, opcode, { fin: false }), tf(F2, 0)], id);
      assert.deepEqual(r.expected, { OK: [] }, id);
      assert.deepEqual(r.expectedClose, { closedByMe: false, closeCode: [1002], requireClean: false }, id);
      assert.deepEqual(entries(r, 'KL'), [['KL', 1]], id);
    }
  });

  test('5.3-5.8: a valid message in two fragments (with a ping between them from 5.6), in the three deliveries', () => {
    const deliveries = [ONE_WRITE, PER_FRAME, PER_OCTET];
    for (const [i, d] of deliveries.entries()) {
      const plain = get(ws, `5.${3 + i}`);
      assert.deepEqual(entries(plain, 'TF').slice(0, 2), [tf(F1, 1, { ...d, fin: false }), tf(F2, 0, d)], plain.id);
      assert.deepEqual(plain.received, [['message', 'fragment1fragment2', false]], plain.id);
      assert.deepEqual(entries(plain, 'TI'), [['TI', 1]], plain.id);
      assert.deepEqual(plain.expectedClose, { closedByMe: true, closeCode: [1000], requireClean: true }, plain.id);
      const withPing = get(ws, `5.${6 + i}`);
      assert.deepEqual(entries(withPing, 'TF').slice(0, 3), [tf(F1, 1, { ...d, fin: false }), tf([12, 'ping payload'], 9, d), tf(F2, 0, d)], withPing.id);
      assert.deepEqual(
        withPing.received,
        [
          ['pong', 'ping payload'],
          ['message', 'fragment1fragment2', false],
        ],
        withPing.id,
      );
    }
    // Octet-wise: two frames of 2 + 9 bytes, then three of 11, 14 and 11 bytes.
    assert.equal(get(ws, '5.5').txOctetStats['1'], 22);
    assert.equal(get(ws, '5.8').txOctetStats['1'], 36);
  });

  test('5.9-5.14: a continuation with nothing to continue (FIN set, then clear), then a text message', () => {
    const cases = [
      ['5.9', true, ONE_WRITE],
      ['5.10', true, PER_FRAME],
      ['5.11', true, PER_OCTET],
      ['5.12', false, ONE_WRITE],
      ['5.13', false, PER_FRAME],
      ['5.14', false, PER_OCTET],
    ] as const;
    for (const [id, fin, d] of cases) {
      const r = get(ws, id);
      assert.deepEqual(entries(r, 'TF').slice(0, 2), [tf([24, 'non-continuation payload'], 0, { ...d, fin }), tf([13, 'Hello, world!'], 1, d)], id);
      assert.deepEqual(r.received, [], id);
      assert.equal(r.closedByMe, false, id);
    }
  });

  test('5.15-5.18: orphan continuations after or around valid fragments, and a text frame continuing a text frame', () => {
    const r15 = get(ws, '5.15');
    assert.deepEqual(entries(r15, 'TF').slice(0, 4), [tf(F1, 1, { fin: false }), tf(F2, 0), tf([9, 'fragment3'], 0, { fin: false }), tf([9, 'fragment4'], 1)]);
    assert.deepEqual(r15.expected, { OK: [['message', 'fragment1fragment2', false]], 'NON-STRICT': [] });
    assert.deepEqual(r15.received, r15.expected.OK);
    for (const [id, fin] of [
      ['5.16', false],
      ['5.17', true],
    ] as const) {
      const round = [tf(F1, 0, { fin }), tf(F2, 1, { fin: false }), tf([9, 'fragment3'], 0)];
      assert.deepEqual(entries(get(ws, id), 'TF').slice(0, 6), [...round, ...round], id);
    }
    assert.deepEqual(entries(get(ws, '5.18'), 'TF').slice(0, 2), [tf(F1, 1, { fin: false }), tf(F2, 1)]);
  });

  test('5.19, 5.20: pings within a message that pauses for a second; the first pong comes during the pause', () => {
    for (const [id, d] of [
      ['5.19', ONE_WRITE],
      ['5.20', PER_FRAME],
    ] as const) {
      const r = get(ws, id);
      const frag = (n: number, fin = false): ReturnType<typeof tf> => tf([9, `fragment${n}`], n === 1 ? 1 : 0, { ...d, fin });
      assert.deepEqual(
        entries(r, 'TF').slice(0, 7),
        [frag(1), frag(2), tf([9, 'pongme 1!'], 9, d), frag(3), frag(4), tf([9, 'pongme 2!'], 9, d), frag(5, true)],
        id,
      );
      assert.deepEqual(entries(r, 'CT'), [['CT', 1, null]], id);
      assert.deepEqual(entries(r, 'CTE'), [['CTE', null]], id);
      // The pong (an RX FRAME) is logged between the timer's start and its end.
      const kinds = frameKinds(r);
      assert.deepEqual(kinds.slice(0, 6), ['TF', 'TF', 'TF', 'CT', 'RF', 'CTE'], id);
      assert.ok(kinds.indexOf('TI') > kinds.indexOf('CTE'), id);
      assert.deepEqual(
        r.received,
        [
          ['pong', 'pongme 1!'],
          ['pong', 'pongme 2!'],
          ['message', 'fragment1fragment2fragment3fragment4fragment5', false],
        ],
        id,
      );
      assert.ok(r.duration >= 1000, `${id} took ${r.duration} ms`);
    }
  });
});
