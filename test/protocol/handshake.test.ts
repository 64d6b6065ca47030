import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  buildHttpError,
  buildSwitchingProtocols,
  computeAccept,
  findHeadEnd,
  parseExtensionsHeader,
  parseUpgradeRequest,
} from '../../src/protocol/handshake.js';
import type { HandshakeVerdict, UpgradeRequest } from '../../src/protocol/handshake.js';

const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';

/** A request head from lines (CRLF-joined, CRLFCRLF-terminated). */
function head(...lines: string[]): Buffer {
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/** The RFC 6455 §1.2 client request, with header lines replaced or removed by name. */
function request(overrides: Record<string, string | null> = {}, requestLine = 'GET /chat HTTP/1.1'): Buffer {
  const base: Array<[string, string]> = [
    ['Host', 'server.example.com'],
    ['Upgrade', 'websocket'],
    ['Connection', 'Upgrade'],
    ['Sec-WebSocket-Key', KEY],
    ['Origin', 'http://example.com'],
    ['Sec-WebSocket-Protocol', 'chat, superchat'],
    ['Sec-WebSocket-Version', '13'],
  ];
  const lines = base.filter(([name]) => overrides[name] !== null).map(([name, value]) => `${name}: ${overrides[name] ?? value}`);
  return head(requestLine, ...lines);
}

function accepted(verdict: HandshakeVerdict): UpgradeRequest {
  if (!verdict.ok) assert.fail(`expected ok, got ${verdict.status} ${verdict.reason}`);
  return verdict.request;
}

function rejected(verdict: HandshakeVerdict, status: number, reason?: RegExp, headers?: Array<[string, string]>): void {
  assert.equal(verdict.ok, false, 'expected a rejection');
  if (verdict.ok) return;
  assert.equal(verdict.status, status, verdict.reason);
  if (reason !== undefined) assert.match(verdict.reason, reason);
  assert.doesNotMatch(verdict.reason, /[\r\n]/, 'reason is one line');
  assert.deepEqual(verdict.headers, headers);
}

test('computeAccept: RFC 6455 §1.3 example', () => {
  // The RFC's value (and SHA-1 computed independently); "...9kYGJRzPxOo+xOo=" seen in some notes is a typo.
  assert.equal(computeAccept('dGhlIHNhbXBsZSBub25jZQ=='), 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
});

test('findHeadEnd: index just after the first CRLFCRLF', () => {
  assert.equal(findHeadEnd(Buffer.from('GET / HTTP/1.1\r\nHost: a\r\n\r\nrest')), 27);
  assert.equal(findHeadEnd(Buffer.from('\r\n\r\n')), 4);
  assert.equal(findHeadEnd(Buffer.from('GET / HTTP/1.1\r\nHost: a\r\n\r')), -1);
  assert.equal(findHeadEnd(Buffer.from('GET / HTTP/1.1\n\n')), -1);
});

test('the RFC 6455 §1.2 request is accepted and parsed', () => {
  const raw = request({}, 'GET /runCase?case=3&agent=my%20client HTTP/1.1');
  const r = accepted(parseUpgradeRequest(raw));
  assert.equal(r.method, 'GET');
  assert.equal(r.target, '/runCase?case=3&agent=my%20client');
  assert.equal(r.path, '/runCase');
  assert.equal(r.query.get('case'), '3');
  assert.equal(r.query.get('agent'), 'my client');
  assert.equal(r.key, KEY);
  assert.equal(r.version, '13');
  assert.equal(r.raw, raw.toString('latin1'));
  assert.ok(r.raw.endsWith('\r\n\r\n'));
  assert.deepEqual([...r.headers.keys()], ['host', 'upgrade', 'connection', 'sec-websocket-key', 'origin', 'sec-websocket-protocol', 'sec-websocket-version']);
  assert.deepEqual(r.headers.get('sec-websocket-protocol'), ['chat, superchat']);
  assert.equal(computeAccept(r.key), 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
});

test('header names in any case, values trimmed, repeated headers kept in order', () => {
  const raw = head(
    'GET / HTTP/1.1',
    'hOsT:localhost:9001',
    'UPGRADE:   WebSocket  ',
    'connection: keep-alive, Upgrade',
    `sec-websocket-KEY: \t${KEY}`,
    'SEC-WEBSOCKET-VERSION: 13',
    'X-Multi: one',
    'x-multi: two',
  );
  const r = accepted(parseUpgradeRequest(raw));
  assert.deepEqual(r.headers.get('host'), ['localhost:9001']);
  assert.deepEqual(r.headers.get('upgrade'), ['WebSocket']);
  assert.deepEqual(r.headers.get('x-multi'), ['one', 'two']);
  assert.equal(r.key, KEY);
  assert.equal(r.path, '/');
  assert.equal(r.query.size, 0);
});

test('Connection and Upgrade are token lists, also across repeated headers', () => {
  accepted(parseUpgradeRequest(request({ Connection: 'keep-alive, Upgrade' })));
  accepted(parseUpgradeRequest(request({ Connection: 'UPGRADE,keep-alive' })));
  accepted(parseUpgradeRequest(request({ Upgrade: 'h2c, WebSocket' })));
  accepted(
    parseUpgradeRequest(
      head(
        'GET / HTTP/1.1',
        'Host: a',
        'Upgrade: websocket',
        'Connection: keep-alive',
        'Connection: upgrade',
        `Sec-WebSocket-Key: ${KEY}`,
        'Sec-WebSocket-Version: 13',
      ),
    ),
  );
  // "upgraded" is not the token "upgrade"
  rejected(parseUpgradeRequest(request({ Connection: 'upgraded' })), 400, /Connection/);
});

test('the Host port is not compared with any listening port (Docker port mapping)', () => {
  accepted(parseUpgradeRequest(request({ Host: 'localhost:32768' })));
  accepted(parseUpgradeRequest(request({ Host: '[::1]:9001' })));
});

test('Sec-WebSocket-Version 8 is accepted like autobahn does', () => {
  assert.equal(accepted(parseUpgradeRequest(request({ 'Sec-WebSocket-Version': '8' }))).version, '8');
});

test('each failure gets its status', () => {
  rejected(parseUpgradeRequest(request({}, 'GET /chat')), 400, /Bad HTTP request status line/);
  rejected(parseUpgradeRequest(request({}, 'GET /chat HTTP/1.1 extra')), 400, /Bad HTTP request status line/);
  rejected(parseUpgradeRequest(request({}, 'POST /chat HTTP/1.1')), 405, /POST/, [['Allow', 'GET']]);
  rejected(parseUpgradeRequest(request({}, 'get /chat HTTP/1.1')), 405, /get/, [['Allow', 'GET']]);
  rejected(parseUpgradeRequest(request({}, 'GET /chat HTTP/1.0')), 505, /HTTP\/1\.0/);
  rejected(parseUpgradeRequest(request({}, 'GET /chat HTTP/2')), 505);
  rejected(parseUpgradeRequest(request({}, 'GET http://server.example.com/chat HTTP/1.1')), 400, /start with/);
  rejected(parseUpgradeRequest(request({}, 'GET /chat#frag HTTP/1.1')), 400, /fragment/);
  rejected(parseUpgradeRequest(request({ Host: null })), 400, /Host header missing/);
  rejected(parseUpgradeRequest(head('GET / HTTP/1.1', 'Host: a', 'Host: b', 'Upgrade: websocket')), 400, /Host header appears more than once/);
  rejected(parseUpgradeRequest(request({ Upgrade: null })), 426, /Upgrade header missing/, [['Upgrade', 'websocket']]);
  // A plain request says what it asked for (the server may have a page for it); an upgrade refused otherwise does not.
  const plain = parseUpgradeRequest(request({ Upgrade: null }, 'GET /test_browser.html?autorun=1 HTTP/1.1'));
  assert.ok(!plain.ok && plain.plainHttp === true && plain.target === '/test_browser.html?autorun=1', JSON.stringify(plain));
  const refused = parseUpgradeRequest(request({ Upgrade: 'h2c' }));
  assert.ok(!refused.ok && refused.target === undefined && refused.plainHttp === undefined);
  rejected(parseUpgradeRequest(request({ Upgrade: 'h2c' })), 400, /websocket/);
  rejected(parseUpgradeRequest(request({ Connection: null })), 400, /Connection header missing/);
  rejected(parseUpgradeRequest(request({ Connection: 'keep-alive' })), 400, /upgrade/);
  rejected(parseUpgradeRequest(request({ 'Sec-WebSocket-Version': '12' })), 426, /version "12"/, [['Sec-WebSocket-Version', '13']]);
  rejected(parseUpgradeRequest(request({ 'Sec-WebSocket-Version': ' ' })), 426, undefined, [['Sec-WebSocket-Version', '13']]);
  rejected(parseUpgradeRequest(request({ 'Sec-WebSocket-Version': null })), 426, /missing/, [['Sec-WebSocket-Version', '13']]);
  rejected(
    parseUpgradeRequest(
      head(
        'GET / HTTP/1.1',
        'Host: a',
        'Upgrade: websocket',
        'Connection: upgrade',
        `Sec-WebSocket-Key: ${KEY}`,
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Version: 13',
      ),
    ),
    400,
    /more than once/,
  );
  rejected(parseUpgradeRequest(request({ 'Sec-WebSocket-Key': null })), 400, /Key header missing/);
  rejected(parseUpgradeRequest(request({ 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ' })), 400, /Sec-WebSocket-Key/);
  rejected(parseUpgradeRequest(request({ 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQo=' })), 400, /Sec-WebSocket-Key/);
  rejected(parseUpgradeRequest(request({ 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25j*Q==' })), 400, /Sec-WebSocket-Key/);
  rejected(parseUpgradeRequest(request({ 'Sec-WebSocket-Key': 'c2hvcnQ=' })), 400, /Sec-WebSocket-Key/);
  rejected(
    parseUpgradeRequest(
      head(
        'GET / HTTP/1.1',
        'Host: a',
        'Upgrade: websocket',
        'Connection: upgrade',
        `Sec-WebSocket-Key: ${KEY}`,
        `Sec-WebSocket-Key: ${KEY}`,
        'Sec-WebSocket-Version: 13',
      ),
    ),
    400,
    /more than once/,
  );
  rejected(
    parseUpgradeRequest(
      head(
        'GET / HTTP/1.1',
        'Host: a',
        'Upgrade: websocket',
        'Connection: upgrade',
        `Sec-WebSocket-Key: ${KEY}`,
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Extensions: permessage-deflate',
        'Sec-WebSocket-Extensions: x-foo',
      ),
    ),
    400,
    /Extensions header appears more than once/,
  );
});

test('malformed header lines are rejected with 400', () => {
  rejected(parseUpgradeRequest(head('GET / HTTP/1.1', 'Host: a', 'this line has no colon', 'Upgrade: websocket')), 400, /colon/);
  rejected(parseUpgradeRequest(head('GET / HTTP/1.1', 'Host: a', 'Upgrade: websocket', ' folded continuation')), 400, /folding/);
  rejected(parseUpgradeRequest(head('GET / HTTP/1.1', 'Host: a', 'Upgrade: websocket', '\tfolded continuation')), 400, /folding/);
  rejected(parseUpgradeRequest(head('GET / HTTP/1.1', 'Host : a')), 400, /header name/);
  rejected(parseUpgradeRequest(head('GET / HTTP/1.1', 'Host: a\nUpgrade: websocket')), 400, /bare CR or LF/);
});

test('garbage never throws and is rejected', () => {
  rejected(parseUpgradeRequest(Buffer.alloc(0)), 400);
  rejected(parseUpgradeRequest(Buffer.from('\r\n\r\n')), 400);
  rejected(parseUpgradeRequest(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03, 0x0d, 0x0a, 0x0d, 0x0a])), 400); // a TLS ClientHello
  rejected(parseUpgradeRequest(Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n')), 405, /PRI/, [['Allow', 'GET']]); // the HTTP/2 preface
  fc.assert(
    fc.property(
      fc.oneof(
        fc.uint8Array({ maxLength: 400 }).map((x) => Buffer.from(x)),
        fc.array(fc.string({ maxLength: 40 }), { maxLength: 12 }).map((lines) => head(...lines)),
        // a valid request with a random byte replaced: may pass or fail, must not throw
        fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([p, v]) => {
          const r = Buffer.from(request());
          r[p % r.length] = v;
          return r;
        }),
      ),
      (bytes) => {
        const verdict = parseUpgradeRequest(bytes);
        if (!verdict.ok) {
          assert.ok([400, 405, 426, 505].includes(verdict.status), `${verdict.status}`);
          assert.doesNotMatch(verdict.reason, /[\r\n]/);
          // A response can always be built from a verdict.
          assert.match(buildHttpError(verdict.status, verdict.reason, verdict.headers), /^HTTP\/1\.1 \d{3} [A-Za-z ]+\r\n/);
        }
      },
    ),
    { numRuns: 300 },
  );
});

test('buildSwitchingProtocols: exact bytes', () => {
  const accept = computeAccept(KEY);
  assert.equal(
    buildSwitchingProtocols(accept, { server: 'wsgate/0.1.0', poweredBy: 'wsgate' }),
    'HTTP/1.1 101 Switching Protocols\r\n' +
      'Server: wsgate/0.1.0\r\n' +
      'X-Powered-By: wsgate\r\n' +
      'Upgrade: WebSocket\r\n' +
      'Connection: Upgrade\r\n' +
      'Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n' +
      '\r\n',
  );
  assert.equal(
    buildSwitchingProtocols(accept, { server: 's', poweredBy: 'p', extensions: 'permessage-deflate; server_no_context_takeover' }),
    'HTTP/1.1 101 Switching Protocols\r\nServer: s\r\nX-Powered-By: p\r\nUpgrade: WebSocket\r\nConnection: Upgrade\r\n' +
      'Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n' +
      'Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover\r\n\r\n',
  );
  assert.doesNotMatch(buildSwitchingProtocols(accept, { server: 's', poweredBy: 'p', extensions: null }), /Extensions/);
});

test('buildHttpError: status line, headers, length and a one-line body', () => {
  assert.equal(
    buildHttpError(426, 'HTTP Upgrade header missing', [['Upgrade', 'websocket']]),
    'HTTP/1.1 426 Upgrade Required\r\n' +
      'Upgrade: websocket\r\n' +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      'Content-Length: 28\r\n' +
      'Connection: close\r\n' +
      '\r\n' +
      'HTTP Upgrade header missing\n',
  );
  const phrases: Array<[number, string]> = [
    [400, 'Bad Request'],
    [404, 'Not Found'],
    [405, 'Method Not Allowed'],
    [426, 'Upgrade Required'],
    [431, 'Request Header Fields Too Large'],
    [500, 'Internal Server Error'],
    [503, 'Service Unavailable'],
    [505, 'HTTP Version Not Supported'],
  ];
  for (const [status, phrase] of phrases) assert.ok(buildHttpError(status, 'x').startsWith(`HTTP/1.1 ${status} ${phrase}\r\n`));
  // CR/LF removed, 200 characters at most, Content-Length in UTF-8 bytes
  const response = buildHttpError(400, `bad\r\nInjected: yes\r\n${'é'.repeat(300)}`);
  const [headPart, body] = response.split('\r\n\r\n') as [string, string];
  assert.doesNotMatch(headPart, /Injected/);
  assert.equal(body, `badInjected: yes${'é'.repeat(184)}\n`);
  assert.match(headPart, new RegExp(`Content-Length: ${Buffer.byteLength(body)}$`, 'm'));
});

test('parseExtensionsHeader: RFC 6455 §9.1 grammar', () => {
  assert.deepEqual(parseExtensionsHeader(''), []);
  assert.deepEqual(parseExtensionsHeader('  ,  '), []);
  assert.deepEqual(
    parseExtensionsHeader('permessage-deflate; client_max_window_bits, Permessage-Deflate; Server_Max_Window_Bits=10; client_no_context_takeover'),
    [
      { name: 'permessage-deflate', params: [['client_max_window_bits', true]] },
      {
        name: 'permessage-deflate',
        params: [
          ['server_max_window_bits', '10'],
          ['client_no_context_takeover', true],
        ],
      },
    ],
  );
  // quoted-string values (§9.1: "the quoted-string ... MUST conform to the token ABNF" once unquoted)
  assert.deepEqual(parseExtensionsHeader('foo; bar="baz"; q="a,b;c"; e="x\\"y"'), [
    {
      name: 'foo',
      params: [
        ['bar', 'baz'],
        ['q', 'a,b;c'],
        ['e', 'x"y'],
      ],
    },
  ]);
  // tolerant of junk: empty parameters and a parameter-less extension
  assert.deepEqual(parseExtensionsHeader('x-webkit-deflate-frame;;, mux'), [
    { name: 'x-webkit-deflate-frame', params: [] },
    { name: 'mux', params: [] },
  ]);
});
