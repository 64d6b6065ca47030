/** The listen URL of the fuzzing server (--url, the spec file's `url`). */
import { UsageError } from '../errors.js';

/** Parses `ws://HOST:PORT` (port 0: any free port). */
export function parseListenUrl(url: string): { host: string; port: number } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`--url ${JSON.stringify(url)} is not a URL; use ws://HOST:PORT`);
  }
  if (u.protocol === 'wss:') throw new UsageError('--url: wss:// (TLS) is not supported yet; use ws://');
  if (u.protocol !== 'ws:') throw new UsageError(`--url must start with ws://, got ${JSON.stringify(url)}`);
  if ((u.pathname !== '/' && u.pathname !== '') || u.search !== '' || u.hash !== '') {
    throw new UsageError(`--url takes no path or query, got ${JSON.stringify(url)}`);
  }
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = u.port === '' ? 80 : Number(u.port);
  return { host, port };
}
