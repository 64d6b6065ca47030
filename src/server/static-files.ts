/**
 * Files of the report directory served over HTTP, read-only: by the fuzzing server's own port
 * (`/reports/`, pages.ts) and by `wstest`'s web port (`/cwd/`, wstest/web.ts). Nothing outside the
 * directory (symbolic links followed, then checked again), no directory listings: a directory is its
 * `index.html`.
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** Content types by extension. */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.pem': 'application/x-pem-file',
};

/** A file's content type by its name. */
export function contentType(file: string): string {
  return CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
}

/**
 * The file `rel` (URL-encoded, relative to `base`) names inside `dir`, or null (outside it, not a
 * file, absent, badly encoded). `base` is where `rel` starts from (`dir` itself, or a directory above it).
 */
export async function fileInside(dir: string, base: string, rel: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rel);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  let file = path.resolve(base, decoded);
  try {
    if ((await stat(file)).isDirectory()) file = path.join(file, 'index.html');
    const [real, realDir] = await Promise.all([realpath(file), realpath(dir)]);
    const inside = path.relative(realDir, real);
    if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) return null;
    return (await stat(real)).isFile() ? real : null;
  } catch {
    return null;
  }
}
