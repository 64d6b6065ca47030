/**
 * The run's watch on a peer (peer/watch.ts) ends whatever of the peer still runs when it is closed,
 * whichever driver started it and whether or not the driver let it go: a client process that ignores
 * SIGTERM, a server command; their logs get their names, and the peer's CPU time is read. And no file
 * outside the watch's room starts a peer's process: the skeleton owns every one.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PeerWatch } from '../../src/peer/watch.js';
import { shellQuote } from '../../src/processes/client-process.js';
import { reservedPort } from '../support/ports.js';
import { tempDir } from '../support/harness.js';

/** Resolves once `check` holds (every 20 ms), or fails after `ms`. */
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('close() ends a client the driver never let go (it ignores SIGTERM) and names its log', async () => {
  const outdir = await tempDir();
  const watch = new PeerWatch(outdir);
  const client = watch.startClient(
    `trap '' TERM; echo up {case}; sleep 60 & wait`,
    { url: 'ws://127.0.0.1:1/', case: '2.5', agent: 'a' },
    {},
    { mark: '[2.5] ' },
  );
  await until(() => existsSync(path.join(outdir, 'client-output.log.part')), 10_000, "the client's first line");
  assert.equal(client.hasExited, false);
  assert.equal(await watch.close(), null);
  assert.equal(client.hasExited, true);
  // Its sleep, a child of the shell, is gone with it.
  assert.equal(await client.treeGone(2000), true);
  assert.equal(readFileSync(path.join(outdir, 'client-output.log'), 'utf8'), '[2.5] up 2.5\n');
  assert.equal(existsSync(path.join(outdir, 'client-output.log.part')), false);
  assert.equal(typeof watch.cpuMs(), 'number');
});

test("close() stops a server command, keeps its output as server-output-2.log for a spec's second server, and reads its CPU", async () => {
  const outdir = await tempDir();
  const watch = new PeerWatch(outdir, 1);
  const port = await reservedPort();
  const script = `require('node:net').createServer().listen(+process.argv[1], '127.0.0.1', () => console.log('listening'))`;
  const server = await watch.startServer({
    command: `${shellQuote(process.execPath)} -e ${shellQuote(script)} {port}`,
    host: '127.0.0.1',
    port,
    timeoutMs: 10_000,
    signal: undefined,
    certificate: {},
    http2: false,
  });
  assert.equal(server.hasExited, false);
  assert.equal(await watch.close(), null);
  assert.equal(server.hasExited, true);
  const log = readFileSync(path.join(outdir, 'server-output-2.log'), 'utf8');
  assert.match(log, /^--- wsgate: start 1 of the server under test: .*\nlistening\n$/);
  assert.equal(typeof watch.cpuMs(), 'number');
  // Closing again does nothing, and a watch that started nothing knows no CPU time.
  assert.equal(await watch.close(), null);
  assert.equal(new PeerWatch(outdir).cpuMs(), null);
});

test("no file outside src/peer/ starts a peer's process: drivers go through the run's watch", () => {
  const src = fileURLToPath(new URL('../../../src/', import.meta.url));
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
  // Where a process is started at all: the process layer itself, and the browser launcher the watch calls.
  const makers = new Set(['processes/client-process.ts', 'processes/server-process.ts', 'browsers/launch.ts']);
  // A bare call (not the watch's method of the same name: `peers.startClient(`, `watch.launchBrowser(`).
  const direct = files(src)
    .map((f) => path.relative(src, f).split(path.sep).join('/'))
    .filter((f) => !f.startsWith('peer/') && !makers.has(f))
    .flatMap((f) =>
      [...readFileSync(path.join(src, f), 'utf8').matchAll(/(?<![.\w])(startClient|startCommand|launchBrowser)\(|\bServerProcess\.launch\(/g)].map(
        (m) => `${f}: ${m[0]}`,
      ),
    );
  assert.deepEqual(direct, []);
});
