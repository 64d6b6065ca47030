/**
 * Everything the tests, the bench and the scripts read is inside the repository: no relative path in
 * src/, test/, bench/, .ci/, interop/ or the workflows resolves outside the checkout, and no file
 * names a folder that sits beside it on the machines wsgate was first built on. (.ci/run proves the
 * same from the other side: it runs the tests in a fresh clone with nothing beside it.)
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SCANNED_DIRS = ['src', 'test', 'bench', '.ci', 'interop', '.github'];
const SCANNED_FILES = ['action.yml', 'Dockerfile', 'package.json', 'tsconfig.json'];
const TEXT = /\.(ts|mjs|js|cjs|sh|py|yml|yaml|json|tsv|md|html|conf|in)$|^[^.]+$/;

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.isFile() && TEXT.test(entry.name) && statSync(full).size < 2_000_000) out.push(full);
  }
}

/** Every scanned file, relative to the checkout. */
function scannedFiles(): string[] {
  const out: string[] = [];
  for (const d of SCANNED_DIRS) walk(path.join(ROOT, d), out);
  for (const f of SCANNED_FILES) out.push(path.join(ROOT, f));
  return out.map((f) => path.relative(ROOT, f)).filter((f) => !f.startsWith('action/dist'));
}

/**
 * Where a relative reference in `file` starts from: TypeScript under src/, test/ and bench/ runs
 * compiled, from dist/ (so `new URL('../../../x', import.meta.url)` counts from dist/test/ci/);
 * anything else runs where it is.
 */
function baseDir(file: string): string {
  const dir = path.dirname(path.join(ROOT, file));
  return file.endsWith('.ts') && /^(src|test|bench)\//.test(file) ? path.join(ROOT, 'dist', path.dirname(file)) : dir;
}

/** The relative paths a file resolves against its own location, in the forms this project uses. */
function relativeReferences(text: string): string[] {
  const refs: string[] = [];
  const forms = [
    /new URL\(\s*(['"`])([^'"`$]+)\1\s*,\s*import\.meta\.url/g, // new URL('../x', import.meta.url)
    /path\.resolve\(\s*path\.dirname\(fileURLToPath\(import\.meta\.url\)\)\s*,\s*(['"`])([^'"`$]+)\1/g,
    /\$\(dirname "(?:\$0|\$\{BASH_SOURCE\[0\]\})"\)(\/)([^"\s)]*)/g, // "$(dirname "$0")/../.."
  ];
  for (const form of forms) for (const m of text.matchAll(form)) refs.push(m[2] ?? '');
  return refs;
}

/** True when `target` is the checkout or inside it. */
function inside(target: string): boolean {
  const rel = path.relative(ROOT, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

describe('the repository is self-contained', () => {
  const files = scannedFiles();

  test('the scan sees the files that used to read outside the checkout', () => {
    for (const f of ['test/cases/catalogue.test.ts', 'test/report/helpers.ts', 'bench/bench.ts', '.ci/run', '.github/workflows/ci.yml']) {
      assert.ok(files.includes(f), `${f} is not scanned`);
    }
  });

  test('no relative path resolves outside the checkout', () => {
    const leaving: string[] = [];
    let seen = 0;
    for (const file of files) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const ref of relativeReferences(text)) {
        seen += 1;
        const target = path.resolve(baseDir(file), ref);
        if (!inside(target)) leaving.push(`${file}: '${ref}' resolves to ${target}`);
      }
    }
    assert.ok(seen > 20, `only ${seen} relative references found: the patterns no longer match this code`);
    assert.deepEqual(leaving, []);
  });

  test('no file names a folder beside the checkout or an absolute path of this machine', () => {
    const sibling = /(?:\.\.\/)+(?:shared|reference|spec|notes)\//;
    const parent = path.dirname(path.resolve(ROOT));
    const machinePaths = parent === '/' || parent === '/tmp' ? [] : [`${parent}/`];
    const named: string[] = [];
    for (const file of files) {
      if (file === 'test/ci/self-contained.test.ts') continue;
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      text.split('\n').forEach((line, i) => {
        if (sibling.test(line) || machinePaths.some((p) => line.includes(p))) named.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(named, []);
  });

  test('the reference data the tests and the bench read is in the repository', () => {
    for (const f of ['autobahn-case-ids.tsv', 'autobahn-verdicts-ws.json', 'autobahn-report-6.9.2.json', 'autobahn-report-6.12.7.json', 'README.md']) {
      assert.ok(statSync(path.join(ROOT, 'test/fixtures/autobahn', f)).size > 0, f);
    }
    const rows = readFileSync(path.join(ROOT, 'test/fixtures/autobahn/autobahn-case-ids.tsv'), 'utf8').trim().split('\n');
    assert.equal(rows.length, 518, 'a header and 517 cases');
  });
});
