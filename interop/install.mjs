#!/usr/bin/env node
/**
 * Installs implementations of the interop registry (interop/implementations/NAME.json) from their
 * `install` fields; what is installed already (its version reads, and its build is there and was made
 * from the checkout's sources: src/matrix/builds.ts) is left alone. Run by
 * interop/install.sh, from the checkout's root, after the build (it reads the registry and the
 * versions with wsgate's own code: dist/src/matrix/).
 *
 *   node interop/install.mjs [NAME ...]     default: every implementation
 *   node interop/install.mjs NAME@VERSION ...
 *   node interop/install.mjs [--minors] 'NAME@RANGE' ...
 *
 * NAME@VERSION (`wsgate matrix --only NAME --versions VERSION ...`): that release of an npm
 * implementation whose entry has "releases": true, into a prefix of its own,
 * interop/.versions/NAME@VERSION (gitignored), beside every other release. NAME@RANGE (an npm range:
 * 'ws@7 || 8', 'ws@>=8.20 <8.22'): every published release in it (`npm view PACKAGE versions`), or
 * with --minors the newest patch of each minor; `wsgate matrix --versions RANGE` then runs them.
 *
 * Debian packages come from the machine's apt sources (one `apt-get update` first), npm packages from
 * its npm configuration. Exit 0: all of them installed; 1: some could not be, one line each at the end.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { buildCurrent, recordBuild } from '../dist/src/matrix/builds.js';
import { readRegistry } from '../dist/src/matrix/registry.js';
import { isRelease, pickReleases, refuseWithoutReleases, releaseOf } from '../dist/src/matrix/releases.js';
import { programsFound } from '../dist/src/matrix/rows.js';
import { installedVersion } from '../dist/src/matrix/version.js';

const root = process.cwd();
const registry = readRegistry(path.join(root, 'interop/implementations'));
const minors = process.argv.includes('--minors');
const asked = process.argv.slice(2).filter((a) => a !== '--minors');
const bad = asked.find((a) => a.startsWith('--'));
if (bad !== undefined) {
  process.stderr.write(`install: unknown option ${bad} (usage: interop/install.sh [--minors] [NAME | NAME@VERSION | 'NAME@RANGE'] ...)\n`);
  process.exit(2);
}
const nameOf = (arg) => arg.replace(/@.*$/s, '');
const unknown = asked.filter((a) => !registry.some((i) => i.name === nameOf(a)));
if (unknown.length > 0) {
  process.stderr.write(`install: no such implementation: ${unknown.join(', ')} (known: ${registry.map((i) => i.name).join(' ')})\n`);
  process.exit(2);
}
/** The entries to install: NAME as the registry has it, NAME@VERSION (or each release of NAME@RANGE) as that release's own (its package@VERSION, its prefix). */
function chosenEntries() {
  if (asked.length === 0) return registry;
  return asked.flatMap((arg) => {
    const impl = registry.find((i) => i.name === nameOf(arg));
    if (!arg.includes('@')) return [impl];
    const spec = arg.slice(arg.indexOf('@') + 1);
    let releases = [];
    try {
      releases = isRelease(spec) ? [spec] : publishedIn(impl, spec);
      return releases.map((r) => ({ ...releaseOf(impl, r), name: `${impl.name}@${r}` }));
    } catch (err) {
      process.stderr.write(`install: ${err.message}\n`);
      process.exit(2);
    }
    return releases;
  });
}

/** The published releases of IMPL's package in RANGE (every one, or the newest of each minor with --minors). */
function publishedIn(impl, range) {
  refuseWithoutReleases(impl); // before asking npm
  const view = spawnSync('npm', ['view', impl.install.package, 'versions', '--json'], { cwd: root, encoding: 'utf8' });
  if (view.status !== 0) throw new Error(`npm view ${impl.install.package} versions: ${(view.stderr || view.error?.message || '').trim().split('\n')[0]}`);
  const published = [JSON.parse(view.stdout)].flat();
  const picked = pickReleases(published, range, minors);
  if (picked.length === 0) throw new Error(`${impl.name}@${range}: no published release of ${impl.install.package} is in that range`);
  process.stdout.write(`install: ${impl.name}@${range}${minors ? ' --minors' : ''}: ${picked.join(' ')}\n`);
  return picked;
}
const chosen = chosenEntries();
const sudo = process.getuid?.() === 0 ? [] : ['sudo'];

/** Runs a command with its output on ours; the reason it failed, or null. */
function run(argv, env = {}) {
  process.stdout.write(`install: ${argv.join(' ')}\n`);
  const r = spawnSync(argv[0], argv.slice(1), { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.error) return `${argv[0]}: ${r.error.message}`;
  return r.status === 0 ? null : `${argv.join(' ')} exited with ${r.status ?? r.signal}`;
}

let aptUpdated = null; // null: not yet; else the reason it failed ('' when it did not)
function aptInstall(packages) {
  if (aptUpdated === null) aptUpdated = run([...sudo, 'apt-get', 'update']) ?? '';
  if (aptUpdated !== '') return aptUpdated;
  return run([...sudo, 'apt-get', 'install', '-y', '--no-install-recommends', ...packages], { DEBIAN_FRONTEND: 'noninteractive' });
}

function npmInstall({ package: pkg, prefix }) {
  const where = prefix === undefined ? [] : ['--prefix', path.resolve(root, prefix)];
  if (prefix !== undefined) mkdirSync(path.resolve(root, prefix), { recursive: true });
  return run(['npm', 'install', '--no-save', '--no-audit', '--no-fund', ...where, pkg]);
}

/** Installs IMPL; the reason it is still not installed, or null. */
function install(impl) {
  const how = impl.install;
  let failed = null;
  if (how.from === 'apt') failed = aptInstall(how.packages);
  else if (how.from === 'npm') failed = npmInstall(how);
  else failed = null; // bundled: wsgate, Node.js or the machine brings it; only its build can be missing
  if (failed === null && how.build !== undefined) failed = runBuild(impl);
  if (failed !== null) return failed;
  if (installedVersion(impl, root) === null) return `installed, but its version does not read (${describe(impl.version)})`;
  return programsFound(impl, root) ? null : 'installed, but the program one of its roles starts is missing';
}

/** Runs IMPL's build and, when it succeeds, records what it was made from; the reason it failed, or null. */
function runBuild(impl) {
  const failed = run(['/bin/sh', '-c', impl.install.build]);
  if (failed === null) recordBuild(impl, root);
  return failed;
}

/** Runs IMPL's build alone; the reason its programs are still missing, or null. */
function buildOnly(impl) {
  if (impl.install.build === undefined) return 'its program is missing and its entry has no build';
  const failed = runBuild(impl);
  if (failed !== null) return failed;
  return programsFound(impl, root) ? null : 'its build ran, but its program is still missing';
}

function describe(version) {
  if (version.from === 'command') return `\`${version.command}\``;
  return `${version.from} ${version.package}`;
}

const failures = [];
for (const impl of chosen) {
  const before = installedVersion(impl, root);
  const built = programsFound(impl, root) && buildCurrent(impl, root);
  if (before !== null && built) {
    process.stdout.write(`install: ${impl.name} ${before}: installed\n`);
    continue;
  }
  // Installed, but a program its build makes is missing (a fresh cache), or was built from another
  // source than the checkout's (a driver changed since): only the build runs.
  const why = before !== null ? buildOnly(impl) : install(impl);
  if (why === null) process.stdout.write(`install: ${impl.name} ${installedVersion(impl, root)}: installed now\n`);
  else failures.push(`${impl.name}: ${why}`);
}
for (const line of failures) process.stdout.write(`install: could not install ${line}\n`);
process.exit(failures.length === 0 ? 0 : 1);
