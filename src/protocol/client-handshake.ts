/**
 * The client's side of the opening handshake (RFC 6455 §4.1): the upgrade request, and the checks a
 * client MUST make of the server's response before the connection counts as established. Pure, no
 * sockets: the groundwork of the server-under-test role (a fuzzing client), which reports a failed
 * check as the case's failure.
 */
import { computeAccept, findHeadEnd, hasToken, parseHeaders, show } from './handshake.js';

/** What goes into an upgrade request. */
export interface UpgradeRequestSpec {
  /** The Host header: host[:port] as the URL gives it. */
  host: string;
  /** The request target: path and query ("/", "/chat?x=1"). */
  target: string;
  /** Sec-WebSocket-Key: base64 of 16 bytes (newClientKey). */
  key: string;
  /** Sec-WebSocket-Extensions offered, or null for none. */
  extensions?: string | null;
  /** Further header lines, as sent. */
  headers?: ReadonlyArray<readonly [string, string]>;
}

/** A fresh Sec-WebSocket-Key: "a randomly selected 16-byte value that has been base64-encoded" (§4.1). */
export function newClientKey(random: (n: number) => Buffer): string {
  return random(16).toString('base64');
}

/** The request head, CRLF-terminated (§4.1 items 1-9; Origin and subprotocols are not sent). */
export function buildUpgradeRequest(spec: UpgradeRequestSpec): string {
  const lines = [
    `GET ${spec.target} HTTP/1.1`,
    `Host: ${spec.host}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Key: ${spec.key}`,
    'Sec-WebSocket-Version: 13',
    ...(spec.extensions == null ? [] : [`Sec-WebSocket-Extensions: ${spec.extensions}`]),
    ...(spec.headers ?? []).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** The server's response, checked: its status, headers and extensions, or why the client must fail. */
export type UpgradeResponse = { ok: true; status: number; headers: Map<string, string[]>; extensions: string | null } | { ok: false; reason: string };

/**
 * Checks a complete response head against the request's key, as §4.1 has the client do: "If the
 * status code received from the server is not 101, the client handles the response per HTTP
 * procedures", and otherwise it "MUST _Fail the WebSocket Connection_" when Upgrade is not
 * "websocket", Connection has no "Upgrade" token, Sec-WebSocket-Accept is not the base64 SHA-1 of
 * the key and the GUID, or Sec-WebSocket-Protocol names a subprotocol it did not request.
 */
export function checkUpgradeResponse(head: Buffer, key: string): UpgradeResponse {
  const end = findHeadEnd(head);
  if (end < 0) return { ok: false, reason: 'the response head is not complete (no empty line)' };
  const lines = head.toString('latin1', 0, end).split('\r\n');
  while (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const status = /^HTTP\/1\.1 (\d{3})(?: .*)?$/.exec(lines[0] ?? '');
  if (status === null) return { ok: false, reason: `bad HTTP status line ${show(lines[0] ?? '')}` };
  const code = Number(status[1]);
  if (code !== 101) return { ok: false, reason: `the server answered ${code}, not 101 Switching Protocols` };
  const headers = parseHeaders(lines.slice(1));
  if (!(headers instanceof Map)) return { ok: false, reason: headers.reason };
  const upgrade = headers.get('upgrade');
  if (upgrade === undefined || upgrade.length !== 1 || upgrade[0]?.toLowerCase() !== 'websocket') {
    return { ok: false, reason: `the response's Upgrade is not "websocket": ${show((upgrade ?? ['(none)']).join(', '))}` };
  }
  if (!hasToken(headers.get('connection') ?? [], 'upgrade')) {
    return { ok: false, reason: `the response's Connection has no "Upgrade" token: ${show((headers.get('connection') ?? ['(none)']).join(', '))}` };
  }
  const accept = headers.get('sec-websocket-accept');
  const expected = computeAccept(key);
  if (accept === undefined || accept.length !== 1 || accept[0] !== expected) {
    return { ok: false, reason: `the response's Sec-WebSocket-Accept is ${show((accept ?? ['(none)']).join(', '))}, not ${JSON.stringify(expected)}` };
  }
  if (headers.has('sec-websocket-protocol')) return { ok: false, reason: 'the response names a subprotocol the client did not request' };
  const extensions = headers.get('sec-websocket-extensions');
  return { ok: true, status: code, headers, extensions: extensions === undefined ? null : extensions.join(', ') };
}
