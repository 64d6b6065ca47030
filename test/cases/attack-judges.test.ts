/** Group 17's judges as pure functions: figures in, Autobahn's verdict words and the figures beside their budgets out. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeGrowth, judgeRefusedAtHeader, judgeSurvives } from '../../src/robustness/attack-judges.js';
import type { GrowthFacts, ProbeFacts } from '../../src/cases/attack-types.js';
import type { Figure } from '../../src/cases/judgement.js';
import { robustnessServerCases } from '../../src/robustness/index.js';

function probe(over: Partial<ProbeFacts>): ProbeFacts {
  return {
    label: 'p',
    size: 1,
    waitMs: 3000,
    requestBytes: 100,
    status: 101,
    answerMs: 1,
    closedMs: null,
    closeCode: null,
    trickled: 0,
    ending: 'closed',
    elapsedMs: 1,
    ...over,
  };
}

/** The figures a verdict failed on, by name. */
function overNames(figures: readonly Figure[] | undefined): string[] {
  return (figures ?? []).filter((f) => f.over).map((f) => f.name);
}

function figure(figures: readonly Figure[] | undefined, name: string): Figure | undefined {
  return figures?.find((f) => f.name === name);
}

function growth(times: { base: number; quarter: number; largest: number }, cap: number | null = 16_000): GrowthFacts {
  return {
    probes: [probe({ size: 16_000, answerMs: times.largest })],
    base: { size: 1, ms: times.base },
    quarter: { size: 4000, ms: times.quarter },
    largest: { size: 16_000, ms: times.largest },
    cap,
  };
}

test('growth: quadratic time over the base fails, linear passes, noise under the floor passes', () => {
  const quadratic = judgeGrowth('Sec-WebSocket-Protocol', growth({ base: 0.5, quarter: 20.5, largest: 320.5 }));
  assert.equal(quadratic.behavior, 'FAILED');
  assert.match(quadratic.result, /grew super-linearly .*16\.0× the time over a small value's for 4\.0× the size/);
  assert.match(quadratic.result, /answered 16,000 bytes of Sec-WebSocket-Protocol in 321 ms/);
  assert.equal(judgeGrowth('X', growth({ base: 0.5, quarter: 20.5, largest: 80.5 })).behavior, 'OK');
  assert.equal(judgeGrowth('X', growth({ base: 0.5, quarter: 0.6, largest: 20 })).behavior, 'OK');
});

test('growth: an answer over the budget fails; a size never answered fails; nothing taken is informational', () => {
  const slow = growth({ base: 1, quarter: 300, largest: 1200 });
  const over = judgeGrowth('X', { ...slow, probes: [probe({ size: 16_000, answerMs: 1200 })] });
  assert.equal(over.behavior, 'FAILED');
  assert.match(over.result, /after 1,200 ms \(budget 1,000 ms\)/);
  const hung = judgeGrowth('X', { ...slow, probes: [probe({ size: 8000, status: null, answerMs: null, ending: 'timeout' })] });
  assert.match(hung.result, /8,000 bytes: no answer within 3,000 ms/);
  assert.equal(judgeGrowth('X', { probes: [], base: null, largest: null, quarter: null, cap: 1000 }).behavior, 'INFORMATIONAL');
});

test('survives: an answer passes, a drop without one is NON-STRICT, no answer fails', () => {
  assert.equal(judgeSurvives([probe({ status: 431 })]).behavior, 'OK');
  assert.equal(judgeSurvives([probe({ status: null, answerMs: null, ending: 'reset' })]).behavior, 'NON-STRICT');
  assert.equal(judgeSurvives([probe({ status: null, answerMs: null, ending: 'timeout' })]).behavior, 'FAILED');
});

test('refused at the header: 1002, 1009 or a drop in time passes; another code is NON-STRICT; late or never fails', () => {
  assert.equal(judgeRefusedAtHeader([probe({ closedMs: 3, closeCode: 1009 }), probe({ closedMs: 2 })]).behavior, 'OK');
  assert.equal(judgeRefusedAtHeader([probe({ closedMs: 3, closeCode: 1000 })]).behavior, 'NON-STRICT');
  assert.equal(judgeRefusedAtHeader([probe({ closedMs: 2500, closeCode: 1009, trickled: 25_600 })]).behavior, 'FAILED');
  const kept = judgeRefusedAtHeader([probe({ label: '1 GiB', trickled: 51_200 })]);
  assert.equal(kept.behavior, 'FAILED');
  assert.match(kept.result, /1 GiB: not refused: the server kept the connection open after reading 51,200 payload bytes/);
});

test('every group-17 case quotes its RFC section and its advisory, and has an attack or is a scripted connection with an attack budget', () => {
  for (const c of robustnessServerCases) {
    assert.match(c.description, /RFC \d+ §/, c.id);
    assert.match(c.description, /CVE-\d{4}-\d+|GHSA-|#\d+/, c.id);
    assert.ok(c.attack !== undefined || c.attackBudget !== undefined, c.id);
  }
});

test("growth: the figures beside the text, the growth over a small value's over its allowance exactly when super-linear", () => {
  // Allowed: 2 (slack) × 4 (the size ratio) × 20 ms (the quarter over the base) = 160 ms.
  const over = judgeGrowth('X', growth({ base: 0.5, quarter: 20.5, largest: 161 }));
  assert.equal(over.behavior, 'FAILED');
  assert.deepEqual(overNames(over.figures), ['growth-ms']);
  assert.deepEqual(figure(over.figures, 'growth-ms'), {
    name: 'growth-ms',
    label: "the largest size's answer time over a small value's",
    value: 160.5,
    unit: 'ms',
    budget: 160,
    over: true,
  });
  const under = judgeGrowth('X', growth({ base: 0.5, quarter: 20.5, largest: 160 }));
  assert.equal(under.behavior, 'OK');
  assert.deepEqual(overNames(under.figures), []);
  assert.equal(figure(under.figures, 'growth-ms')?.value, 159.5);
  assert.deepEqual(
    under.figures?.map((f) => f.name),
    [
      'largest-bytes',
      'largest-ms',
      'quarter-bytes',
      'quarter-ms',
      'base-bytes',
      'base-ms',
      'cap-bytes',
      'slowest-answer-ms',
      'slowest-size-bytes',
      'growth-ms',
    ],
  );
  // An answer over the budget fails on it alone, however the time grew.
  const times = growth({ base: 1, quarter: 300, largest: 1001 });
  const slow = judgeGrowth('X', { ...times, probes: [probe({ size: 16_000, answerMs: 1001 })] });
  assert.deepEqual(overNames(slow.figures), ['slowest-answer-ms']);
  assert.deepEqual([figure(slow.figures, 'slowest-answer-ms')?.value, figure(slow.figures, 'slowest-answer-ms')?.budget], [1001, 1000]);
  assert.equal(judgeGrowth('X', { ...times, probes: [probe({ size: 16_000, answerMs: 1000 })] }).behavior, 'OK');
});

test('survives: each answer beside the budget, never over; the request left unanswered over on its wait', () => {
  const answered = judgeSurvives([probe({ status: 431, answerMs: 2999 }), probe({ status: 101, answerMs: 3 })]);
  assert.deepEqual(
    answered.figures?.map((f) => [f.name, f.value, f.budget, f.over]),
    [
      ['probe-1-answer-ms', 2999, 3000, false],
      ['probe-2-answer-ms', 3, 3000, false],
    ],
  );
  const hung = judgeSurvives([probe({ status: null, answerMs: null, ending: 'timeout', waitMs: 3000 })]);
  assert.equal(hung.behavior, 'FAILED');
  assert.deepEqual(overNames(hung.figures), ['wait-ms']);
  assert.equal(figure(hung.figures, 'wait-ms')?.value, 3000);
});

test('refused at the header: the close time beside the budget, over just past it; the payload read stated', () => {
  const late = judgeRefusedAtHeader([probe({ closedMs: 2001, closeCode: 1009, trickled: 25_600 })]);
  assert.equal(late.behavior, 'FAILED');
  assert.deepEqual(overNames(late.figures), ['close-ms']);
  assert.deepEqual(
    late.figures?.map((f) => [f.name, f.value, f.budget]),
    [
      ['close-ms', 2001, 2000],
      ['trickled-bytes', 25_600, null],
    ],
  );
  const inTime = judgeRefusedAtHeader([probe({ closedMs: 2000, closeCode: 1009 }), probe({ closedMs: 2 })]);
  assert.equal(inTime.behavior, 'OK');
  assert.deepEqual(
    inTime.figures?.map((f) => [f.name, f.over]),
    [
      ['probe-1-close-ms', false],
      ['probe-2-close-ms', false],
    ],
  );
});
