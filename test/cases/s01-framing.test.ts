/**
 * Group 1 (framing): the ws client against the original's verdicts, and the exact frames on the wire
 * for each payload length encoding.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { framingSizes } from '../../src/cases/data/framing-sizes.js';
import type { CaseResult } from '../../src/model/report.js';
import { REFERENCE_CLIENT } from '../support/harness.js';
import { entries, get, startGroup, tf, verdictOf, wsVerdict, type GroupServer } from './group-runs.js';

/** How the report logs a payload of `length` repetitions of "*" or 0xfe (cut to 64 bytes past 60). */
function logged(length: number, binary: boolean): string {
  const shown = Math.min(length, 64);
  const cut = length > 60 ? ' ...' : '';
  return binary ? (length === 0 ? '' : `0x${'fe'.repeat(shown)}${cut}`) : `${'*'.repeat(shown)}${cut}`;
}

describe('group 1: framing', () => {
  let g: GroupServer;
  let ws: Map<string, CaseResult>;
  before(async () => {
    g = await startGroup(['1.*']);
    ws = await g.run(REFERENCE_CLIENT, 'ws');
  });
  after(() => g.close());

  test('16 cases in Autobahn order: 1.1.1-1.1.8 (text), then 1.2.1-1.2.8 (binary)', () => {
    assert.deepEqual(g.ids, [
      ...['1', '2', '3', '4', '5', '6', '7', '8'].map((n) => `1.1.${n}`),
      ...['1', '2', '3', '4', '5', '6', '7', '8'].map((n) => `1.2.${n}`),
    ]);
  });

  test('the ws client gets the verdicts the original gave it (OK/OK, ws closes with 1000)', () => {
    for (const id of g.ids) assert.deepEqual(verdictOf(get(ws, id)), wsVerdict(id), id);
  });

  test("each size: one frame, Autobahn's payload and timer, the echo expected, a close by us", () => {
    assert.deepEqual(
      framingSizes.map((s) => [s.length, s.chopSize, s.killAfter]),
      [
        [0, null, 1],
        [125, null, 1],
        [126, null, 1],
        [127, null, 1],
        [128, null, 1],
        [65535, null, 10],
        [65536, null, 10],
        [65536, 997, 10],
      ],
    );
    for (const size of framingSizes) {
      for (const [id, binary] of [
        [size.textId, false],
        [size.binaryId, true],
      ] as const) {
        const r = get(ws, id);
        const payload = [size.length, logged(size.length, binary)] as const;
        assert.deepEqual(entries(r, 'TF')[0], tf(payload, binary ? 2 : 1, { chopSize: size.chopSize }), id);
        assert.deepEqual(entries(r, 'KL'), [['KL', size.killAfter]], id);
        assert.deepEqual(r.expected, { OK: [['message', payload[1], binary]] }, id);
        assert.deepEqual(r.received, r.expected.OK, id);
        assert.deepEqual(r.expectedClose, { closedByMe: true, closeCode: [1000], requireClean: true }, id);
        assert.deepEqual(r.txFrameStats, { [binary ? '2' : '1']: 1, '8': 1 }, id);
        assert.equal(r.closedByMe, true, id);
        assert.equal(r.localCloseCode, 1000, id);
      }
    }
  });

  test('the header uses the 7-bit, 16-bit and 64-bit length forms at their edges', () => {
    // The first write after the 101 response is the whole frame (header, then the payload).
    const firstFrameWrite = (id: string): string => {
      const tos = entries(get(ws, id), 'TO');
      const e = tos[1];
      assert.ok(e !== undefined && e[0] === 'TO', id);
      return e[1][1];
    };
    // 0x81: FIN, text; 0x00: unmasked, length 0.
    assert.equal(firstFrameWrite('1.1.1'), '8100');
    // 0x82 0x7d: binary, length 125 in the 7-bit field.
    assert.ok(firstFrameWrite('1.2.2').startsWith('827dfefe'));
    // 0x7e then 0x007e: length 126 in the 16-bit field.
    assert.ok(firstFrameWrite('1.1.3').startsWith('817e007e2a2a'));
    // 0x7e then 0xffff: the largest 16-bit length.
    assert.ok(firstFrameWrite('1.2.6').startsWith('827efffffefe'));
    // 0x7f then 0x0000000000010000: 65536 needs the 64-bit field.
    assert.ok(firstFrameWrite('1.1.7').startsWith('817f00000000000100002a'));
  });

  test('1.1.8 and 1.2.8: the 65546-byte frame leaves in 65 writes of 997 bytes and one of 741', () => {
    for (const id of ['1.1.8', '1.2.8']) {
      const r = get(ws, id);
      // The 101 response, the chops, then our 4-byte close frame (0x88 0x02 0x03 0xe8).
      assert.deepEqual(r.txOctetStats, { [String(r.httpResponse.length)]: 1, '997': 65, '741': 1, '4': 1 }, id);
      const chops = entries(r, 'TO').slice(1, -1);
      assert.equal(chops.length, 66, id);
      assert.ok(
        chops.every((e) => e[0] === 'TO' && e[2]),
        `${id}: every chop is a write of its own`,
      );
    }
  });
});
