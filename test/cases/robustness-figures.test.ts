/**
 * The figures of the robustness profile's own verdicts: each judge fed facts just over and just
 * under its budget, the verdict, the figure it failed on (name, value, budget) and that no other is
 * over. The floods' judges (flood-judges.ts), and a scripted case's figures on their way from its
 * outcome (setOutcome) to its verdict (own-figures.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CrowdFacts, ProbeFacts } from '../../src/cases/attack-types.js';
import { judgeCrowd, judgeHugeHeader, judgePacedHead, judgeSlowloris } from '../../src/robustness/flood-judges.js';
import type { Figure, Judgement } from '../../src/cases/judgement.js';
import { withOwnFigures } from '../../src/robustness/own-figures.js';
import { robustnessServerCases } from '../../src/robustness/index.js';
import { robustnessClientCases } from '../../src/robustness/index.js';
import type { CaseContext } from '../../src/cases/types.js';
import { scriptedCase } from '../../src/cases/define.js';
import { DEFAULT_BUDGETS } from '../../src/cases/data/budgets.js';
import { budgetFigure, statedFigure } from '../../src/model/figures.js';

function probe(over: Partial<ProbeFacts>): ProbeFacts {
  return {
    label: 'p',
    size: 1,
    waitMs: 10_000,
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

/** The names of the figures a verdict failed on. */
function overNames(j: Judgement): string[] {
  return (j.figures ?? []).filter((f) => f.over).map((f) => f.name);
}

/** [name, value, budget, over] of the figure named. */
function row(j: Judgement, name: string): [string, number, number | null, boolean] | undefined {
  const f = j.figures?.find((g) => g.name === name);
  return f === undefined ? undefined : [f.name, f.value, f.budget, f.over];
}

function crowd(normal: Partial<ProbeFacts>, others: Partial<ProbeFacts> = { status: 101 }): CrowdFacts {
  return { crowd: [probe(others), probe({ status: 101 })], ready: 2, normal: probe(normal), normalFrom: null };
}

test("crowd: the normal client's 101 just past its budget (1,000 ms) fails on answer-ms alone; at it, passes", () => {
  const late = judgeCrowd('each x', crowd({ answerMs: 1001 }), false);
  assert.equal(late.behavior, 'FAILED');
  assert.deepEqual(overNames(late), ['answer-ms']);
  assert.deepEqual(row(late, 'answer-ms'), ['answer-ms', 1001, 1000, true]);
  const inTime = judgeCrowd('each x', crowd({ answerMs: 1000 }), false);
  assert.equal(inTime.behavior, 'OK');
  assert.deepEqual(overNames(inTime), []);
  assert.deepEqual(
    inTime.figures?.map((f) => [f.name, f.value]),
    [
      ['answer-ms', 1000],
      ['crowd-count', 2],
      ['ready-count', 2],
      ['crowd-answered-count', 2],
      ['crowd-unanswered-count', 0],
    ],
  );
});

test('crowd: a request of a crowd not held left unanswered fails on crowd-unanswered-count; a held crowd has no such figure', () => {
  const hung = judgeCrowd('each x', crowd({ answerMs: 5 }, { status: null, answerMs: null, ending: 'timeout' }), false);
  assert.equal(hung.behavior, 'FAILED');
  assert.deepEqual(overNames(hung), ['crowd-unanswered-count']);
  assert.deepEqual(row(hung, 'crowd-unanswered-count'), ['crowd-unanswered-count', 1, 0, true]);
  assert.deepEqual(row(hung, 'crowd-wait-ms'), ['crowd-wait-ms', 10_000, null, false]);
  const held = judgeCrowd('each x', crowd({ answerMs: 5 }, { status: null, answerMs: null, ending: 'timeout' }), true);
  assert.equal(held.behavior, 'OK');
  assert.equal(row(held, 'crowd-unanswered-count'), undefined);
});

test('a huge header: read just past 1 MiB fails on peer-read-bytes, at 1 MiB passes; refused late fails on elapsed-ms', () => {
  const refused = { status: 431, peerReadBytes: 1024 * 1024, requestBytes: 2_000_000, elapsedMs: 40 };
  const over = judgeHugeHeader([probe({ ...refused, peerReadBytes: 1024 * 1024 + 1 })]);
  assert.equal(over.behavior, 'FAILED');
  assert.deepEqual(overNames(over), ['peer-read-bytes']);
  assert.deepEqual(row(over, 'peer-read-bytes'), ['peer-read-bytes', 1024 * 1024 + 1, 1024 * 1024, true]);
  assert.deepEqual(row(over, 'request-bytes'), ['request-bytes', 2_000_000, null, false]);
  const under = judgeHugeHeader([probe(refused)]);
  assert.equal(under.behavior, 'OK');
  assert.deepEqual(overNames(under), []);
  assert.deepEqual(row(under, 'elapsed-ms'), ['elapsed-ms', 40, 5000, false]);
  const late = judgeHugeHeader([probe({ ...refused, elapsedMs: 5001 })]);
  assert.equal(late.behavior, 'FAILED');
  assert.deepEqual(overNames(late), ['elapsed-ms']);
  assert.deepEqual(row(late, 'elapsed-ms'), ['elapsed-ms', 5001, 5000, true]);
});

test('a huge header answered 101 fails for the answer, not a budget: no figure over, though it read past 1 MiB', () => {
  const took = judgeHugeHeader([probe({ status: 101, peerReadBytes: 20_000_000, requestBytes: 20_000_000, elapsedMs: 900 })]);
  assert.equal(took.behavior, 'FAILED');
  assert.match(took.result, /answered 101 after 900 ms/);
  assert.deepEqual(overNames(took), []);
  assert.deepEqual(row(took, 'peer-read-bytes'), ['peer-read-bytes', 20_000_000, 1024 * 1024, false]);
  // Where the server's socket was not seen, there is no read figure.
  assert.equal(row(judgeHugeHeader([probe({ status: 431, peerReadBytes: null })]), 'peer-read-bytes'), undefined);
});

test('a paced head: the 101 just past 1,000 ms after the last piece fails on answer-ms; at it, passes', () => {
  const late = judgePacedHead([probe({ answerMs: 1001, peerReadBytes: 1_050_000, elapsedMs: 4500 })]);
  assert.equal(late.behavior, 'FAILED');
  assert.deepEqual(overNames(late), ['answer-ms']);
  assert.deepEqual(row(late, 'answer-ms'), ['answer-ms', 1001, 1000, true]);
  assert.deepEqual(row(late, 'peer-read-bytes'), ['peer-read-bytes', 1_050_000, null, false]);
  const inTime = judgePacedHead([probe({ answerMs: 1000, elapsedMs: 4500 })]);
  assert.equal(inTime.behavior, 'OK');
  assert.deepEqual(overNames(inTime), []);
  assert.deepEqual(
    inTime.figures?.map((f) => f.name),
    ['request-bytes', 'answer-ms', 'elapsed-ms'],
  );
});

test('Slowloris: a connection held through the stall budget fails on wait-ms (over at the budget itself); dropped within it passes', () => {
  const budgets = { ...DEFAULT_BUDGETS, stallMs: 3000 };
  const held = judgeSlowloris([probe({ status: null, answerMs: null, ending: 'timeout', waitMs: 3000, requestBytes: 3 })], budgets);
  assert.equal(held.behavior, 'FAILED');
  assert.deepEqual(overNames(held), ['wait-ms']);
  assert.deepEqual(row(held, 'wait-ms'), ['wait-ms', 3000, 3000, true]);
  assert.deepEqual(row(held, 'request-bytes'), ['request-bytes', 3, null, false]);
  const dropped = judgeSlowloris([probe({ status: null, answerMs: null, ending: 'reset', elapsedMs: 2999, requestBytes: 2 })], budgets);
  assert.equal(dropped.behavior, 'OK');
  assert.deepEqual(overNames(dropped), []);
  assert.deepEqual(row(dropped, 'elapsed-ms'), ['elapsed-ms', 2999, 3000, false]);
});

const judged = (result: string): Judgement => ({ behavior: 'FAILED', result, behaviorClose: 'OK', resultClose: '' });

test("a scripted case's figures reach its verdict with its outcome (setOutcome): after the adjustment's own; none when the outcome gave none", () => {
  const pong = (n: number): Figure => budgetFigure('pong-payload-bytes', 'pongs', n, 'bytes', 10);
  const facts = (outcomeFigures?: Figure[]) => ({ connectionWasOpen: true, txFrameStats: {}, ...(outcomeFigures ? { outcomeFigures } : {}) });
  assert.deepEqual(withOwnFigures(facts([pong(11)]), judged('queued 11')).figures, [pong(11)]);
  const adjusted = withOwnFigures(facts([pong(11)]), { ...judged('replaced by adjust'), figures: [statedFigure('x-count', 'x', 1, 'count')] });
  assert.equal(adjusted.result, 'replaced by adjust');
  assert.deepEqual(
    adjusted.figures?.map((f) => f.name),
    ['x-count', 'pong-payload-bytes'],
  );
  // An outcome without figures (or a verdict whose text is not the outcome's: the engine gives none) adds none.
  const plain = judged('no figures');
  assert.equal(withOwnFigures(facts([]), plain), plain);
  assert.equal(withOwnFigures(facts(), plain).figures, undefined);
});

/** Plays a scripted case's `run` on a context whose timers fire at once and whose peer has read `reads` bytes at each look, open for `looks` of them. */
async function play(id: string, reads: number[]): Promise<Judgement> {
  const found = [...robustnessServerCases, ...robustnessClientCases].find((k) => k.id === id);
  assert.ok(found, id);
  const c = scriptedCase(found);
  let result = '';
  let figures: readonly Figure[] = [];
  let looks = 0;
  const t = {
    budgets: DEFAULT_BUDGETS,
    get isOpen() {
      return looks < reads.length;
    },
    setOutcome: (_b: string, r: string, f: readonly Figure[] = []) => {
      result = r;
      figures = f;
    },
    holdClose: () => undefined,
    sendClose: () => undefined,
    dropConnection: () => undefined,
    killAfter: () => undefined,
    continueLater: (_s: number, fn: () => void) => fn(),
    pause: async () => undefined,
    peerRead: () => reads[looks++] ?? null,
  } as unknown as CaseContext;
  await c.run(t);
  const verdict = judged(result);
  // As the case runner hands them: the verdict's text is the outcome's, so its figures come along.
  return c.adjust?.(verdict, { connectionWasOpen: true, txFrameStats: {}, outcomeFigures: figures }) ?? verdict;
}

test('scripted cases: 17.4.4 kept open past its 2,000 ms fails on held-open-ms; 18.4.2 fails on the head read just past 1 MiB, not at it', async () => {
  const kept = await play('17.4.4', []);
  assert.match(kept.result, /^The peer kept TCP open for 4 s after the closing handshake, past its budget of 2,000 ms/);
  assert.deepEqual(overNames(kept), ['held-open-ms']);
  assert.deepEqual(row(kept, 'held-open-ms'), ['held-open-ms', 4000, 2000, true]);
  const over = await play('18.4.2', [1000, 1024 * 1024 + 1]);
  assert.match(over.result, /^The client read 1,048,577 bytes of the response head \(budget 1,048,576\)/);
  assert.deepEqual(overNames(over), ['peer-read-bytes']);
  assert.deepEqual(row(over, 'peer-read-bytes'), ['peer-read-bytes', 1024 * 1024 + 1, 1024 * 1024, true]);
  const under = await play('18.4.2', [1000, 1024 * 1024]);
  assert.match(under.result, /^The client refused the response/);
  assert.equal(under.figures, undefined);
});
