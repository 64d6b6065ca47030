/**
 * Group 2 (pings and pongs): the ws client against the original's verdicts, the frames and timers of
 * each case, and a client whose pongs carry the wrong payload.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CaseResult } from '../../src/model/report.js';
import { REFERENCE_CLIENT, fixture } from '../support/harness.js';
import { entries, frameKinds, get, startGroup, tf, verdictOf, wsVerdict, type GroupServer } from './group-runs.js';

const FE_125 = `0x${'fe'.repeat(64)} ...`;

describe('group 2: pings and pongs', () => {
  let g: GroupServer;
  let ws: Map<string, CaseResult>;
  let wrongPong: Map<string, CaseResult>;
  before(async () => {
    g = await startGroup(['2.*']);
    // Every case of the wrong-pong client waits for a close timer (up to 3 s): run them all at once.
    // One client at a time per core: the clients, not the groups, share the machine.
    ws = await g.run(REFERENCE_CLIENT, 'ws');
    wrongPong = await g.run(fixture('wrong-pong'), 'wrong-pong');
  });
  after(() => g.close());

  test('11 cases in Autobahn order', () => {
    assert.deepEqual(g.ids, ['2.1', '2.2', '2.3', '2.4', '2.5', '2.6', '2.7', '2.8', '2.9', '2.10', '2.11']);
  });

  test('the ws client gets the verdicts the original gave it (OK/OK; 1002 on the oversized ping)', () => {
    for (const id of g.ids) assert.deepEqual(verdictOf(get(ws, id)), wsVerdict(id), id);
  });

  test('pings with payloads, answered by pongs with the same payloads', () => {
    const cases: Array<[string, readonly [number, string], number]> = [
      ['2.1', [0, ''], 1],
      ['2.2', [13, 'Hello, world!'], 1],
      ['2.3', [8, '0x00fffefdfcfb00ff'], 1],
      ['2.4', [125, FE_125], 1],
    ];
    for (const [id, payload, closeAfter] of cases) {
      const r = get(ws, id);
      assert.deepEqual(entries(r, 'TF')[0], tf(payload, 9), id);
      assert.deepEqual(entries(r, 'TI'), [['TI', closeAfter]], id);
      assert.deepEqual(r.expected, { OK: [['pong', payload[1]]] }, id);
      assert.deepEqual(r.received, r.expected.OK, id);
      assert.deepEqual(r.expectedClose, { closedByMe: true, closeCode: [1000], requireClean: true }, id);
    }
  });

  test('2.5: a 126-byte ping; the peer must fail with 1002, a kill timer of 1 s', () => {
    const r = get(ws, '2.5');
    assert.deepEqual(entries(r, 'TF')[0], tf([126, FE_125], 9));
    assert.deepEqual(entries(r, 'KL'), [['KL', 1]]);
    assert.deepEqual(r.expected, { OK: [] });
    assert.deepEqual(r.expectedClose, { closedByMe: false, closeCode: [1002], requireClean: false });
    assert.equal(r.closedByMe, false);
  });

  test('2.6 and 2.11: pings written one byte per TCP write', () => {
    const r6 = get(ws, '2.6');
    assert.deepEqual(entries(r6, 'TF')[0], tf([125, FE_125], 9, { chopSize: 1 }));
    assert.deepEqual(entries(r6, 'TI'), [['TI', 2]]);
    // 2 header bytes + 125 payload bytes, each a write of its own.
    assert.equal(r6.txOctetStats['1'], 127);
    const r11 = get(ws, '2.11');
    // Ten frames of 2 + 9 bytes ("payload-N").
    assert.equal(r11.txOctetStats['1'], 110);
    assert.ok(
      entries(r11, 'TF')
        .slice(0, 10)
        .every((e) => e[0] === 'TF' && e[7] === 1),
    );
  });

  test('2.7-2.9: an unsolicited pong first; 2.7 and 2.8 close right after it', () => {
    assert.deepEqual(entries(get(ws, '2.7'), 'TF').slice(0, 2), [tf([0, ''], 10), tf([2, '0x03e8'], 8)]);
    const r8 = get(ws, '2.8');
    assert.deepEqual(entries(r8, 'TF').slice(0, 2), [tf([24, 'unsolicited pong payload'], 10), tf([2, '0x03e8'], 8)]);
    assert.deepEqual(r8.expected, { OK: [] });
    assert.deepEqual(frameKinds(r8), ['TF', 'TF', 'TI', 'RF']);
    const r9 = get(ws, '2.9');
    assert.deepEqual(entries(r9, 'TF').slice(0, 2), [tf([24, 'unsolicited pong payload'], 10), tf([12, 'ping payload'], 9)]);
    assert.deepEqual(r9.received, [['pong', 'ping payload']]);
  });

  test('2.10: ten pings, ten pongs in order, a close timer of 3 s', () => {
    const r = get(ws, '2.10');
    const payloads = Array.from({ length: 10 }, (_, i) => `payload-${i}`);
    assert.deepEqual(
      entries(r, 'TF').slice(0, 10),
      payloads.map((p) => tf([9, p], 9)),
    );
    assert.deepEqual(entries(r, 'TI'), [['TI', 3]]);
    assert.deepEqual(
      r.received,
      payloads.map((p) => ['pong', p]),
    );
  });

  test('a client whose pongs carry the wrong payload fails every case that pings, and closes cleanly', () => {
    for (const id of ['2.1', '2.2', '2.3', '2.4', '2.6', '2.9', '2.10', '2.11']) {
      const r = get(wrongPong, id);
      // The events never match, so the close timer closes (an empty close), and the peer answers it.
      assert.deepEqual(verdictOf(r), { behavior: 'FAILED', behaviorClose: 'OK', remoteCloseCode: null }, id);
      assert.equal(r.result, 'Actual events differ from any expected.', id);
      assert.equal(r.resultClose, 'Connection was properly closed', id);
      assert.equal(r.closedByMe, true, id);
      assert.equal(r.localCloseCode, null, id);
      assert.equal(r.wasClean, true, id);
      assert.deepEqual(entries(r, 'TIE'), [['TIE']], id);
    }
    // Inverted bytes: an empty ping gets 0xff, "Hello, world!" its complement, 0xfe bytes 0x01 bytes.
    assert.deepEqual(get(wrongPong, '2.1').received, [['pong', '0xff']]);
    assert.deepEqual(get(wrongPong, '2.2').received, [['pong', `0x${Buffer.from(Buffer.from('Hello, world!').map((b) => b ^ 0xff)).toString('hex')}`]]);
    assert.equal(get(wrongPong, '2.10').received.length, 10);
  });

  test('the same client passes the cases that send no ping it can answer wrongly', () => {
    assert.deepEqual(verdictOf(get(wrongPong, '2.5')), { behavior: 'OK', behaviorClose: 'OK', remoteCloseCode: 1002 });
    assert.deepEqual(verdictOf(get(wrongPong, '2.7')), { behavior: 'OK', behaviorClose: 'OK', remoteCloseCode: 1000 });
    assert.deepEqual(verdictOf(get(wrongPong, '2.8')), { behavior: 'OK', behaviorClose: 'OK', remoteCloseCode: 1000 });
  });
});
