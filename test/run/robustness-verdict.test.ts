/**
 * A robustness case's one verdict (play/attack-figures.ts judgeRobustness): the facts in, the
 * outcome, its text and its figures out, each fact able to fail the case on its own, the failing
 * figure marked. Pure: no sockets here; the drivers' facts are tested over TCP in test/robustness/.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_BUDGETS } from '../../src/cases/data/budgets.js';
import type { AttackBudget } from '../../src/cases/types.js';
import { statedFigure } from '../../src/model/figures.js';
import { judgeRobustness, type AttackRecord, type PeerMemory } from '../../src/play/attack-figures.js';

const MiB = 1024 * 1024;
const attack: AttackBudget = { advisory: 'CVE-2024-0001: a test', closeWithinMs: 2000 };
const own = (behavior: 'OK' | 'NON-STRICT' | 'FAILED' | 'UNIMPLEMENTED', figures = [statedFigure('echoed-bytes', 'echoed', 10, 'bytes')]): AttackRecord => ({
  own: { behavior, result: 'The peer refused it.', figures },
  connection: { durationMs: 150, sentBytes: 4096, droppedByMe: false, closedByMe: false },
});
const memory = (growthMiB: number, ended?: string[]): PeerMemory & { measured: true } => ({
  measured: true,
  baselineBytes: 50 * MiB,
  peakBytes: (50 + growthMiB) * MiB,
  growthBytes: growthMiB * MiB,
  samples: 12,
  ...(ended === undefined ? {} : { ended }),
});
const names = (figures: readonly { name: string; over: boolean }[]): string[] => figures.filter((f) => f.over).map((f) => f.name);

test('within every budget: the own verdict stands, the figures follow it in order, none over', () => {
  const v = judgeRobustness(attack, own('OK'), { memory: memory(3) }, DEFAULT_BUDGETS, 32 * MiB);
  assert.equal(v.behavior, 'OK');
  assert.match(
    v.result,
    /^The peer refused it\. Measured: the connection ended 150 ms .*budget 2,000 ms; the peer ended it\).*wsgate had written 4,096 bytes.*Measured: the peer's process tree grew by 3 MiB at its peak \(budget 32 MiB/,
  );
  assert.deepEqual(
    v.figures.map((f) => [f.name, f.value, f.budget]),
    [
      ['echoed-bytes', 10, null],
      ['connection-ms', 150, 2000],
      ['sent-bytes', 4096, null],
      ['memory-growth-bytes', 3 * MiB, 32 * MiB],
    ],
  );
  assert.deepEqual(names(v.figures), []);
});

test('each fact fails the case by itself, and the figure it failed on is the one marked over', () => {
  const late = judgeRobustness(
    attack,
    { ...own('OK'), connection: { durationMs: 2500, sentBytes: 1, droppedByMe: true, closedByMe: false } },
    { memory: memory(1) },
  );
  assert.equal(late.behavior, 'FAILED');
  assert.match(late.result, /^Over budget: the peer had not ended the connection 2,000 ms after the attack began\./);
  assert.deepEqual(names(late.figures), ['connection-ms']);

  const grew = judgeRobustness(attack, own('NON-STRICT'), { memory: memory(40) }, DEFAULT_BUDGETS, 32 * MiB);
  assert.equal(grew.behavior, 'FAILED');
  assert.match(grew.result, /^Over budget: the peer's process tree grew by 40 MiB at its peak \(budget 32 MiB/);
  assert.deepEqual(names(grew.figures), ['memory-growth-bytes']);

  const worker = judgeRobustness(attack, own('NON-STRICT'), { memory: memory(1, ['pid 42, node']) });
  assert.equal(worker.behavior, 'FAILED');
  assert.match(worker.result, /^A process of the peer's tree \(pid 42, node\) ended during the case while its root process lived on/);
  assert.deepEqual(names(worker.figures), ['tree-deaths']);

  const down = judgeRobustness(attack, own('OK'), {
    memory: null,
    liveness: { down: 'the server under test died', next: 'it is restarted for the next case' },
  });
  assert.equal(down.behavior, 'FAILED');
  assert.match(
    down.result,
    / Afterwards the server under test died; it is restarted for the next case\. The peer's memory was not measured \(wsgate did not start it\)\.$/,
  );

  const crashed = judgeRobustness(attack, own('OK'), { memory: null, crash: { how: 'exited with status 1: TypeError', when: 'before its close' } });
  assert.equal(crashed.behavior, 'FAILED');
  assert.match(
    crashed.result,
    /^the client process died before its close \(CVE-2024-0001\): it exited with status 1: TypeError\. The case's own verdict was OK: /,
  );

  const cut = judgeRobustness(attack, { ...own('OK'), connection: null }, { memory: null, cutAtS: 30 });
  assert.equal(cut.behavior, 'FAILED');
  assert.match(cut.result, /^The attack did not end within the case's limit of 30 s/);
});

test('a case that failed on its own keeps its reason first; memory over budget follows as "Also over budget"', () => {
  const failedOwn = own('FAILED', [{ name: 'peer-read-bytes', label: 'read', value: 5 * MiB, unit: 'bytes', budget: MiB, over: true }]);
  const v = judgeRobustness(attack, failedOwn, { memory: memory(50) }, DEFAULT_BUDGETS, 32 * MiB);
  assert.equal(v.behavior, 'FAILED');
  assert.match(v.result, /^The peer refused it\. .* Also over budget: the peer's process tree grew by 50 MiB/);
  assert.deepEqual(names(v.figures), ['peer-read-bytes', 'memory-growth-bytes']);
});

test("judging twice from the same record gives the same verdict (the record is the case's own, never the amended text)", () => {
  const record = own('OK');
  const peer = { memory: memory(2), liveness: { down: null, processAlive: true } } as const;
  assert.deepEqual(judgeRobustness(attack, record, peer), judgeRobustness(attack, record, peer));
});

test('UNIMPLEMENTED gets no connection figures, and the stall budget replaces the scaled close budget for a stall', () => {
  const v = judgeRobustness(attack, own('UNIMPLEMENTED'), { memory: null });
  assert.equal(v.behavior, 'UNIMPLEMENTED');
  assert.deepEqual(
    v.figures.map((f) => f.name),
    ['echoed-bytes'],
  );
  const stall = judgeRobustness({ ...attack, stall: true }, own('OK'), { memory: null }, { ...DEFAULT_BUDGETS, stallMs: 4000, timeScale: 3 });
  assert.equal(stall.figures.find((f) => f.name === 'connection-ms')?.budget, 4000);
  const scaled = judgeRobustness(attack, own('OK'), { memory: null }, { ...DEFAULT_BUDGETS, timeScale: 3 });
  assert.equal(scaled.figures.find((f) => f.name === 'connection-ms')?.budget, 6000);
});

test('a case with a CPU budget: its figure judged (over: FAILED, first unless the case failed already); unmeasured, the text says the answer alone judged it', () => {
  const spent = (cpuMs: number): PeerMemory => ({ ...memory(1), cpuMs });
  const within = judgeRobustness(null, { ...own('OK'), connection: null }, { memory: spent(400) }, DEFAULT_BUDGETS, 32 * MiB, 1000);
  assert.equal(within.behavior, 'OK');
  assert.match(within.result, /Measured: the peer's process tree spent 400 ms of CPU time over the case \(budget 1,000 ms\)\.$/);
  const over = judgeRobustness(null, { ...own('OK'), connection: null }, { memory: spent(3700) }, DEFAULT_BUDGETS, 32 * MiB, 1000);
  assert.equal(over.behavior, 'FAILED');
  assert.match(over.result, /^Over budget: the peer's process tree spent 3,700 ms of CPU time over the case \(budget 1,000 ms\)\. The peer refused it\./);
  assert.deepEqual(names(over.figures), ['cpu-ms']);
  const unmeasured = judgeRobustness(null, { ...own('OK'), connection: null }, { memory: null }, DEFAULT_BUDGETS, 32 * MiB, 1000);
  assert.equal(unmeasured.behavior, 'OK');
  assert.match(unmeasured.result, /Its CPU time was not measured either: the case is judged on the answer alone\.$/);
  // Without a CPU budget, nothing is said of CPU.
  assert.doesNotMatch(judgeRobustness(null, own('OK'), { memory: spent(9000) }).result, /CPU/);
});
