/**
 * The process-tree memory sampler against real processes: a grandchild that allocates 200 MiB under a
 * shell is counted in its root's tree (the root itself stays small), a tree that does nothing grows by
 * next to nothing, steady() waits out a process's growth, and a process that is gone or never started
 * is said so, never thrown.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { placesPeak, TreeMemory } from '../../src/processes/tree-memory.js';

const MiB = 1024 * 1024;

/**
 * A shell whose grandchild (a second shell's node) allocates `mib` MiB after `delayMs`, then waits to
 * be killed. `started` resolves when the grandchild has started (its line on the shared stdout), and
 * `allocated` when its allocation is done: a window opened after `started` does not see Node's own
 * start-up, however slowly a busy machine starts it.
 */
function allocatingTree(mib: number, delayMs: number): { pid: number | undefined; started: Promise<void>; allocated: Promise<void>; kill: () => void } {
  const script = `console.log('started'); setTimeout(() => { globalThis.kept = Buffer.alloc(${mib} * 1024 * 1024, 1); console.log('allocated'); }, ${delayMs}); setTimeout(() => undefined, 60000);`;
  // "; true" keeps each shell alive as the parent of the next process (no exec of the last command).
  const inner = `'${process.execPath}' -e "${script}"; true`;
  const child = spawn('sh', ['-c', `sh -c '${inner.replace(/'/g, `'\\''`)}'; true`], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
  let said = '';
  const saying = (word: string): Promise<void> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (said.includes(word)) resolve();
      };
      child.stdout.on('data', (d: Buffer) => {
        said += d.toString();
        check();
      });
      check();
    });
  return {
    pid: child.pid,
    started: saying('started'),
    allocated: saying('allocated'),
    kill: () => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // Already gone.
      }
    },
  };
}

test('a grandchild allocating 200 MiB under two shells: the tree grows by about that much', async (t) => {
  const tree = allocatingTree(200, 1500);
  const sampler = TreeMemory.start(tree.pid);
  try {
    // Node's start-up in the grandchild happens before the window opens.
    await tree.started;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const window = sampler.window();
    await tree.allocated;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const figure = window.close();
    assert.ok(figure.measured, JSON.stringify(figure));
    t.diagnostic(`baseline ${(figure.baselineBytes / MiB).toFixed(1)} MiB, peak ${(figure.peakBytes / MiB).toFixed(1)} MiB, ${figure.samples} samples`);
    assert.ok(figure.growthBytes >= 190 * MiB, `grew by ${figure.growthBytes / MiB} MiB`);
    assert.ok(figure.growthBytes <= 300 * MiB, `grew by ${figure.growthBytes / MiB} MiB`);
    assert.ok(figure.samples >= 5, `${figure.samples} samples in 2.5 s`);
    // The root (a shell) holds little of it: the grandchild was counted.
    const rootKb = Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${tree.pid}/status`, 'utf8'))?.[1]);
    assert.ok(rootKb * 1024 < 20 * MiB, `the root shell holds ${rootKb} kB`);
  } finally {
    sampler.stop();
    tree.kill();
  }
});

test('a tree that allocates nothing grows by next to nothing', async () => {
  const tree = allocatingTree(0, 0);
  const sampler = TreeMemory.start(tree.pid);
  try {
    await tree.allocated;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const window = sampler.window();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const figure = window.close();
    assert.ok(figure.measured, JSON.stringify(figure));
    assert.ok(figure.growthBytes < 20 * MiB, `grew by ${figure.growthBytes / MiB} MiB`);
    // Three processes: two shells and node (tens of MiB), all counted.
    assert.ok(figure.baselineBytes > 10 * MiB, `baseline ${figure.baselineBytes / MiB} MiB`);
  } finally {
    sampler.stop();
    tree.kill();
  }
});

test("steady(): true only once the tree stopped growing (a browser's first seconds); false while it grows, or when nothing is measured", async () => {
  // A process that, once up, grows by 8 MiB every 100 ms, 15 times, then says "done": steady only after
  // that word (a second without growth after the last step), and so again at once.
  const script =
    "process.stdout.write('up\\n'); const kept = []; const t = setInterval(() => { kept.push(Buffer.alloc(8 * 1024 * 1024, 1)); if (kept.length === 15) { clearInterval(t); process.stdout.write('done\\n'); } }, 100); setTimeout(() => undefined, 60000);";
  const grower = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  let said = '';
  grower.stdout.on('data', (d: Buffer) => (said += d.toString()));
  await once(grower.stdout, 'data');
  const sampler = TreeMemory.start(grower.pid);
  try {
    assert.equal(await sampler.steady(1000, 4 * MiB, 20_000), true);
    assert.match(said, /done/, 'steady while the process was still growing');
    const t0 = performance.now();
    assert.equal(await sampler.steady(1000, 4 * MiB, 20_000), true);
    assert.ok(performance.now() - t0 < 2500);
  } finally {
    sampler.stop();
    grower.kill('SIGKILL');
  }
  // One that keeps allocating, 20 MiB every 200 ms: never steady within 2 s.
  const endless = "process.stdout.write('up\\n'); const kept = []; setInterval(() => kept.push(Buffer.alloc(20 * 1024 * 1024, 1)), 200);";
  const growing = spawn(process.execPath, ['-e', endless], { stdio: ['ignore', 'pipe', 'ignore'] });
  await once(growing.stdout, 'data');
  const busy = TreeMemory.start(growing.pid);
  try {
    assert.equal(await busy.steady(1000, 4 * MiB, 2000), false);
  } finally {
    busy.stop();
    growing.kill('SIGKILL');
  }
  const never = TreeMemory.start(undefined);
  assert.equal(await never.steady(1000, 4 * MiB, 2000), false);
  never.stop();
});

test('a process that has ended, or never started: not measured, with the reason', async () => {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  await new Promise((resolve) => setTimeout(resolve, 50));
  const gone = TreeMemory.start(child.pid);
  assert.deepEqual(gone.window().close(), { measured: false, why: 'the process had already ended' });
  gone.stop();
  const never = TreeMemory.start(undefined);
  assert.deepEqual(never.window().close(), { measured: false, why: 'the process did not start' });
  never.stop();
});

/** A shell (the root) with two children sleeping; their pids, read from /proc. */
async function sleepingTree(): Promise<{ pid: number; children: () => number[]; kill: () => void }> {
  const child = spawn('sh', ['-c', 'sleep 60 & sleep 60 & wait'], { stdio: 'ignore', detached: true });
  const pid = child.pid as number;
  const children = (): number[] =>
    readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter((s) => s !== '')
      .map(Number);
  while (children().length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
  return {
    pid,
    children,
    kill: () => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    },
  };
}

test("a settled process of the tree killed during a window is named when it closes; the root's own death is not one", async () => {
  const tree = await sleepingTree();
  const sampler = TreeMemory.start(tree.pid);
  try {
    const [victim, survivor] = tree.children() as [number, number];
    const quiet = sampler.window({ watch: await sampler.settled() });
    const nothing = quiet.close();
    assert.ok(nothing.measured);
    assert.deepEqual(nothing.ended, []);
    // Unwatched (a client's tree): no process is named, and no figure of them is stated.
    const unwatched = sampler.window().close();
    assert.ok(unwatched.measured && unwatched.ended === undefined);

    const watch = await sampler.settled();
    assert.deepEqual([...watch.keys()].sort(), [victim, survivor].sort(), 'both children, not the root');
    const window = sampler.window({ watch });
    process.kill(victim, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const figure = window.close();
    assert.ok(figure.measured);
    assert.deepEqual(figure.ended, [`pid ${victim}, sleep`]);

    // The root dies too: the liveness check reports that; no process is named.
    const last = sampler.window({ watch: await sampler.settled() });
    tree.kill();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const gone = last.close();
    assert.deepEqual(gone.measured ? gone.ended : [], []);
  } finally {
    sampler.stop();
    tree.kill();
  }
});

test("a process that spends CPU and ends before its window closes: the window's CPU figure is what it spent, never negative", async (t) => {
  // Node, started directly (no shell), spins 600 ms of CPU after its "started" line, then exits and
  // is reaped by this process: at the close nothing of the tree is left to read. The window keeps
  // the highest reading it took while the process ran.
  const script = `console.log('started'); setTimeout(() => { const spent = () => { const u = process.cpuUsage(); return u.user + u.system; }; const end = spent() + 600000; while (spent() < end); }, 300);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  const sampler = TreeMemory.start(child.pid);
  try {
    await new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => d.toString().includes('started') && resolve()));
    const window = sampler.window();
    await once(child, 'exit');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const figure = window.close();
    assert.ok(figure.measured, JSON.stringify(figure));
    t.diagnostic(`cpu ${figure.cpuMs} ms over ${figure.samples} samples`);
    // Sampled every 100 ms: at most the last 100 ms (and a tick) of the 600 are lost with the process.
    assert.ok((figure.cpuMs ?? -1) >= 400, `cpu ${figure.cpuMs} ms`);
    assert.ok((figure.cpuMs ?? Infinity) <= 2000, `cpu ${figure.cpuMs} ms`);
  } finally {
    sampler.stop();
    child.kill('SIGKILL');
  }
});

test('a place handed over is counted once: while an ended worker and its successor both live, the larger of the two; a process that joined without one ending counts whole', () => {
  // pid 1 the primary, 2 and 3 workers; 2 retires, 4 takes its place, 5 is a process that joined beside them.
  const samples = [
    new Map([
      [1, 50 * MiB],
      [2, 60 * MiB],
      [3, 60 * MiB],
    ]),
    new Map([
      [1, 50 * MiB],
      [2, 62 * MiB],
      [3, 60 * MiB],
      [4, 30 * MiB],
    ]),
    new Map([
      [1, 50 * MiB],
      [2, 62 * MiB],
      [3, 61 * MiB],
      [4, 70 * MiB],
    ]),
    new Map([
      [1, 50 * MiB],
      [3, 61 * MiB],
      [4, 55 * MiB],
    ]),
  ];
  assert.equal(placesPeak(samples, new Set([2]), new Set([4])), 50 * MiB + 61 * MiB + 70 * MiB);
  // Without the handover every sample counts whole: the third, both workers and the successor.
  assert.equal(placesPeak(samples, new Set(), new Set()), (50 + 62 + 61 + 70) * MiB);
  // Two ended, one successor: one pair only, the larger ones paired.
  const two = [
    new Map([
      [1, 10 * MiB],
      [2, 40 * MiB],
      [3, 20 * MiB],
      [4, 30 * MiB],
    ]),
  ];
  assert.equal(placesPeak(two, new Set([2, 3]), new Set([4])), (10 + 40 + 20) * MiB);
});
