/**
 * The two cases of case-reports.md over real loopback sockets: the spec's own peer (empty close
 * frames) and the ws package, checked field by field against the spec's tables.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CaseResult } from '../../src/model/report.js';
import type { FuzzingServer } from '../../src/server/fuzzing-server.js';
import { REFERENCE_CLIENT, SPEC_CASES, fixture, resultOf, runNode, startServer } from '../support/harness.js';

/** The connection-state values of a passing report (spec §2.2), without the remote close fields. */
function assertConnectionState(r: CaseResult, closedByMe: boolean): void {
  assert.equal(r.isServer, true);
  assert.equal(r.closedByMe, closedByMe);
  assert.equal(r.failedByMe, false);
  assert.equal(r.droppedByMe, true);
  assert.equal(r.wasClean, true);
  assert.equal(r.wasNotCleanReason, null);
  assert.equal(r.wasServerConnectionDropTimeout, false);
  assert.equal(r.wasOpenHandshakeTimeout, false);
  assert.equal(r.wasCloseHandshakeTimeout, false);
  assert.equal(r.localCloseCode, 1000);
  assert.equal(r.localCloseReason, null);
}

/** Wire log kinds in order, without octet entries (their chunking is up to TCP). */
function frameKinds(r: CaseResult): string[] {
  return r.wirelog.filter((e) => e[0] !== 'RO' && e[0] !== 'TO').map((e) => e[0]);
}

describe('the spec peer', () => {
  let server: FuzzingServer;
  let base: string;
  before(async () => {
    ({ server, base } = await startServer(SPEC_CASES));
  });
  after(() => server.close());

  test('6.9.2: echo, closed by the server, every value of the spec', async () => {
    const pending = resultOf(server, 'seedpeer', '6.9.2');
    await runNode(fixture('spec-peer'), [`${base}/runCase?case=1&agent=seedpeer`]);
    const r = await pending;
    assert.equal(r.behavior, 'OK');
    assert.equal(r.behaviorClose, 'OK');
    assert.equal(r.result, 'Actual events match at least one expected.');
    assert.equal(r.resultClose, 'Connection was properly closed');
    assert.equal(r.case, 1);
    assertConnectionState(r, true);
    assert.equal(r.remoteCloseCode, null);
    assert.equal(r.remoteCloseReason, null);
    assert.deepEqual(r.expected, { OK: [['message', '\u07ff', false]] });
    assert.deepEqual(r.received, [['message', '\u07ff', false]]);
    assert.deepEqual(r.expectedClose, { closedByMe: true, closeCode: [1000], requireClean: true });
    assert.deepEqual(r.txFrameStats, { '1': 1, '8': 1 });
    assert.deepEqual(r.rxFrameStats, { '1': 1, '8': 1 });
    // The 101 response once, then two 4-byte frames: 0x81 0x02 0xdf 0xbf and 0x88 0x02 0x03 0xe8.
    assert.deepEqual(r.txOctetStats, { '4': 2, [String(r.httpResponse.length)]: 1 });
    // The request once, the 8-byte masked echo (2 + 4 mask + 2) and the 6-byte empty masked close.
    assert.deepEqual(r.rxOctetStats, { '6': 1, '8': 1, [String(r.httpRequest.length)]: 1 });
    assert.deepEqual(frameKinds(r), ['TF', 'KL', 'RF', 'TF', 'RF']);
    const [tf] = r.wirelog.filter((e) => e[0] === 'TF');
    assert.deepEqual(tf, ['TF', [2, '\u07ff'], 1, true, 0, null, null, null, false]);
    assert.ok(r.wirelog.some((e) => e[0] === 'TO' && e[1][1] === '8102dfbf'));
    assert.ok(r.wirelog.some((e) => e[0] === 'TO' && e[1][1] === '880203e8'));
    assert.ok(r.wirelog.some((e) => e[0] === 'KL' && e[1] === 0.5));
    assert.match(r.httpRequest, /^GET \/runCase\?case=1&agent=seedpeer HTTP\/1\.1\r\n[\s\S]*\r\n\r\n$/);
    assert.match(
      r.httpResponse,
      /^HTTP\/1\.1 101 Switching Protocols\r\nServer: [^\r]+\r\nX-Powered-By: [^\r]+\r\nUpgrade: WebSocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: [A-Za-z0-9+/]{27}=\r\n\r\n$/,
    );
    assert.match(r.started, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(Number.isInteger(r.duration) && r.duration >= 0 && r.duration < 500);
  });

  test('6.12.7: the peer fails the connection with an empty close, the server answers 1000', async () => {
    const pending = resultOf(server, 'seedpeer', '6.12.7');
    await runNode(fixture('spec-peer'), [`${base}/runCase?case=2&agent=seedpeer`]);
    const r = await pending;
    assert.equal(r.behavior, 'OK');
    assert.equal(r.behaviorClose, 'OK');
    assert.equal(r.case, 2);
    assertConnectionState(r, false);
    assert.equal(r.remoteCloseCode, null);
    assert.deepEqual(r.expected, { OK: [] });
    assert.deepEqual(r.received, []);
    assert.deepEqual(r.expectedClose, { closedByMe: false, closeCode: [1007], requireClean: false, closedByWrongEndpointIsFatal: true });
    assert.deepEqual(r.txFrameStats, { '1': 1, '8': 1 });
    assert.deepEqual(r.rxFrameStats, { '8': 1 });
    // 0x81 0x06 + six payload bytes; then the 4-byte close reply.
    assert.deepEqual(r.txOctetStats, { '4': 1, '8': 1, [String(r.httpResponse.length)]: 1 });
    assert.deepEqual(r.rxOctetStats, { '6': 1, [String(r.httpRequest.length)]: 1 });
    assert.deepEqual(frameKinds(r), ['TF', 'KL', 'RF', 'TF']);
    const tfs = r.wirelog.filter((e) => e[0] === 'TF');
    assert.deepEqual(tfs[0], ['TF', [6, '0x80bf80bf80bf'], 1, true, 0, null, null, null, false]);
    assert.deepEqual(tfs[1], ['TF', [2, '0x03e8'], 8, true, 0, null, null, null, false]);
    const rf = r.wirelog.find((e) => e[0] === 'RF');
    assert.ok(rf !== undefined && rf[0] === 'RF');
    assert.deepEqual(rf.slice(0, 6), ['RF', [0, ''], 8, true, 0, true]);
    assert.match(String(rf[6]), /^[0-9a-f]{8}$/);
  });
});

describe('the ws package as client', () => {
  let server: FuzzingServer;
  let base: string;
  before(async () => {
    ({ server, base } = await startServer(SPEC_CASES));
  });
  after(() => server.close());

  const client = REFERENCE_CLIENT;

  test('6.9.2: Pass, closing OK, ws answers with 1000', async () => {
    const pending = resultOf(server, 'ws', '6.9.2');
    await runNode(client, [`${base}/runCase?case=1&agent=ws`]);
    const r = await pending;
    assert.equal(r.behavior, 'OK');
    assert.equal(r.behaviorClose, 'OK');
    assertConnectionState(r, true);
    assert.equal(r.remoteCloseCode, 1000);
    assert.deepEqual(r.received, [['message', '\u07ff', false]]);
  });

  test('6.12.7: Pass, closing OK, ws fails with 1007', async () => {
    const pending = resultOf(server, 'ws', '6.12.7');
    await runNode(client, [`${base}/runCase?case=2&agent=ws`]);
    const r = await pending;
    assert.equal(r.behavior, 'OK');
    assert.equal(r.behaviorClose, 'OK');
    assertConnectionState(r, false);
    assert.equal(r.remoteCloseCode, 1007);
    assert.deepEqual(r.received, []);
  });
});
