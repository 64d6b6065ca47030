/**
 * The matrix's rows: each selected implementation in each of its selected roles, whether it is
 * installed (its version read from what is installed; `wsgate matrix` installs nothing), and the
 * `wsgate run` arguments its row runs with.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { shellQuote } from '../processes/client-process.js';
import type { Implementation } from './registry.js';
import { installedReleases, PREFIX_ENV, refuseWithoutReleases, releaseOf, resolveReleases, VERSIONS_DIR } from './releases.js';
import { installedVersion } from './version.js';

export type Role = 'client' | 'server';

/** One row: an implementation in one role. */
export interface PlannedRow {
  impl: Implementation;
  role: Role;
  /** NAME-ROLE (NAME@RELEASE-ROLE for a release): the row's key and its report directory under the matrix's. */
  key: string;
  /** The release this row runs (`--versions`), from its own prefix; null: the implementation as the registry installs it. */
  release: string | null;
  /** The release's prefix, absolute (its command gets it as WSGATE_NPM_PREFIX); null for a row without a release. */
  prefix: string | null;
  /** The installed version, or null: not installed (the row is listed, not run). */
  version: string | null;
  /** The shell lines that install it (shown when it is not installed). */
  install: string;
}

/** What selects the rows. */
export interface RowSelection {
  only: readonly string[];
  role: Role | null;
  /** Releases of the one --only implementation to run side by side (empty: the registry's install). */
  versions?: readonly string[];
  /** Where the releases are installed (default interop/.versions), relative to the root. */
  versionsDir?: string;
}

/** The rows of the registry, in its order, clients before servers; an unknown --only name is a usage error. */
export function planRows(registry: readonly Implementation[], select: RowSelection, root: string): PlannedRow[] {
  const names = new Set(registry.map((i) => i.name));
  const unknown = select.only.filter((n) => !names.has(n));
  if (unknown.length > 0) throw new UsageError(`matrix: no implementation ${unknown.map((n) => JSON.stringify(n)).join(', ')} in the registry`);
  if ((select.versions ?? []).length > 0) return releaseRows(registry, select, root);
  const rows: PlannedRow[] = [];
  for (const impl of registry) {
    if (select.only.length > 0 && !select.only.includes(impl.name)) continue;
    for (const role of ['client', 'server'] as const) {
      const r = impl.roles[role];
      if (r === undefined || (select.role !== null && select.role !== role)) continue;
      const found = r.command === undefined || programFound(r.command, root);
      rows.push({
        impl,
        role,
        key: `${impl.name}-${role}`,
        release: null,
        prefix: null,
        version: found ? installedVersion(impl, root) : null,
        install: installScript(impl),
      });
    }
  }
  return rows;
}

/** `--versions`: the one --only implementation once per release (oldest first) in each selected role. */
function releaseRows(registry: readonly Implementation[], select: RowSelection, root: string): PlannedRow[] {
  const impl = select.only.length === 1 ? registry.find((i) => i.name === select.only[0]) : undefined;
  if (impl === undefined) throw new UsageError('matrix --versions: name the one implementation with --only (e.g. --only ws --versions 8.0.0 8.1.0)');
  refuseWithoutReleases(impl);
  const dir = select.versionsDir ?? VERSIONS_DIR;
  // ws@8.2.0 is 8.2.0 (the form install.sh takes); a range is the installed releases in it.
  const specs = (select.versions ?? []).map((v) => (v.startsWith(`${impl.name}@`) ? v.slice(impl.name.length + 1) : v));
  const releases = resolveReleases(impl.name, specs, installedReleases(impl.name, path.resolve(root, dir)));
  const rows: PlannedRow[] = [];
  for (const role of ['client', 'server'] as const) {
    if (impl.roles[role] === undefined || (select.role !== null && select.role !== role)) continue;
    for (const release of releases) {
      const installed = releaseOf(impl, release, dir);
      const prefix = path.resolve(root, installed.install.from === 'npm' ? (installed.install.prefix ?? '.') : '.');
      // The version is read from the release's own package.json: a prefix holding another release says so.
      const version = installedVersion(installed, root);
      const install = dir === VERSIONS_DIR ? `interop/install.sh ${impl.name}@${release}` : installScript(installed);
      rows.push({ impl, role, key: `${impl.name}@${release}-${role}`, release, prefix, version, install });
    }
  }
  return rows;
}

/** The `wsgate run` arguments of a row: its role's command and arguments, its agent and report directory, the matrix's own. */
export function rowArgs(row: PlannedRow, outdir: string, common: readonly string[]): string[] {
  const r = row.impl.roles[row.role];
  if (r === undefined) throw new Error(`${row.key}: no such role`);
  // A release's command loads the release's package: its prefix in the environment the shell gives it.
  const line = r.command === undefined ? undefined : row.prefix === null ? r.command : `${PREFIX_ENV}=${shellQuote(row.prefix)} ${r.command}`;
  const command = line === undefined ? [] : row.role === 'client' ? ['--client', line] : ['--server', line];
  const cannot = unsupportedOf(row.impl, row.role);
  const unsupported = cannot.length > 0 ? ['--exclude-cases', ...cannot] : [];
  // A browser plays its cases one after another: the matrix's --jobs is not its.
  const own = isBrowserRow(row) ? withoutJobs(common) : common;
  // A client row's fuzzing server listens on a free port: matrices (and any other run) side by side never collide on 9001.
  const url = row.role === 'client' && !r.args.includes('--url') ? ['--url', 'ws://127.0.0.1:0'] : [];
  return ['--role', row.role, ...command, ...r.args, ...url, '--agent', row.impl.name, '--outdir', path.join(outdir, row.key), ...unsupported, ...own];
}

/** A row a browser engine plays (`wsgate run --browser`): one case at a time, waiting on the browser's own clock far more than on a CPU. */
export function isBrowserRow(row: Pick<PlannedRow, 'impl' | 'role'>): boolean {
  return row.impl.roles[row.role]?.args.includes('--browser') === true;
}

/** The arguments without `--jobs N`. */
function withoutJobs(args: readonly string[]): string[] {
  const at = args.indexOf('--jobs');
  return at < 0 ? [...args] : [...args.slice(0, at), ...args.slice(at + 2)];
}

/** The groups of the permessage-deflate cases (RFC 7692): a peer without the extension cannot play them. */
const DEFLATE_GROUPS = ['12.*', '13.*'];

/** The case patterns a role cannot play: those its entry names, and the deflate groups when it has no permessage-deflate. */
export function unsupportedOf(impl: Implementation, role: Role): string[] {
  const named = impl.roles[role]?.unsupported ?? [];
  return impl.supports.permessageDeflate ? [...named] : [...new Set([...named, ...DEFLATE_GROUPS])];
}

/** The install as shell lines (what interop/install.sh does from the same fields). */
export function installScript(impl: Implementation): string {
  const i = impl.install;
  const main =
    i.from === 'npm'
      ? `npm install --no-save ${i.prefix === undefined ? '' : `--prefix ${i.prefix} `}${i.package}`
      : i.from === 'apt'
        ? `apt-get install -y ${i.packages.join(' ')}`
        : '';
  return [main, i.build ?? ''].filter((l) => l !== '').join(' && ') || '(ships with wsgate, Node.js or the machine)';
}

/** One shell word as /bin/sh expands it ('' when it cannot). */
function shellWord(word: string, root: string): string {
  try {
    return execFileSync('/bin/sh', ['-c', `printf %s ${word}`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 });
  } catch {
    return '';
  }
}

/** Whether the program of every role IMPL has is there (a built one included); install.sh builds what is missing. */
export function programsFound(impl: Implementation, root: string): boolean {
  return Object.values(impl.roles).every((r) => r === undefined || r.command === undefined || programFound(r.command, root));
}

/** Whether a command's program (its first word after VAR=value assignments) is a file under root or on PATH. */
function programFound(command: string, root: string): boolean {
  const words = command.trim().split(/\s+/);
  const word = words.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) ?? '';
  // A program built into a cache is named with the shell's expansions ("${XDG_CACHE_HOME:-$HOME/.cache}/…"): the shell expands it.
  const program = word.includes('$') ? shellWord(word, root) : word.replace(/^['"]|['"]$/g, '');
  if (program === '') return false;
  const candidates = program.includes('/') ? [path.resolve(root, program)] : (process.env.PATH ?? '').split(path.delimiter).map((d) => path.join(d, program));
  return candidates.some((f) => {
    try {
      accessSync(f, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
