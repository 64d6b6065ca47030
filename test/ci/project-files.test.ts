/**
 * The files users look for: the licence package.json names, a changelog entry for the package's
 * version, and a dependency-update config that covers npm, the Dockerfile and the actions.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { parse } from 'yaml';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { license: string; version: string };

test('LICENSE is the licence package.json names (MIT)', () => {
  assert.equal(pkg.license, 'MIT');
  assert.match(read('LICENSE'), /^MIT License\n\nCopyright \(c\) \d{4} /);
  assert.match(read('LICENSE'), /THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND/);
});

test("CHANGELOG.md has an entry for package.json's version", () => {
  assert.match(read('CHANGELOG.md'), new RegExp(`^## \\[${pkg.version.replace(/\./g, '\\.')}\\]`, 'm'));
});

test('CONTRIBUTING.md and SECURITY.md exist and say how to add a case and how to report', () => {
  assert.match(read('CONTRIBUTING.md'), /## Adding a case/);
  assert.match(read('SECURITY.md'), /## Reporting a vulnerability/);
});

test('dependabot updates npm, the Dockerfile and the GitHub Actions, from the repository root', () => {
  const config = parse(read('.github/dependabot.yml')) as { version: number; updates: Array<{ 'package-ecosystem': string; directory: string; schedule: { interval: string } }> };
  assert.equal(config.version, 2);
  assert.deepEqual(config.updates.map((u) => [u['package-ecosystem'], u.directory, u.schedule.interval]), [
    ['npm', '/', 'weekly'],
    ['docker', '/', 'weekly'],
    ['github-actions', '/', 'weekly'],
  ]);
});
