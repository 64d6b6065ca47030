/**
 * A peer is measured wherever it runs on this machine: started through a launcher that leaves it
 * outside the command's process tree (test/fixtures/servers/detach.ts, as `docker run` does), a
 * server is found by the socket listening on its port, a client by its case connection's socket, and
 * the same flawed peers get the same verdicts and figures as when started directly, the report saying
 * how the peer was found. Through the real CLI over real TCP; and the finder itself on a listener of
 * this process.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PeerWatch } from '../../src/peer/watch.js';
import { descendsFrom, listenerRoot, listeningPids } from '../../src/processes/listener.js';
import { fixture, tempDir } from '../support/harness.js';
import { brokenServer, runRobustness, type RobustnessRun } from '../support/robustness.js';

const DETACH = fileURLToPath(new URL('../fixtures/servers/detach.js', import.meta.url));

/** The broken server in `mode`, started through the detaching launcher. */
function detached(mode: string): string {
  return `'${process.execPath}' '${DETACH}' ${brokenServer(mode).replace(/ \{port\}$/, ' {port}')}`;
}

/** [value, budget, over] of a case's figure. */
async function figure(run: RobustnessRun, id: string, name: string): Promise<[number, number | null, boolean] | undefined> {
  const f = (await run.report(id)).figures?.find((g) => g.name === name);
  return f === undefined ? undefined : [f.value, f.budget, f.over];
}

test('the process listening on a port is found by its socket, the root of those sharing it', async () => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  try {
    assert.deepEqual(listeningPids(port), [process.pid]);
    assert.equal(listenerRoot(port), process.pid);
    assert.equal(descendsFrom(process.pid, process.pid), true);
    assert.equal(descendsFrom(process.ppid, process.pid), false);
    // A server in wsgate's own process (the API's, a test's) is not measured: the figures would be wsgate's.
    assert.equal(new PeerWatch(await tempDir()).sampleServer(null, port), null);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  assert.deepEqual(listeningPids(port), []);
  // Nothing listens and wsgate started nothing: nothing to measure.
  assert.equal(new PeerWatch(await tempDir()).sampleServer(null, port), null);
});

test('17.1.9 and 17.2.5 against the same flawed servers, started directly and through a detaching launcher: the same verdicts and figures, the detached one found by its socket', async () => {
  for (const [mode, id, name, args] of [
    ['rescans-head', '17.1.9', 'cpu-ms', []],
    ['concat-fragments', '17.2.5', 'memory-growth-bytes', ['--budget', 'time=0.2']],
  ] as const) {
    const direct = await runRobustness(['--server', brokenServer(mode), '--cases', id, ...args]);
    const launched = await runRobustness(['--server', detached(mode), '--cases', id, ...args]);
    assert.equal(direct.cases.get(id)?.status, 'failed', direct.out);
    assert.equal(launched.cases.get(id)?.status, 'failed', launched.out);
    const text = await launched.result(id);
    assert.match(
      text,
      /the peer's process tree \(pid \d+, node, found by its socket listening on port \d+: outside the command's process tree, which a launcher left\)/,
      text,
    );
    assert.doesNotMatch(await direct.result(id), /found by its socket/);
    // The figure is read in both (a launcher's tree alone would read a few MiB and ms: the detached server is measured).
    const [a, b] = [await figure(direct, id, name), await figure(launched, id, name)];
    assert.ok(a !== undefined && b !== undefined, `${id}: ${JSON.stringify({ a, b })}`);
    // 17.1.9's CPU time is far over its budget either way; 17.2.5's memory sits near its 64 MiB (its
    // verdict is the time it fell behind), so only its size is compared: 66 and 83 MiB in one run.
    if (name === 'cpu-ms') assert.equal(a[2], b[2], `${id} ${name}: direct ${JSON.stringify(a)}, detached ${JSON.stringify(b)}`);
    assert.ok(b[0] > a[0] / 3 && b[0] < a[0] * 3, `${id} ${name}: direct ${a[0]}, detached ${b[0]}`);
  }
});

test("18.4.3 against a client started through the detaching launcher: its connection is held outside the command's tree, the client is found by that socket and measured, FAILED on its CPU as when started directly; its twin passes", async () => {
  const client = (name: string): string => `'${process.execPath}' '${DETACH}' '${process.execPath}' '${fixture(name)}' {url}`;
  const [bad, good] = await Promise.all([
    runRobustness(['--client', client('rescans-head-line-limit'), '--url', 'ws://127.0.0.1:0', '--cases', '18.4.3']),
    runRobustness(['--client', client('scans-head-line-limit'), '--url', 'ws://127.0.0.1:0', '--cases', '18.4.3']),
  ]);
  assert.equal(bad.cases.get('18.4.3')?.status, 'failed', bad.out);
  const text = await bad.result('18.4.3');
  assert.match(
    text,
    /the peer's process tree \(pid \d+, node, found by its connection's socket \(from port \d+\): outside the command's process tree, which a launcher left\) spent [\d,]+ ms of CPU time over the case \(budget 1,000 ms\)/,
    text,
  );
  assert.equal((await figure(bad, '18.4.3', 'cpu-ms'))?.[2], true, text);
  assert.equal(good.cases.get('18.4.3')?.status, 'passed', good.out);
  assert.match(await good.result('18.4.3'), /found by its connection's socket/);
});
