/**
 * `npm run lint` is Biome (`biome ci .`: the linter, then the formatter's check) with the repository's
 * biome.jsonc, and .ci/run runs it: the repository passes it, and a planted violation of either kind
 * fails it, naming the rule or the file.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runFile } from '../support/cli-env.js';
import { tempDir } from '../support/harness.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIOME = path.join(ROOT, 'node_modules', '.bin', 'biome');

/** A project of its own with the repository's biome.jsonc and the given files; `biome ci .` in it. */
async function lintProject(files: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const dir = await tempDir('wsgate-lint-');
  copyFileSync(path.join(ROOT, 'biome.jsonc'), path.join(dir, 'biome.jsonc'));
  writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\n');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  // biome.jsonc reads .gitignore (vcs.useIgnoreFile), which needs a repository.
  await runFile('git', ['init', '-q', '.'], { cwd: dir });
  const res = await runFile(BIOME, ['ci', '--colors=off', '.'], { cwd: dir, timeoutMs: 60_000 });
  return { code: res.code, out: res.stdout + res.stderr };
}

describe('npm run lint', () => {
  test('is biome ci, and .ci/run runs it', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    assert.equal(pkg.scripts.lint, 'biome ci .');
    assert.match(readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8'), /^npm run lint$/m);
  });

  test('the repository passes it', async () => {
    const res = await runFile(BIOME, ['ci', '--colors=off', '.'], { cwd: ROOT, timeoutMs: 120_000 });
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.match(res.stdout + res.stderr, /Checked \d{3,} files/);
  });

  test('a planted violation fails it: a floating promise (a lint rule), then code the formatter would change', async () => {
    const clean = 'export async function f(): Promise<number> {\n  return await Promise.resolve(1);\n}\n';
    assert.deepEqual(await lintProject({ 'src/clean.ts': clean }).then((r) => r.code), 0);

    const floating = await lintProject({ 'src/clean.ts': clean, 'src/floating.ts': 'export async function g(): Promise<void> {\n  Promise.resolve(1);\n}\n' });
    assert.equal(floating.code, 1, floating.out);
    assert.match(floating.out, /src\/floating\.ts:2:3 lint\/nursery\/noFloatingPromises/);

    const unformatted = await lintProject({ 'src/clean.ts': clean, 'src/unformatted.ts': 'export const a = {b:1}\n' });
    assert.equal(unformatted.code, 1, unformatted.out);
    assert.match(unformatted.out, /src\/unformatted\.ts format/);
    assert.match(unformatted.out, /File content differs from formatting output/);
  });
});
