/**
 * Releases of one npm implementation side by side (`wsgate matrix --versions`): each release is
 * installed by interop/install.sh NAME@VERSION into a prefix of its own, VERSIONS_DIR/NAME@VERSION
 * (node_modules/PACKAGE under it), and its rows run the registry's commands with WSGATE_NPM_PREFIX
 * naming that prefix, which the commands of an entry with `install.releases` honour (they load the
 * package from there, not the checkout's). The version a row records is read from that prefix.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { UsageError } from '../errors.js';
import type { Implementation } from './registry.js';

/** Where releases are installed, relative to the checkout's root (gitignored). */
export const VERSIONS_DIR = 'interop/.versions';

/** The environment variable a release row's command gets: the absolute path of the release's prefix. */
export const PREFIX_ENV = 'WSGATE_NPM_PREFIX';

/** An exact release as the command line and install.sh name it: 8.2.0, 1.0.0-beta.1 (not a range). */
export function isRelease(spec: string): boolean {
  return semver.valid(spec) === spec;
}

/** The entry as it is installed for one release: the package at that version, in the release's own prefix. */
export function releaseOf(impl: Implementation, release: string, versionsDir: string = VERSIONS_DIR): Implementation {
  refuseWithoutReleases(impl);
  if (!isRelease(release)) throw new UsageError(`${impl.name}@${release}: give an exact release (8.2.0), not a range`);
  const prefix = releasePrefix(impl.name, release, versionsDir);
  return {
    ...impl,
    install: { ...impl.install, package: `${impl.install.package}@${release}`, prefix },
    version: { ...impl.version, prefix },
  };
}

/** An implementation installed from npm and versioned by its package. */
type NpmImplementation = Implementation & {
  install: Extract<Implementation['install'], { from: 'npm' }>;
  version: Extract<Implementation['version'], { from: 'npm' }>;
};

/** A usage error unless IMPL can run releases: an npm implementation whose commands load the release's prefix. */
export function refuseWithoutReleases(impl: Implementation): asserts impl is NpmImplementation {
  if (impl.install.from !== 'npm' || impl.version.from !== 'npm' || impl.install.releases !== true) {
    throw new UsageError(`${impl.name}: --versions needs an npm implementation whose commands load ${PREFIX_ENV} (its install has "releases": true)`);
  }
}

/** The prefix of a release: VERSIONS_DIR/NAME@VERSION. */
export function releasePrefix(name: string, release: string, versionsDir: string = VERSIONS_DIR): string {
  return path.join(versionsDir, `${name}@${release}`);
}

/**
 * The releases `--versions` names, each once, oldest first (so that neighbours are consecutive
 * releases). An exact release (8.2.0) is itself, installed or not (its row says how to install it);
 * an npm range ('>=7 <9', '8.x', '7 || 8') is every release of `installed` that satisfies it, as the
 * matrix installs nothing: a range that none satisfies is a usage error naming install.sh.
 */
export function resolveReleases(name: string, specs: readonly string[], installed: readonly string[]): string[] {
  const out: string[] = [];
  for (const spec of specs) {
    if (isRelease(spec)) {
      out.push(spec);
      continue;
    }
    if (semver.validRange(spec) === null) throw new UsageError(`matrix --versions ${spec}: neither a release (8.2.0) nor an npm range ('>=7 <9', '8.x')`);
    const inRange = installed.filter((r) => semver.satisfies(r, spec));
    if (inRange.length === 0) {
      throw new UsageError(
        `matrix --versions '${spec}': no installed release of ${name} satisfies it (install them: interop/install.sh '${name}@${spec}' [--minors])`,
      );
    }
    out.push(...inRange);
  }
  return [...new Set(out)].sort(semver.compare);
}

/** The releases of NAME installed under DIR (its NAME@VERSION prefixes), oldest first; none when DIR is missing. */
export function installedReleases(name: string, dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  const releases = entries.filter((e) => e.startsWith(`${name}@`)).map((e) => e.slice(name.length + 1));
  return releases.filter(isRelease).sort(semver.compare);
}

/**
 * What `interop/install.sh 'NAME@RANGE'` installs of the published releases: every one that
 * satisfies RANGE (pre-releases only when it names one), or with `minors` the newest patch of each
 * major.minor in it ("every minor of ws 7 and 8": `ws@'7 || 8' --minors`). Oldest first.
 */
export function pickReleases(published: readonly string[], range: string, minors: boolean): string[] {
  if (semver.validRange(range) === null) throw new UsageError(`${range}: not an npm range ('>=7 <9', '8.x', '7 || 8')`);
  const matching = published.filter((v) => isRelease(v) && semver.satisfies(v, range)).sort(semver.compare);
  if (!minors) return matching;
  const newest = new Map<string, string>();
  for (const v of matching) newest.set(`${semver.major(v)}.${semver.minor(v)}`, v);
  return [...newest.values()];
}
