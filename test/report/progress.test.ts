/**
 * The console's progress lines (report/progress.ts): the counter counts cases as they finish, and a
 * line names the cases still open when nothing has finished for a while. The whole CLI's counter is
 * checked with --jobs 8 in test/run/jobs.test.ts; the stall line here, with its wait shortened.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import type { GateCase } from '../../src/model/report.js';
import { Progress } from '../../src/report/progress.js';

function sink(): { out: PassThrough; text: () => string } {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { out, text: () => text };
}

const skipped = (id: string, index: number): GateCase =>
  ({ id, index, status: 'skipped', result: null, reason: 'not run', warnings: [], timeMs: 1 }) as unknown as GateCase;

test('the counter counts finished cases, not their places; judge counts by place', () => {
  const run = sink();
  const p = new Progress(run.out, false, 3);
  for (const [id, index] of [
    ['9.1.1', 3],
    ['1.1.1', 1],
    ['2.1', 2],
  ] as const)
    p.caseDone(skipped(id, index));
  assert.deepEqual(
    run
      .text()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.slice(0, 16)),
    ['[1/3] skip 9.1.1', '[2/3] skip 1.1.1', '[3/3] skip 2.1  '],
  );
  const judged = sink();
  new Progress(judged.out, false, 3, false, { counter: 'index' }).caseDone(skipped('9.1.1', 3));
  assert.match(judged.text(), /^\[3\/3\] skip 9\.1\.1/);
});

test('nothing finished for the stall wait: one line naming the open cases, the longest first, with how long; none once they finish', async () => {
  const run = sink();
  const p = new Progress(run.out, false, 4, false, { stallMs: 200 });
  p.caseStarted(1, '9.1.6');
  await sleep(50);
  p.caseStarted(2, '9.1.5');
  p.caseDone(skipped('1.1.1', 3));
  await sleep(400);
  const stall = run
    .text()
    .split('\n')
    .filter((l) => l.includes('still running'));
  assert.ok(stall.length >= 1, run.text());
  assert.match(stall[0] as string, /^\[1\/4\] still running: 9\.1\.6 \(0 s\), 9\.1\.5 \(0 s\)$/);
  p.caseDone(skipped('9.1.6', 1));
  p.caseDone(skipped('9.1.5', 2));
  const before = run.text();
  await sleep(400);
  assert.equal(run.text(), before, 'a line though nothing is open');
  p.stop();
  // Quiet: no lines at all.
  const quiet = sink();
  const q = new Progress(quiet.out, false, 1, true, { stallMs: 20 });
  q.caseStarted(1, '1.1.1');
  await sleep(100);
  q.stop();
  assert.equal(quiet.text(), '');
});
