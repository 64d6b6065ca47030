/**
 * The matrix's lanes: the browser rows run one after another beside the other rows (a browser plays
 * one case at a time and mostly waits on its own processes), `--no-browsers-beside` runs every row
 * after the one before. runLanes on gated tasks (side by side, one lane interrupted, a fault), then
 * a real matrix of headless Chromium and the bundled ws client: their runs overlap in time by
 * default, and do not with --no-browsers-beside; matrix.json keeps the registry's order either way,
 * and nothing of the browser is left in TMPDIR. Run from the checkout's root.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { runLanes } from '../../src/matrix/matrix.js';
import { runCliWith } from '../support/cli-env.js';
import { tempDir } from '../support/harness.js';
import { needs } from '../support/requirements.js';

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
    let unblock = (): void => {};
    const onStop = new Promise<void>((resolve) => {
      unblock = resolve;
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
          unblock();
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

interface RowSummary {
  startedAt: string;
  durationMs: number;
}

describe('wsgate matrix: the browser lane', () => {
  const window = (dir: string, key: string): [number, number] => {
    const s = JSON.parse(readFileSync(path.join(dir, key, 'summary.json'), 'utf8')) as RowSummary;
    const start = Date.parse(s.startedAt);
    return [start, start + s.durationMs];
  };
  const overlap = (a: [number, number], b: [number, number]): number => Math.min(a[1], b[1]) - Math.max(a[0], b[0]);
  /** A matrix of the two rows with a TMPDIR of its own, which holds the matrix's directory and nothing else after it. */
  const matrix = async (extra: string[]): Promise<string> => {
    const tmp = await tempDir('wsgate-lanes-');
    const out = path.join(tmp, 'm');
    const cases = ['--cases', '1.1.*', '1.2.*', '2.*'];
    const res = await runCliWith(['matrix', '--only', 'chromium', 'ws-bundled', '--role', 'client', ...cases, ...extra, '--outdir', out], {
      env: { TMPDIR: tmp },
      timeoutMs: 180_000,
    });
    assert.equal(res.code, 0, res.stderr);
    const rows = (JSON.parse(readFileSync(path.join(out, 'matrix.json'), 'utf8')) as { rows: Array<{ name: string; counts: { passed: number } }> }).rows;
    assert.deepEqual(
      rows.map((r) => `${r.name} ${r.counts.passed}`),
      ['chromium 27', 'ws-bundled 27'],
    );
    assert.deepEqual(readdirSync(tmp), ['m'], 'nothing but the matrix is left in its TMPDIR');
    return out;
  };

  test('Chromium runs beside the bundled ws client; with --no-browsers-beside after it, the rows in the registry’s order both ways', {
    skip: needs('chromium'),
  }, async () => {
    const beside = await matrix([]);
    assert.ok(overlap(window(beside, 'chromium-client'), window(beside, 'ws-bundled-client')) > 0, 'the two rows ran at the same time');
    const after = await matrix(['--no-browsers-beside']);
    assert.ok(overlap(window(after, 'chromium-client'), window(after, 'ws-bundled-client')) <= 0, 'one row after the other');
  });
});
