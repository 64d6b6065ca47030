/**
 * The frame-level and permessage-deflate attacks (17.2.3-17.2.6, 17.3.x, 18.3.4-18.3.7), through the
 * real CLI over real TCP: the bundled ws server and client, with ws's limits as shipped under the
 * profile (maxPayload 100 MiB, maxFragments 16,384), refuse what they must, the endless one-byte
 * continuations included, and survive; ws 8.20.1 (no fragment limit, GHSA-96hv-2xvq-fx4p) takes the
 * continuations and grows past the case's memory budget: FAILED, where 8.23.0 refuses them; servers
 * of our own, each wrong in one way, fail the case about it; undici 6.24.0 takes a message past the limit.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCliWith } from '../support/cli-env.js';
import { fixtureCommand, tempDir } from '../support/harness.js';
import { needsReleases, PINNED_RELEASES } from '../support/requirements.js';
import { pinnedClient, release } from '../support/robustness.js';

const BROKEN = fileURLToPath(new URL('../fixtures/servers/broken-server.js', import.meta.url));

interface CaseReport {
  id: string;
  behavior: string;
  behaviorClose: string;
  remoteCloseCode: number | null;
  result: string;
}

/** Runs the CLI, then reads every per-case report of its outdir, by id. */
async function run(args: string[]): Promise<{ code: number | null; out: string; cases: Map<string, CaseReport> }> {
  const outdir = path.join(await tempDir(), 'out');
  const res = await runCliWith(['run', '--robustness', '--outdir', outdir, ...args], { timeoutMs: 120_000 });
  const out = res.stdout + res.stderr;
  assert.ok(res.code === 0 || res.code === 1, out);
  const cases = new Map<string, CaseReport>();
  for (const f of (await readdir(outdir)).filter((n) => /_case_[\d_]+\.json$/.test(n))) {
    const report = JSON.parse(await readFile(path.join(outdir, f), 'utf8')) as CaseReport;
    cases.set(report.id, report);
  }
  return { code: res.code, out, cases };
}

function verdicts(cases: Map<string, CaseReport>): string[] {
  return [...cases.values()].sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true })).map((c) => `${c.id} ${c.behavior}`);
}

/**
 * Two lanes side by side, each one test at a time: the pinned releases' and the bundled server's runs
 * never run beside each other; beside each runs one of the other lane (servers of our own, most of
 * whose time is a budget running out, 600 ms, 3 s, 6 s, or one process working alone; the bundled
 * client). Every run has its own report directory, ports and peer processes.
 */
describe('frame-level and permessage-deflate attacks', { concurrency: 2 }, () => {
  describe('the bundled server and the pinned releases', { concurrency: 1 }, () => {
    test('the bundled ws server: refuses at the header, at its 100 MiB limit, on random bytes, on the bomb and past 16,384 continuations; declines or refuses odd window bits', async () => {
      const r = await run(['--role', 'server', '--cases', '17.2.3', '17.2.4', '17.2.5', '17.2.6', '17.3.*']);
      assert.equal(r.code, 0, r.out);
      assert.deepEqual(verdicts(r.cases), [
        '17.2.3 OK',
        '17.2.4 OK',
        '17.2.5 OK',
        '17.2.6 OK',
        '17.3.1 OK',
        '17.3.2 OK',
        '17.3.3 OK',
        '17.3.4 OK',
        '17.3.5 OK',
        '17.3.6 OK',
        '17.3.7 OK',
        '17.3.8 OK',
      ]);
      const get = (id: string): CaseReport => r.cases.get(id) as CaseReport;
      assert.equal(get('17.2.3').remoteCloseCode, 1002);
      // In 4 KiB fragments ws's maxFragments (16,384 as shipped) refuses first, with 1008, 64 MiB in.
      assert.equal(get('17.2.4').remoteCloseCode, 1008);
      // What wsgate had written when it saw the refusal: past the 64 MiB the server took (it reads on after refusing), or all of it.
      const written = /wsgate had written ([\d,]+) of its 121,634,816 bytes/.exec(get('17.2.4').result)?.[1];
      if (written === undefined) assert.match(get('17.2.4').result, /failed the connection as wsgate wrote the last of its 121,634,816 bytes/);
      else assert.ok(Number(written.replace(/,/g, '')) >= 64 * 1024 * 1024, get('17.2.4').result);
      // ws's maxFragments (16,384 as shipped): 1008 ("Too many message fragments") long before the million frames end.
      assert.equal(get('17.2.5').remoteCloseCode, 1008);
      assert.match(get('17.2.5').result, /^The server failed the connection after wsgate had written [\d,]+ one-byte continuation frames/);
      // The valid random messages first (every length encoding, fragments, pings between them), then the random bytes.
      assert.match(get('17.2.6').result, /^The server took 100 valid random messages \([\d,]+ payload bytes\), then failed the connection on the random bytes/);
      for (const id of ['17.3.1', '17.3.2']) assert.equal(get(id).remoteCloseCode, 1009, get(id).result);
      // 7 and 16 are out of range: ws refuses the handshake; 8 it accepts and inflates.
      assert.match(get('17.3.3').result, /refused the handshake \(HTTP 400\)/);
      assert.match(get('17.3.4').result, /accepted the offer and echoed the message/);
      for (const c of r.cases.values())
        assert.match(c.result, /Afterwards a normal case on a fresh connection passed \(echoed\), and the server process is alive/, c.id);
    });

    test('the same releases as clients: ws 8.20.1 takes the continuations and grows past 64 MiB, 18.3.6 FAILED; 8.23.0 refuses them with 1008', {
      skip: needsReleases('ws-8.20.1', 'ws-8.23.0'),
    }, async () => {
      const bad = await run(['--url', 'ws://127.0.0.1:0', '--client', pinnedClient('ws-8.20.1'), '--cases', '18.3.6']);
      assert.equal(bad.code, 1, bad.out);
      const c = bad.cases.get('18.3.6');
      assert.equal(c?.behavior, 'FAILED', bad.out);
      assert.match(
        c?.result ?? '',
        /^Over budget: the peer's process tree grew by [\d.]+ MiB at its peak \(budget 64 MiB;.* The client took them all: 1,048,577 frames/,
      );

      const good = await run(['--url', 'ws://127.0.0.1:0', '--client', pinnedClient('ws-8.23.0'), '--cases', '18.3.6']);
      assert.equal(good.code, 0, good.out);
      assert.equal(good.cases.get('18.3.6')?.remoteCloseCode, 1008, good.out);
    });

    test('ws 8.17.1 with permessage-deflate refuses the bomb in one frame with 1007, not 1009 (ws#2285, fixed in 8.18.2): 17.3.1 WRONG CODE; 8.23.0 closes with 1009', {
      skip: needsReleases('ws-8.17.1', 'ws-8.23.0'),
    }, async () => {
      const deflating = (name: string): string => `'${process.execPath}' '${path.join(PINNED_RELEASES, 'deflate-server.cjs')}' ${name} {port}`;
      const old = await run(['--server', deflating('ws-8.17.1'), '--cases', '17.3.1', '17.3.2']);
      assert.equal(old.code, 1, old.out);
      const one = old.cases.get('17.3.1');
      assert.equal(one?.remoteCloseCode, 1007, old.out);
      assert.equal(one?.behaviorClose, 'WRONG CODE', old.out);
      // In fragments the limit's error comes first: 1009.
      assert.equal(old.cases.get('17.3.2')?.remoteCloseCode, 1009, old.out);

      const fixed = await run(['--server', deflating('ws-8.23.0'), '--cases', '17.3.1']);
      assert.equal(fixed.code, 0, fixed.out);
      assert.equal(fixed.cases.get('17.3.1')?.remoteCloseCode, 1009, fixed.out);
    });

    test('ws 8.20.1 takes a million one-byte continuations and grows past 64 MiB (GHSA-96hv-2xvq-fx4p): 17.2.5 FAILED; 8.23.0, as shipped, refuses them', {
      skip: needsReleases('ws-8.20.1', 'ws-8.23.0'),
    }, async () => {
      const bad = await run(['--server', release('ws-8.20.1'), '--cases', '17.2.5']);
      assert.equal(bad.code, 1, bad.out);
      const c = bad.cases.get('17.2.5');
      assert.equal(c?.behavior, 'FAILED', bad.out);
      const grew = /^Over budget: the peer's process tree grew by ([\d.]+) MiB at its peak \(budget 64 MiB;/.exec(c?.result ?? '');
      assert.ok(grew, c?.result);
      assert.ok(Number(grew[1]) > 64, c?.result);
      assert.match(c?.result ?? '', /The server took them all: 1,048,577 frames of one message/);

      const good = await run(['--server', release('ws-8.23.0'), '--cases', '17.2.5']);
      assert.equal(good.code, 0, good.out);
      assert.equal(good.cases.get('17.2.5')?.behavior, 'OK', good.out);
      assert.equal(good.cases.get('17.2.5')?.remoteCloseCode, 1008);
      assert.match(good.cases.get('17.2.5')?.result ?? '', /grew by [\d.]+ MiB at its peak \(budget 64 MiB;/);
    });

    test('undici 6.24.0 has no message limit at 100 MiB: 18.3.5 FAILED, reading on past it; it refuses the reserved opcode and the random bytes', {
      skip: needsReleases('undici-6.24.0'),
    }, async () => {
      const r = await run(['--url', 'ws://127.0.0.1:0', '--client', pinnedClient('undici-6.24.0'), '--cases', '18.3.4', '18.3.5', '18.3.7']);
      assert.equal(r.code, 1, r.out);
      assert.deepEqual(verdicts(r.cases), ['18.3.4 OK', '18.3.5 FAILED', '18.3.7 OK']);
      assert.match(
        r.cases.get('18.3.5')?.result ?? '',
        /^The client read 1[12][\d,]+ bytes of the message's frames, [\d,]+ past its limit of 104,857,600, and had not refused it|took the whole message \(its limit \+ 16,777,216 bytes\) without failing the connection/,
      );
    });
  });

  describe('servers of our own, each wrong in one way, and the bundled client', { concurrency: 1 }, () => {
    test('a server with no message limit takes a message past the limit (here --budget message=8 MiB): 17.2.4 FAILED with what it echoed', async () => {
      const r = await run(['--server', `'${process.execPath}' '${BROKEN}' no-size-limit {port}`, '--cases', '17.2.4', '--budget', 'message=8388608']);
      assert.equal(r.code, 1, r.out);
      const c = r.cases.get('17.2.4');
      assert.equal(c?.behavior, 'FAILED', r.out);
      // The message goes 16 MiB past the limit before its last fragment: it reads it all and echoes it.
      assert.match(c?.result ?? '', /echoed the whole message \(25,165,824 bytes, past the limit of 8,388,608\)/);
    });

    test('a limit checked only at the last fragment (a server and a client): 17.2.4 and 18.3.5 FAILED on what the peer read past it; their twins, counting as fragments come, pass', async () => {
      const [server, serverTwin, client, clientTwin] = await Promise.all([
        run(['--server', `'${process.execPath}' '${BROKEN}' checks-limit-at-fin {port}`, '--cases', '17.2.4']),
        run(['--server', `'${process.execPath}' '${BROKEN}' checks-limit-per-fragment {port}`, '--cases', '17.2.4']),
        run(['--url', 'ws://127.0.0.1:0', '--client', fixtureCommand('limit-checker', '{url} at-fin'), '--cases', '18.3.5']),
        run(['--url', 'ws://127.0.0.1:0', '--client', fixtureCommand('limit-checker', '{url} per-fragment'), '--cases', '18.3.5']),
      ]);
      for (const [r, id, who] of [
        [server, '17.2.4', 'server'],
        [client, '18.3.5', 'client'],
      ] as const) {
        assert.equal(r.cases.get(id)?.behavior, 'FAILED', r.out);
        assert.match(
          r.cases.get(id)?.result ?? '',
          new RegExp(`^The ${who} read 1[12][\\d,]+ bytes of the message's frames, 1[67],[\\d,]+ past its limit of 104,857,600, and had not refused it`),
        );
      }
      for (const [r, id] of [
        [serverTwin, '17.2.4'],
        [clientTwin, '18.3.5'],
      ] as const) {
        assert.equal(r.cases.get(id)?.behavior, 'OK', r.out);
        const read = /process had read ([\d,]+) \(its limit 104,857,600\)/.exec(r.cases.get(id)?.result ?? '')?.[1];
        assert.ok(read !== undefined && Number(read.replace(/,/g, '')) <= 104_857_600 + 4 * 1024 * 1024, r.cases.get(id)?.result);
      }
    });

    test('a server that inflates without a limit answers the bomb instead of refusing it: 17.3.2 FAILED', async () => {
      const r = await run(['--server', `'${process.execPath}' '${BROKEN}' unbounded-inflate {port}`, '--cases', '17.3.2']);
      assert.equal(r.code, 1, r.out);
      assert.equal(r.cases.get('17.3.2')?.behavior, 'FAILED', r.out);
      // It inflates the whole gigabyte before it answers: on a busy machine that takes past the case's
      // 10 s budget, and the case fails it for the time instead (seen once with every core loaded).
      assert.match(
        r.cases.get('17.3.2')?.result ?? '',
        /answered the bomb with a message \(\d+ bytes\) instead of failing the connection|^Over budget: the peer had not ended the connection 10,000 ms after the attack began/,
      );
    });

    test('the bundled ws client: 18.3.4 to 18.3.7 as the ws server did', async () => {
      const r = await run(['--url', 'ws://127.0.0.1:0', '--cases', '18.3.4', '18.3.5', '18.3.6', '18.3.7']);
      assert.equal(r.code, 0, r.out);
      assert.deepEqual(verdicts(r.cases), ['18.3.4 OK', '18.3.5 OK', '18.3.6 OK', '18.3.7 OK']);
      // ws's maxFragments refuses both first: 1008.
      assert.equal(r.cases.get('18.3.5')?.remoteCloseCode, 1008);
      assert.equal(r.cases.get('18.3.6')?.remoteCloseCode, 1008);
    });

    test('a raw server that never checks a frame (it waits for any declared length): 17.2.3 and 17.2.6 FAILED, not refused in time', async () => {
      // --budget time=0.3: 600 ms to refuse the header, 3 s of random bytes; this server never refuses at all.
      const r = await run(['--server', `'${process.execPath}' '${BROKEN}' accepts-unmasked {port}`, '--cases', '17.2.3', '17.2.6', '--budget', 'time=0.3']);
      assert.equal(r.code, 1, r.out);
      assert.deepEqual(verdicts(r.cases), ['17.2.3 FAILED', '17.2.6 FAILED']);
      assert.match(r.cases.get('17.2.3')?.result ?? '', /Over budget: the peer had not ended the connection 600 ms after the attack began/);
      assert.match(r.cases.get('17.2.6')?.result ?? '', /Over budget: the peer had not ended the connection 3,000 ms after the attack began/);
    });

    test('a server whose reassembly copies the message for each fragment falls behind on endless one-byte continuations: 17.2.5 FAILED, over budget', async () => {
      // --budget time=0.2: 6 s for the 1,048,576 frames the bundled ws server takes in about 2 s.
      const r = await run(['--server', `'${process.execPath}' '${BROKEN}' concat-fragments {port}`, '--cases', '17.2.5', '--budget', 'time=0.2']);
      assert.equal(r.code, 1, r.out);
      assert.equal(r.cases.get('17.2.5')?.behavior, 'FAILED', r.out);
      assert.match(r.cases.get('17.2.5')?.result ?? '', /Over budget: the peer had not ended the connection 6,000 ms after the attack began/);
    });
  });
});
