/**
 * Package sources come from the machine's own configuration: the base-image script reads the Debian
 * mirror from apt (.ci/container/apt-mirrors.sh) and stops with one line when there is none, and no
 * tracked file names a package registry's or mirror's host.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../support/harness.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SCRIPT = path.join(ROOT, '.ci/container/apt-mirrors.sh');

/** Runs apt-mirrors.sh on an apt directory holding `files` (relative path → content). */
async function mirrors(files: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const dir = await tempDir('wsgate-apt-');
  await mkdir(path.join(dir, 'sources.list.d'));
  for (const [name, content] of Object.entries(files)) await writeFile(path.join(dir, name), content);
  return new Promise((resolve) => {
    execFile('bash', [SCRIPT], { env: { ...process.env, APT_DIR: dir } }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : -1, stdout, stderr });
    });
  });
}

describe('apt-mirrors.sh', () => {
  test('deb822 sources: the release mirror and the security mirror, disabled and deb-src stanzas skipped', async () => {
    const r = await mirrors({
      'sources.list.d/debian.sources': [
        'Types: deb-src',
        'URIs: http://src.example/debian',
        'Suites: bookworm',
        '',
        'Types: deb',
        'Enabled: no',
        'URIs: http://off.example/debian',
        'Suites: bookworm',
        '',
        'Types: deb',
        '# a comment',
        'URIs: http://mirror.example/debian',
        'Suites: bookworm bookworm-updates',
        'Components: main',
        '',
        'Types: deb',
        'URIs: http://security.example/debian-security',
        'Suites: bookworm-security',
        'Components: main',
      ].join('\n'),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'MIRROR=http://mirror.example/debian\nSECURITY_MIRROR=http://security.example/debian-security\n');
  });

  test('one-line sources (sources.list, with options), no security source', async () => {
    const r = await mirrors({
      'sources.list': '# deb http://commented.example/debian bookworm main\ndeb [arch=amd64 signed-by=/k.gpg] http://line.example/debian bookworm main\n',
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'MIRROR=http://line.example/debian\n');
  });

  test('no apt source at all: one line on stderr, exit 2', async () => {
    const r = await mirrors({ 'sources.list.d/other.list.disabled': 'deb http://x.example/debian bookworm main\n' });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trim().split('\n').length, 1);
    assert.match(r.stderr, /^apt-mirrors: no Debian mirror in this machine's apt sources/);
  });
});

// Hosts a tracked file may name: the project's own pages, specs, funding links in the lock file,
// examples and loopback. docker.io appears only as the registry part of image names (podman tags).
const ALLOWED_HOSTS = new Set([
  'github.com',
  'docs.github.com',
  'www.w3.org',
  'opencollective.com',
  'www.patreon.com',
  'feross.org',
  'docker.io',
  // GitHub's container registry: where release.yml publishes the image (ghcr.io/OWNER/wsgate).
  'ghcr.io',
  'localhost',
  // The published matrix's badges (docs/matrix.md): Shields (its site and its renderer) draws the
  // endpoint JSON the project's GitHub Pages serve; none of them is a package source.
  'shields.io',
  'img.shields.io',
  'wsgate.github.io',
  // The interop registry's homepages (interop/implementations/).
  'www.boost.org',
  'wpewebkit.org',
  '127.0.0.1',
  // coder/websocket's Go import path: a directory under Debian's /usr/share/gocode, where its test
  // suite is copied from and run offline (GOPROXY=off); nothing is fetched from it.
  'nhooyr.io',
  // The interop registry's homepages (interop/implementations/*.json): the projects' own pages a
  // reader of the matrix follows; every package comes from the machine's apt or npm configuration.
  'www.chromium.org',
  'docs.deno.com',
  'www.mozilla.org',
  'www.haproxy.org',
  'jetty.org',
  'libwebsockets.org',
  'nginx.org',
  'nodejs.org',
  // Java's own package names in interop/jvm/JettyEcho.java's imports, not hosts.
  'java.io',
  'java.net',
  'org.eclipse.jetty.io',
]);

test('no tracked file names a package registry or mirror host (every host named is on the allowlist)', async () => {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '');
  assert.ok(files.length > 100, 'not a checkout');
  const found = new Map<string, string>();
  // action/dist/ is generated (.ci/action-bundle.mjs; CI checks it equals a fresh build of src/):
  // the hosts in it are its vendors' own words (lodash's error text, licence texts), not sources.
  for (const file of files.filter((f) => !f.startsWith('action/dist/'))) {
    const text = await readFile(path.join(ROOT, file), 'utf8').catch(() => '');
    if (text.includes('\0')) continue;
    // Hosts in URLs, and bare domain names (a registry is often written without a scheme).
    for (const m of text.matchAll(/\b(?:https?:\/\/)?((?:[a-z0-9-]+\.)+(?:org|com|net|io|dev|cloud))\b/gi)) {
      const host = (m[1] ?? '').toLowerCase();
      if (ALLOWED_HOSTS.has(host) || host.endsWith('.example') || host === 'example.com' || host.endsWith('.example.com')) continue;
      if (!found.has(host)) found.set(host, file);
    }
  }
  assert.deepEqual(
    [...found].map(([host, file]) => `${host} (${file})`),
    [],
  );
});
