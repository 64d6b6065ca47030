/** `--budget NAME=VALUE`: the robustness profile's budgets, each a default until a flag sets it. */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { parseBudgets } from '../../src/config/budgets.js';
import { DEFAULT_BUDGETS, MEMORY_GROWTH, memoryBudgetOf, scaledMs } from '../../src/cases/data/budgets.js';
import { defaultJobs } from '../../src/config/parallel.js';
import { resolveRunConfig } from '../../src/config/run-config.js';
import { runCli, tempDir, usageMessage } from '../support/harness.js';

test('each name sets its field, in its unit; the rest keep their defaults', () => {
  assert.deepEqual(parseBudgets([], true), DEFAULT_BUDGETS);
  const b = parseBudgets(['time=2x', 'message=1MiB', 'memory=64 MiB', 'stall=1500ms'], true);
  assert.deepEqual(b, { timeScale: 2, messageLimit: 1048576, memoryGrowth: 64 * 1048576, stallMs: 1500 });
  assert.equal(parseBudgets(['stall=3s'], true).stallMs, 3000);
  assert.equal(parseBudgets(['stall=3'], true).stallMs, 3000);
  assert.equal(parseBudgets(['message=2KB'], true).messageLimit, 2000);
  assert.equal(parseBudgets(['message=4096'], true).messageLimit, 4096);
  assert.equal(scaledMs(2000, parseBudgets(['time=1.5'], true)), 3000);
  // The last one given wins, as for any repeated flag.
  assert.equal(parseBudgets(['time=2', 'time=3'], true).timeScale, 3);
});

test('an unknown name, a bad value or a budget without --robustness: one line', () => {
  assert.equal(
    usageMessage(() => parseBudgets(['speed=2'], true)),
    '--budget "speed=2": expected NAME=VALUE with NAME one of time, message, memory, stall',
  );
  assert.equal(
    usageMessage(() => parseBudgets(['time'], true)),
    '--budget "time": expected NAME=VALUE with NAME one of time, message, memory, stall',
  );
  assert.equal(
    usageMessage(() => parseBudgets(['message=lots'], true)),
    '--budget message=lots: expected a size such as 1MiB or 4096',
  );
  assert.equal(
    usageMessage(() => parseBudgets(['memory=0'], true)),
    '--budget memory=0: expected a size such as 1MiB or 4096',
  );
  assert.equal(
    usageMessage(() => parseBudgets(['stall=5min'], true)),
    '--budget stall=5min: expected a time such as 30s or 500ms',
  );
  assert.equal(
    usageMessage(() => parseBudgets(['time=1000'], true)),
    '--budget time=1000: expected a factor from 0.1 to 100, such as 2',
  );
  assert.equal(
    usageMessage(() => parseBudgets(['time=2'], false)),
    "--budget sets the robustness profile's budgets: it goes with --robustness",
  );
});

test('the CLI: a bad budget exits 2 with its line; a time factor doubles the budget a report states', async () => {
  const bad = await runCli(['run', '--robustness', '--budget', 'time=fast']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--budget time=fast: expected a factor/);
  const outdir = await tempDir();
  const ok = await runCli(['run', '--robustness', '--cases', '18.3.1', '--budget', 'time=3', '--outdir', outdir, '--jobs', '1']);
  assert.equal(ok.code, 0, ok.stderr);
  const index = JSON.parse(await readFile(path.join(outdir, 'index.json'), 'utf8')) as Record<string, Record<string, { reportfile: string }>>;
  const agent = Object.values(index)[0] ?? {};
  const report = JSON.parse(await readFile(path.join(outdir, agent['18.3.1']?.reportfile ?? 'missing'), 'utf8')) as { result: string };
  // 18.3.1's refusal budget is 2,000 ms; time=3 makes it 6,000.
  assert.match(report.result, /budget 6,000 ms/);
});

test("a robustness case's time limit follows the budgets: times the time factor, beyond the stall budget", async () => {
  const { caseTimeoutFor } = await import('../../src/policy/case-limits.js');
  const { everyCase } = await import('../../src/catalogue/registry.js');
  const byId = (id: string) => everyCase.find((c) => c.id === id) ?? assert.fail(`no case ${id}`);
  const slowloris = byId('17.1.10');
  const plain = { caseTimeout: null };
  assert.equal(caseTimeoutFor(slowloris, plain), DEFAULT_BUDGETS.stallMs / 1000 + (slowloris.schedule?.maxSeconds ?? 0) + 5);
  assert.equal(caseTimeoutFor(slowloris, { caseTimeout: null, budgets: parseBudgets(['stall=300s'], true) }), 300 + (slowloris.schedule?.maxSeconds ?? 0) + 5);
  const bomb = byId('18.2.1');
  const own = (bomb.schedule?.maxSeconds ?? 0) + 5;
  assert.equal(caseTimeoutFor(bomb, plain), Math.max(30, own));
  assert.equal(caseTimeoutFor(bomb, { caseTimeout: null, budgets: parseBudgets(['time=4'], true) }), Math.max(30, (bomb.schedule?.maxSeconds ?? 0) * 4 + 5));
  // An Autobahn case ignores the budgets; --case-timeout overrides everything.
  assert.equal(caseTimeoutFor(byId('9.1.6'), { caseTimeout: null, budgets: parseBudgets(['time=4'], true) }), caseTimeoutFor(byId('9.1.6'), plain));
  assert.equal(caseTimeoutFor(slowloris, { caseTimeout: 7 }), 7);
});

test('the profile plays one case at a time unless --jobs says otherwise (cases at once would share the peer tree whose growth is a figure)', () => {
  assert.equal(resolveRunConfig({ robustness: true }).jobs, 1);
  assert.equal(resolveRunConfig({ robustness: true, jobs: 3 }).jobs, 3);
  assert.equal(resolveRunConfig({}).jobs, defaultJobs());
});

test('memoryBudgetOf: a case of its own budget, a raw attack small, the rest the run budget; the run budget caps them all', () => {
  const run = DEFAULT_BUDGETS;
  assert.equal(memoryBudgetOf({ attackBudget: { memoryGrowth: MEMORY_GROWTH.fragments } }, run), 64 * 1048576);
  assert.equal(memoryBudgetOf({ attack: {} }, run), MEMORY_GROWTH.small);
  assert.equal(memoryBudgetOf({ attackBudget: {} }, run), run.memoryGrowth);
  assert.equal(memoryBudgetOf({ attackBudget: { memoryGrowth: MEMORY_GROWTH.echo } }, parseBudgets(['memory=16MiB'], true)), 16 * 1048576);
});
