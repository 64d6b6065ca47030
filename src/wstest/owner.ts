/**
 * Who owns what wstest writes. In the image it runs as root, as the original did, because that is the
 * only user that can write into a directory a CI runner's user mounted with mode 755. Unlike the
 * original, what it creates there is handed to that directory's owner: the runner's later steps
 * (`wsgate judge` writing JUnit beside the reports, a cleanup, a cache) can write and delete it.
 */
import { chownSync, statSync } from 'node:fs';
import path from 'node:path';
import { setNewFileOwner } from '../report/files.js';

/** The owner of `dir`, or of its nearest existing ancestor. */
function ownerOf(dir: string): { uid: number; gid: number } {
  let at = path.resolve(dir);
  for (;;) {
    try {
      const s = statSync(at);
      return { uid: s.uid, gid: s.gid };
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return { uid: 0, gid: 0 };
      at = parent;
    }
  }
}

/**
 * Running as root: reports (and a spec file written with defaults) go to the owner of the directory
 * they are written into, when that is not root. As any other user: files are the user's own.
 */
export function writeAsOwnerOf(outdir: string, written: readonly string[] = []): void {
  if (process.getuid?.() !== 0) return;
  const owner = ownerOf(outdir);
  if (owner.uid === 0) return;
  setNewFileOwner(owner);
  for (const file of written) chownSync(file, owner.uid, owner.gid);
}
