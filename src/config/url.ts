/** The listen URL of the fuzzing server (--url, the spec file's `url`). */
import { UsageError } from '../errors.js';

/** Parses `ws://HOST:PORT` or `wss://HOST:PORT` (port 0: any free port; `secure`: wss://). */
export function parseListenUrl(url: string): { host: string; port: number; secure: boolean } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`--url ${JSON.stringify(url)} is not a URL; use ws://HOST:PORT or wss://HOST:PORT`);
  }
  if (u.protocol !== 'ws:' && u.protocol !== 'wss:') throw new UsageError(`--url must start with ws:// or wss://, got ${JSON.stringify(url)}`);
  if ((u.pathname !== '/' && u.pathname !== '') || u.search !== '' || u.hash !== '') {
    throw new UsageError(`--url takes no path or query, got ${JSON.stringify(url)}`);
  }
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const secure = u.protocol === 'wss:';
  const port = u.port === '' ? (secure ? 443 : 80) : Number(u.port);
  return { host, port, secure };
}

/** Where a server under test is: its URL, host, port and request target (path and query). */
export interface ServerUrl {
  url: string;
  host: string;
  port: number;
  resource: string;
}

/** ws:// or wss://HOST[:PORT][/path][?query] of a server under test. */
export function parseServerUrl(text: string): ServerUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--server-url: not a URL: ${JSON.stringify(text)} (expected ws://HOST:PORT[/path] or wss://...)`);
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new UsageError(`--server-url: the scheme must be ws:// or wss://, got ${url.protocol}//`);
  if (url.username !== '' || url.password !== '') throw new UsageError('--server-url: user information is not supported');
  if (url.hash !== '') throw new UsageError('--server-url: a fragment (#...) is not allowed in a WebSocket URL (RFC 6455 §3)');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port === '' ? (url.protocol === 'wss:' ? 443 : 80) : Number(url.port);
  return { url: url.href, host, port, resource: `${url.pathname === '' ? '/' : url.pathname}${url.search}` };
}
