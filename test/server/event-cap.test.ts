/**
 * A flooding peer's events are capped: a case records the first MAX_RECORDED_EVENTS messages and
 * pongs, counts the rest, and its result says how many were left out.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { catalogue } from '../../src/catalogue/registry.js';
import { MAX_RECORDED_EVENTS } from '../../src/play/case-runner.js';
import type { FuzzingServer } from '../../src/server/fuzzing-server.js';
import { runPeer } from '../fixtures/clients/raw-peer.js';
import { resultOf, startServer } from '../support/harness.js';

let server: FuzzingServer;
let base: string;
before(async () => {
  ({ server, base } = await startServer(['2.1']));
});
after(() => server.close());

test('no expected list of the catalogue comes near the cap', () => {
  const longest = Math.max(...catalogue.flatMap((c) => Object.values(c.expect).map((list) => list?.length ?? 0)));
  assert.ok(longest < MAX_RECORDED_EVENTS, String(longest));
});

test('a peer that floods 2.1 with 3000 messages: 1000 recorded, the other 2000 counted in the result', async () => {
  const flood = 3 * MAX_RECORDED_EVENTS;
  const pending = resultOf(server, 'flood', '2.1');
  let sent = false;
  runPeer(`${base}/runCase?case=1&agent=flood`, (frame, peer) => {
    // The ping of 2.1 is never answered; every message is legal text.
    if (!sent) {
      sent = true;
      for (let i = 0; i < flood; i++) peer.send(1, `m${i}`);
    }
    if (frame.opcode === 8) peer.send(8, frame.payload.subarray(0, 2));
  });
  const r = await pending;
  assert.equal(r.received.length, MAX_RECORDED_EVENTS);
  assert.deepEqual(r.received[0], ['message', 'm0', false]);
  assert.deepEqual(r.received.at(-1), ['message', `m${MAX_RECORDED_EVENTS - 1}`, false]);
  assert.equal(r.behavior, 'FAILED');
  assert.equal(
    r.result,
    `Actual events differ from any expected. The first ${MAX_RECORDED_EVENTS} events received are recorded; ${flood - MAX_RECORDED_EVENTS} more were received and not recorded.`,
  );
});
