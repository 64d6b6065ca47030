/**
 * The programs interop/install.sh builds (an entry's `build`: a driver compiled against the library)
 * and what they were built from. A build is current when a stamp beside it, written by install.sh
 * after the build, matches the hash of the entry's build command and of the checkout's files that
 * command names (the driver's source): a driver changed in the checkout is built again, as a missing
 * program is. Builds and stamps live in ${XDG_CACHE_HOME:-$HOME/.cache}/wsgate-interop.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Implementation } from './registry.js';

/** The directory the entries' builds write to, as their commands name it. */
export function interopCache(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_CACHE_HOME || path.join(env.HOME || os.homedir(), '.cache'), 'wsgate-interop');
}

function stampFile(impl: Implementation, env: NodeJS.ProcessEnv): string {
  return path.join(interopCache(env), '.stamps', impl.name);
}

/** The hash of IMPL's build command and of the files under ROOT it names; null when it has no build. */
export function buildStamp(impl: Implementation, root: string): string | null {
  const build = impl.install.build;
  if (build === undefined) return null;
  const hash = createHash('sha256').update(build);
  const top = path.resolve(root);
  for (const word of new Set(build.split(/[\s"';&|<>()]+/))) {
    if (word === '' || word.includes('$') || path.isAbsolute(word)) continue;
    const file = path.resolve(top, word);
    if (!file.startsWith(`${top}${path.sep}`)) continue;
    try {
      if (statSync(file).isFile()) hash.update(`\0${word}\0`).update(readFileSync(file));
    } catch {
      // Not a file of the checkout: an argument, an output path.
    }
  }
  return hash.digest('hex');
}

/** Whether IMPL's build was made from what the checkout holds now (true for an entry without a build). */
export function buildCurrent(impl: Implementation, root: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const stamp = buildStamp(impl, root);
  if (stamp === null) return true;
  try {
    return readFileSync(stampFile(impl, env), 'utf8').trim() === stamp;
  } catch {
    return false;
  }
}

/** Records that IMPL's build has just been made from what the checkout holds (after it succeeded). */
export function recordBuild(impl: Implementation, root: string, env: NodeJS.ProcessEnv = process.env): void {
  const stamp = buildStamp(impl, root);
  if (stamp === null) return;
  const file = stampFile(impl, env);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${stamp}\n`);
}
