/**
 * Report file names and safe writes: Autobahn's agent-name cleaning and file names (a suffix only
 * where two agents of one directory would collide), atomic replacement, and a guard that keeps
 * every report inside the output directory.
 */
import { createHash, randomBytes } from 'node:crypto';
import { lchown, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../errors.js';

/**
 * Longest agent part of a report file name. Autobahn has no limit; a file name has 255 bytes, and the
 * longest case suffix ("_case_13_7_18.html") takes 18 of them.
 */
const MAX_AGENT_FILE_CHARS = 200;
const CASE_ID = /^\d+(?:\.\d+)*$/;

function isAsciiLowerAlnum(byte: number): boolean {
  return (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39);
}

/**
 * Autobahn's `cleanForFilename`: strip, lowercase, every character not [a-z0-9] → space, strip,
 * spaces → "_" (runs kept). Works on UTF-8 bytes, as Python 2 did on the query-string agent.
 */
export function cleanForFilename(agent: string): string {
  // Python 2 lowercases only ASCII in a byte string; each other byte of a non-ASCII character is one space.
  const bytes = Buffer.from(agent, 'utf8');
  let s = '';
  for (const b of bytes) {
    const lower = b >= 0x41 && b <= 0x5a ? b + 0x20 : b;
    s += isAsciiLowerAlnum(lower) ? String.fromCharCode(lower) : ' ';
  }
  return s.trim().replaceAll(' ', '_');
}

function hash8(agent: string, length = 8): string {
  return createHash('sha256').update(agent, 'utf8').digest('hex').slice(0, length);
}

/**
 * Autobahn's file prefix for an agent, its cleaned name (`ws-8.23.0` → `ws_8_23_0`), so scripts
 * that open `<agent>_case_1_1_1.json` find it; a name cleaning to more than 200 characters (Autobahn
 * could not write it) is cut, with 8 hex digits of sha256(agent) after it.
 */
export function agentFileBase(agent: string): string {
  const cleaned = cleanForFilename(agent);
  if (cleaned.length <= MAX_AGENT_FILE_CHARS) return cleaned;
  return `${cleaned.slice(0, MAX_AGENT_FILE_CHARS - 9)}_${hash8(agent)}`;
}

/** Agents of one report directory whose names clean to the same prefix, and what each got. */
export interface AgentFileCollision {
  base: string;
  /** Agent → prefix; the first keeps `base`. */
  prefixes: ReadonlyArray<readonly [string, string]>;
}

/**
 * The file prefixes of every agent of one report directory: Autobahn's (agentFileBase), except where
 * two agents would share files (`a-b` and `a.b` both clean to `a_b`). Then the agent whose name is
 * the prefix itself, or else the first in code-unit order, keeps it; each other gets "_" and 8 hex
 * digits of sha256(agent) after it (more digits if that is taken). The same agents give the same
 * prefixes in any order, so every renderer of the directory agrees.
 */
export function agentFilePrefixes(agents: Iterable<string>): { prefixes: Map<string, string>; collisions: AgentFileCollision[] } {
  const byBase = new Map<string, string[]>();
  for (const agent of new Set(agents)) {
    const base = agentFileBase(agent);
    const group = byBase.get(base);
    if (group === undefined) byBase.set(base, [agent]);
    else group.push(agent);
  }
  const prefixes = new Map<string, string>();
  const taken = new Set(byBase.keys());
  const collisions: AgentFileCollision[] = [];
  for (const [base, group] of byBase) {
    group.sort((a, b) => Number(b === base) - Number(a === base) || (a < b ? -1 : a > b ? 1 : 0));
    prefixes.set(group[0] as string, base);
    if (group.length === 1) continue;
    const assigned: [string, string][] = [[group[0] as string, base]];
    for (const agent of group.slice(1)) {
      let prefix = `${base}_${hash8(agent)}`;
      for (let n = 9; taken.has(prefix); n++) prefix = `${base}_${hash8(agent, n)}`;
      taken.add(prefix);
      prefixes.set(agent, prefix);
      assigned.push([agent, prefix]);
    }
    collisions.push({ base, prefixes: assigned });
  }
  return { prefixes, collisions };
}

/** One line for stderr about agents that would have shared report files. */
export function collisionNotice(c: AgentFileCollision): string {
  const names = c.prefixes.map(([agent, prefix]) => `${JSON.stringify(agent)} → ${prefix}_case_*`).join(', ');
  return `wsgate: agents ${names} clean to the same report file name ${JSON.stringify(c.base)}: the later ones get a suffix`;
}

/** `<agent prefix>_case_<id with . → _>`, the name of a per-case report without extension. */
export function caseReportBase(agentPrefix: string, caseId: string): string {
  if (!CASE_ID.test(caseId)) throw new Error(`invalid case id for a file name: ${JSON.stringify(caseId)}`);
  return `${agentPrefix}_case_${caseId.replaceAll('.', '_')}`;
}

/** Who owns what the report writer creates: null, the process's user; else this uid and gid. */
let newFileOwner: { uid: number; gid: number } | null = null;

/**
 * Hands every file and directory the report writer creates from now on to `owner` (null: back to
 * the process's user). `wstest` running as root in the image uses it so that reports written into a
 * CI runner's directory belong to the runner's user, not to root.
 */
export function setNewFileOwner(owner: { uid: number; gid: number } | null): void {
  newFileOwner = owner;
}

/** Writes a file through a temp file in the same directory, fsync and rename, so readers never see half a report. */
export async function writeFileAtomic(target: string, data: string | Uint8Array): Promise<void> {
  const tmp = path.join(path.dirname(target), `.wsgate-tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(tmp, 'wx', 0o644);
    if (newFileOwner !== null) await handle.chown(newFileOwner.uid, newFileOwner.gid);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(tmp, target);
  } catch (err) {
    if (handle !== undefined) await handle.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/** `path.join(dir, name)`, refusing any name that would land outside dir (or on dir itself). */
export function resolveInside(dir: string, name: string): string {
  if (name.includes('\0')) throw new Error(`file name holds a NUL byte: ${JSON.stringify(name)}`);
  const joined = path.join(dir, name);
  const rel = path.relative(path.resolve(dir), path.resolve(joined));
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
    throw new Error(`file name escapes the output directory: ${JSON.stringify(name)}`);
  }
  return joined;
}

/**
 * `mkdir -p` that fails instead of hanging: on Node 20.20 `mkdir(dir, { recursive: true })` never
 * settles (and spins a CPU) when a parent is a regular file or the filesystem refuses new entries
 * (/proc). This walks up to the nearest existing directory, then creates each missing level with a
 * plain mkdir, whose errors are the usual ENOTDIR / ENOENT / EACCES.
 */
export async function makeDirectory(dir: string): Promise<void> {
  const missing: string[] = [];
  let at = path.resolve(dir);
  for (;;) {
    let isDir: boolean;
    try {
      isDir = (await stat(at)).isDirectory();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      missing.push(at);
      const parent = path.dirname(at);
      if (parent === at) break;
      at = parent;
      continue;
    }
    if (!isDir) throw Object.assign(new Error(`ENOTDIR: not a directory: ${at}`), { code: 'ENOTDIR' });
    break;
  }
  for (const d of missing.reverse()) {
    try {
      await mkdir(d);
      if (newFileOwner !== null) await lchown(d, newFileOwner.uid, newFileOwner.gid);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/** Creates dir if needed and checks that a file can be created in it (a probe file, removed at once). */
export async function checkWritableDirectory(dir: string): Promise<void> {
  await makeDirectory(dir);
  const probe = path.join(dir, `.wsgate-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
  const handle = await open(probe, 'wx', 0o644);
  await handle.close();
  await unlink(probe);
}

/** Checks, before any work, that each directory a report goes to can be written: a UsageError naming the first that cannot. */
export async function checkDirectories(dirs: ReadonlyArray<readonly [what: string, dir: string]>, prefix = ''): Promise<void> {
  for (const [what, dir] of dirs) {
    try {
      await checkWritableDirectory(dir);
    } catch (err) {
      throw new UsageError(`${prefix}cannot write to ${what} ${dir}: ${(err as Error).message}`);
    }
  }
}
