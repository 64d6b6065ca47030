/**
 * A client process per case that dies of an uncaught error right after writing its close frame
 * (ws with no 'error' listener: on an invalid frame it closes with 1002, then throws) fails the
 * attack case it died of, with its error line and when it died; the same client listening for
 * 'error' passes. Through the real CLI over real TCP.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixtureCommand } from '../support/harness.js';
import { runRobustness } from '../support/robustness.js';

const CASES = ['18.3.1', '18.3.2', '18.3.3', '18.3.4', '18.3.8'];

test('a ws client with no error listener dies after its close in 18.3.1-18.3.4 and 18.3.8: FAILED with its error line; its twin that listens passes', async () => {
  const bad = await runRobustness(['--client', fixtureCommand('ws-no-error-listener'), '--url', 'ws://127.0.0.1:0', '--cases', ...CASES]);
  assert.equal(bad.code, 1, bad.out);
  for (const id of CASES) {
    assert.equal(bad.cases.get(id)?.status, 'failed', `${id}: ${bad.out}`);
    assert.match(await bad.result(id), /^the client process died after its close \([^)]*(\([^)]*\))?[^)]*\): it exited with status 1: RangeError: /, id);
  }
  const good = await runRobustness(['--client', fixtureCommand('ws-default'), '--url', 'ws://127.0.0.1:0', '--cases', ...CASES]);
  assert.equal(good.code, 0, good.out);
  for (const id of CASES) assert.equal(good.cases.get(id)?.status, 'passed', `${id}: ${good.out}`);
});
