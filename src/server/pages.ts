/**
 * What the fuzzing server's own port answers to a plain HTTP request (no Upgrade) besides 426: the
 * page that tests the browser that opens it (`/` and `/test_browser.html`, the original's name;
 * browser-page.ts) and the report directory's files under `/reports/` (read-only; static-files.ts),
 * so that the page can link to the reports it wrote. Anything else: null, and the server answers as
 * before (426, or wstest's status page).
 */
import { readFile } from 'node:fs/promises';
import { buildHttpResponse } from '../protocol/handshake.js';
import { browserPage } from './browser-page.js';
import { CONTENT_TYPES, contentType, fileInside } from './static-files.js';

/** A plain GET's answer for its request target, a whole HTTP response; null: not a page of the server's. */
export type PageServer = (target: string) => Promise<Buffer | null>;

/** The reports' URL path on the fuzzing server's port. */
export const REPORTS_PATH = '/reports/';

/** The pages of a fuzzing server whose reports go to `outdir`. */
export function fuzzingServerPages(outdir: string): PageServer {
  const page = Buffer.from(browserPage({ wsPort: null, reportsHref: `${REPORTS_PATH}index.html` }), 'utf8');
  // Only GETs come here: the upgrade parser answers any other method (405) first.
  return async (target) => {
    let urlPath: string;
    try {
      urlPath = new URL(target, 'http://localhost').pathname;
    } catch {
      return null;
    }
    if (urlPath === '/' || urlPath === '/test_browser.html') return buildHttpResponse(200, CONTENT_TYPES['.html'] ?? '', page);
    if (!urlPath.startsWith(REPORTS_PATH)) return null;
    const file = await fileInside(outdir, outdir, urlPath.slice(REPORTS_PATH.length));
    if (file === null) return buildHttpResponse(404, CONTENT_TYPES['.txt'] ?? '', Buffer.from('not found\n'));
    return buildHttpResponse(200, contentType(file), await readFile(file));
  };
}
