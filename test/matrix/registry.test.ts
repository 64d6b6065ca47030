/**
 * The registry of implementations (interop/implementations/): every entry is valid and names
 * programs the repository has; versions are read from what is installed; a bad file is one line
 * naming it; and a row's command really plays cases (Autobahn|Python, Autobahn's own library).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../src/errors.js';
import { type Implementation, readRegistry } from '../../src/matrix/registry.js';
import { unsupportedOf } from '../../src/matrix/rows.js';
import { installedVersion, isInstalled } from '../../src/matrix/version.js';
import { needs } from '../support/requirements.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DIR = path.join(ROOT, 'interop/implementations');

function entry(name: string): Implementation {
  const impl = readRegistry(DIR).find((i) => i.name === name);
  assert.ok(impl, `${name} is in the registry`);
  return impl;
}

test('every file of interop/implementations/ is a valid entry named after its name', () => {
  const files = readdirSync(DIR);
  assert.deepEqual(
    files.filter((f) => !f.endsWith('.json')),
    [],
  );
  const names = readRegistry(DIR).map((i) => `${i.name}.json`);
  assert.deepEqual(names, [...files].sort());
  // What issue 53 asks for at least, in both roles where the library has them.
  for (const [name, roles] of Object.entries({
    'ws-bundled': ['client', 'server'],
    ws: ['client', 'server'],
    undici: ['client'],
    'python-websockets': ['client', 'server'],
    'python-autobahn': ['client', 'server'],
    'python-wsproto': ['client', 'server'],
    chromium: ['client'],
    firefox: ['client'],
  }))
    assert.deepEqual(Object.keys(entry(name).roles).sort(), roles, name);
  // Issue 53: at least 20 implementations in at least 6 languages, and a proxy under test in front of one of them.
  const registry = readRegistry(DIR);
  assert.ok(registry.length >= 20, `${registry.length} implementations`);
  assert.ok(new Set(registry.map((i) => i.language)).size >= 6, [...new Set(registry.map((i) => i.language))].join(', '));
  const proxies = registry.filter((i) => i.proxyFor !== undefined);
  assert.ok(proxies.length >= 1);
  for (const p of proxies)
    assert.ok(
      registry.some((i) => i.name === p.proxyFor && i.roles.server !== undefined),
      `${p.name} stands in front of ${p.proxyFor}, which is no server of the registry`,
    );
});

test('every program a command or its build names is in the repository (dist/src/X.js: its source, src/X.ts)', () => {
  for (const impl of readRegistry(DIR)) {
    for (const [role, r] of Object.entries(impl.roles)) {
      if (r === undefined) continue;
      const sources = (text: string): string[] => text.split(/[\s"']+/).filter((w) => /^(interop|dist)\/.*\.(py|mjs|cjs|js|rb|go|cpp|java)$/.test(w));
      // A compiled program is run from the cache its install's build writes: the build names its source.
      const programs = [...sources(r.command ?? ''), ...sources(impl.install.build ?? '')];
      if (r.command !== undefined) assert.notEqual(programs.length, 0, `${impl.name} ${role}: its command (or its build) names no program of the repository`);
      for (const p of programs) {
        const source = p.replace(/^dist\/(src\/.*)\.js$/, '$1.ts');
        assert.ok(existsSync(path.join(ROOT, source)), `${impl.name} ${role}: ${source} does not exist`);
      }
      // The placeholder the driver fills: {url} for a client command, {port} for a server's.
      if (r.command !== undefined) assert.match(r.command, role === 'client' ? /\{url\}/ : /\{port\}/, `${impl.name} ${role}`);
    }
  }
});

test('installedVersion reads an npm package from node_modules, and is null for what is not installed', () => {
  const ws = (createRequire(import.meta.url)('ws/package.json') as { version: string }).version;
  assert.equal(installedVersion(entry('ws'), ROOT), ws);
  assert.equal(isInstalled(entry('ws'), ROOT), true);
  const absent = (version: Implementation['version']): Implementation => ({ ...entry('ws'), version });
  assert.equal(installedVersion(absent({ from: 'npm', package: 'wsgate-no-such-package' }), ROOT), null);
  assert.equal(installedVersion(absent({ from: 'npm', package: 'ws', prefix: 'interop/no-such-prefix' }), ROOT), null);
  assert.equal(installedVersion(absent({ from: 'dpkg', package: 'wsgate-no-such-package' }), ROOT), null);
  assert.equal(installedVersion(absent({ from: 'command', command: 'exit 3' }), ROOT), null);
  assert.equal(isInstalled(absent({ from: 'command', command: 'exit 3' }), ROOT), false);
  // A command's first line, as printed.
  assert.equal(installedVersion(absent({ from: 'command', command: 'node --version' }), ROOT), process.version);
});

test('a bad file is one UsageError line naming it', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'wsgate-registry-'));
  try {
    const good = readFileSync(path.join(DIR, 'undici.json'), 'utf8');
    const cases: [string, string, RegExp][] = [
      ['undici.json', '{ "name": "undici",', /not valid JSON/],
      ['undici.json', good.replace('"client"', '"clients"'), /roles/],
      ['other.json', good, /the file must be undici\.json/],
    ];
    for (const [file, text, why] of cases) {
      for (const f of readdirSync(dir)) rmSync(path.join(dir, f));
      writeFileSync(path.join(dir, file), text);
      assert.throws(
        () => readRegistry(dir),
        (err: unknown) => {
          assert.ok(err instanceof UsageError);
          assert.ok(err.message.startsWith(path.join(dir, file)), err.message);
          assert.match(err.message, why);
          assert.doesNotMatch(err.message, /\n/);
          return true;
        },
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the python-autobahn row's client command passes 1.1.1 and 2.1", { skip: needs('python-autobahn'), timeout: 120_000 }, () => {
  const command = entry('python-autobahn').roles.client?.command;
  assert.ok(command);
  const outdir = mkdtempSync(path.join(tmpdir(), 'wsgate-registry-run-'));
  try {
    const cli = path.join(ROOT, 'dist/src/cli.js');
    const args = [cli, 'run', '--client', command, '--cases', '1.1.1', '2.1', '--url', 'ws://127.0.0.1:0', '--outdir', outdir];
    const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 110_000 });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const summary = JSON.parse(readFileSync(path.join(outdir, 'summary.json'), 'utf8')) as { counts: { total: number; passed: number } };
    assert.deepEqual([summary.counts.total, summary.counts.passed], [2, 2]);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
});

test('a role without permessage-deflate cannot play groups 12 and 13: they are unsupported, beside what its entry names', () => {
  const base = entry('python-websockets');
  const withOut = { ...base, supports: { permessageDeflate: false, http2: false } };
  assert.deepEqual(unsupportedOf(withOut, 'client'), ['12.*', '13.*']);
  const client = base.roles.client;
  assert.ok(client);
  const naming = { ...withOut, roles: { client: { ...client, unsupported: ['9.*'] } } };
  assert.deepEqual(unsupportedOf(naming, 'client'), ['9.*', '12.*', '13.*']);
  // Named by the entry and implied by its supports: once each.
  assert.deepEqual(unsupportedOf({ ...entry('python-aiohttp'), supports: { permessageDeflate: false, http2: false } }, 'client'), ['12.*', '13.*']);
  const withDeflate = { ...entry('python-autobahn'), supports: { permessageDeflate: true, http2: false } };
  assert.deepEqual(unsupportedOf(withDeflate, 'server'), withDeflate.roles.server?.unsupported ?? []);
});
