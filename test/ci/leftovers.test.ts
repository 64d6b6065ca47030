/**
 * npm test's own end check (test/suite.ts): a test file that leaves a process (in a session of its
 * own) or a temporary directory behind fails the suite, which names what it found, ends and removes
 * it; a file that leaves nothing passes.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isLive, procStat } from '../../src/processes/proc.js';
import { runNodeWith } from '../support/cli-env.js';
import { tempDir } from '../support/harness.js';

const SUITE = fileURLToPath(new URL('../suite.js', import.meta.url));
const LEAKY = fileURLToPath(new URL('../fixtures/suite/leaky.js', import.meta.url));

async function suiteOn(leak: string): Promise<{ code: number | null; out: string; pid: number | null; scratch: string | null }> {
  const pidFile = path.join(await tempDir('wsgate-leak-'), 'pid');
  const run = await runNodeWith(SUITE, [LEAKY], { env: { LEAK: leak, LEAK_PID_FILE: pidFile }, timeoutMs: 60_000 });
  const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : null;
  const scratch = /temporary directory (\S+?)\/wsgate-planted-/.exec(run.stderr)?.[1] ?? null;
  return { code: run.code, out: run.stdout + run.stderr, pid, scratch };
}

test('a planted process (setsid) and a planted temporary directory fail the suite, named, then ended and removed', async () => {
  const run = await suiteOn('process,dir');
  assert.equal(run.code, 1, run.out);
  assert.ok(run.pid !== null, run.out);
  assert.match(run.out, /the suite left 2 thing\(s\) behind/, run.out);
  assert.match(run.out, new RegExp(`process ${run.pid} \\(node, parent \\d+\\): .*wsgate-planted-leak`), run.out);
  assert.match(run.out, /temporary directory \S+\/wsgate-planted-\w+ \(1 entry\)/, run.out);
  // Ended and removed: nothing of the planted leak outlives the check.
  assert.equal(isLive(procStat(run.pid)), false, `process ${run.pid} still runs`);
  assert.ok(run.scratch !== null && !existsSync(run.scratch), `${run.scratch} is still there`);
});

test('each leak alone fails it too; a file that leaves nothing passes', async () => {
  const proc = await suiteOn('process');
  assert.equal(proc.code, 1, proc.out);
  assert.match(proc.out, /the suite left 1 thing\(s\) behind/, proc.out);
  const dir = await suiteOn('dir');
  assert.equal(dir.code, 1, dir.out);
  assert.match(dir.out, /the suite left 1 thing\(s\) behind/, dir.out);
  const clean = await suiteOn('');
  assert.equal(clean.code, 0, clean.out);
  assert.doesNotMatch(clean.out, /left .* behind/, clean.out);
});
