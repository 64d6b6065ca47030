/**
 * Report file names and safe writes: Autobahn's agent-name cleaning, a collision-free file prefix,
 * atomic replacement, and a guard that keeps every report inside the output directory.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

const MAX_AGENT_FILE_CHARS = 48;
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

/**
 * A safe file prefix for an agent: Autobahn's cleaned name when that is the agent itself, otherwise
 * the cleaned name cut to 48 characters plus "_" and 8 hex digits of sha256(agent), so agents never share files.
 */
export function agentFileBase(agent: string): string {
  const cleaned = cleanForFilename(agent);
  const cut = cleaned.slice(0, MAX_AGENT_FILE_CHARS);
  // A plain name that already ends like a hash suffix gets one too: hashed and plain names then never meet.
  const lossless =
    cleaned === agent && cut.length > 0 && cut.length === cleaned.length && !/_[0-9a-f]{8}$/.test(cleaned);
  if (lossless) return cut;
  const hash = createHash('sha256').update(agent, 'utf8').digest('hex').slice(0, 8);
  return `${cut}_${hash}`;
}

/** `<agentFileBase>_case_<id with . → _>`, the name of a per-case report without extension. */
export function caseReportBase(agent: string, caseId: string): string {
  if (!CASE_ID.test(caseId)) throw new Error(`invalid case id for a file name: ${JSON.stringify(caseId)}`);
  return `${agentFileBase(agent)}_case_${caseId.replaceAll('.', '_')}`;
}

/** Writes a file through a temp file in the same directory, fsync and rename, so readers never see half a report. */
export async function writeFileAtomic(target: string, data: string | Uint8Array): Promise<void> {
  const tmp = path.join(path.dirname(target), `.wsgate-tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(tmp, 'wx', 0o644);
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
