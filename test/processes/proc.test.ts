/**
 * The one /proc reader against real processes: this process's stat line (its parent, its group, its
 * CPU ticks), a child's environment entry found whole and not by a prefix, a zombie read as not live
 * until reaped, and a pid that does not exist read as gone, never thrown.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { environHas, isLive, procPids, procStat, residentBytes } from '../../src/processes/proc.js';

test("this process's stat: its parent, its name, live, CPU ticks that grow; its resident set", () => {
  const self = procStat(process.pid);
  assert.ok(isLive(self));
  assert.equal(self.ppid, process.ppid);
  assert.match(self.name, /^(node|MainThread)/);
  assert.deepEqual(procStat('self')?.startTicks, self.startTicks);
  const before = self.utime + self.stime;
  const end = Date.now() + 300;
  while (Date.now() < end);
  const after = procStat(process.pid) as NonNullable<ReturnType<typeof procStat>>;
  assert.ok(after.utime + after.stime > before, `${before} -> ${after.utime + after.stime} ticks`);
  assert.ok((residentBytes(process.pid) ?? 0) > 10 * 1024 * 1024);
  assert.ok(procPids()?.includes(process.pid));
});

test('a child: its environment entry found whole, not a prefix of it; its group; a zombie until reaped; then gone', async () => {
  const child = spawn('sleep', ['30'], { env: { ...process.env, WSGATE_PROC_TEST: 'abc' }, detached: true, stdio: 'ignore' });
  const pid = child.pid as number;
  try {
    assert.equal(environHas(pid, 'WSGATE_PROC_TEST=abc'), true);
    assert.equal(environHas(pid, 'WSGATE_PROC_TEST=ab'), false);
    assert.equal(environHas(pid, 'PROC_TEST=abc'), false);
    const stat = procStat(pid);
    assert.ok(isLive(stat));
    assert.equal(stat.pgrp, pid, 'detached: a group of its own');
    assert.equal(stat.ppid, process.pid);
  } finally {
    child.kill('SIGKILL');
  }
  await once(child, 'exit');
  assert.equal(isLive(procStat(pid)), false);
  assert.equal(procStat(2 ** 22 + 1), null);
  assert.equal(residentBytes(2 ** 22 + 1), null);
  assert.equal(environHas(2 ** 22 + 1, 'X=1'), false);
});
