/** The scheduling rules of concurrent and sharded runs, as pure functions (no sockets). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { catalogue } from '../../src/catalogue/registry.js';
import { matrixJobs, parseShard } from '../../src/config/parallel.js';
import { caseCost, runOrder, runPool, shardCases } from '../../src/run/schedule.js';

describe('parseShard', () => {
  test('reads K/N', () => {
    assert.deepEqual(parseShard('2/4'), { index: 2, count: 4 });
    assert.deepEqual(parseShard(' 1 / 1 '), { index: 1, count: 1 });
  });
  for (const bad of ['0/4', '5/4', '1/0', '2', 'a/b', '1/2/3', '-1/4', '1/1001']) {
    test(`refuses ${JSON.stringify(bad)} with a reason naming --shard`, () => {
      const r = parseShard(bad);
      assert.equal(typeof r, 'string');
      assert.match(r as string, /--shard/);
    });
  }
});

describe('matrixJobs', () => {
  test('a matrix row runs two cases per core, at least 1 and at most 8', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 16].map(matrixJobs), [2, 4, 6, 8, 8, 8]);
    assert.equal(matrixJobs(0), 1);
  });
});

describe('shardCases', () => {
  const costs = fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { maxLength: 60 });
  test('the shards partition the selection, each in catalogue order, the same way every time', () => {
    fc.assert(
      fc.property(costs, fc.integer({ min: 1, max: 9 }), (cs, n) => {
        const cases = cs.map((cost, i) => ({ id: `c${i}`, schedule: { cost } }));
        const shards = Array.from({ length: n }, (_, k) => shardCases(cases, { index: k + 1, count: n }));
        const all = shards
          .flat()
          .map((c) => c.id)
          .sort();
        assert.deepEqual(all, cases.map((c) => c.id).sort());
        for (const [k, s] of shards.entries()) {
          const positions = s.map((c) => cases.indexOf(c));
          assert.deepEqual(
            positions,
            [...positions].sort((a, b) => a - b),
          );
          assert.deepEqual(shardCases(cases, { index: k + 1, count: n }), s);
        }
      }),
    );
  });
  test('no shard is longer than the mean plus the longest case (the greedy bound)', () => {
    fc.assert(
      fc.property(costs, fc.integer({ min: 1, max: 9 }), (cs, n) => {
        const cases = cs.map((cost, i) => ({ id: `c${i}`, schedule: { cost } }));
        const total = cs.reduce((a, b) => a + b, 0);
        const longest = Math.max(0, ...cs);
        for (let k = 1; k <= n; k++) {
          const load = shardCases(cases, { index: k, count: n }).reduce((a, c) => a + caseCost(c), 0);
          assert.ok(load <= total / n + longest + 1e-6, `shard ${k}/${n}: ${load} > ${total / n} + ${longest}`);
        }
      }),
    );
  });
  test('the whole catalogue in 4 shards: every shard within 10 % of a quarter of the expected time', () => {
    const total = catalogue.reduce((a, c) => a + caseCost(c), 0);
    for (let k = 1; k <= 4; k++) {
      const load = shardCases(catalogue, { index: k, count: 4 }).reduce((a, c) => a + caseCost(c), 0);
      assert.ok(Math.abs(load - total / 4) <= 0.1 * (total / 4), `shard ${k}/4: ${load.toFixed(1)} s of ${total.toFixed(1)} s`);
    }
  });
});

describe('runOrder', () => {
  test('one job: the catalogue order', () => {
    const order = runOrder(catalogue, 1);
    assert.deepEqual(
      order,
      catalogue.map((_, i) => i),
    );
  });
  test('several jobs: the cases that run alone first, then the rest longest first, each case once', () => {
    const order = runOrder(catalogue, 4);
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      catalogue.map((_, i) => i),
    );
    const alone = order.filter((i) => catalogue[i]?.schedule?.runsAlone === true);
    assert.ok(alone.length > 0);
    assert.deepEqual(order.slice(0, alone.length), alone);
    const rest = order.slice(alone.length).map((i) => caseCost(catalogue[i] as (typeof catalogue)[number]));
    assert.deepEqual(
      rest,
      [...rest].sort((a, b) => b - a),
    );
  });
  test('group 9 and the per-octet races (3.4, 4.1.5, 4.2.5) run alone, and no other case', () => {
    const races = new Set(['3.4', '4.1.5', '4.2.5']);
    for (const c of catalogue) assert.equal(c.schedule?.runsAlone === true, c.id.startsWith('9.') || races.has(c.id), c.id);
  });
});

describe('runPool', () => {
  const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  test('never more than `jobs` at once, and an item that runs alone never overlaps another', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 3 })), { maxLength: 30 }),
        fc.integer({ min: 1, max: 5 }),
        async (items, jobs) => {
          let running = 0;
          let aloneRunning = false;
          let peak = 0;
          const started: number[] = [];
          await runPool(
            items.map((_, i) => i),
            jobs,
            (i) => items[i]?.[0] === true,
            () => false,
            async (i) => {
              const [alone, ticks] = items[i] as [boolean, number];
              assert.ok(!aloneRunning, 'something started beside a case that runs alone');
              if (alone) assert.equal(running, 0, 'a case that runs alone started beside others');
              running++;
              aloneRunning = alone;
              peak = Math.max(peak, running);
              started.push(i);
              for (let t = 0; t < ticks; t++) await tick();
              running--;
              if (alone) aloneRunning = false;
            },
          );
          assert.ok(peak <= jobs);
          assert.deepEqual(
            started,
            items.map((_, i) => i),
          );
        },
      ),
    );
  });
  test('idle items run beside `jobs` working ones without a slot, never beside one that runs alone; with one job nothing overlaps', async () => {
    const kind = fc.constantFrom('work', 'idle', 'alone');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(kind, fc.integer({ min: 0, max: 3 })), { maxLength: 30 }), fc.integer({ min: 1, max: 5 }), async (items, jobs) => {
        let working = 0;
        let all = 0;
        let aloneRunning = false;
        let peakWorking = 0;
        let peakAll = 0;
        await runPool(
          items.map((_, i) => i),
          jobs,
          (i) => items[i]?.[0] === 'alone',
          () => false,
          async (i) => {
            const [k, ticks] = items[i] as [string, number];
            assert.ok(!aloneRunning, 'something started beside a case that runs alone');
            if (k === 'alone') assert.equal(all, 0, 'a case that runs alone started beside others');
            all++;
            if (k !== 'idle') working++;
            aloneRunning = k === 'alone';
            peakWorking = Math.max(peakWorking, working);
            peakAll = Math.max(peakAll, all);
            for (let t = 0; t < ticks; t++) await tick();
            all--;
            if (k !== 'idle') working--;
            if (k === 'alone') aloneRunning = false;
          },
          (i) => items[i]?.[0] === 'idle',
        );
        if (jobs === 1) assert.ok(peakAll <= 1, 'with one job nothing overlaps, idle or not');
        else assert.ok(peakWorking <= jobs);
      }),
    );
    // Two jobs, two working items of 3 ticks and four idle ones: all six run at once.
    let concurrent = 0;
    let peak = 0;
    await runPool(
      [0, 1, 2, 3, 4, 5],
      2,
      () => false,
      () => false,
      async () => {
        concurrent++;
        peak = Math.max(peak, concurrent);
        for (let t = 0; t < 3; t++) await tick();
        concurrent--;
      },
      (i) => i >= 2,
    );
    assert.equal(peak, 6);
  });
  test('the idle cases are exactly those whose time is their own pauses: 5.19, 5.20, 6.4.1-6.4.4', () => {
    assert.deepEqual(
      catalogue.filter((c) => c.schedule?.idle === true).map((c) => c.id),
      ['5.19', '5.20', '6.4.1', '6.4.2', '6.4.3', '6.4.4'],
    );
  });
  test('stops starting items once asked to, and rethrows a task error after the others settle', async () => {
    const started: number[] = [];
    await runPool(
      [0, 1, 2, 3],
      1,
      () => false,
      () => started.length >= 2,
      async (i) => {
        started.push(i);
      },
    );
    assert.deepEqual(started, [0, 1]);
    let settled = 0;
    await assert.rejects(
      runPool(
        [0, 1, 2],
        2,
        () => false,
        () => false,
        async (i) => {
          await tick();
          if (i === 0) throw new Error('boom');
          settled++;
        },
      ),
      /boom/,
    );
    assert.equal(settled, 1);
  });
});
