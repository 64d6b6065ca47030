/**
 * The README's promise: on a fresh clone, on a machine with only Node.js, `npm ci && npm test` passes.
 * What npm can install (the pinned releases of test/fixtures/robustness/), the test command installs
 * itself; what needs the machine's package manager, a test declares (test/support/requirements.ts) and
 * skips without, with one line naming the script that installs it. .ci/run installs every machine
 * package and runs the suite with WSGATE_TEST_REQUIRE_ALL=1, so there nothing may skip; these tests
 * check the other side cheaply, on any machine:
 * - every test file that reaches for an outside tool or a pinned release declares it;
 * - those files load and run their hooks with every requirement counted absent (WSGATE_TEST_ABSENT=all),
 *   and each requirement's skip line names its install script;
 * - a pinned release whose node_modules is missing never resolves to another release (the repository's
 *   own ws, say): its script refuses, the installer installs it from the lockfile, and when npm cannot
 *   (no registry, no cache) the installer says why and the tests skip with that line.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runNode, tempDir } from '../support/harness.js';
import { PINNED_RELEASES, releaseProblem } from '../support/requirements.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DIST_TEST = fileURLToPath(new URL('../', import.meta.url));

/** Signs in a test's code that it reaches outside the repository: a machine package or a pinned release. */
const OUTSIDE = [
  /\/usr\/bin\/python3|\bPYTHON\b|'python-(websockets|aiohttp|tornado|websocket)/,
  /chromium|playwright|launchBrowser|headless\(/,
  /haproxy|nghttpx|startProxy/,
  /\/usr\/bin\/go\b|\bGO\b|NHOOYR/,
  /\bcurl\b|\bjq\b/,
  /fixtures\/robustness|\brelease\(|pinnedClient\(|pinnedRelease\(/,
];
/** Files whose code matches a sign above without running anything outside: why. */
const NOT_OUTSIDE: Record<string, string> = {
  'test/ci/workflows.test.ts': 'reads the workflows and .ci/ scripts as text',
  'test/ci/fresh-machine.test.ts': 'this file',
  'test/peer/watch.test.ts': 'names launchBrowser in its scan of the source; launches no browser',
  'test/wstest/spec-file.test.ts': "'curl/8' is an agent name in a spec",
  'test/ci/package-sources.test.ts': "names the registry's homepages (www.chromium.org, www.haproxy.org) in its allowlist; runs nothing",
};

function withoutTestContext(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

function testSources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== 'fixtures') testSources(full, out);
    else if (e.isFile() && e.name.endsWith('.test.ts')) out.push(path.relative(ROOT, full));
  }
  return out;
}

/** The code of a TypeScript file without its comment lines. */
function code(file: string): string {
  return readFileSync(path.join(ROOT, file), 'utf8')
    .split('\n')
    .filter((l) => !/^\s*(\*|\/\/|\/\*\*)/.test(l))
    .join('\n');
}

describe('every test that needs something from outside the repository declares it', () => {
  const files = testSources(path.join(ROOT, 'test'));

  test('a test file that reaches for a machine package or a pinned release declares it with needs() or needsReleases()', () => {
    const reaching = files.filter((f) => NOT_OUTSIDE[f] === undefined && OUTSIDE.some((sign) => sign.test(code(f))));
    // The scan sees the files it is about (if it saw none, it would prove nothing).
    for (const f of [
      'test/report/html-chromium.test.ts',
      'test/interop/servers.test.ts',
      'test/robustness/server-role.test.ts',
      'test/wstest/consumer-suites.test.ts',
    ]) {
      assert.ok(reaching.includes(f), `${f} is not recognised as reaching outside`);
    }
    assert.deepEqual(
      reaching.filter((f) => !/\bneeds(Releases|Interop)?\(/.test(code(f))),
      [],
      'these files use something from outside the repository without declaring it (test/support/requirements.ts)',
    );
    // No test checks for a tool by hand and fails without it: that is what needs() is for.
    assert.deepEqual(
      files.filter((f) => /assert\.(ok|fail)\([^\n]*(not installed|install-[a-z-]+\.sh)/.test(code(f))),
      [],
    );
  });

  test('with every requirement counted absent, the files that declare one load and run their hooks, and nothing fails', async () => {
    const declaring = readdirSync(DIST_TEST, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.js') && !f.endsWith('fresh-machine.test.js'))
      .map((f) => path.join(DIST_TEST, f))
      .filter((f) => /\bneeds(Releases)?\(/.test(readFileSync(f, 'utf8')));
    assert.ok(declaring.length >= 15, `only ${declaring.length} files declare a requirement`);
    // A name pattern that matches no test: module code and hooks run, test bodies do not (a skipped
    // test's body never runs anyway; the rest need nothing from outside).
    const res = await new Promise<{ code: number | null; out: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--test', '--test-concurrency=2', '--test-reporter=tap', '--test-name-pattern=^(?!)', ...declaring],
        // Without NODE_TEST_CONTEXT, which would make this a nested run that runs no file.
        { env: { ...withoutTestContext(), WSGATE_TEST_ABSENT: 'all', WSGATE_TEST_REQUIRE_ALL: '' }, timeout: 240_000, maxBuffer: 64 * 1024 * 1024 },
        (err, stdout, stderr) => resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, out: stdout + stderr }),
      );
    });
    assert.equal(res.code, 0, res.out.slice(-4000));
    assert.match(res.out, /^# fail 0$/m);
    assert.match(res.out, /^# cancelled 0$/m);
  });

  test('each requirement, absent, is a skip line naming its install script; under WSGATE_TEST_REQUIRE_ALL=1 it fails instead', async () => {
    const probe = path.join(await tempDir(), 'probe.mjs');
    const module = new URL('../support/requirements.js', import.meta.url).href;
    const script = `import { needs, needsReleases } from ${JSON.stringify(module)};
for (const n of ['python3', 'python-clients', 'chromium', 'haproxy', 'nghttpx', 'go-suite', 'curl', 'jq']) console.log(n + ': ' + needs(n));
console.log('ws-8.17.0: ' + needsReleases('ws-8.17.0'));`;
    writeFileSync(probe, script);
    const list = (env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> =>
      new Promise((resolve) => {
        execFile(process.execPath, [probe], { env: { ...process.env, ...env } }, (err, stdout, stderr) =>
          resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stdout, stderr }),
        );
      });

    // Absent by the switch: every line says so.
    const forced = await list({ WSGATE_TEST_ABSENT: 'all', WSGATE_TEST_REQUIRE_ALL: '' });
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stdout, /^chromium: chromium counted absent \(WSGATE_TEST_ABSENT\)$/m);
    assert.match(forced.stdout, /^ws-8\.17\.0: pinned:ws-8\.17\.0 counted absent \(WSGATE_TEST_ABSENT\)$/m);

    // Absent for real: an empty PATH hides curl and jq (looked up on PATH, then in
    // /usr/sbin and /sbin, where Debian puts the proxies); each line that is not `false` names the
    // script that installs the requirement.
    const emptyPath = await tempDir('wsgate-empty-path-');
    const real = await list({ WSGATE_TEST_ABSENT: '', WSGATE_TEST_REQUIRE_ALL: '', PATH: emptyPath });
    assert.equal(real.code, 0, real.stderr);
    assert.match(real.stdout, /^curl: needs curl: \.ci\/install-consumer-suites\.sh installs it$/m);
    for (const line of real.stdout.trim().split('\n')) {
      const name = line.slice(0, line.indexOf(': '));
      const verdict = line.slice(name.length + 2);
      if (verdict === 'false') continue;
      assert.match(verdict, name === 'ws-8.17.0' ? /npm test (installs|could not install) it/ : /^needs .+: \.ci\/install-[a-z-]+\.sh installs it$/, line);
    }

    // Required (CI): the same missing requirement fails the file that needs it, naming it.
    const strict = await list({ WSGATE_TEST_ABSENT: '', WSGATE_TEST_REQUIRE_ALL: '1', PATH: emptyPath });
    assert.notEqual(strict.code, 0, strict.stdout);
    assert.match(strict.stderr, /Error: WSGATE_TEST_REQUIRE_ALL=1 and a requirement is missing: needs .+: \.ci\/install-[a-z-]+\.sh installs it/);
  });
});

/** A copy of a pinned release's directory (no node_modules) beside a node_modules holding another release of its package. */
async function strandedCopy(name: string, otherRelease: string | null): Promise<{ dir: string; root: string }> {
  const root = await mkdtemp(path.join(await tempDir(), 'fresh-'));
  const fixtures = path.join(root, 'test', 'fixtures', 'robustness');
  mkdirSync(fixtures, { recursive: true });
  for (const f of ['pinned.cjs', 'install.mjs']) cpSync(path.join(PINNED_RELEASES, f), path.join(fixtures, f));
  const dir = path.join(fixtures, name);
  cpSync(path.join(PINNED_RELEASES, name), dir, {
    recursive: true,
    filter: (src) => !src.includes(`${path.sep}node_modules`) && !src.endsWith('.install-error'),
  });
  // What the repository has at its root: today's ws, where Node's resolution would find it.
  if (otherRelease !== null) cpSync(otherRelease, path.join(root, 'node_modules', 'ws'), { recursive: true });
  return { dir, root };
}

function npmInstall(dir: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(dir, '..', 'install.mjs'), dir],
      { env: { ...process.env, WSGATE_TEST_REQUIRE_ALL: '', ...env }, timeout: 200_000 },
      (err, stdout, stderr) => resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stdout, stderr }),
    );
  });
}

describe('a pinned release never resolves to another release', () => {
  const repoWs = path.join(ROOT, 'node_modules', 'ws');
  const repoWsVersion = (JSON.parse(readFileSync(path.join(repoWs, 'package.json'), 'utf8')) as { version: string }).version;

  test("its node_modules removed, the fixture refuses to start (where require would have found the repository's ws); the installer puts it back from the lockfile", async () => {
    assert.notEqual(repoWsVersion, '8.17.0');
    const { dir } = await strandedCopy('ws-8.17.0', repoWs);
    const refused = await runNode(path.join(dir, 'server.cjs'), ['0'], 10_000);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr,
      'ws-8.17.0: ws 8.17.0 is not installed in ws-8.17.0/node_modules: npm test installs it (or node test/fixtures/robustness/install.mjs)\n',
    );
    assert.match(releaseProblem(dir) ?? '', /^ws 8\.17\.0 is not installed in ws-8\.17\.0\/node_modules: npm test installs it/);

    const installed = await npmInstall(dir);
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stdout, /^pinned releases: 1 of 1 ready \(installed ws-8\.17\.0 in [\d.]+ s\)$/m);
    assert.equal(releaseProblem(dir), null);
    assert.equal((JSON.parse(readFileSync(path.join(dir, 'node_modules', 'ws', 'package.json'), 'utf8')) as { version: string }).version, '8.17.0');
    // Again: nothing to do, and quick.
    const again = await npmInstall(dir);
    assert.match(again.stdout, /^pinned releases: 1 of 1 ready$/m);
  });

  test('its node_modules holding another release, the fixture refuses and says which', async () => {
    const { dir } = await strandedCopy('ws-8.17.0', null);
    cpSync(repoWs, path.join(dir, 'node_modules', 'ws'), { recursive: true });
    const refused = await runNode(path.join(dir, 'server.cjs'), ['0'], 10_000);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr,
      `ws-8.17.0: ws-8.17.0/node_modules holds ws ${repoWsVersion}, not the pinned 8.17.0: npm test installs it (or node test/fixtures/robustness/install.mjs)\n`,
    );
  });

  test('npm unreachable (offline, an empty cache): the installer says why in one line and exits 0; the tests skip with that line', async () => {
    const { dir } = await strandedCopy('undici-6.23.0', null);
    const cache = await tempDir('wsgate-empty-npm-cache-');
    const res = await npmInstall(dir, { npm_config_offline: 'true', npm_config_cache: cache });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stderr, /^pinned releases: undici-6\.23\.0 not installed: npm ci failed \(exit \d+\): .+$/m);
    assert.match(res.stdout, /^pinned releases: 0 of 1 ready; the tests that need the other 1 skip$/m);
    assert.ok(!existsSync(path.join(dir, 'node_modules', 'undici')));
    assert.match(
      releaseProblem(dir) ?? '',
      /^undici 6\.23\.0 is not installed in undici-6\.23\.0\/node_modules: npm test could not install it \(npm ci failed \(exit \d+\): .+\)$/,
    );
    // Under WSGATE_TEST_REQUIRE_ALL=1 (CI, .ci/install-robustness-peers.sh) the same is a failure.
    const strict = await npmInstall(dir, { npm_config_offline: 'true', npm_config_cache: cache, WSGATE_TEST_REQUIRE_ALL: '1' });
    assert.equal(strict.code, 1);
    rmSync(dir, { recursive: true, force: true });
  });
});
