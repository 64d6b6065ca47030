/**
 * Releases of one npm implementation side by side (`wsgate matrix --versions`): each release is
 * installed by interop/install.sh NAME@VERSION into a prefix of its own, VERSIONS_DIR/NAME@VERSION
 * (node_modules/PACKAGE under it), and its rows run the registry's commands with WSGATE_NPM_PREFIX
 * naming that prefix, which the commands of an entry with `install.releases` honour (they load the
 * package from there, not the checkout's). The version a row records is read from that prefix.
 */
import path from 'node:path';
import { UsageError } from '../errors.js';
import type { Implementation } from './registry.js';

/** Where releases are installed, relative to the checkout's root (gitignored). */
export const VERSIONS_DIR = 'interop/.versions';

/** The environment variable a release row's command gets: the absolute path of the release's prefix. */
export const PREFIX_ENV = 'WSGATE_NPM_PREFIX';

/** A release as the command line and install.sh name it: 8.2.0, 1.0.0-beta.1 (exact; no ranges). */
const RELEASE = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** The entry as it is installed for one release: the package at that version, in the release's own prefix. */
export function releaseOf(impl: Implementation, release: string, versionsDir: string = VERSIONS_DIR): Implementation {
  if (impl.install.from !== 'npm' || impl.version.from !== 'npm' || impl.install.releases !== true) {
    throw new UsageError(`${impl.name}: --versions needs an npm implementation whose commands load ${PREFIX_ENV} (its install has "releases": true)`);
  }
  if (!RELEASE.test(release)) throw new UsageError(`${impl.name}@${release}: give an exact release (8.2.0), not a range`);
  const prefix = releasePrefix(impl.name, release, versionsDir);
  return {
    ...impl,
    install: { ...impl.install, package: `${impl.install.package}@${release}`, prefix },
    version: { ...impl.version, prefix },
  };
}

/** The prefix of a release: VERSIONS_DIR/NAME@VERSION. */
export function releasePrefix(name: string, release: string, versionsDir: string = VERSIONS_DIR): string {
  return path.join(versionsDir, `${name}@${release}`);
}

/** The releases asked for, each once, oldest first (so that neighbours are consecutive releases). */
export function sortReleases(releases: readonly string[]): string[] {
  for (const r of releases) if (!RELEASE.test(r)) throw new UsageError(`matrix --versions ${r}: give exact releases (8.0.0 8.1.0 …), not a range`);
  return [...new Set(releases)].sort(compareReleases);
}

/** Semantic-version order: numbers by value, a pre-release before its release. */
export function compareReleases(a: string, b: string): number {
  const [coreA = '', preA] = a.split(/-(.*)/s);
  const [coreB = '', preB] = b.split(/-(.*)/s);
  const na = coreA.split('.').map(Number);
  const nb = coreB.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((na[i] ?? 0) !== (nb[i] ?? 0)) return (na[i] ?? 0) - (nb[i] ?? 0);
  if (preA === preB) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return preA.localeCompare(preB, 'en', { numeric: true });
}
