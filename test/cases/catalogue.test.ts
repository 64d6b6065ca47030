/**
 * The catalogue against Autobahn's own list (test/fixtures/autobahn/autobahn-case-ids.tsv): the same ids
 * in the same order with the same category and subcategory, for every group wsgate implements.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogue } from '../../src/catalogue/registry.js';
import { selectCases } from '../../src/cases/select.js';
import { referenceCaseRows } from '../support/autobahn-reference.js';

const rows = referenceCaseRows();

/** The groups this catalogue claims to implement completely. */
const IMPLEMENTED = new Set(['1', '2', '3', '4', '5', '6', '7', '9', '10', '12', '13']);

test('the reference lists 517 cases, and so does the catalogue', () => {
  assert.equal(rows.length, 517);
  assert.equal(catalogue.length, 517);
  assert.deepEqual(
    selectCases(catalogue, ['*']).map((c) => c.id),
    rows.map((r) => r.id),
  );
});

test('every case of the implemented groups exists, in Autobahn order, with its category and subcategory', () => {
  const expected = rows.filter((r) => IMPLEMENTED.has(r.id.split('.')[0] ?? ''));
  const ours = catalogue.filter((c) => IMPLEMENTED.has(c.id.split('.')[0] ?? ''));
  assert.deepEqual(
    ours.map((c) => [c.id, c.category, c.subcategory]),
    expected.map((r) => [r.id, r.category, r.subcategory]),
  );
});

test('no case exists that Autobahn does not have, and the global order is Autobahn order', () => {
  const known = rows.map((r) => r.id);
  const ours = catalogue.map((c) => c.id);
  assert.deepEqual(
    ours,
    known.filter((id) => ours.includes(id)),
  );
});

test('with every case selected, /runCase?case=N is Autobahn index N (within the implemented prefix)', () => {
  const all = selectCases(catalogue, ['*']);
  for (const [i, c] of all.entries()) {
    const row = rows.find((r) => r.id === c.id);
    if (row === undefined) assert.fail(`unknown id ${c.id}`);
    // Indexes agree as long as every earlier Autobahn case is implemented.
    const earlierMissing = rows.filter((r) => r.index < row.index && !all.some((x) => x.id === r.id)).length;
    assert.equal(i + 1 + earlierMissing, row.index, c.id);
  }
});

test("Autobahn's pattern rules: '1*' takes 1.x and 10.x, '1.*' only 1.x", () => {
  const one = selectCases(catalogue, ['1*']).map((c) => c.id.split('.')[0]);
  assert.ok(one.includes('10') || !catalogue.some((c) => c.id.startsWith('10.')));
  assert.ok(selectCases(catalogue, ['1.*']).every((c) => c.id.startsWith('1.')));
  assert.deepEqual(
    selectCases(catalogue, ['6.*'], ['6.1*', '6.2*'])
      .map((c) => c.id.split('.')[1])
      .filter((s) => s === '1' || s === '2' || s === '10' || s === '12'),
    [],
  );
});
