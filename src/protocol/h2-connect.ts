/**
 * The opening handshake of RFC 8441 (Bootstrapping WebSockets with HTTP/2): an extended CONNECT
 * request and its 2xx answer, as header fields. Pure: the HTTP/2 connection lives in server/ and
 * fuzzing-client/. Reports show each side's fields as text lines, pseudo-header fields first, so a
 * case report over HTTP/2 reads like one over HTTP/1.1.
 */
import type { UpgradeRequest } from './handshake.js';

/** Header fields as Node's http2 gives and takes them. */
export type HeaderFields = Record<string, string | string[] | number | undefined>;

/** The RFC 8441 §3 setting a server sends to allow extended CONNECT (SETTINGS_ENABLE_CONNECT_PROTOCOL = 0x8). */
export const SETTINGS_ENABLE_CONNECT_PROTOCOL = 0x8;

/** Either the request, or the HTTP status to answer with and why. */
export type ConnectVerdict = { ok: true; request: UpgradeRequest } | { ok: false; status: number; reason: string };

function one(fields: HeaderFields, name: string): string | undefined {
  const v = fields[name];
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v.join(', ') : String(v);
}

/**
 * Checks an extended CONNECT (RFC 8441 §4, §5): ":method" CONNECT, ":protocol" websocket, and the
 * ":scheme", ":path" and ":authority" that §4 requires with it; Sec-WebSocket-Version 13 as in RFC
 * 6455 §4.1. No Sec-WebSocket-Key: §5 "do not do the processing of the Sec-WebSocket-Key and
 * Sec-WebSocket-Accept header fields". The request comes back as an HTTP/1.1 upgrade would.
 */
export function parseConnectRequest(fields: HeaderFields): ConnectVerdict {
  const method = one(fields, ':method');
  const protocol = one(fields, ':protocol');
  if (method !== 'CONNECT' || protocol === undefined)
    return { ok: false, status: 400, reason: 'a WebSocket over HTTP/2 is opened with an extended CONNECT (:method CONNECT, :protocol websocket; RFC 8441 §4)' };
  if (protocol.toLowerCase() !== 'websocket') return { ok: false, status: 501, reason: `:protocol ${JSON.stringify(protocol.slice(0, 100))} is not websocket` };
  for (const name of [':scheme', ':path', ':authority']) {
    if ((one(fields, name) ?? '') === '') return { ok: false, status: 400, reason: `the extended CONNECT has no ${name} (RFC 8441 §4)` };
  }
  const version = one(fields, 'sec-websocket-version');
  if (version !== '13')
    return { ok: false, status: 400, reason: `Sec-WebSocket-Version must be 13, got ${version === undefined ? 'none' : JSON.stringify(version)}` };
  const target = one(fields, ':path') ?? '/';
  const q = target.indexOf('?');
  const headers = new Map<string, string[]>();
  for (const [name, value] of Object.entries(fields)) {
    if (name.startsWith(':') || value === undefined) continue;
    headers.set(
      name.toLowerCase(),
      (Array.isArray(value) ? value : [String(value)]).map((v) => v.trim()),
    );
  }
  return {
    ok: true,
    request: {
      method: 'CONNECT',
      target,
      path: q < 0 ? target : target.slice(0, q),
      query: new URLSearchParams(q < 0 ? '' : target.slice(q + 1)),
      headers,
      key: '',
      version,
      raw: renderFields(fields),
    },
  };
}

/** What the client's extended CONNECT names (RFC 8441 §5). */
export interface ConnectRequestSpec {
  scheme: 'http' | 'https';
  authority: string;
  path: string;
  extensions: string | null;
  /** More fields (User-Agent and the like), names as given. */
  headers?: ReadonlyArray<readonly [string, string]>;
}

/** The fields of the client's extended CONNECT. */
export function connectRequestFields(spec: ConnectRequestSpec): HeaderFields {
  const fields: HeaderFields = {
    ':method': 'CONNECT',
    ':protocol': 'websocket',
    ':scheme': spec.scheme,
    ':path': spec.path,
    ':authority': spec.authority,
  };
  for (const [name, value] of spec.headers ?? []) fields[name.toLowerCase()] = value;
  fields['sec-websocket-version'] = '13';
  if (spec.extensions !== null) fields['sec-websocket-extensions'] = spec.extensions;
  return fields;
}

/** The server's answer: a 2xx opens the WebSocket (RFC 8441 §5), anything else refuses it. */
export type ConnectResponse = { ok: true; status: number; headers: Map<string, string[]>; extensions: string | null } | { ok: false; reason: string };

/** Checks the answer to an extended CONNECT: any 2xx status accepts it; there is no Sec-WebSocket-Accept to check. */
export function checkConnectResponse(fields: HeaderFields): ConnectResponse {
  const status = Number(one(fields, ':status'));
  if (!(status >= 200 && status < 300))
    return { ok: false, reason: `the server answered the extended CONNECT with status ${Number.isFinite(status) ? status : '?'}, not 2xx (RFC 8441 §5)` };
  const headers = new Map<string, string[]>();
  for (const [name, value] of Object.entries(fields)) {
    if (name.startsWith(':') || value === undefined) continue;
    headers.set(
      name.toLowerCase(),
      (Array.isArray(value) ? value : [String(value)]).map((v) => v.trim()),
    );
  }
  const extensions = headers.get('sec-websocket-extensions');
  return { ok: true, status, headers, extensions: extensions === undefined ? null : extensions.join(', ') };
}

/**
 * A header block as text for the reports: "HTTP/2 HEADERS" then one "name: value" line per field,
 * pseudo-header fields first, ending in an empty line as an HTTP/1.1 head does.
 */
export function renderFields(fields: HeaderFields): string {
  const lines = ['HTTP/2 HEADERS'];
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => Number(!a.startsWith(':')) - Number(!b.startsWith(':')));
  for (const [name, value] of entries) {
    for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${String(v)}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Header fields as one string each, names lower-case (a repeated field's values joined by ", "). */
export function flatFields(fields: HeaderFields): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}
