/**
 * The files users look for: the licence package.json names, a changelog entry for the package's
 * version, and a dependency-update config (Renovate) that covers npm, the Dockerfile's base image and
 * the actions.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

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

test('renovate.json: npm minor and patch grouped, no @types/node major, the image kept on its Node major', () => {
  const config = JSON.parse(read('renovate.json')) as { extends: string[]; packageRules: Array<Record<string, unknown>> };
  // config:recommended enables every manager Renovate has, among them npm, dockerfile and github-actions.
  assert.deepEqual(config.extends, ['config:recommended']);
  const rule = (name: string) => config.packageRules.find((r) => JSON.stringify(r).includes(name));
  assert.deepEqual(rule('groupName'), {
    description: rule('groupName')?.description,
    matchManagers: ['npm'],
    matchUpdateTypes: ['minor', 'patch'],
    groupName: 'npm minor and patch',
  });
  assert.deepEqual(rule('@types/node')?.enabled, false);
  assert.deepEqual(rule('"dockerfile"'), {
    description: rule('"dockerfile"')?.description,
    matchManagers: ['dockerfile'],
    matchPackageNames: ['node'],
    matchUpdateTypes: ['major'],
    enabled: false,
  });
  assert.ok(!existsSync(path.join(ROOT, '.github/dependabot.yml')), 'one update bot: Dependabot does not follow an ARG into FROM');
});

test("the Dockerfile's base image is where Renovate finds it: a global ARG with an image:tag@digest default, used by FROM", () => {
  // Renovate expands a global ARG's default in FROM and updates the default; Dependabot would not
  // (dependabot-core#10190), which is why the project uses Renovate.
  const dockerfile = read('Dockerfile');
  const arg = /^ARG BASE_IMAGE=(node:24-bookworm-slim)@sha256:([0-9a-f]{64})$/m.exec(dockerfile);
  assert.ok(arg, 'ARG BASE_IMAGE=node:24-bookworm-slim@sha256:<64 hex digits>');
  const firstFrom = dockerfile.search(/^FROM /m);
  assert.ok(arg.index < firstFrom, 'the ARG comes before the first FROM (a global ARG)');
  assert.match(dockerfile, /^FROM \$\{BASE_IMAGE\} AS runtime$/m);
});
