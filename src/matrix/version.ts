/**
 * The version of an implementation as installed, read where its registry entry says (never typed
 * into the registry): an npm package's package.json, dpkg's record of a Debian package, or the first
 * line a command prints. null: not installed (or not readable, which for a row is the same thing).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Implementation } from './registry.js';

/** Long enough for a browser's first `--version` on a cold machine (Chromium takes ~1 s). */
const COMMAND_TIMEOUT_MS = 20_000;

/** The installed version of IMPL, its paths read from ROOT (the checkout); null when it is not installed. */
export function installedVersion(impl: Implementation, root: string): string | null {
  const where = impl.version;
  switch (where.from) {
    case 'npm':
      return npmVersion(path.resolve(root, where.prefix ?? '.'), where.package);
    case 'dpkg':
      return dpkgVersion(where.package);
    case 'command':
      return commandVersion(where.command, root);
  }
}

/** Whether IMPL is installed: its version can be read. */
export function isInstalled(impl: Implementation, root: string): boolean {
  return installedVersion(impl, root) !== null;
}

function npmVersion(prefix: string, pkg: string): string | null {
  try {
    const json = JSON.parse(readFileSync(path.join(prefix, 'node_modules', pkg, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof json.version === 'string' && json.version !== '' ? json.version : null;
  } catch {
    return null;
  }
}

function dpkgVersion(pkg: string): string | null {
  try {
    // ${db:Status-Status}: a package removed but not purged still has a Version; only "installed" counts.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format, not a JavaScript template.
    const out = execFileSync('dpkg-query', ['-W', '-f', '${db:Status-Status} ${Version}', pkg], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const [status, version] = out.trim().split(' ');
    return status === 'installed' && version ? version : null;
  } catch {
    return null;
  }
}

function commandVersion(command: string, root: string): string | null {
  try {
    const out = execFileSync('/bin/sh', ['-c', command], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: COMMAND_TIMEOUT_MS });
    const line = out.split('\n')[0]?.trim() ?? '';
    return line === '' ? null : line;
  } catch {
    return null;
  }
}
