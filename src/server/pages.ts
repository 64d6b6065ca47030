/**
 * What the fuzzing server's own port answers to a plain HTTP request (no Upgrade) besides 426: the
 * page that tests the browser that opens it (`/` and `/test_browser.html`, the original's name;
 * browser-page.ts) and the report directory's files under `/reports/` (read-only; static-files.ts),
 * so that the page can link to the reports it wrote. Anything else: null, and the server answers as
 * before (426, or wstest's status page).
 */
import { readFile } from 'node:fs/promises';
import { browserPage } from './browser-page.js';
import { CONTENT_TYPES, contentType, fileInside } from './static-files.js';

/** A plain request's answer, a whole HTTP response; null: not a page of the server's. */
export type PageServer = (method: string, target: string) => Promise<Buffer | null>;

/** The reports' URL path on the fuzzing server's port. */
export const REPORTS_PATH = '/reports/';

/** A request head's method and target (its first line), or null when the line is not METHOD SP TARGET SP VERSION. */
export function requestLine(head: Buffer): { method: string; target: string } | null {
  const end = head.indexOf('\r\n');
  const parts = head
    .subarray(0, end < 0 ? head.length : end)
    .toString('latin1')
    .split(' ');
  const [method, target] = parts;
  return parts.length === 3 && method !== undefined && target !== undefined ? { method, target } : null;
}

const PHRASES: Readonly<Record<number, string>> = { 200: 'OK', 404: 'Not Found' };

function response(status: number, type: string, body: Buffer): Buffer {
  const lines = [
    `HTTP/1.1 ${status} ${PHRASES[status] ?? ''}`,
    `Content-Type: ${type}`,
    `Content-Length: ${body.length}`,
    'Cache-Control: no-store',
    'Connection: close',
  ];
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

/** The pages of a fuzzing server whose reports go to `outdir`. */
export function fuzzingServerPages(outdir: string): PageServer {
  const page = Buffer.from(browserPage({ wsPort: null, reportsHref: `${REPORTS_PATH}index.html` }), 'utf8');
  return async (method, target) => {
    // The upgrade parser answers any other method (405) before a page is asked for.
    if (method !== 'GET') return null;
    let urlPath: string;
    try {
      urlPath = new URL(target, 'http://localhost').pathname;
    } catch {
      return null;
    }
    if (urlPath === '/' || urlPath === '/test_browser.html') return response(200, CONTENT_TYPES['.html'] ?? '', page);
    if (!urlPath.startsWith(REPORTS_PATH)) return null;
    const file = await fileInside(outdir, outdir, urlPath.slice(REPORTS_PATH.length));
    if (file === null) return response(404, CONTENT_TYPES['.txt'] ?? '', Buffer.from('not found\n'));
    return response(200, contentType(file), await readFile(file));
  };
}
