/**
 * Group 7 (close handling) over real loopback sockets: the ws package against the original's verdicts,
 * the frames each family puts on the wire, and two broken clients (one answers every close with 1001,
 * one never answers a close) with the verdicts Autobahn gives them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { catalogue } from '../../src/catalogue/registry.js';
import { closeCases } from '../../src/cases/s07-close.js';
import { selectCases } from '../../src/cases/select.js';
import { invalidCloseCodes, undefinedCloseCodes, validCloseCodes } from '../../src/cases/data/close-codes.js';
import { ruleForResult } from '../../src/policy/rule.js';
import { failingVerdicts } from '../../src/model/verdicts.js';
import type { CaseResult, WirelogEntry } from '../../src/model/report.js';
import type { FuzzingServer } from '../../src/server/fuzzing-server.js';
import { CLIENTS_AT_ONCE, fixture, REFERENCE_CLIENT, resultOf, runNode, startServer } from '../support/harness.js';
import { referenceVerdictsWs } from '../support/autobahn-reference.js';

const REFERENCE = { cases: referenceVerdictsWs() };

const IDS = closeCases.map((c) => c.id);

/** The 1-based /runCase index of each id on a server that selects group 7 only. */
const INDEX = new Map(selectCases(catalogue, ['7.*']).map((c, i) => [c.id, i + 1]));

/** Runs the cases with one client process each, a few at a time, and returns their results by id. */
async function runAll(server: FuzzingServer, base: string, script: string, agent: string, ids: readonly string[]): Promise<Map<string, CaseResult>> {
  const results = new Map<string, CaseResult>();
  const BATCH = CLIENTS_AT_ONCE;
  for (let i = 0; i < ids.length; i += BATCH) {
    await Promise.all(
      ids.slice(i, i + BATCH).map(async (id) => {
        const pending = resultOf(server, agent, id);
        await runNode(script, [`${base}/runCase?case=${INDEX.get(id) ?? 0}&agent=${agent}`]);
        results.set(id, await pending);
      }),
    );
  }
  return results;
}

function get(results: Map<string, CaseResult>, id: string): CaseResult {
  const r = results.get(id);
  if (r === undefined) assert.fail(`no result for ${id}`);
  return r;
}

/** The TX FRAME entries of a result. */
function txFrames(r: CaseResult): WirelogEntry[] {
  return r.wirelog.filter((e) => e[0] === 'TF');
}

/** Hex of every TX OCTETS entry, joined (TCP chunking aside, the bytes we wrote after the 101). */
function txHex(r: CaseResult): string {
  return r.wirelog
    .filter((e) => e[0] === 'TO')
    .slice(1)
    .map((e) => (e[0] === 'TO' ? e[1][1] : ''))
    .join('');
}

/** A TX FRAME entry of an unchopped, unmasked, unrepeated frame. */
function tf(length: number, text: string, opcode: number, fin = true): WirelogEntry {
  return ['TF', [length, text], opcode, fin, 0, null, null, null, false];
}

test('the group has 37 cases with explicit ids, in Autobahn order', () => {
  assert.equal(closeCases.length, 37);
  assert.deepEqual(IDS, [
    ...['7.1.1', '7.1.2', '7.1.3', '7.1.4', '7.1.5', '7.1.6'],
    ...['7.3.1', '7.3.2', '7.3.3', '7.3.4', '7.3.5', '7.3.6', '7.5.1'],
    ...validCloseCodes.map((c) => c.id),
    ...invalidCloseCodes.map((c) => c.id),
    '7.13.1',
    '7.13.2',
  ]);
  assert.deepEqual(
    validCloseCodes.map((c) => c.code),
    [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999],
  );
  assert.deepEqual(
    invalidCloseCodes.map((c) => c.code),
    [0, 999, 1004, 1005, 1006, 1016, 1100, 2000, 2999],
  );
  assert.deepEqual(
    undefinedCloseCodes.map((c) => c.code),
    [5000, 65535],
  );
  for (const c of closeCases) assert.equal(INDEX.get(c.id), IDS.indexOf(c.id) + 1);
});

describe('the ws package as client', () => {
  let server: FuzzingServer;
  let base: string;
  let results: Map<string, CaseResult>;
  before(async () => {
    ({ server, base } = await startServer(['7.*']));
    results = await runAll(server, base, REFERENCE_CLIENT, 'ws', IDS);
  });
  after(() => server.close());

  for (const id of IDS) {
    test(`${id}: the original's verdicts`, () => {
      const want = REFERENCE.cases[id];
      assert.ok(want !== undefined, id);
      const r = get(results, id);
      assert.deepEqual(
        { behavior: r.behavior, behaviorClose: r.behaviorClose, remoteCloseCode: r.remoteCloseCode },
        { behavior: want.behavior, behaviorClose: want.behaviorClose, remoteCloseCode: want.remoteCloseCode },
      );
      // The fuzzer starts the closing handshake in every case and fails the connection after 1 s.
      assert.equal(r.closedByMe, true);
      assert.ok(r.wirelog.some((e) => e[0] === 'KL' && e[1] === 1));
    });
  }

  test('7.1.1: echo first, then the close 1000 the engine sends once the echo is in', () => {
    const r = get(results, '7.1.1');
    assert.deepEqual(r.received, [['message', 'Hello World!', false]]);
    assert.deepEqual(txFrames(r), [tf(12, 'Hello World!', 1), tf(2, '0x03e8', 8)]);
    assert.deepEqual(r.expectedClose, { closedByMe: true, closeCode: [1000], requireClean: true });
  });

  test('7.1.2-7.1.5: what follows the close is on the wire, and ignored', () => {
    assert.deepEqual(txFrames(get(results, '7.1.2')), [tf(2, '0x03e8', 8), tf(0, '', 8)]);
    assert.deepEqual(txFrames(get(results, '7.1.3')), [tf(2, '0x03e8', 8), tf(0, '', 9)]);
    assert.deepEqual(txFrames(get(results, '7.1.4')), [tf(2, '0x03e8', 8), tf(12, 'Hello World!', 1)]);
    assert.deepEqual(txFrames(get(results, '7.1.5')), [tf(9, 'fragment1', 1, false), tf(2, '0x03e8', 8), tf(9, 'fragment2', 0, true)]);
    // 0x01 0x09 "fragment1" (no FIN), 0x88 0x02 0x03 0xe8, 0x80 0x09 "fragment2".
    assert.equal(txHex(get(results, '7.1.5')), `0109${Buffer.from('fragment1').toString('hex')}880203e88009${Buffer.from('fragment2').toString('hex')}`);
    for (const id of ['7.1.2', '7.1.3', '7.1.4', '7.1.5']) {
      const r = get(results, id);
      assert.deepEqual(r.received, [], id);
      assert.equal(r.wasClean, true, id);
      assert.equal(r.localCloseCode, 1000, id);
    }
  });

  test('7.1.6: informational, with the result text of the events seen', () => {
    const r = get(results, '7.1.6');
    const frames = txFrames(r);
    assert.deepEqual(frames[0], ['TF', [10, 'BAsd7&jh23'], 1, true, 0, null, 262144, null, false]);
    assert.deepEqual(frames.slice(1), [tf(12, 'Hello World!', 1), tf(2, '0x03e8', 8), tf(0, '', 9)]);
    assert.deepEqual(r.expected, { OK: [['message', 'Hello World!', false]], 'NON-STRICT': [] });
    // ws echoes both messages before it answers the close: neither list matches, the default text stays.
    assert.equal(r.received.length, 2);
    assert.equal(r.result, 'Actual events differ from any expected.');
    assert.equal(r.resultClose, 'Connection was properly closed');
  });

  test('7.3.x: the close payloads of each length', () => {
    const r1 = get(results, '7.3.1');
    assert.deepEqual(txFrames(r1), [tf(0, '', 8)]);
    assert.equal(txHex(r1), '8800');
    assert.equal(r1.localCloseCode, null);
    assert.equal(r1.localCloseReason, null);
    const r4 = get(results, '7.3.4');
    assert.equal(txHex(r4), `880e03e8${Buffer.from('Hello World!').toString('hex')}`);
    assert.equal(r4.localCloseReason, 'Hello World!');
    const r5 = get(results, '7.3.5');
    assert.equal(txHex(r5).slice(0, 8), '887d03e8'); // 125-byte payload: the largest a control frame may carry
    assert.equal(r5.localCloseReason, '*'.repeat(123));
    const r6 = get(results, '7.3.6');
    assert.equal(txHex(r6).slice(0, 12), '887e007e03e8'); // 126-byte payload in a 16-bit length
    assert.equal(r6.localCloseReason, '*'.repeat(124));
    assert.deepEqual(r6.expectedClose, { closedByMe: true, closeCode: [1002], requireClean: false });
  });

  test('7.3.2: a close frame whose whole payload is the byte "a"', () => {
    const r = get(results, '7.3.2');
    assert.deepEqual(txFrames(r), [tf(1, 'a', 8)]);
    assert.equal(txHex(r), '880161');
    assert.equal(r.localCloseCode, null);
    assert.equal(r.localCloseReason, 'a');
  });

  test('7.5.1: the invalid close reason is reported in hex', () => {
    const r = get(results, '7.5.1');
    const reason = 'cebae1bdb9cf83cebcceb5eda080656469746564';
    assert.deepEqual(txFrames(r), [tf(22, `0x03e8${reason}`, 8)]);
    assert.equal(txHex(r), `881603e8${reason}`);
    assert.equal(r.localCloseCode, 1000);
    assert.equal(r.localCloseReason, reason);
    assert.deepEqual(r.expectedClose, { closedByMe: true, closeCode: [1002, 1007], requireClean: false });
  });

  test('7.7.x, 7.9.x, 7.13.x: a close frame holding just the code', () => {
    for (const { id, code } of [...validCloseCodes, ...invalidCloseCodes, ...undefinedCloseCodes]) {
      const r = get(results, id);
      const be = code.toString(16).padStart(4, '0');
      assert.equal(txHex(r), `8802${be}`, id);
      assert.equal(r.localCloseCode, code, id);
      assert.equal(r.localCloseReason, null, id);
    }
    for (const { id, code } of validCloseCodes) {
      assert.deepEqual(get(results, id).expectedClose, { closedByMe: true, closeCode: [1000, code], requireClean: true });
    }
    for (const { id } of invalidCloseCodes) {
      assert.deepEqual(get(results, id).expectedClose, { closedByMe: true, closeCode: [1002], requireClean: false });
    }
    for (const { id, code } of undefinedCloseCodes) {
      const r = get(results, id);
      assert.deepEqual(r.expectedClose, { closedByMe: true, closeCode: [1000, code, 1002], requireClean: false });
      assert.equal(r.result, 'Actual events are undefined by the spec.');
    }
  });
});

describe('a client that answers every close with 1001', () => {
  let server: FuzzingServer;
  let base: string;
  let results: Map<string, CaseResult>;
  before(async () => {
    ({ server, base } = await startServer(['7.*']));
    results = await runAll(server, base, fixture('wrong-close-code'), 'wrongcode', IDS);
  });
  after(() => server.close());

  /** The codes each case accepts (the expectedClose of the case). */
  const accepted = new Map(closeCases.map((c) => [c.id, c.close.closeCode]));
  const informational = new Set(['7.1.6', '7.13.1', '7.13.2']);

  for (const id of IDS) {
    const codes = accepted.get(id) ?? [];
    if (informational.has(id)) {
      test(`${id}: informational whatever the code`, () => {
        const r = get(results, id);
        assert.equal(r.remoteCloseCode, 1001);
        assert.equal(r.behavior, 'INFORMATIONAL');
        assert.equal(r.behaviorClose, 'INFORMATIONAL');
        assert.equal(ruleForResult(r, failingVerdicts(null, true)).status, 'passed');
      });
    } else if (codes.includes(1001)) {
      test(`${id}: 1001 is the echoed code, so it is right`, () => {
        const r = get(results, id);
        assert.equal(r.remoteCloseCode, 1001);
        assert.equal(r.behavior, 'OK');
        assert.equal(r.behaviorClose, 'OK');
      });
    } else {
      test(`${id}: WRONG CODE, and the outcome FAILED with the closing reason`, () => {
        const r = get(results, id);
        const text = `The close code should have been ${codes.join(',')} or empty`;
        assert.equal(r.remoteCloseCode, 1001);
        assert.equal(r.wasClean, true);
        assert.equal(r.behaviorClose, 'WRONG CODE');
        assert.equal(r.resultClose, text);
        assert.equal(r.behavior, 'FAILED');
        assert.equal(r.result, text);
        // What JUnit's <failure> and the summary say.
        const verdict = ruleForResult(r, failingVerdicts(null, false));
        assert.equal(verdict.status, 'failed');
        assert.equal(verdict.reason, `outcome FAILED: ${text}; closing WRONG CODE: ${text}`);
      });
    }
  }

  test('the accepted codes in the texts are those of Autobahn', () => {
    assert.equal(get(results, '7.1.1').resultClose, 'The close code should have been 1000 or empty');
    assert.equal(get(results, '7.3.6').resultClose, 'The close code should have been 1002 or empty');
    assert.equal(get(results, '7.5.1').resultClose, 'The close code should have been 1002,1007 or empty');
    assert.equal(get(results, '7.7.1').resultClose, 'The close code should have been 1000,1000 or empty');
    assert.equal(get(results, '7.7.13').resultClose, 'The close code should have been 1000,4999 or empty');
    assert.equal(get(results, '7.9.4').resultClose, 'The close code should have been 1002 or empty');
    // It echoed the message of 7.1.1 correctly: only the code is wrong.
    assert.deepEqual(get(results, '7.1.1').received, [['message', 'Hello World!', false]]);
  });
});

describe('a client that never answers a close', () => {
  let server: FuzzingServer;
  let base: string;
  let results: Map<string, CaseResult>;
  const clean = ['7.1.1', '7.3.1', ...validCloseCodes.map((c) => c.id)];
  const lenient = ['7.3.2', '7.9.1'];
  before(async () => {
    ({ server, base } = await startServer(['7.*']));
    results = await runAll(server, base, fixture('never-close'), 'neverclose', [...clean, ...lenient]);
  });
  after(() => server.close());

  for (const id of clean) {
    test(`${id}: UNCLEAN, the events still right`, () => {
      const r = get(results, id);
      assert.equal(r.behavior, 'OK');
      assert.equal(r.behaviorClose, 'UNCLEAN');
      assert.equal(r.resultClose, 'The spec requires the connection to be failed cleanly here');
      assert.equal(r.remoteCloseCode, null);
      assert.equal(r.wasClean, false);
      if (id === '7.1.1') {
        // The close went out only after the echo, so the 1 s fail timer of the case runs out first and
        // drops TCP (Autobahn's failConnection while closing): no handshake timeout, no reason given.
        assert.equal(r.failedByMe, true);
        assert.equal(r.wasCloseHandshakeTimeout, false);
        assert.equal(r.wasNotCleanReason, null);
        assert.ok(r.wirelog.some((e) => e[0] === 'KLE'));
      } else {
        // Our close went out at once: the 1 s closing handshake timeout, scheduled first, fires first.
        assert.equal(r.failedByMe, false);
        assert.equal(r.wasCloseHandshakeTimeout, true);
        assert.equal(r.wasNotCleanReason, 'peer did not respond (in time) in closing handshake');
      }
      assert.equal(ruleForResult(r, failingVerdicts(null, false)).status, 'failed');
    });
  }

  for (const id of lenient) {
    test(`${id}: a refused close may go unanswered ("or drop TCP"), so the closing is OK`, () => {
      const r = get(results, id);
      assert.equal(r.behavior, 'OK');
      assert.equal(r.behaviorClose, 'OK');
      assert.equal(r.wasClean, false);
      assert.equal(r.remoteCloseCode, null);
    });
  }
});
