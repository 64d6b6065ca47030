/**
 * The matrix's lanes: the browser rows run one after another beside the other rows (a browser plays
 * one case at a time and mostly waits on its own processes), `--no-browsers-beside` runs every row
 * after the one before. runLanes on gated tasks: side by side, one lane interrupted, a fault.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { runLanes } from '../../src/matrix/matrix.js';

describe('runLanes', () => {
  test('lanes run side by side, each its items one after another', async () => {
    const log: string[] = [];
    let twoEnded = (): void => {};
    const afterTwo = new Promise<void>((resolve) => {
      twoEnded = resolve;
    });
    const task = async (i: number): Promise<boolean> => {
      log.push(`start ${i}`);
      // 10 can end only once 2 has: a matrix running its lanes one after another never would.
      if (i === 10) await afterTwo;
      else await sleep(1);
      log.push(`end ${i}`);
      if (i === 2) twoEnded();
      return true;
    };
    assert.equal(await runLanes([[1, 2], [10]], task, () => assert.fail('no fault')), true);
    assert.deepEqual(log, ['start 1', 'start 10', 'end 1', 'start 2', 'end 2', 'end 10']);
  });

  test('an interrupted item stops its lane; the result says so once the other lane ends', async () => {
    const ran: number[] = [];
    const ok = await runLanes(
      [
        [1, 2, 3],
        [10, 11],
      ],
      async (i) => {
        ran.push(i);
        await sleep(5);
        return i !== 1;
      },
      () => assert.fail('no fault'),
    );
    assert.equal(ok, false);
    assert.deepEqual(
      ran.sort((a, b) => a - b),
      [1, 10, 11],
    );
  });

  test('a fault stops the other lanes (stop() called, nothing more started) and is thrown once they ended', async () => {
    const ran: number[] = [];
    let stopped = 0;
    let otherEnded = false;
    let release = (): void => {};
    const onStop = new Promise<void>((resolve) => {
      release = resolve;
    });
    await assert.rejects(
      runLanes(
        [
          [1, 2],
          [10, 11],
        ],
        async (i) => {
          ran.push(i);
          if (i === 1) throw new Error('fault in 1');
          // The item beside it runs until the matrix stops it.
          await onStop;
          otherEnded = true;
          return true;
        },
        () => {
          stopped += 1;
          release();
        },
      ),
      /fault in 1/,
    );
    assert.equal(stopped, 1);
    assert.equal(otherEnded, true, 'the item running beside it ended before the fault was thrown');
    assert.deepEqual(
      ran.sort((a, b) => a - b),
      [1, 10],
    );
  });
});
