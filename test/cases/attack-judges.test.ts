/** Group 17's judges as pure functions: figures in, Autobahn's verdict words and the figures beside their budgets out. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeGrowth, judgeRefusedAtHeader, judgeSurvives } from '../../src/cases/attack-judges.js';
import type { GrowthFacts, ProbeFacts } from '../../src/cases/attack-types.js';
import { robustnessServerCases } from '../../src/cases/s17-robustness-server.js';

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
