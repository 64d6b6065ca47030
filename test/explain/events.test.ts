/**
 * The first divergent event: the first received event that no accepted list allows at its place,
 * whichever list (OK or NON-STRICT) went furthest, so an expected echo is never the one blamed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventFrame, firstDivergence } from '../../src/explain/events.js';
import type { ExpectedEvents, ReportEvent } from '../../src/model/report.js';
import { wireFacts } from '../../src/explain/wire-facts.js';

const text = (s: string): ReportEvent => ['message', s, false];

test('5.15: OK expects one echo, NON-STRICT none; the extra echo after the expected one diverges', () => {
  const expected: ExpectedEvents = { OK: [text('fragment1fragment2')], 'NON-STRICT': [] };
  assert.deepEqual(firstDivergence(expected, [text('fragment1fragment2'), text('fragment4')]), {
    index: 1,
    want: undefined,
    have: text('fragment4'),
  });
  // A wrong first echo diverges at once, told against OK (the first list, on a tie).
  assert.deepEqual(firstDivergence(expected, [text('fragment1'), text('fragment4')]), {
    index: 0,
    want: text('fragment1fragment2'),
    have: text('fragment1'),
  });
  // Either list, whole, is no divergence.
  assert.equal(firstDivergence(expected, [text('fragment1fragment2')]), null);
  assert.equal(firstDivergence(expected, []), null);
});

test('a list the events fall short of: the missing event, at the place they stop', () => {
  assert.deepEqual(firstDivergence({ OK: [text('a'), text('b')] }, [text('a')]), { index: 1, want: text('b'), have: undefined });
});

test("the frame of an event: a message's final frame, the case's timer marks not counted", () => {
  const facts = wireFacts({
    wirelog: [
      ['RF', [1, 'a'], 1, true, 0, true, '00000000'],
      ['RF', [1, 'b'], 1, false, 0, true, '00000000'],
      ['RF', [1, 'c'], 0, true, 0, true, '00000000'],
    ],
  });
  const received: ReportEvent[] = [text('a'), ['timeout', 'A'], text('bc')];
  assert.equal(eventFrame(facts, received, 2)?.n, 3);
  assert.equal(eventFrame(facts, received, 1), undefined);
});
