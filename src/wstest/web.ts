/**
 * `--webport`: the original's small web server beside the fuzzing server. The original maps its whole
 * working directory under `/cwd/` (which is `/` in its image); wsgate serves there only what scripts
 * fetch: the files of the report directory (`/cwd/reports/clients/index.json` when the outdir is
 * `./reports/clients`), read-only, nothing outside it, no directory listings; and, as the original,
 * `/test_browser.html`: the page that tests the browser that opens it against the fuzzing server's port.
 */
import { createReadStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { browserPage } from '../server/browser-page.js';
import { CONTENT_TYPES, fileInside } from '../server/static-files.js';

const TYPES = CONTENT_TYPES;

/** The original's page for a browser under test. */
const BROWSER_PAGE = '/test_browser.html';

/** Where the web server serves from: the working directory it maps and the report directory inside it. */
export interface WebRoot {
  cwd: string;
  outdir: string;
}

/** The report directory's URL path under /cwd/, or null when it is not inside the working directory. */
export function reportsPath(root: WebRoot): string | null {
  const rel = path.relative(root.cwd, root.outdir);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return `/cwd/${rel.split(path.sep).map(encodeURIComponent).join('/')}${rel === '' ? '' : '/'}`;
}

/** The file a request path names inside the report directory, or null (outside it, not a file, absent). */
function fileFor(root: WebRoot, urlPath: string): Promise<string | null> {
  if (!urlPath.startsWith('/cwd/')) return Promise.resolve(null);
  return fileInside(root.outdir, root.cwd, urlPath.slice('/cwd/'.length));
}

function page(root: WebRoot): string {
  const reports = reportsPath(root);
  const link =
    reports === null
      ? '<p>The report directory is outside the working directory: it is not served.</p>'
      : `<p><a href="${reports}index.html">Test reports</a></p>`;
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>wsgate fuzzing server</title></head><body><h1>wsgate fuzzing server</h1><p><a href="${BROWSER_PAGE}">Test your browser</a></p>${link}</body></html>\n`;
}

/** Starts the web server on `port` (every interface; TLS with the fuzzing server's certificate when given); `wsPort` is the fuzzing server's. */
export async function startWebServer(port: number, root: WebRoot, tls: { cert: string; key: string } | null, wsPort: number): Promise<{ close(): void }> {
  const reports = reportsPath(root);
  const browser = browserPage({ wsPort, reportsHref: reports === null ? null : `${reports}index.html` });
  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    void (async () => {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD' }).end();
        return;
      }
      const urlPath = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (urlPath === '/' || urlPath === '/index.html') {
        res.writeHead(200, { 'content-type': TYPES['.html'] ?? '' }).end(req.method === 'HEAD' ? undefined : page(root));
        return;
      }
      if (urlPath === BROWSER_PAGE) {
        res.writeHead(200, { 'content-type': TYPES['.html'] ?? '', 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : browser);
        return;
      }
      const file = await fileFor(root, urlPath);
      if (file === null) {
        res.writeHead(404, { 'content-type': TYPES['.txt'] ?? '' }).end('not found\n');
        return;
      }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      if (req.method === 'HEAD') res.end();
      else
        createReadStream(file)
          .on('error', () => res.destroy())
          .pipe(res);
    })();
  };
  const server = tls === null ? http.createServer(handler) : https.createServer({ cert: tls.cert, key: tls.key }, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        new UsageError(
          err.code === 'EADDRINUSE'
            ? `web port ${port} is already in use (-u/--webport: another port, or 0 for none)`
            : `cannot listen on web port ${port}: ${err.message}`,
        ),
      );
    });
    server.listen(port, () => resolve());
  });
  return {
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
