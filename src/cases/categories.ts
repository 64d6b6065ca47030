/** Names of Autobahn's case categories (by first id number) and subcategories (by id prefix). */
export const categoryNames: Readonly<Record<string, string>> = {
  '1': 'Framing',
  '2': 'Pings/Pongs',
  '3': 'Reserved Bits',
  '4': 'Opcodes',
  '5': 'Fragmentation',
  '6': 'UTF-8 Handling',
  '7': 'Close Handling',
  '9': 'Limits/Performance',
  '10': 'Misc',
  '12': 'WebSocket Compression (different payloads)',
  '13': 'WebSocket Compression (different parameters)',
  // wsgate's own (not in Autobahn|Testsuite): selected with --extended only.
  '14': 'Opening Handshake and Extension Negotiation',
  // The same subjects from the other side: a server under test (--role server --extended).
  '15': 'Opening Handshake and Framing (server under test)',
  // RFC 8441's own rules, both roles (--http2 --extended): 16.1 for a server under test, 16.2 for a client.
  '16': 'WebSocket over HTTP/2 (RFC 8441)',
  // The robustness profile (--robustness only, never by default): the known denial-of-service attacks.
  '17': 'Robustness: attacks on a server under test',
  '18': 'Robustness: attacks on a client under test',
};

/** Groups wsgate adds to Autobahn's catalogue; reports mark their cases as wsgate's own. */
export const WSGATE_GROUPS: ReadonlySet<string> = new Set(['14', '15', '16', '17', '18']);

/** Whether a case is wsgate's own rather than Autobahn|Testsuite's (by its group number). */
export function isWsgateCase(id: string): boolean {
  return WSGATE_GROUPS.has(id.split('.')[0] ?? '');
}

/**
 * The 13.x names: the JSON data, then Autobahn's client offers and server accept rule as Python
 * lists of (requestNoContextTakeover, requestMaxWindowBits); the two lists are the same in every 13.x.
 */
function deflateParams(tuples: string): string {
  const what = '(requestNoContextTakeover, requestMaxWindowBits)';
  return `Large JSON data file (utf8, 194056 bytes) - client offers ${what}: ${tuples} / server accept ${what}: ${tuples}`;
}

/** Subcategory names, where Autobahn gives one (groups 2, 3 and 5 have none). */
export const subcategoryNames: Readonly<Record<string, string>> = {
  '15.1': 'Upgrade requests the server must refuse',
  '15.2': 'permessage-deflate offers the server must decline',
  '15.3': 'Frames the server must refuse',
  '16.1': 'Server under test: SETTINGS, extended CONNECT, stream ends, several streams, flow control, PING (RFC 8441)',
  '16.2': 'Client under test: extended CONNECT, 2xx without Sec-WebSocket-Accept, stream ends, flow control, PING (RFC 8441)',
  '1.1': 'Text Messages',
  '1.2': 'Binary Messages',
  '4.1': 'Non-control Opcodes',
  '4.2': 'Control Opcodes',
  '6.1': 'Valid UTF-8 with zero payload fragments',
  '6.2': 'Valid UTF-8 unfragmented, fragmented on code-points and within code-points',
  '6.3': 'Invalid UTF-8 differently fragmented',
  '6.4': 'Fail-fast on invalid UTF-8',
  '6.5': 'Some valid UTF-8 sequences',
  '6.6': 'All prefixes of a valid UTF-8 string that contains multi-byte code points',
  '6.7': 'First possible sequence of a certain length',
  '6.8': 'First possible sequence length 5/6 (invalid codepoints)',
  '6.9': 'Last possible sequence of a certain length',
  '6.10': 'Last possible sequence length 4/5/6 (invalid codepoints)',
  '6.11': 'Other boundary conditions',
  '6.12': 'Unexpected continuation bytes',
  '6.13': 'Lonely start characters',
  '6.14': 'Sequences with last continuation byte missing',
  '6.15': 'Concatenation of incomplete sequences',
  '6.16': 'Impossible bytes',
  '6.17': 'Examples of an overlong ASCII character',
  '6.18': 'Maximum overlong sequences',
  '6.19': 'Overlong representation of the NUL character',
  '6.20': 'Single UTF-16 surrogates',
  '6.21': 'Paired UTF-16 surrogates',
  '6.22': 'Non-character code points (valid UTF-8)',
  '6.23': 'Unicode specials (i.e. replacement char)',
  '7.1': 'Basic close behavior (fuzzer initiated)',
  '7.3': 'Close frame structure: payload length (fuzzer initiated)',
  '7.5': 'Close frame structure: payload value (fuzzer initiated)',
  '7.7': 'Close frame structure: valid close codes (fuzzer initiated)',
  '7.9': 'Close frame structure: invalid close codes (fuzzer initiated)',
  '7.13': 'Informational close information (fuzzer initiated)',
  '9.1': 'Text Message (increasing size)',
  '9.2': 'Binary Message (increasing size)',
  '9.3': 'Fragmented Text Message (fixed size, increasing fragment size)',
  '9.4': 'Fragmented Binary Message (fixed size, increasing fragment size)',
  '9.5': 'Text Message (fixed size, increasing chop size)',
  '9.6': 'Binary Text Message (fixed size, increasing chop size)',
  '9.7': 'Text Message Roundtrip Time (fixed number, increasing size)',
  '9.8': 'Binary Message Roundtrip Time (fixed number, increasing size)',
  '10.1': 'Auto-Fragmentation',
  '12.1': 'Large JSON data file (utf8, 194056 bytes)',
  '12.2': 'Lena Picture, Bitmap 512x512 bw (binary, 263222 bytes)',
  '12.3': "Human readable text, Goethe's Faust I (German) (binary, 222218 bytes)",
  '12.4': 'Large HTML file (utf8, 263647 bytes)',
  '12.5': 'A larger PDF (binary, 1042328 bytes)',
  '13.1': deflateParams('[(False, 0)]'),
  '13.2': deflateParams('[(True, 0)]'),
  '13.3': deflateParams('[(False, 9)]'),
  '13.4': deflateParams('[(False, 15)]'),
  '13.5': deflateParams('[(True, 9)]'),
  '13.6': deflateParams('[(True, 15)]'),
  '13.7': deflateParams('[(True, 9), (True, 0), (False, 0)]'),
  '14.1': 'Responses to refuse: status line and required header fields (RFC 6455 §4.1)',
  '14.2': 'Responses to refuse: extensions and subprotocols not offered (RFC 6455 §4.1)',
  '14.3': 'Responses to refuse: permessage-deflate parameters (RFC 7692 §7.1)',
  '14.4': 'Responses to accept: delivery, letter case, whitespace, lists (RFC 6455 §4.1, RFC 7230 §3.2)',
  '14.5': 'Compressed messages to inflate (RFC 7692 §7.2.2, §7.2.3)',
  '14.6': 'Close reasons at the edges (RFC 6455 §5.5.1, §8.1)',
};
