import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { pythonJson } from '../../src/report/pyjson.js';
import { referenceReportText } from '../support/autobahn-reference.js';

for (const id of ['6.9.2', '6.12.7'] as const) {
  test(`pythonJson reproduces Autobahn's ${id} report byte for byte`, () => {
    const text = referenceReportText(id);
    // Autobahn writes json.dumps() output with no trailing newline.
    assert.equal(text.endsWith('}'), true);
    assert.equal(pythonJson(JSON.parse(text)), text);
  });
}

test('pythonJson: layout, empty containers inline, undefined keys omitted', () => {
  assert.equal(
    pythonJson({ b: [1, {}], a: [], c: undefined, d: { x: null } }),
    '{\n   "a": [],\n   "b": [\n      1,\n      {}\n   ],\n   "d": {\n      "x": null\n   }\n}',
  );
  assert.equal(pythonJson([]), '[]');
  assert.equal(pythonJson({}), '{}');
  assert.equal(pythonJson([undefined]), '[\n   null\n]');
  assert.equal(pythonJson(true), 'true');
  assert.equal(pythonJson(null), 'null');
});

test('pythonJson: ensure_ascii escaping as Python 2', () => {
  assert.equal(pythonJson('a/b"c\\d'), '"a/b\\"c\\\\d"');
  assert.equal(pythonJson('\n\r\t\b\f\u0001\u001f\u007f'), '"\\n\\r\\t\\b\\f\\u0001\\u001f\\u007f"');
  assert.equal(pythonJson('\u07ff\u00e9'), '"\\u07ff\\u00e9"');
  assert.equal(pythonJson('\u{1F600}'), '"\\ud83d\\ude00"');
  assert.equal(pythonJson('\ud800'), '"\\ud800"');
  assert.equal(pythonJson({ 'k\u00e9': 1 }), '{\n   "k\\u00e9": 1\n}');
});

test('pythonJson: numbers as Python prints them', () => {
  assert.equal(pythonJson(0.5), '0.5');
  assert.equal(pythonJson(1.5e-5), '1.5e-05');
  assert.equal(pythonJson(0.0001), '0.0001');
  assert.equal(pythonJson(0.1 + 0.2), '0.30000000000000004');
  assert.equal(pythonJson(123456789012345.6), '123456789012345.6');
  assert.equal(pythonJson(1e21), '1000000000000000000000');
  assert.equal(pythonJson(-0), '0');
  assert.equal(pythonJson(42), '42');
  assert.equal(pythonJson(Number.NaN), 'NaN');
  assert.equal(pythonJson(-Infinity), '-Infinity');
});

test('pythonJson: key order is code point order, numeric for int-keyed maps', () => {
  // String keys: Autobahn's index.json sorts "1.1.1" < "10.1.1" < "2.5".
  assert.deepEqual(Object.keys(JSON.parse(pythonJson({ '2.5': 1, '10.1.1': 2, '1.1.1': 3 }))), ['1.1.1', '10.1.1', '2.5']);
  const order = (o: object): string[] => [...pythonJson(o).matchAll(/"([^"]*)":/g)].map((m) => m[1] ?? '');
  assert.deepEqual(order({ b: 1, B: 2, a: 3, '\uff61': 4, '\u{10000}': 5 }), ['B', 'a', 'b', '\\uff61', '\\ud800\\udc00']);
  // Stats dicts had int keys in Python, sorted numerically (the reference has "6", "8", "182").
  assert.deepEqual(order({ '182': 1, '6': 1, '8': 1 }), ['6', '8', '182']);
  assert.deepEqual(order({ '182': 1, '6': 1, x: 1 }), ['182', '6', 'x']);
});

test('pythonJson: rejects cycles and unencodable top-level values', () => {
  const a: unknown[] = [];
  a.push(a);
  assert.throws(() => pythonJson(a), /circular/);
  assert.throws(() => pythonJson(undefined), TypeError);
});

test('pythonJson: output parses back to the value and is pure ASCII (property)', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (v) => {
      const out = pythonJson(v);
      assert.match(out, /^[\x20-\x7e\n]*$/);
      assert.deepEqual(JSON.parse(out), JSON.parse(JSON.stringify(v)));
    }),
    { numRuns: 300 },
  );
});
