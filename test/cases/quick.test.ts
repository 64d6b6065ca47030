/**
 * The quick profile (`run --quick`): every group of Autobahn's catalogue, the slow groups 9, 12 and 13
 * by a fixed sample; the same cases in both roles and on every call; and a real run of its sampled
 * part against the bundled ws client passes.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { quickSample } from '../../src/cases/quick.js';
import { catalogueFor } from '../../src/catalogue/registry.js';
import { selectForRun } from '../../src/run/schedule.js';
import { runCli, tempDir } from '../support/harness.js';

const group = (id: string): string => id.split('.')[0] ?? '';
const AUTOBAHN_GROUPS = ['1', '2', '3', '4', '5', '6', '7', '9', '10', '12', '13'];

for (const role of ['client', 'server'] as const) {
  test(`--quick (${role} role) plays every group, groups 9, 12 and 13 sampled, the others whole`, () => {
    const whole = selectForRun({ cases: [], excludeCases: [], extended: false, shard: null, role }).cases.map((c) => c.id);
    const quick = selectForRun({ cases: [], excludeCases: [], extended: false, shard: null, role, quick: true }).cases.map((c) => c.id);
    assert.deepEqual([...new Set(quick.map(group))], AUTOBAHN_GROUPS);
    // A strict subset, in catalogue order.
    assert.deepEqual(
      quick,
      whole.filter((id) => quick.includes(id)),
    );
    assert.ok(quick.length < whole.length);
    const count = (ids: string[], g: string) => ids.filter((id) => group(id) === g).length;
    for (const g of AUTOBAHN_GROUPS) {
      if (['9', '12', '13'].includes(g)) assert.ok(count(quick, g) < count(whole, g) / 2, `group ${g} is sampled`);
      else assert.equal(count(quick, g), count(whole, g), `group ${g} is whole`);
    }
    // Each subgroup of the sampled groups keeps at least one case.
    const subgroups = (ids: string[]) => new Set(ids.filter((id) => ['9', '12', '13'].includes(group(id))).map((id) => id.split('.').slice(0, 2).join('.')));
    assert.deepEqual(subgroups(quick), subgroups(whole));
    // Deterministic: the same on every call, 21 cases of 9/12/13 (8 + 6 + 7).
    assert.deepEqual(
      selectForRun({ cases: [], excludeCases: [], extended: false, shard: null, role, quick: true }).cases.map((c) => c.id),
      quick,
    );
    assert.equal(quick.length, whole.length - 216 - 54 + 21);
  });
}

test("--quick keeps wsgate's own groups whole and applies to the selection: --cases narrows it, a selection it empties is a usage error", () => {
  const extended = catalogueFor(true, 'client');
  assert.equal(quickSample(extended).filter((c) => group(c.id) === '14').length, extended.filter((c) => group(c.id) === '14').length);
  const narrowed = selectForRun({ cases: ['12.1.*', '13.2.*'], excludeCases: [], extended: false, shard: null, quick: true }).cases.map((c) => c.id);
  assert.deepEqual(narrowed, ['12.1.1', '12.1.11', '13.2.1']);
  assert.throws(() => selectForRun({ cases: ['12.1.2'], excludeCases: [], extended: false, shard: null, quick: true }), /--quick keeps none of --cases' cases/);
});

test('wsgate run --quick against the bundled ws client: the 21 sampled cases of 9, 12 and 13 pass (exit 0)', async () => {
  const outdir = await tempDir();
  const res = await runCli(['run', '--quick', '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--quiet', '--cases', '9.*', '12.*', '13.*'], 120_000);
  assert.equal(res.code, 0, res.stdout + res.stderr);
  assert.match(res.stdout, /21 cases: 21 passed, 0 failed, 0 skipped/);
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as { cases: Array<{ id: string }> };
  assert.deepEqual(
    summary.cases.map((c) => c.id),
    quickSample(catalogueFor(false))
      .filter((c) => ['9', '12', '13'].includes(group(c.id)))
      .map((c) => c.id),
  );
});
