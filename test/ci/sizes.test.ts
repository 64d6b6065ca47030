/**
 * Sizes a newcomer can read: no source file over 440 lines and no function over 80 lines, data
 * tables aside (cases/data/: vectors, corpora, generated documents; explain/requirements.ts, the
 * requirement of every case family; run's option table). Functions are found with TypeScript's own
 * parser (declarations, methods, arrow functions, function expressions). The lines are Biome's at
 * 160 columns (biome.jsonc); the limits were 400 and 60 before the code was formatted, when src/
 * had 25,080 lines (27,131 formatted: files grew by up to 10%, functions whose calls wrapped by more).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));
const MAX_FILE_LINES = 440;
const MAX_FUNCTION_LINES = 80;
const DATA = 'cases/data/';
/** Tables outside cases/data/, by file or `file name` of a function. */
const TABLES = new Set(['explain/requirements.ts', 'config/options/table.ts']);

function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') ? [path.relative(SRC, full).split(path.sep).join('/')] : [];
  });
}

/** "file:line name (N lines)" for every function of `text` longer than `max` lines. */
export function longFunctions(file: string, text: string, max: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const named = 'name' in node && node.name !== undefined ? node.name : ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined;
      const name = named === undefined ? '(anonymous)' : named.getText(source);
      if (last - first + 1 > max) out.push(`${file}:${first + 1} ${name} (${last - first + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const files = sourceFiles().filter((f) => !f.startsWith(DATA) && !TABLES.has(f));

test(`no source file over ${MAX_FILE_LINES} lines (${DATA} aside)`, () => {
  const long = files.map((f) => [f, readFileSync(path.join(SRC, f), 'utf8').split('\n').length] as const).filter(([, n]) => n > MAX_FILE_LINES);
  assert.deepEqual(
    long.map(([f, n]) => `${f} (${n} lines)`),
    [],
  );
});

test(`no function over ${MAX_FUNCTION_LINES} lines (${DATA} aside)`, () => {
  const long = files.flatMap((f) => longFunctions(f, readFileSync(path.join(SRC, f), 'utf8'), MAX_FUNCTION_LINES));
  assert.deepEqual(
    long.filter((l) => !TABLES.has(l.replace(/:\d+ /, ' ').replace(/ \(\d+ lines\)$/, ''))),
    [],
  );
});

test('the function check finds a long function, nested ones included', () => {
  const body = Array.from({ length: 5 }, (_, i) => `  const x${i} = ${i};`).join('\n');
  const text = `function outer() {\n  const inner = () => {\n${body}\n  };\n}\nclass C { m() {\n${body}\n} }\n`;
  assert.deepEqual(longFunctions('t.ts', text, 6), ['t.ts:1 outer (9 lines)', 't.ts:2 inner (7 lines)', 't.ts:10 m (7 lines)']);
});

// cases/ and robustness/ are catalogues: one file per group or subgroup, in spec order.
test('no source folder outside cases/ and robustness/ holds more than 10 files: a folder name says what it owns', () => {
  const perFolder = new Map<string, number>();
  for (const f of sourceFiles()) {
    const dir = path.posix.dirname(f);
    perFolder.set(dir, (perFolder.get(dir) ?? 0) + 1);
  }
  const crowded = [...perFolder].filter(([dir, n]) => n > 10 && !/^(cases|robustness)(\/|$)/.test(dir)).map(([dir, n]) => `src/${dir}: ${n} files`);
  assert.deepEqual(crowded, []);
});
