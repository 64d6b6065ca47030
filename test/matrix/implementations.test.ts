/**
 * The implementations beyond Node.js and Python of interop/implementations/ (issue 53), each a short
 * real run in each of its roles with the command of its registry entry, from the checkout's root:
 * the proxies under test (HAProxy, nginx in front of ws's echo server, server role), gorilla/websocket
 * and nhooyr.io/websocket (Go), websocket-driver (Ruby), WebSocket++ (C++), libwebsockets (C) and
 * Jetty 9 (Java), client and server. An implementation that is not installed (its Debian packages, and its program
 * built into the cache dir when it has a build) skips with one line naming `interop/install.sh NAME`.
 *
 * Expected verdicts: 1.1.1 and 2.1 are OK for every one of them, 5.1 for all but nhooyr (which runs
 * 12.1.1 instead: permessage-deflate is on by default, OK in both roles), 7.1.1 through the proxies.
 * 6.3.1 (invalid UTF-8 in a text message) is OK for websocket-driver, WebSocket++ and Jetty; gorilla/websocket,
 * nhooyr.io/websocket and libwebsockets (with its defaults) do not check UTF-8 and fail it in both roles.
 * A run of a proxy's row leaves no config directory behind (interop/servers/proxy-front.mjs).
 *
 * The rows of issue 53's second part: faye-websocket and WebSocket-Node (npm, both roles; 6.4.1 is
 * Non-Strict: invalid UTF-8 found only once the message is complete), tornado (Debian, both roles;
 * it echoes an invalid close code, 7.9.1, where 1002 is required), Boost.Beast (C++, both roles, with
 * permessage-deflate) and WebKit (WPE WebKit's cog, the client role: `--browser webkit`).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { interopCache } from '../../src/matrix/builds.js';
import { implementationSchema, type Implementation } from '../../src/matrix/registry.js';
import { freePort } from '../../src/processes/server-process.js';
import { installedVersion } from '../../src/matrix/version.js';
import { runCliWith } from '../support/cli-env.js';
import { needsInterop } from '../support/requirements.js';
import { tempDir } from '../support/harness.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CACHE = interopCache();

async function entry(name: string): Promise<Implementation> {
  const file = path.join(ROOT, 'interop', 'implementations', `${name}.json`);
  return implementationSchema.parse(JSON.parse(await readFile(file, 'utf8')));
}

function dpkgInstalled(pkg: string): boolean {
  try {
    return execFileSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).includes('install ok installed');
  } catch {
    return false;
  }
}

/** Why NAME cannot run here (one line naming its install), or false when it can. */
function absent(name: string, packages: string[], built?: string): string | false {
  return needsInterop(name, () => {
    const missing = packages.filter((p) => !dpkgInstalled(p));
    if (built !== undefined && !existsSync(path.join(CACHE, built))) missing.push(`${built} (its build)`);
    return missing.length === 0 ? null : missing.join(', ');
  });
}

/**
 * Why NAME cannot run here, from its registry entry (its version does not read, or its build is
 * missing), or false when it can.
 */
function notInstalled(name: string, built?: string): string | false {
  return needsInterop(name, () => {
    const file = path.join(ROOT, 'interop', 'implementations', `${name}.json`);
    const impl = implementationSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    const missing: string[] = [];
    if (installedVersion(impl, ROOT) === null)
      missing.push(impl.install.from === 'apt' ? impl.install.packages.join(', ') : `its version (${impl.version.from})`);
    if (built !== undefined && !existsSync(path.join(CACHE, built))) missing.push(`${built} (its build)`);
    return missing.length === 0 ? null : missing.join(', ');
  });
}

interface Summary {
  cases: Array<{ id: string; behavior: string | null; behaviorClose: string | null }>;
}

/**
 * Runs the role of the entry (its command, and/or its `wsgate run` arguments) on the cases; the
 * verdicts (behavior/behaviorClose) by case id.
 */
async function run(
  impl: Implementation,
  role: 'client' | 'server',
  cases: string[],
  options: { env?: NodeJS.ProcessEnv | undefined; timeoutMs?: number | undefined } = {},
): Promise<Map<string, string>> {
  const spec = impl.roles[role];
  assert.ok(spec, `${impl.name} has a ${role} role`);
  const { command } = spec;
  const outdir = await tempDir();
  const common = ['--agent', impl.name, '--outdir', outdir, ...spec.args, '--cases', ...cases];
  const args =
    role === 'client'
      ? ['run', ...(command === undefined ? [] : ['--client', command]), '--url', 'ws://127.0.0.1:0', ...common]
      : ['run', '--role', 'server', ...(command === undefined ? [] : ['--server', command]), ...common];
  const res = await runCliWith(args, { cwd: ROOT, timeoutMs: options.timeoutMs ?? 30_000, ...(options.env === undefined ? {} : { env: options.env }) });
  assert.ok(res.code === 0 || res.code === 1, res.stdout + res.stderr);
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as Summary;
  return new Map(summary.cases.map((c) => [c.id, `${c.behavior ?? '-'}/${c.behaviorClose ?? '-'}`]));
}

function expectVerdicts(verdicts: Map<string, string>, expected: Record<string, string>): void {
  assert.deepEqual(Object.fromEntries(verdicts), expected);
}

const OK = 'OK/OK';

/** The launcher's config directories (interop/servers/proxy-front.mjs) in DIR. */
async function proxyDirs(dir: string, proxy: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.startsWith(`wsgate-${proxy}-`));
}

/** A pid no process has now: one of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  assert.ok(child.pid);
  return child.pid;
}

for (const proxy of ['haproxy', 'nginx']) {
  describe(`${proxy} in front of ws's echo server (a proxy under test)`, { skip: absent(proxy, [proxy]) }, () => {
    test('server role: 1.1.1, 2.1, 5.1, 7.1.1 OK through the proxy; no config directory left after the run', async () => {
      const impl = await entry(proxy);
      assert.equal(impl.proxyFor, 'ws');
      // A TMPDIR of the test's own: the launcher's directory goes there, and nothing else's.
      const tmp = await tempDir();
      // A directory a killed launcher left (its pid is gone): the next start removes it.
      const stale = path.join(tmp, `wsgate-${proxy}-${await deadPid()}-abcdef`);
      mkdirSync(stale);
      const verdicts = await run(impl, 'server', ['1.1.1', '2.1', '5.1', '7.1.1'], { env: { TMPDIR: tmp } });
      expectVerdicts(verdicts, { '1.1.1': OK, '2.1': OK, '5.1': OK, '7.1.1': OK });
      assert.deepEqual(await proxyDirs(tmp, proxy), []);
    });

    test('two SIGTERMs at once (to its group, then to itself, as wsgate stops a server): the config directory is removed', async () => {
      const tmp = await tempDir();
      for (let i = 0; i < 10; i++) {
        const port = await freePort('127.0.0.1');
        const child = spawn(process.execPath, ['interop/servers/proxy-front.mjs', proxy, String(port)], {
          cwd: ROOT,
          env: { ...process.env, TMPDIR: tmp },
          stdio: 'ignore',
          detached: true,
        });
        const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
        assert.ok(child.pid);
        // Started once its directory is there and its proxy accepts connections.
        const deadline = performance.now() + 10_000;
        while (!(await accepting(port)) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        assert.equal((await proxyDirs(tmp, proxy)).length, 1);
        process.kill(-child.pid, 'SIGTERM');
        process.kill(child.pid, 'SIGTERM');
        // Its own exit (0, or 1 when it saw its proxy end first), not Node's default action on a signal.
        assert.equal(typeof (await exited), 'number');
        assert.deepEqual(await proxyDirs(tmp, proxy), []);
      }
    });
  });
}

/** Whether 127.0.0.1:port accepts a TCP connection. */
function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const BUILT: Array<{ name: string; packages: string[]; built?: string; expected: Record<string, string> }> = [
  {
    name: 'gorilla',
    packages: ['golang-go', 'golang-github-gorilla-websocket-dev'],
    built: 'gorilla-echo',
    // gorilla/websocket delivers a text message without checking its UTF-8.
    expected: { '1.1.1': OK, '2.1': OK, '5.1': OK, '6.3.1': 'FAILED/FAILED' },
  },
  {
    name: 'nhooyr',
    packages: ['golang-go', 'golang-nhooyr-websocket-dev'],
    built: 'nhooyr-echo',
    // permessage-deflate is on by default; text messages are not checked for UTF-8.
    expected: { '1.1.1': OK, '2.1': OK, '6.3.1': 'FAILED/FAILED', '12.1.1': OK },
  },
  { name: 'ruby-websocket-driver', packages: ['ruby', 'ruby-websocket-driver'], expected: { '1.1.1': OK, '2.1': OK, '5.1': OK, '6.3.1': OK } },
  {
    name: 'libwebsockets',
    packages: ['g++', 'libwebsockets-dev'],
    built: 'libwebsockets-echo',
    // UTF-8 validation is an option (LWS_SERVER_OPTION_VALIDATE_UTF8), off by default.
    expected: { '1.1.1': OK, '2.1': OK, '5.1': OK, '6.3.1': 'FAILED/FAILED' },
  },
  {
    name: 'jetty',
    packages: ['openjdk-17-jdk-headless', 'libjetty9-java', 'libjetty9-extra-java'],
    built: 'jetty-echo',
    expected: { '1.1.1': OK, '2.1': OK, '5.1': OK, '6.3.1': OK },
  },
  {
    name: 'websocketpp',
    packages: ['g++', 'libwebsocketpp-dev', 'libboost-dev'],
    built: 'websocketpp-echo',
    expected: { '1.1.1': OK, '2.1': OK, '5.1': OK, '6.3.1': OK },
  },
];

for (const { name, packages, built, expected } of BUILT) {
  describe(name, { skip: absent(name, packages, built) }, () => {
    for (const role of ['client', 'server'] as const) {
      test(`${role} role: ${Object.entries(expected)
        .map(([id, v]) => `${id} ${v}`)
        .join(', ')}`, async () => {
        expectVerdicts(await run(await entry(name), role, Object.keys(expected)), expected);
      });
    }
  });
}

/** The rows of issue 53's second part, each role with the cases it is asserted on. */
const MORE: Array<{ name: string; built?: string; roles: Array<'client' | 'server'>; expected: Record<string, string>; timeoutMs?: number }> = [
  // Invalid UTF-8 found once the message (6.4.1: its last fragment) is complete: Non-Strict.
  { name: 'faye-websocket', roles: ['client', 'server'], expected: { '1.1.1': OK, '2.1': OK, '5.1': OK, '6.3.1': OK, '6.4.1': 'NON-STRICT/OK' } },
  { name: 'websocket-node', roles: ['client', 'server'], expected: { '1.1.1': OK, '2.1': OK, '5.1': OK, '6.3.1': OK, '6.4.1': 'NON-STRICT/OK' } },
  // tornado sends back the invalid close code it got (7.9.1: 0) instead of failing with 1002.
  { name: 'python-tornado', roles: ['client', 'server'], expected: { '1.1.1': OK, '2.1': OK, '6.3.1': OK, '7.9.1': 'FAILED/WRONG CODE', '12.1.1': OK } },
  {
    name: 'beast',
    built: 'beast-echo',
    roles: ['client', 'server'],
    expected: { '1.1.1': OK, '2.1': OK, '5.1': OK, '6.3.1': OK, '7.9.1': OK, '12.1.1': OK, '13.1.1': OK },
  },
  // One browser start for the run (a few seconds), then its page plays the cases.
  { name: 'webkit', roles: ['client'], expected: { '1.1.1': OK, '2.1': OK, '6.3.1': OK, '7.9.1': OK, '12.1.1': OK }, timeoutMs: 90_000 },
];

for (const { name, built, roles, expected, timeoutMs } of MORE) {
  describe(name, { skip: notInstalled(name, built) }, () => {
    for (const role of roles) {
      test(`${role} role: ${Object.entries(expected)
        .map(([id, v]) => `${id} ${v}`)
        .join(', ')}`, async () => {
        expectVerdicts(await run(await entry(name), role, Object.keys(expected), { timeoutMs }), expected);
      });
    }
  });
}
