/**
 * Group 18 (the robustness profile, a client under test) against real clients over TCP, through the
 * engine a run uses: the fuzzing server with group 18, the per-case driver (one client process per
 * case), and the gate's conclusion. undici 6.23.0 dies on 18.1 (CVE-2026-2229: an uncaught
 * RangeError) and is FAILED with that line; 6.24.0, which fixed it, passes; the bundled ws client
 * passes the whole group; a broken client of our own is caught by 18.1 and 18.2 for what it does.
 * The undici releases are installed by `npm test` (a test skips, saying why, when one is not).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { robustnessClientCases } from '../../src/robustness/index.js';
import type { CatalogueCase } from '../../src/cases/types.js';
import { referenceClientCommand } from '../../src/drivers/client-role.js';
import { runOneCase } from '../../src/drivers/per-case.js';
import { PeerWatch } from '../../src/peer/watch.js';
import type { GateCase } from '../../src/model/report.js';
import { FAILING_VERDICTS } from '../../src/model/verdicts.js';
import { shellQuote } from '../../src/processes/client-process.js';
import { conclude } from '../../src/run/conclude.js';
import { createServer, serverBaseUrl } from '../../src/server/factory.js';
import type { FuzzingServer } from '../../src/server/fuzzing-server.js';
import { fixture, tempDir } from '../support/harness.js';
import { needsReleases } from '../support/requirements.js';
import { pinnedClient } from '../support/robustness.js';

/** The command of a fixture client script run with this Node.js. */
function nodeCommand(script: string): string {
  return `${shellQuote(process.execPath)} ${shellQuote(script)} {url}`;
}

let server: FuzzingServer;
let baseUrl: string;

before(async () => {
  server = createServer({
    host: '127.0.0.1',
    port: 0,
    outdir: await tempDir(),
    cases: robustnessClientCases,
    statusWaitMs: 2000,
    logger: pino({ level: 'silent' }),
  });
  await server.listen();
  baseUrl = serverBaseUrl('127.0.0.1', server.port, false);
});

after(async () => {
  await server.close();
});

/** Plays the cases whose ids start with `prefix` against the command, one client process each, and concludes them. */
async function play(command: string, agent: string, prefix: string): Promise<GateCase[]> {
  const out: GateCase[] = [];
  // The run's watch on the client: its output kept, whatever is left of it ended.
  const peers = new PeerWatch(await tempDir());
  for (const [i, def] of robustnessClientCases.entries()) {
    if (!def.id.startsWith(prefix)) continue;
    const outcome = await runOneCase(server, def, i + 1, command, { baseUrl, ca: null, http2: false }, { agent, caseTimeout: null }, undefined, peers);
    out.push(conclude(def, i + 1, outcome, { caseTimeout: null, failOn: [...FAILING_VERDICTS] }));
  }
  await peers.close();
  return out;
}

function byId(cases: readonly GateCase[], id: string): GateCase {
  const found = cases.find((c) => c.id === id);
  assert.ok(found, `case ${id} was played`);
  return found;
}

/** One line per case, for assertion messages. */
function lines(cases: readonly GateCase[]): string {
  return cases.map((c) => `${c.id} ${c.status}: ${c.reason || c.result?.result || ''}`).join('\n');
}

describe('group 18 against real clients', () => {
  test('every case quotes its advisory and has a time limit', () => {
    const ids = robustnessClientCases.map((c: CatalogueCase) => c.id);
    assert.ok(ids.length >= 11, ids.join(' '));
    for (const c of robustnessClientCases) {
      assert.ok(c.attackBudget !== undefined && /CVE-|GHSA-|#\d+/.test(c.attackBudget.advisory), `${c.id} names its advisory`);
      assert.ok(c.description.includes('RFC'), `${c.id} quotes its RFC section`);
      assert.ok((c.schedule?.maxSeconds ?? 0) > 0, `${c.id} has a time limit`);
    }
  });

  test('undici 6.23.0 dies on 18.1 (CVE-2026-2229) and on 18.3.2 (CVE-2026-1528): FAILED, the RangeError line in the reason', {
    skip: needsReleases('undici-6.23.0'),
  }, async () => {
    const vulnerable = pinnedClient('undici-6.23.0');
    const cases = [...(await play(vulnerable, 'undici-6.23.0', '18.1.')), ...(await play(vulnerable, 'undici-6.23.0', '18.3.2'))];
    for (const id of ['18.1.1', '18.1.3']) {
      const c = byId(cases, id);
      assert.equal(c.status, 'failed', lines(cases));
      assert.match(
        c.reason,
        /^outcome FAILED: the client process died before its close \(undici CVE-2026-2229\): it exited with status 1: RangeError/,
        c.reason,
      );
      assert.match(c.reason, /windowBits/);
      assert.equal(c.result?.behavior, 'FAILED');
    }
    // The 64-bit length whose high half made "(upper << 8) + lower" negative.
    assert.match(byId(cases, '18.3.2').reason, /died before its close \(undici CVE-2026-1528\): it exited with status 1: RangeError .*Received -240/);
  });

  test('undici 6.24.0 (the fix) passes 18.1 (refuses 7 and 16, takes 8), 18.2 (its 4 MB limit) and 18.3.2', {
    skip: needsReleases('undici-6.24.0'),
  }, async () => {
    const fixed = pinnedClient('undici-6.24.0');
    const cases = [
      ...(await play(fixed, 'undici-6.24.0', '18.1.')),
      ...(await play(fixed, 'undici-6.24.0', '18.2.')),
      ...(await play(fixed, 'undici-6.24.0', '18.3.2')),
    ];
    assert.equal(cases.length, 10);
    for (const c of cases) assert.notEqual(c.status, 'failed', lines(cases));
    // server_max_window_bits=7: refused, the figure beside its budget.
    assert.match(
      byId(cases, '18.1.1').result?.result ?? '',
      /^The client refused the response.*Measured: the connection ended [\d,]+ ms after the attack began \(budget 2,000 ms; the peer ended it\)/,
    );
  });

  test('the bundled ws client passes 18.1-18.3 and 18.5, the bomb refused with 1009 (18.4: client-handshake.test.ts)', async () => {
    const cases: GateCase[] = [];
    for (const prefix of ['18.1.', '18.2.', '18.3.', '18.5.']) cases.push(...(await play(referenceClientCommand(true), 'ws', prefix)));
    assert.equal(cases.length, robustnessClientCases.filter((c) => /^18\.[1235]\./.test(c.id)).length);
    for (const c of cases) assert.equal(c.status, 'passed', lines(cases));
    for (const id of ['18.2.1', '18.2.2', '18.3.3']) assert.equal(byId(cases, id).result?.remoteCloseCode, 1009, id);
    // RSV1 without the extension: 1002 at the frame's first byte; a length of 2^64 - 1: 1009 (ws refuses past 2^53 - 1).
    assert.equal(byId(cases, '18.2.3').result?.remoteCloseCode, 1002);
    assert.equal(byId(cases, '18.3.8').result?.remoteCloseCode, 1009);
    // 18.5: ws terminates a connection with 60 automatic pongs pending; the bundled client's echo
    // stops reading while its echoes wait (closing.test.ts has the peers that fail them).
    assert.match(byId(cases, '18.5.1').result?.result ?? '', /^The peer ended the connection during the attack/);
    assert.match(
      byId(cases, '18.5.2').result?.result ?? '',
      /^The peer stayed bounded while its echo was read slowly: .*of them still in its buffers unread\); then its reading stopped \(back-pressure\)/,
    );
    assert.match(
      byId(cases, '18.5.3').result?.result ?? '',
      /^The peer failed the connection on the reserved opcode and ended TCP.*budget 100,000 ms; the peer ended it/,
    );
  });

  test('a client that trusts any window bits and inflates without bound: caught by 18.1 and 18.2', async () => {
    const command = nodeCommand(fixture('unbounded-inflater'));
    const cases = [...(await play(command, 'unbounded-inflater', '18.1.')), ...(await play(command, 'unbounded-inflater', '18.2.'))];
    const crash = byId(cases, '18.1.3');
    assert.equal(crash.status, 'failed');
    assert.match(crash.reason, /died before its close \(undici CVE-2026-2229\): it exited with status 1: RangeError/);
    const bomb = byId(cases, '18.2.1');
    assert.equal(bomb.status, 'failed', lines(cases));
    assert.match(bomb.result?.result ?? '', /^The client echoed a message of 25 bytes: it took the bomb/);
    // A valid window of 8 it takes: no crash, no failure.
    assert.equal(byId(cases, '18.1.2').status, 'passed', lines(cases));
  });

  test('a client without permessage-deflate: 18.1, 18.2.1 and 18.2.2 are UNIMPLEMENTED (the bomb is never sent), not failed; 18.2.3 (RSV1 un-negotiated) applies to it, and ws refuses it', async () => {
    const command = nodeCommand(fixture('ws-no-deflate'));
    const cases = [...(await play(command, 'ws-no-deflate', '18.1.1')), ...(await play(command, 'ws-no-deflate', '18.2.'))];
    assert.deepEqual(
      cases.map((c) => c.id),
      ['18.1.1', '18.2.1', '18.2.2', '18.2.3'],
    );
    for (const c of cases.filter((k) => k.id !== '18.2.3')) {
      assert.equal(c.result?.behavior, 'UNIMPLEMENTED', lines(cases));
      assert.equal(c.result?.behaviorClose, 'OK', lines(cases));
      assert.notEqual(c.status, 'failed', lines(cases));
    }
    assert.match(byId(cases, '18.2.1').result?.result ?? '', /the bomb was not sent/);
    const rsv = byId(cases, '18.2.3');
    assert.equal(rsv.status, 'passed', lines(cases));
    assert.equal(rsv.result?.remoteCloseCode, 1002);
  });

  test('a client that ignores the RSV bits takes the un-negotiated compressed frame: 18.2.3 FAILED; it also waits on a 2^64 - 1 length: 18.3.8 FAILED', async () => {
    const command = nodeCommand(fixture('accepts-rsv'));
    const cases = [...(await play(command, 'accepts-rsv', '18.2.3')), ...(await play(command, 'accepts-rsv', '18.3.8'))];
    const rsv = byId(cases, '18.2.3');
    assert.equal(rsv.status, 'failed', lines(cases));
    assert.match(rsv.result?.result ?? '', /^The client echoed a message of \d+ bytes: it took a frame with RSV1 though no extension was negotiated/);
    const ones = byId(cases, '18.3.8');
    assert.equal(ones.status, 'failed', lines(cases));
    assert.match(ones.result?.result ?? '', /^Over budget: the peer had not ended the connection 2,000 ms after the attack began/);
  });
});
