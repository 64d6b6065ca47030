/**
 * Other Node majors for the tests that must run on them (22, 24): the `node` package from the npm
 * registry the machine's npm is configured with, installed once under node_modules/.cache and reused.
 * Installed into a temporary prefix and renamed into place, so that two test files asking at once
 * never see a half-installed copy.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFile } from './cli-env.js';

const CACHE = fileURLToPath(new URL('../../../node_modules/.cache/wsgate-node-versions/', import.meta.url));

/** The node binary of `major` (installed once with npm, then reused). */
export async function nodeBinary(major: string): Promise<string> {
  const prefix = path.join(CACHE, `node${major}`);
  const bin = path.join(prefix, 'node_modules', '.bin', 'node');
  if (existsSync(bin)) return bin;
  await mkdir(CACHE, { recursive: true });
  const temp = await mkdtemp(path.join(CACHE, `.node${major}-`));
  const r = await runFile('npm', ['install', '--prefix', temp, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `node@${major}`], {
    timeoutMs: 180_000,
  });
  assert.equal(r.code, 0, `npm install node@${major} failed:\n${r.stdout}${r.stderr}`);
  await rename(temp, prefix).catch(async (err: NodeJS.ErrnoException) => {
    // Another test file placed it first: use theirs.
    if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
    await rm(temp, { recursive: true, force: true });
  });
  return bin;
}
