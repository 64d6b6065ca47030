/**
 * The HTTP/2 floods of 17.5 (`--robustness --http2`) against real RFC 8441 proxies: Debian 12's
 * HAProxy 2.6.12 and nghttpx 1.52.0 (libnghttp2 1.52.0-1+deb12u3, which carries the fixes of
 * CVE-2023-44487 and CVE-2024-28182) as `h2-to-h1` proxies (test/support/proxies.ts) in front of the
 * bundled ws echo over HTTP/1.1, through the real CLI at `--server-url` (the proxy's memory is not
 * measured there). What each proxy does (interop/README.md has the rows, with the frames each proxy
 * wrote as strace showed them):
 * - HAProxy 2.6.12 takes all 10,000 reset streams and keeps the connection (2.6 has no limit on
 *   resets, nor the glitch counter of later releases; about 0.1 s of its CPU): 17.5.1 FAILED. It ends
 *   the CONTINUATION flood within tens of ms (GOAWAY INTERNAL_ERROR, last stream 0, then a reset). It
 *   answers PINGs until its acknowledgements fill the socket, then reads no more and holds the
 *   connection (until its `timeout client`, 30 s): wsgate sees its write not taken while HAProxy reads
 *   nothing for 2 s and judges 17.5.3 NON-STRICT then.
 * - nghttpx ends Rapid Reset with GOAWAY INTERNAL_ERROR after about 1,000-1,070 streams (nghttp2's
 *   reset rate limit: a burst of 1,000, then 33 a second), and drops the connection without GOAWAY
 *   after 8 CONTINUATION frames and when 1,000 PING acknowledgements wait in its queue; its error log
 *   names each.
 * Both take all 500 cut header blocks (17.5.4) and echo afterwards. Of 500,000 requests whose answers
 * wsgate never reads (17.5.5), HAProxy reads them all, its answers (16 bytes each: most streams
 * refused) in the kernel but for a few thousand at most, well within the 1 MiB budget; nghttpx drops
 * the connection within tens of ms (nghttp2's outbound queue, as for the ping flood).
 *
 * Both proxies write their GOAWAY and close with the flood still unread in their socket, which sends
 * a TCP reset: wsgate reads what came before the reset (it writes no more once their socket is gone
 * from /proc/net/tcp, and reads between writes), so the GOAWAY and its last stream are stated. A
 * proxy that is not installed is skipped (.ci/install-proxies.sh installs both).
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { WebSocketServer } from 'ws';
import { echoConnection, WS_SERVER_OPTIONS } from '../../src/bundled/ws-echo.js';
import { startProxy, type ProxyKind, type RunningProxy } from '../support/proxies.js';
import { needs } from '../support/requirements.js';
import { runRobustness, type RobustnessRun } from '../support/robustness.js';

const CASES = ['17.5.1', '17.5.2', '17.5.3', '17.5.4', '17.5.5'];
const LIVE_AFTER = /Afterwards a normal case on a fresh connection passed \(echoed\)\./;

type Figure = NonNullable<Awaited<ReturnType<RobustnessRun['report']>>['figures']>[number];

/** A case's figure by name, from its per-case report; fails when the report has none of that name. */
async function figure(run: RobustnessRun, id: string, name: string): Promise<Figure> {
  const found = (await run.report(id)).figures?.find((f) => f.name === name);
  assert.ok(found !== undefined, `${id}: no figure ${name}: ${JSON.stringify((await run.report(id)).figures)}`);
  return found;
}

/** The report's response line: what the server sent and did, with the units its process read ("N units read by the server at the last look"). */
async function responseLine(run: RobustnessRun, id: string): Promise<string> {
  return ((await run.report(id)) as unknown as { httpResponse: string }).httpResponse;
}

/** The number in a result or line, "10,000" → 10000. */
const num = (text: string | undefined): number => Number((text ?? 'NaN').replace(/,/g, ''));

/**
 * `wsgate run --robustness --http2 --role server --server-url ws://127.0.0.1:PROXY/ --cases CASES`
 * through `kind` in front of the bundled ws echo (in this process, HTTP/1.1); both stopped after.
 */
async function throughProxy(kind: ProxyKind, cases: string[]): Promise<{ run: RobustnessRun; logs: string }> {
  const wss = new WebSocketServer({ ...WS_SERVER_OPTIONS, host: '127.0.0.1', port: 0 });
  wss.on('connection', echoConnection);
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  const { port } = wss.address() as AddressInfo;
  let proxy: RunningProxy | undefined;
  try {
    proxy = await startProxy(kind, 'h2-to-h1', { host: '127.0.0.1', port });
    const run = await runRobustness(['--http2', '--role', 'server', '--server-url', `ws://127.0.0.1:${proxy.port}/`, '--cases', ...cases], 120_000);
    assert.deepEqual([...run.cases.keys()], cases, run.out);
    return { run, logs: proxy.logs() };
  } finally {
    await proxy?.stop();
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  }
}

test('HAProxy 2.6.12: takes all 10,000 reset streams (17.5.1 FAILED); ends the CONTINUATION flood with GOAWAY; stops reading PINGs (17.5.3 NON-STRICT within 2 s); takes every cut block; holds little of 500,000 unread answers', {
  skip: needs('haproxy'),
}, async () => {
  const { run } = await throughProxy('haproxy', CASES);
  assert.equal(run.code, 1, run.out);

  // 17.5.1: read all 10,000 HEADERS + RST_STREAM pairs, no GOAWAY, the connection kept past the grace.
  assert.equal(run.cases.get('17.5.1')?.status, 'failed', run.out);
  const rapid = await run.result('17.5.1');
  assert.match(rapid, /^The server took all 10,000 reset streams \(read by its process\) and kept the connection open: it does not bound the flood\./);
  assert.match(rapid, LIVE_AFTER);
  const all = await figure(run, '17.5.1', 'units-taken');
  assert.deepEqual([all.value, all.budget, all.over], [10_000, 9_999, true]);
  assert.match(
    await responseLine(run, '17.5.1'),
    /^the connection still open when wsgate stopped; 10,000 units read by the server at the last look; 0 RST_STREAM and 0 HEADERS/,
  );

  // 17.5.2: HAProxy writes GOAWAY INTERNAL_ERROR (last stream 0) and resets the connection within tens of ms; wsgate reads the GOAWAY.
  assert.equal(run.cases.get('17.5.2')?.status, 'passed', run.out);
  assert.match(
    await run.result('17.5.2'),
    /^The server ended the connection with GOAWAY INTERNAL_ERROR \(0x2\) [\d,]+ ms into the flood, having taken [\d,]+ of 100,000 CONTINUATION frames \(read by its process/,
  );
  assert.match(await responseLine(run, '17.5.2'), /^GOAWAY INTERNAL_ERROR \(0x2\), last stream 0 [\d,]+ ms into the flood, [\d,]+ written/);
  const continuation = await figure(run, '17.5.2', 'units-taken');
  assert.equal(continuation.over, false);
  assert.ok(continuation.value <= 20_000, `17.5.2: ${continuation.value} CONTINUATION frames taken`);
  assert.ok((await figure(run, '17.5.2', 'ended-ms')).value < 2_000);

  // 17.5.3: it answers PINGs until the acknowledgements fill its socket, then reads no more and holds
  // the connection: NON-STRICT once it has read nothing for 2 s, not at its 30 s `timeout client`.
  const pings = run.cases.get('17.5.3');
  assert.deepEqual([pings?.status, pings?.behavior], ['passed', 'NON-STRICT'], run.out);
  const ping = await run.result('17.5.3');
  assert.match(ping, LIVE_AFTER);
  const m =
    /^The server stopped reading after ([\d,]+) of ([\d,]+) PINGs written \(read by its process, then nothing more for 2,000 ms\), without ending the connection/.exec(
      ping,
    );
  assert.ok(m !== null, ping);
  const [read, written] = [num(m[1]), num(m[2])];
  assert.ok(read > 10_000 && read < written && written < 2_000_000, `17.5.3: ${read} of ${written} PINGs read`);
  assert.equal((await figure(run, '17.5.3', 'units-taken')).value, read);
  // Ended by the 2 s stall rule (the text and the response line say so), not by HAProxy's 30 s timeout.
  assert.match(await responseLine(run, '17.5.3'), /^the connection still open when wsgate stopped: the server read no more; /);

  // 17.5.4: every connection taken, and the echo after it.
  assert.equal(run.cases.get('17.5.4')?.status, 'passed', run.out);
  assert.match(await run.result('17.5.4'), /^The server took all 500 connections whose header block wsgate cut with a TCP reset\./);
  assert.equal((await figure(run, '17.5.4', 'units-written')).value, 500);
  for (const id of ['17.5.2', '17.5.4']) assert.match(await run.result(id), LIVE_AFTER, id);

  // 17.5.5: it reads every request; the answers it holds beyond the kernel's buffers (its output ring,
  // or not yet back from the backend) stay far below the 1 MiB budget (3,390-29,178 of 16 bytes seen).
  assert.equal(run.cases.get('17.5.5')?.status, 'passed', run.out);
  assert.match(
    await run.result('17.5.5'),
    /^The server read (all [\d,]+ requests written|[\d,]+ of [\d,]+ requests written, then stopped reading) while their answers could not leave: [\d,]+ of their answers were in the kernel's buffers/,
  );
  const held = await figure(run, '17.5.5', 'answer-bytes-held');
  assert.ok(held.value < 1024 * 1024 && !held.over, JSON.stringify(held));
  assert.ok((await figure(run, '17.5.5', 'answers-in-kernel')).value > 100_000);
  assert.match(await run.result('17.5.5'), LIVE_AFTER);
});

test("nghttpx 1.52.0 (Debian's nghttp2 fixes): GOAWAY after about 1,000-1,070 reset streams, drops the CONTINUATION, ping and request floods at once, takes every cut block: all OK", {
  skip: needs('nghttpx'),
}, async () => {
  const { run, logs } = await throughProxy('nghttpx', CASES);
  assert.equal(run.code, 0, run.out);
  for (const id of CASES) {
    assert.equal(run.cases.get(id)?.status, 'passed', `${id}: ${run.out}`);
    assert.match(await run.result(id), LIVE_AFTER, id);
  }

  // 17.5.1: nghttp2's reset limit (a burst of 1,000, then 33 a second) ends the connection with GOAWAY
  // INTERNAL_ERROR once the burst is spent (last stream 2,001, 2,067 or 2,133 in the runs traced), then a reset.
  const rapid = await run.result('17.5.1');
  const m =
    /^The server ended the connection with GOAWAY INTERNAL_ERROR \(0x2\) \(last stream ([\d,]+)\) [\d,]+ ms into the flood, having taken ([\d,]+) of 10,000/.exec(
      rapid,
    );
  assert.ok(m !== null, rapid);
  const [last, streams] = [num(m[1]), num(m[2])];
  assert.equal(streams, (last + 1) / 2, rapid);
  // The burst, and 33 a second for as long as wsgate took to write it (under a second here, 1,001-1,067).
  assert.ok(streams >= 1_001 && streams <= 1_200, rapid);
  const taken = await figure(run, '17.5.1', 'units-taken');
  assert.deepEqual([taken.value, taken.over], [streams, false]);

  // 17.5.2, 17.5.3 and 17.5.5: nghttpx closes the connection, mostly without a GOAWAY wsgate reads (on the
  // request flood, at times after a GOAWAY PROTOCOL_ERROR that it does read). What it read is
  // measured when wsgate last saw its socket (often before it read anything: at least that), never more than written.
  for (const id of ['17.5.2', '17.5.3', '17.5.5']) {
    const result = await run.result(id);
    const ended =
      /^The server ended the connection (?:by closing TCP|with a TCP reset|with GOAWAY [A-Z_]+ \(0x[0-9a-f]+\)) [\d,]+ ms into the flood, having taken ([\d,]+) of [\d,]+ \w+( \w+)? \(read by its process at wsgate's last look before its end: at least that many, wsgate flushed less the kernel queues; ([\d,]+) written then\)/.exec(
        result,
      );
    assert.ok(ended !== null, `${id}: ${result}`);
    const units = await figure(run, id, 'units-taken');
    assert.ok(units.value === num(ended[1]) && units.value <= num(ended[3]) && !units.over, `${id}: ${JSON.stringify(units)}`);
    assert.ok((await figure(run, id, 'ended-ms')).value < 2_000, id);
  }
  // Why, in its own words (CVE-2024-28182's limit of 8 CONTINUATION frames; CVE-2019-9512's queue of 1,000).
  assert.match(logs, /nghttp2_session_mem_recv\(\) returned error: Too many CONTINUATION frames following a HEADER frame/);
  assert.match(logs, /nghttp2_session_mem_recv\(\) returned error: Flooding was detected in this HTTP\/2 session, and it must be closed/);

  assert.match(await run.result('17.5.4'), /^The server took all 500 connections whose header block wsgate cut with a TCP reset\./);
  assert.equal((await figure(run, '17.5.4', 'units-written')).value, 500);
});
