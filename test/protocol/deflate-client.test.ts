/**
 * permessage-deflate from the client's side: the offers wsgate writes as a fuzzing client
 * (autobahn-python 0.10.9's getExtensionString), the server answers it parses (PerMessageDeflateResponse
 * .parse, with Autobahn's reasons), and a client's compressor and a server's decompressor agreeing
 * on the wire in both directions (each side's windows and context rules mirrored).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientAgreement, offerExtensionString, parseDeflateResponse, serverAgreement } from '../../src/protocol/deflate/params.js';
import { PerMessageDeflate } from '../../src/protocol/deflate/codec.js';
import { parseExtensionsHeader } from '../../src/protocol/handshake.js';

function params(header: string): Array<[string, string | true]> {
  return parseExtensionsHeader(header)[0]?.params ?? [];
}

test("offers are written in Autobahn's parameter order, always allowing both client parameters", () => {
  assert.equal(
    offerExtensionString({ requestNoContextTakeover: false, requestMaxWindowBits: 0 }),
    'permessage-deflate; client_no_context_takeover; client_max_window_bits',
  );
  assert.equal(
    offerExtensionString({ requestNoContextTakeover: true, requestMaxWindowBits: 9 }),
    'permessage-deflate; client_no_context_takeover; client_max_window_bits; server_no_context_takeover; server_max_window_bits=9',
  );
});

test('a server answer is parsed; a bad one fails with the reason Autobahn gives', () => {
  assert.deepEqual(parseDeflateResponse(params('permessage-deflate; server_no_context_takeover; client_max_window_bits=10')), {
    clientMaxWindowBits: 10,
    clientNoContextTakeover: false,
    serverMaxWindowBits: 0,
    serverNoContextTakeover: true,
  });
  assert.equal(
    parseDeflateResponse(params('permessage-deflate; client_max_window_bits')),
    "illegal extension parameter value '1' for parameter 'client_max_window_bits' of extension 'permessage-deflate'",
  );
  assert.equal(
    parseDeflateResponse(params('permessage-deflate; server_max_window_bits=16')),
    "illegal extension parameter value '16' for parameter 'server_max_window_bits' of extension 'permessage-deflate'",
  );
  assert.equal(
    parseDeflateResponse(params('permessage-deflate; server_no_context_takeover=1')),
    "illegal extension parameter value '1' for parameter 'server_no_context_takeover' of extension 'permessage-deflate'",
  );
  assert.equal(parseDeflateResponse(params('permessage-deflate; x=1')), "illegal extension parameter 'x' for extension 'permessage-deflate'");
  assert.equal(
    parseDeflateResponse(params('permessage-deflate; server_no_context_takeover; server_no_context_takeover')),
    "multiple occurrence of extension parameter 'server_no_context_takeover' for extension 'permessage-deflate'",
  );
});

test("a client's agreement mirrors the server's: messages cross in both directions, windows and context rules kept", () => {
  const offer = { acceptNoContextTakeover: true, acceptMaxWindowBits: true, requestNoContextTakeover: true, requestMaxWindowBits: 10 };
  const accept = { offer, requestNoContextTakeover: true, requestMaxWindowBits: 9 };
  const response = parseDeflateResponse(
    params('permessage-deflate; server_no_context_takeover; server_max_window_bits=10; client_no_context_takeover; client_max_window_bits=9'),
  );
  assert.ok(typeof response !== 'string');
  const client = clientAgreement(response);
  const server = serverAgreement(accept);
  assert.deepEqual(
    [client.compressWindowBits, client.compressNoContextTakeover, client.decompressWindowBits, client.decompressNoContextTakeover],
    [server.decompressWindowBits, server.decompressNoContextTakeover, server.compressWindowBits, server.compressNoContextTakeover],
  );
  assert.equal(client.decompressWindowParam, 'server_max_window_bits');
  const ours = new PerMessageDeflate(client, { level: 6, maxMessageSize: 0 });
  const theirs = new PerMessageDeflate(server, { level: 6, maxMessageSize: 0 });
  const text = Buffer.from('{"a": [1, 2, 3], "b": "hello hello hello"} '.repeat(200));
  for (let i = 0; i < 3; i++) {
    theirs.startMessage();
    const up = theirs.push(ours.compress(text));
    assert.deepEqual(Buffer.concat([up, theirs.endMessage()]), text);
    ours.startMessage();
    const down = ours.push(theirs.compress(text));
    assert.deepEqual(Buffer.concat([down, ours.endMessage()]), text);
  }
  ours.close();
  theirs.close();
});
