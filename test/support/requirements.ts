/**
 * What a test needs from outside the repository, in one place: the machine packages that only the
 * machine's package manager installs (each named with the .ci/ script that installs it), and the
 * pinned releases of test/fixtures/robustness/, which `npm test` installs itself before the tests run
 * (test/fixtures/robustness/install.mjs). A test declares what it needs with `needs(...)` as its
 * `skip` option: absent, it skips with one line naming the way to install it, never fails, never
 * passes silently.
 *
 * Two switches, both read from the environment:
 * - WSGATE_TEST_REQUIRE_ALL=1 (CI, where everything is installed): a missing requirement fails the
 *   file that needs it, so a CI run where everything ran proves it. Not the browsers beside Chromium
 *   (OPTIONAL): CI runs the Chromium path only; their tests run where they are installed.
 * - WSGATE_TEST_ABSENT=all or a comma list of names: those requirements count as missing, to check
 *   that the tests needing them skip cleanly (test/ci/fresh-machine.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverEngine, ENGINES } from '../../src/browsers/engines.js';

/** Where the pinned releases live (read in place: their node_modules are not copied to dist/). */
export const PINNED_RELEASES = fileURLToPath(new URL('../../../test/fixtures/robustness/', import.meta.url));

interface PinnedStatus {
  dir: string;
  name: string;
  pinned: string;
  installed: string | null;
  problem: string | null;
}
const pinnedModule = createRequire(import.meta.url)(path.join(PINNED_RELEASES, 'pinned.cjs')) as {
  pinnedStatus: (dir: string) => PinnedStatus;
  installError: (dir: string) => string | null;
};

/** Debian's /usr/bin/python3: the Python clients and servers run with it, never the python3 first on PATH. */
export const PYTHON = '/usr/bin/python3';
/** Debian's Go toolchain and the Go sources of coder/websocket (nhooyr.io/websocket) with its own tests. */
export const GO = '/usr/bin/go';
export const NHOOYR = '/usr/share/gocode/src/nhooyr.io/websocket';

/** The executable NAME on PATH or in the system directories Debian uses (/usr/sbin is not on every PATH); null when absent. */
export function executable(name: string, extraDirs: readonly string[] = ['/usr/sbin', '/sbin']): string | null {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter((d) => d !== ''), ...extraDirs];
  for (const dir of dirs) {
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not here.
    }
  }
  return null;
}

function pythonImports(modules: string): boolean {
  try {
    execFileSync(PYTHON, ['-c', `import ${modules}`], { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

/** A machine package a test can need: what it is, the script that installs it, and whether it is here. */
interface MachinePackage {
  what: string;
  script: string;
  present: () => boolean;
}

const MACHINE = {
  python3: { what: `Debian's Python (${PYTHON})`, script: '.ci/install-python-clients.sh', present: () => existsSync(PYTHON) },
  'python-clients': {
    what: `Debian's python3-websockets, -aiohttp, -tornado and -websocket (${PYTHON})`,
    script: '.ci/install-python-clients.sh',
    present: () => pythonImports('websockets, aiohttp, tornado, websocket'),
  },
  'python-autobahn': {
    what: `Debian's python3-autobahn (${PYTHON})`,
    script: 'interop/install.sh python-autobahn',
    present: () => pythonImports('autobahn'),
  },
  chromium: { what: "Debian's chromium", script: '.ci/install-chromium.sh', present: () => chromiumPath() !== null },
  firefox: { what: "Debian's firefox-esr", script: '.ci/install-browsers.sh', present: () => discoverEngine(ENGINES.firefox) !== null },
  webkit: { what: "WPE WebKit's cog (Debian's cog)", script: '.ci/install-browsers.sh', present: () => discoverEngine(ENGINES.webkit) !== null },
  haproxy: { what: "Debian's haproxy", script: '.ci/install-proxies.sh', present: () => executable('haproxy') !== null },
  nghttpx: { what: "Debian's nghttpx (nghttp2-proxy)", script: '.ci/install-proxies.sh', present: () => executable('nghttpx') !== null },
  'go-suite': {
    what: `Debian's Go (${GO}) and coder/websocket's sources with their tests (golang-nhooyr-websocket-dev)`,
    script: '.ci/install-consumer-suites.sh',
    present: () => existsSync(GO) && existsSync(path.join(NHOOYR, 'autobahn_test.go')),
  },
  curl: { what: 'curl', script: '.ci/install-consumer-suites.sh', present: () => executable('curl') !== null },
  jq: { what: 'jq', script: '.ci/install-consumer-suites.sh', present: () => executable('jq') !== null },
} as const satisfies Record<string, MachinePackage>;

/** The name of a machine package a test can need. */
export type MachineRequirement = keyof typeof MACHINE;

/** Debian's chromium, where Debian and Ubuntu install it; null when absent. */
export function chromiumPath(): string | null {
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)) ?? null;
}

function forcedAbsent(name: string): boolean {
  const list = (process.env.WSGATE_TEST_ABSENT ?? '').split(',').map((s) => s.trim());
  return list.includes('all') || list.includes(name);
}

const required = process.env.WSGATE_TEST_REQUIRE_ALL === '1';
/** Requirements CI does not install (the engines beside Chromium): absent, they skip even under WSGATE_TEST_REQUIRE_ALL=1. */
const OPTIONAL: ReadonlySet<string> = new Set(['firefox', 'webkit']);
const seen = new Map<string, string | false>();

/** `false`, or the skip line; under WSGATE_TEST_REQUIRE_ALL=1 a missing requirement throws instead. */
function decide(name: string, missingLine: () => string | null): string | false {
  const known = seen.get(name);
  if (known !== undefined) return known;
  const line = forcedAbsent(name) ? `${name} counted absent (WSGATE_TEST_ABSENT)` : missingLine();
  if (line !== null && required && !forcedAbsent(name) && !OPTIONAL.has(name) && !name.startsWith('interop:'))
    throw new Error(`WSGATE_TEST_REQUIRE_ALL=1 and a requirement is missing: ${line}`);
  const result = line ?? false;
  seen.set(name, result);
  return result;
}

/**
 * For a test's `skip` option: false when every named machine package is installed, else one line
 * naming the first missing one and the script that installs it.
 */
export function needs(...names: MachineRequirement[]): string | false {
  for (const name of names) {
    const pkg: MachinePackage = MACHINE[name];
    const line = decide(name, () => (pkg.present() ? null : `needs ${pkg.what}: ${pkg.script} installs it`));
    if (line !== false) return line;
  }
  return false;
}

/**
 * For a test's `skip` option: false when the interop implementation NAME is installed here, else one
 * line naming what is missing and `interop/install.sh NAME`. `missing` says what is absent (null:
 * nothing). Never required: CI installs no implementation of the registry but the proxies.
 */
export function needsInterop(name: string, missing: () => string | null): string | false {
  return decide(`interop:${name}`, () => {
    const what = missing();
    return what === null ? null : `not installed (${what}): interop/install.sh ${name}`;
  });
}

/** One pinned release of test/fixtures/robustness/: its directory, and why it cannot run (false: ready). */
export interface PinnedRelease {
  dir: string;
  skip: string | false;
}

/**
 * The pinned release in test/fixtures/robustness/NAME, checked before any test uses it: its own
 * node_modules must hold the exact versions its lockfile locks (the fixture scripts load it from
 * there by absolute path and check again), so a missing fixture can never resolve to another release.
 */
export function pinnedRelease(name: string): PinnedRelease {
  const dir = path.join(PINNED_RELEASES, name);
  return { dir, skip: decide(`pinned:${name}`, () => releaseProblem(dir)) };
}

/**
 * Why the pinned release in DIR cannot run, in one line (null: it is installed at its locked
 * versions): what is missing, and either that `npm test` installs it or why it could not.
 */
export function releaseProblem(dir: string): string | null {
  const { problem } = pinnedModule.pinnedStatus(dir);
  if (problem === null) return null;
  const failed = pinnedModule.installError(dir);
  return `${problem}: ${failed === null ? 'npm test installs it (test/fixtures/robustness/install.mjs)' : `npm test could not install it (${failed})`}`;
}

/** For a test's `skip` option: false when every named pinned release is ready, else the first missing one's line. */
export function needsReleases(...names: string[]): string | false {
  for (const name of names) {
    const { skip } = pinnedRelease(name);
    if (skip !== false) return skip;
  }
  return false;
}
