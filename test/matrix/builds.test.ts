/**
 * interop/install.sh's builds (src/matrix/builds.ts): a program an entry builds is built again when
 * it is missing and when the driver it was built from has changed in the checkout, and left alone
 * otherwise. install.mjs runs on a registry of one made-up entry in a checkout of its own, its build
 * a shell script copied into a cache of its own (XDG_CACHE_HOME), so nothing of the machine is used.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildCurrent, buildStamp, interopCache, recordBuild } from '../../src/matrix/builds.js';
import type { Implementation } from '../../src/matrix/registry.js';
import { tempDir } from '../support/harness.js';

const INSTALL = fileURLToPath(new URL('../../../interop/install.mjs', import.meta.url));
const CACHE_DIR = '"${XDG_CACHE_HOME:-$HOME/.cache}/wsgate-interop"';

const entry: Implementation = {
  name: 'made-up',
  title: 'a made-up echo client',
  language: 'sh',
  homepage: 'https://made-up.example/',
  install: {
    from: 'bundled',
    build: `mkdir -p ${CACHE_DIR} && cp interop/sh/made-up-echo.sh ${CACHE_DIR}/made-up-echo && chmod +x ${CACHE_DIR}/made-up-echo`,
  },
  version: { from: 'command', command: 'echo 1.0.0' },
  roles: { client: { command: '"${XDG_CACHE_HOME:-$HOME/.cache}/wsgate-interop/made-up-echo" {url}', args: [], unsupported: [] } },
  supports: { permessageDeflate: false, http2: false },
};

/** A checkout of its own with the entry and its driver's source; its cache beside it. */
async function checkout(): Promise<{ root: string; env: NodeJS.ProcessEnv }> {
  const dir = await tempDir('wsgate-builds-');
  const root = path.join(dir, 'checkout');
  mkdirSync(path.join(root, 'interop', 'implementations'), { recursive: true });
  mkdirSync(path.join(root, 'interop', 'sh'), { recursive: true });
  writeFileSync(path.join(root, 'interop', 'implementations', 'made-up.json'), `${JSON.stringify(entry, null, 2)}\n`);
  writeFileSync(path.join(root, 'interop', 'sh', 'made-up-echo.sh'), '#!/bin/sh\necho one\n');
  chmodSync(path.join(root, 'interop', 'sh', 'made-up-echo.sh'), 0o755);
  return { root, env: { ...process.env, XDG_CACHE_HOME: path.join(dir, 'cache') } };
}

function install(root: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [INSTALL, 'made-up'], { cwd: root, env, timeout: 30_000 }, (err, stdout) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stdout });
    });
  });
}

test("a build's stamp is its command and the checkout's files it names: it changes with the driver's source, not with anything else", async () => {
  const { root, env } = await checkout();
  const first = buildStamp(entry, root);
  assert.match(first ?? '', /^[0-9a-f]{64}$/);
  assert.equal(buildStamp(entry, root), first);
  writeFileSync(path.join(root, 'interop', 'unrelated.txt'), 'x');
  assert.equal(buildStamp(entry, root), first);
  writeFileSync(path.join(root, 'interop', 'sh', 'made-up-echo.sh'), '#!/bin/sh\necho two\n');
  assert.notEqual(buildStamp(entry, root), first);
  assert.equal(buildStamp({ ...entry, install: { from: 'bundled' } }, root), null);
  // Current only once recorded, and only for the source it was recorded with.
  assert.equal(buildCurrent(entry, root, env), false);
  recordBuild(entry, root, env);
  assert.equal(buildCurrent(entry, root, env), true);
  writeFileSync(path.join(root, 'interop', 'sh', 'made-up-echo.sh'), '#!/bin/sh\necho three\n');
  assert.equal(buildCurrent(entry, root, env), false);
  assert.equal(buildCurrent({ ...entry, install: { from: 'bundled' } }, root, env), true);
});

test('install.sh builds a missing program, leaves a current one alone, and builds again one whose driver changed', async () => {
  const { root, env } = await checkout();
  const program = path.join(interopCache(env), 'made-up-echo');
  const built = (): string => readFileSync(program, 'utf8');

  let r = await install(root, env);
  assert.equal(r.code, 0, r.stdout);
  assert.match(r.stdout, /install: made-up 1\.0\.0: installed now/);
  assert.match(built(), /echo one/);

  r = await install(root, env);
  assert.equal(r.code, 0, r.stdout);
  assert.match(r.stdout, /install: made-up 1\.0\.0: installed\n/);
  assert.doesNotMatch(r.stdout, /\/bin\/sh -c/);

  writeFileSync(path.join(root, 'interop', 'sh', 'made-up-echo.sh'), '#!/bin/sh\necho two\n');
  r = await install(root, env);
  assert.equal(r.code, 0, r.stdout);
  assert.match(r.stdout, /installed now/);
  assert.match(built(), /echo two/);

  rmSync(program);
  r = await install(root, env);
  assert.equal(r.code, 0, r.stdout);
  assert.match(built(), /echo two/);
});
