/**
 * Server side of the opening handshake (RFC 6455 §4.2), validated in the spirit of autobahn-python
 * 0.10.9's processHandshake. Pure: bytes in, verdicts and response strings out; never throws on input.
 */

import { createHash } from 'node:crypto';
import { WS_GUID } from './constants.js';

/** A validated upgrade request. */
export interface UpgradeRequest {
  method: string;
  /** The request-target as sent, e.g. "/runCase?case=3&agent=x". */
  target: string;
  /** The target up to "?", not percent-decoded. */
  path: string;
  query: URLSearchParams;
  /** Lowercased names; values trimmed, in order of appearance. */
  headers: Map<string, string[]>;
  key: string;
  version: string;
  /** The head, latin1-decoded, including the final CRLFCRLF. */
  raw: string;
}

/** Either the request, or the HTTP error to answer with. */
export type HandshakeVerdict =
  | { ok: true; request: UpgradeRequest }
  | { ok: false; status: number; reason: string; headers?: Array<[string, string]>; plainHttp?: true; target?: string };

/** Sec-WebSocket-Accept for a key: base64(SHA-1(key + GUID)) (§4.2.2 item 5.4). */
export function computeAccept(key: string): string {
  return createHash('sha1')
    .update(key + WS_GUID, 'latin1')
    .digest('base64');
}

const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');

/** Index just after the first CRLFCRLF, or -1 when the head is not complete yet. */
export function findHeadEnd(data: Buffer): number {
  const i = data.indexOf(HEAD_END);
  return i < 0 ? -1 : i + 4;
}

/** Gathers an HTTP head from a byte stream, up to a size limit (either side of the opening handshake). */
export class HeadReader {
  private chunks: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** 'more' until the empty line arrives; then the head (through it) and the bytes after it; 'too-big' past the limit. */
  push(chunk: Buffer): { head: Buffer; rest: Buffer } | 'more' | 'too-big' {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    const data = this.chunks.length === 1 ? chunk : Buffer.concat(this.chunks);
    this.chunks = [data];
    const end = findHeadEnd(data);
    if (end < 0 ? this.bytes > this.maxBytes : end > this.maxBytes) {
      this.chunks = [];
      return 'too-big';
    }
    if (end < 0) return 'more';
    this.chunks = [];
    return { head: data.subarray(0, end), rest: data.subarray(end) };
  }
}

/** RFC 7230 §3.2.6 token characters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** 16 bytes in base64 are 22 significant characters and "==" (§4.1: "randomly selected 16-byte value"). */
const KEY_16_BYTES = /^[A-Za-z0-9+/]{22}==$/;
const SUPPORTED_VERSIONS = new Set(['13', '8']);
/** How much of a client-supplied value a reason quotes. */
const SHOW_MAX = 80;

/** Validate an upgrade request head (request line + headers); never throws. */
export function parseUpgradeRequest(head: Buffer): HandshakeVerdict {
  try {
    return parse(head);
  } catch (err) {
    // Defensive: nothing below is expected to throw, but a handshake must never crash the server.
    return fail(400, `could not parse HTTP request (${String(err)})`);
  }
}

function parse(head: Buffer): HandshakeVerdict {
  const end = findHeadEnd(head);
  const raw = head.toString('latin1', 0, end < 0 ? head.length : end);
  const lines = raw.split('\r\n');
  // The head ends with CRLFCRLF, leaving two empty strings at the end of the split.
  while (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const line = parseRequestLine(lines[0] ?? '');
  if (!Array.isArray(line)) return line;
  const [method, target] = line;
  const headers = parseHeaders(lines.slice(1));
  if (!(headers instanceof Map)) return headers;
  const checked = checkUpgradeHeaders(headers);
  // A plain request (a GET without Upgrade) says what it asked for: the server may have a page for it.
  if ('ok' in checked) return checked.plainHttp === true ? { ...checked, target } : checked;
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
  return { ok: true, request: { method, target, path, query, headers, key: checked.key, version: checked.version, raw } };
}

type Refusal = Extract<HandshakeVerdict, { ok: false }>;

/** "GET /target HTTP/1.1", checked: method, version, target (absolute path, no fragment). */
function parseRequestLine(requestLine: string): [method: string, target: string] | Refusal {
  const parts = requestLine.trim().split(/[ \t]+/);
  if (parts.length !== 3 || parts[0] === '' || /[\r\n]/.test(requestLine)) {
    return fail(400, `Bad HTTP request status line ${show(requestLine)}`);
  }
  const [method, target, httpVersion] = parts as [string, string, string];
  if (method !== 'GET') {
    return fail(405, `HTTP method ${show(method)} not allowed`, [['Allow', 'GET']]);
  }
  if (httpVersion !== 'HTTP/1.1') return fail(505, `Unsupported HTTP version ${show(httpVersion)}`);
  if (!target.startsWith('/')) return fail(400, `HTTP request target must start with "/": ${show(target)}`);
  // "Fragment identifiers are meaningless in the context of WebSocket URIs and MUST NOT be used" (§3)
  if (target.includes('#')) return fail(400, `HTTP requested resource contains a fragment identifier ${show(target)}`);
  return [method, target];
}

/** The header lines as lower-cased names to values (in order), or the refusal of a malformed line. */
export function parseHeaders(lines: readonly string[]): Map<string, string[]> | Refusal {
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    // obs-fold: "A server MUST reject any received request message that contains whitespace
    // between a header field-name and colon" / obs-fold is rejected likewise (RFC 7230 §3.2.4).
    if (line.startsWith(' ') || line.startsWith('\t')) return fail(400, `HTTP header line folding not allowed ${show(line)}`);
    if (/[\r\n]/.test(line)) return fail(400, `bare CR or LF in HTTP header line ${show(line)}`);
    const colon = line.indexOf(':');
    if (colon < 0) return fail(400, `HTTP header line without a colon ${show(line)}`);
    const name = line.slice(0, colon);
    if (!TOKEN.test(name)) return fail(400, `bad HTTP header name ${show(name)}`);
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    const key = name.toLowerCase();
    const values = headers.get(key);
    if (values === undefined) headers.set(key, [value]);
    else values.push(value);
  }
  return headers;
}

/** §4.2.1's header fields of an opening handshake: Host, Upgrade, Connection, version, key, extensions. */
function checkUpgradeHeaders(headers: ReadonlyMap<string, string[]>): { key: string; version: string } | Refusal {
  const host = headers.get('host');
  if (host === undefined) return fail(400, 'HTTP Host header missing in opening handshake request');
  if (host.length > 1) return fail(400, 'HTTP Host header appears more than once in opening handshake request');
  // The Host port is deliberately NOT compared with the listening port: behind Docker port mapping
  // or a proxy the client rightly names a port the server does not listen on.
  const upgrade = headers.get('upgrade');
  if (upgrade === undefined) {
    return { ...fail(426, 'HTTP Upgrade header missing: this is a WebSocket endpoint', [['Upgrade', 'websocket']]), plainHttp: true };
  }
  if (!hasToken(upgrade, 'websocket')) {
    return fail(400, `HTTP Upgrade headers do not include 'websocket' value (case-insensitive): ${show(upgrade.join(', '))}`);
  }
  const connection = headers.get('connection');
  if (connection === undefined) return fail(400, 'HTTP Connection header missing');
  if (!hasToken(connection, 'upgrade')) {
    return fail(400, `HTTP Connection headers do not include 'upgrade' value (case-insensitive): ${show(connection.join(', '))}`);
  }
  const versions = headers.get('sec-websocket-version');
  if (versions !== undefined && versions.length > 1) {
    return fail(400, 'HTTP Sec-WebSocket-Version header appears more than once in opening handshake request');
  }
  const version = versions?.[0];
  if (version === undefined || !SUPPORTED_VERSIONS.has(version)) {
    // §4.4: answer with the versions the server does support.
    const what = version === undefined ? 'HTTP Sec-WebSocket-Version header missing' : `WebSocket version ${show(version)} not supported`;
    return fail(426, `${what} (supported versions: 13)`, [['Sec-WebSocket-Version', '13']]);
  }
  const keys = headers.get('sec-websocket-key');
  if (keys === undefined) return fail(400, 'HTTP Sec-WebSocket-Key header missing');
  if (keys.length > 1) return fail(400, 'HTTP Sec-WebSocket-Key header appears more than once in opening handshake request');
  const key = keys[0]!;
  if (!KEY_16_BYTES.test(key)) {
    return fail(400, `bad Sec-WebSocket-Key (must be 16 bytes in base64: 24 characters ending "=="): ${show(key)}`);
  }
  const extensions = headers.get('sec-websocket-extensions');
  if (extensions !== undefined && extensions.length > 1) {
    return fail(400, 'HTTP Sec-WebSocket-Extensions header appears more than once in opening handshake request');
  }
  return { key, version };
}

/** True when any comma-separated element of any of the values equals `token` case-insensitively. */
export function hasToken(values: string[], token: string): boolean {
  for (const v of values) {
    for (const element of v.split(',')) {
      if (element.trim().toLowerCase() === token) return true;
    }
  }
  return false;
}

function fail(status: number, reason: string, headers?: Array<[string, string]>): Refusal {
  return headers === undefined ? { ok: false, status, reason } : { ok: false, status, reason, headers };
}

/** A client value quoted for a one-line reason: JSON-escaped (no raw control characters) and cut. */
export function show(value: string): string {
  const cut = value.length > SHOW_MAX ? `${value.slice(0, SHOW_MAX)}...` : value;
  return JSON.stringify(cut);
}

/** The 101 response, header order and spelling as autobahn-python sends it. */
export function buildSwitchingProtocols(accept: string, options: { server: string; poweredBy: string; extensions?: string | null }): string {
  let response =
    'HTTP/1.1 101 Switching Protocols\r\n' +
    `Server: ${options.server}\r\n` +
    `X-Powered-By: ${options.poweredBy}\r\n` +
    'Upgrade: WebSocket\r\n' +
    'Connection: Upgrade\r\n' +
    `Sec-WebSocket-Accept: ${accept}\r\n`;
  if (options.extensions !== undefined && options.extensions !== null && options.extensions !== '') {
    response += `Sec-WebSocket-Extensions: ${options.extensions}\r\n`;
  }
  return `${response}\r\n`;
}

const STATUS_PHRASES: Readonly<Record<number, string>> = {
  200: 'OK',
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  426: 'Upgrade Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
  505: 'HTTP Version Not Supported',
};

/** Longest reason put in an error body. */
const BODY_REASON_MAX = 200;

/**
 * A complete HTTP error response with a short text body (the reason on one line). Content-Length
 * counts UTF-8 bytes: write the string as UTF-8 (Node's default).
 */
/** A whole HTTP response to a plain request (a page, a report file): its status, type and body, never kept alive. */
export function buildHttpResponse(status: number, contentType: string, body: Buffer): Buffer {
  const head = [
    `HTTP/1.1 ${status} ${STATUS_PHRASES[status] ?? ''}`,
    `Content-Type: ${contentType}`,
    `Content-Length: ${body.length}`,
    'Cache-Control: no-store',
    'Connection: close',
  ];
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

/** A 200 response with a small HTML page: what a plain HTTP request (no Upgrade) gets from a server with a status page. */
export function buildStatusPage(title: string, text: string): string {
  const body = `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>\n`;
  return `HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body, 'utf8')}\r\nConnection: close\r\n\r\n${body}`;
}

export function buildHttpError(status: number, reason: string, headers?: Array<[string, string]>): string {
  const phrase = STATUS_PHRASES[status] ?? 'Error';
  let line = reason.replace(/[\r\n]/g, '');
  if (line.length > BODY_REASON_MAX) {
    line = line.slice(0, BODY_REASON_MAX);
    // Do not leave half a surrogate pair at the cut.
    if (/[\uD800-\uDBFF]$/.test(line)) line = line.slice(0, -1);
  }
  const body = `${line}\n`;
  let response = `HTTP/1.1 ${status} ${phrase}\r\n`;
  for (const [name, value] of headers ?? []) {
    // Header injection guard: a value is never allowed to start a new header line.
    response += `${name.replace(/[\r\n:]/g, '')}: ${value.replace(/[\r\n]/g, '')}\r\n`;
  }
  response += `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body, 'utf8')}\r\nConnection: close\r\n\r\n${body}`;
  return response;
}

/** One offered extension: lowercased name and its parameters in order (a bare parameter is `true`). */
interface ExtensionOffer {
  name: string;
  params: Array<[string, string | true]>;
}

/**
 * Parse a Sec-WebSocket-Extensions value (§9.1): comma-separated extensions, ";"-separated
 * parameters, values as tokens or quoted strings. Tolerant: empty elements are skipped, [] for "".
 */
export function parseExtensionsHeader(value: string): Array<{ name: string; params: Array<[string, string | true]> }> {
  const result: ExtensionOffer[] = [];
  let current: ExtensionOffer | null = null;
  // Split into items on "," and ";" outside quoted strings; each item is "name" or "name=value".
  let item = '';
  let quoted = false;
  const flushItem = (endsExtension: boolean): void => {
    const text = item;
    item = '';
    if (current === null) {
      const name = text.trim().toLowerCase();
      if (name !== '') current = { name, params: [] };
    } else {
      const eq = text.indexOf('=');
      const pname = (eq < 0 ? text : text.slice(0, eq)).trim().toLowerCase();
      if (pname !== '') {
        const pvalue: string | true = eq < 0 ? true : text.slice(eq + 1).trim();
        current.params.push([pname, pvalue]);
      }
    }
    if (endsExtension) {
      if (current !== null) result.push(current);
      current = null;
    }
  };
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (quoted) {
      if (c === '\\' && i + 1 < value.length) item += value[++i]!;
      else if (c === '"') quoted = false;
      else item += c;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      flushItem(true);
    } else if (c === ';') {
      flushItem(false);
    } else {
      item += c;
    }
  }
  flushItem(true);
  return result;
}
