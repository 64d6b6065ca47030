/**
 * The robustness profile declares itself: every case of groups 17 and 18 carries the requirement it
 * tests (with the advisory it replays named in its text) and sits under its subgroup's title, and
 * neither the explain table nor the category names hold a second entry for them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { subcategoryNames } from '../../src/cases/categories.js';
import { everyCase } from '../../src/catalogue/registry.js';
import { h2FloodServerCases, robustnessClientCases, robustnessServerCases } from '../../src/robustness/index.js';
import { subgroup } from '../../src/robustness/subgroup.js';
import { requirementFor } from '../../src/explain/requirements.js';

const profile = [...robustnessServerCases, ...h2FloodServerCases, ...robustnessClientCases];

test('every case of the profile declares its requirement and its subgroup title; requirementFor returns the declared one', () => {
  assert.equal(profile.length, everyCase.filter((c) => /^1[78]\./.test(c.id)).length);
  for (const c of profile) {
    assert.ok(c.requirement, c.id);
    assert.equal(requirementFor(c.id, null), c.requirement, c.id);
    assert.ok(c.subcategory.length > 0, c.id);
    // And the advisory it replays: an attack quotes it in its description, a scripted case in its budget.
    if (c.attack !== undefined) assert.match(c.description, /\((RFC|Slowloris)[^;]*; [^:]+: .+\)$/, c.id);
    else assert.ok((c.attackBudget?.advisory ?? '').length > 20, c.id);
  }
  const titles = new Map<string, Set<string>>();
  for (const c of profile) {
    const sub = c.id.split('.').slice(0, 2).join('.');
    titles.set(sub, (titles.get(sub) ?? new Set()).add(c.subcategory));
  }
  assert.deepEqual([...titles.keys()], ['17.1', '17.2', '17.3', '17.4', '17.5', '18.1', '18.2', '18.3', '18.4', '18.5']);
  for (const [sub, names] of titles) assert.equal(names.size, 1, sub);
});

test('no second table: neither explain/requirements.ts nor categories.ts names a case of 17 or 18', () => {
  assert.deepEqual(
    Object.keys(subcategoryNames).filter((k) => /^1[78]\./.test(k)),
    [],
  );
  const table = readFileSync(fileURLToPath(new URL('../../../src/explain/requirements.ts', import.meta.url)), 'utf8');
  assert.doesNotMatch(table, /'1[78](\.\d+)*'/);
});

test('a subgroup refuses a case outside it, or one without a requirement', () => {
  const [one] = robustnessClientCases;
  assert.ok(one);
  assert.throws(() => subgroup('17.1', 'x', [one]), /case 18\.1\.1 is declared in subgroup 17\.1/);
  const { requirement: _dropped, ...bare } = one;
  assert.throws(() => subgroup('18.1', 'x', [bare]), /case 18\.1\.1 declares no requirement/);
});

test('a raw attack is its own kind of case: no script, no expected events, no closing; the case runner refuses it', async () => {
  const { scriptedCase } = await import('../../src/cases/define.js');
  const attacks = [...robustnessServerCases, ...h2FloodServerCases].filter((c) => c.attack !== undefined);
  assert.deepEqual(
    attacks.map((c) => c.id.split('.').slice(0, 2).join('.')).filter((s, i, all) => all.indexOf(s) === i),
    ['17.1', '17.2', '17.5'],
  );
  for (const c of attacks) {
    for (const key of ['run', 'expect', 'close', 'adjust', 'attackBudget']) assert.equal(key in c, false, `${c.id} ${key}`);
    assert.throws(() => scriptedCase(c), new RegExp(`case ${c.id.replace(/\./g, '\\.')} is a raw attack`));
  }
  // The scripted cases of the profile (17.2.3 on, 17.3, 17.4, 18) carry an attack budget instead.
  for (const c of [...robustnessServerCases, ...robustnessClientCases].filter((k) => k.attack === undefined)) assert.ok(c.attackBudget, c.id);
});
