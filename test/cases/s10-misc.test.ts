/**
 * Group 10 (auto-fragmentation): the ws client against the original's verdict, the 51 frames on the
 * wire, and the frame-count check of 10.1.1 on its own.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { miscCases } from '../../src/cases/s10-misc.js';
import type { Judgement } from '../../src/cases/types.js';
import type { CaseResult } from '../../src/model/report.js';
import { REFERENCE_CLIENT } from '../support/harness.js';
import { entries, get, startGroup, tf, verdictOf, wsVerdict, type GroupServer } from './group-runs.js';

const STARS = `${'*'.repeat(64)} ...`;

describe('group 10: auto-fragmentation', () => {
  let g: GroupServer;
  let ws: Map<string, CaseResult>;
  before(async () => {
    g = await startGroup(['10.*']);
    ws = await g.run(REFERENCE_CLIENT, 'ws');
  });
  after(() => g.close());

  test('one case, 10.1.1', () => {
    assert.deepEqual(g.ids, ['10.1.1']);
  });

  test('the ws client gets the verdict the original gave it (OK/OK, 1000)', () => {
    assert.deepEqual(verdictOf(get(ws, '10.1.1')), wsVerdict('10.1.1'));
  });

  test('65536 bytes leave as one text frame and 50 continuations of at most 1300 bytes', () => {
    const r = get(ws, '10.1.1');
    assert.deepEqual(r.txFrameStats, { '0': 50, '1': 1, '8': 1 });
    const frames = entries(r, 'TF').slice(0, 51);
    assert.deepEqual(frames[0], tf([1300, STARS], 1, { fin: false }));
    assert.deepEqual(frames[1], tf([1300, STARS], 0, { fin: false }));
    // 65536 - 50 × 1300 = 536 bytes in the last frame.
    assert.deepEqual(frames[50], tf([536, STARS], 0));
    assert.deepEqual(entries(r, 'KL'), [['KL', 10]]);
    assert.deepEqual(r.expected, { OK: [['message', STARS, false]] });
    assert.deepEqual(r.received, r.expected.OK);
    assert.equal(r.result, 'Actual events match at least one expected.');
  });
});

describe("10.1.1's check of the frames it sent", () => {
  const c = miscCases[0];
  const passed: Judgement = {
    behavior: 'OK',
    result: 'Actual events match at least one expected.',
    behaviorClose: 'OK',
    resultClose: 'Connection was properly closed',
  };

  test('the expected counts leave the verdict alone', () => {
    assert.deepEqual(c?.adjust?.(passed, { connectionWasOpen: true, txFrameStats: { '0': 50, '1': 1, '8': 1 } }), passed);
  });

  test('other counts fail the outcome, in Autobahn words', () => {
    assert.deepEqual(c?.adjust?.(passed, { connectionWasOpen: true, txFrameStats: { '0': 51, '1': 1 } }), {
      ...passed,
      behavior: 'FAILED',
      result: 'Frames transmitted {0: 51, 1: 1} does not match what we expected {0: 50, 1: 1}.',
    });
  });

  test('a connection that never opened fails the outcome', () => {
    assert.deepEqual(c?.adjust?.(passed, { connectionWasOpen: false, txFrameStats: {} }), {
      ...passed,
      behavior: 'FAILED',
      result: 'WebSocket connection was never open',
    });
  });
});
