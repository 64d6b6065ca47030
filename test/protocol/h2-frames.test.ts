/** The raw HTTP/2 pieces group 16's probes use: frames split wherever TCP cut them, and :status read as encoders write it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeStatus, encodeH2Frame, H2FrameReader, hpackBlock, parseSettings, settingsPayload } from '../../src/protocol/h2-frames.js';

test('decodeStatus: indexed static entries, plain and Huffman-coded literals, after a table size update; null otherwise', () => {
  assert.equal(decodeStatus(Buffer.from([0x88])), 200); // indexed 8
  assert.equal(decodeStatus(Buffer.from([0x8d])), 404); // indexed 13
  assert.equal(decodeStatus(Buffer.from('08033130310f', 'hex')), 101); // literal without indexing, name 8, "101"
  assert.equal(decodeStatus(Buffer.from('48826402', 'hex')), 302); // RFC 7541 C.6.1: incremental indexing, Huffman "302"
  assert.equal(decodeStatus(Buffer.from('3f e1 1f 88'.replace(/ /g, ''), 'hex')), 200); // size update 4096, then indexed 8
  assert.equal(decodeStatus(Buffer.from([0x82])), null); // :method GET is not a status
  assert.equal(decodeStatus(hpackBlock([[':status', '200']])), null); // a new-name literal is not how an encoder writes :status
});

test('H2FrameReader: the same frames whatever the chunks; SETTINGS round trip', () => {
  const bytes = Buffer.concat([
    encodeH2Frame(
      0x4,
      0,
      0,
      settingsPayload([
        [0x8, 1],
        [0x4, 16384],
      ]),
    ),
    encodeH2Frame(0x3, 0, 1, Buffer.from([0, 0, 0, 8])),
  ]);
  for (let cut = 0; cut <= bytes.length; cut++) {
    const r = new H2FrameReader();
    const frames = [...r.push(bytes.subarray(0, cut)), ...r.push(bytes.subarray(cut))];
    assert.deepEqual(
      frames.map((f) => [f.type, f.streamId, f.payload.length]),
      [
        [4, 0, 12],
        [3, 1, 4],
      ],
    );
    assert.deepEqual(
      [...parseSettings(frames[0]!.payload)],
      [
        [8, 1],
        [4, 16384],
      ],
    );
  }
});
