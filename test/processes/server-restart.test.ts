/**
 * A restart of the server under test (the robustness profile restarts a server that died or stopped
 * serving): when restart() resolves, every process of the old tree is gone, and what listens on the
 * port is the new server, so the next case can never be played against the dying one or find
 * nothing listening.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { ServerProcess } from '../../src/processes/server-process.js';
import { tempDir } from '../support/harness.js';
import { reservedPort } from '../support/ports.js';

/**
 * A server that answers each connection with its pid, then closes it. The readiness probe resets
 * its connection at once, so a write to it may fail with ECONNRESET: ignored, as any server would.
 */
const PID_SERVER = `require('node:net').createServer((s) => s.on('error', () => {}).end(String(process.pid))).listen(Number(process.argv[1]), '127.0.0.1');`;

/**
 * Asks the server on port for its pid. A connection reset before the answer is asked again, twice at
 * most: CI's loaded run once saw ECONNRESET here; whoever answers, the pid assertions judge it.
 */
async function askPid(port: number, tries = 3): Promise<number> {
  try {
    return await new Promise((resolve, reject) => {
      let text = '';
      net
        .connect(port, '127.0.0.1')
        .on('data', (d: Buffer) => {
          text += d.toString();
        })
        .on('end', () => resolve(Number(text)))
        .on('error', reject);
    });
  } catch (err) {
    if (tries <= 1 || (err as NodeJS.ErrnoException).code !== 'ECONNRESET') throw err;
    await new Promise((resolve) => setTimeout(resolve, 100));
    return askPid(port, tries - 1);
  }
}

/**
 * askPid, and when no answer comes, a failure that says what the server under test was doing then
 * (whether its current start had exited, and how; its last output), and which ask it was.
 */
async function answerOf(server: ServerProcess, port: number, ask: string): Promise<number> {
  try {
    return await askPid(port);
  } catch (err) {
    const state = server.hasExited ? `start ${server.starts} ${server.describeExit()}` : `start ${server.starts} (pid ${server.pid}) still running`;
    throw new Error(`${ask}: ${String(err)}; ${state}; its last output: ${server.lastOutput()}`);
  }
}

/** Whether pid is a live process (a zombie is not). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

test('restart: the old tree is gone and the new server listens when it resolves', async () => {
  const dir = await tempDir('wsgate-restart-');
  const script = path.join(dir, 'pid-server.cjs');
  writeFileSync(script, PID_SERVER.replace('process.argv[1]', 'process.argv[2]'));
  // Claimed across the suite's processes: between the old server's death and the new one's bind the
  // port is free, and a port only believed free could be taken there by another test's program.
  const port = await reservedPort();
  const server = await ServerProcess.launch({
    command: `'${process.execPath}' '${script}' {port}`,
    host: '127.0.0.1',
    port,
    timeoutMs: 10_000,
    signal: undefined,
    certificate: {},
    http2: false,
  });
  try {
    const before = await answerOf(server, port, 'after launch');
    assert.ok(alive(before));
    for (let i = 1; i <= 3; i++) {
      const old = await answerOf(server, port, `before restart ${i}`);
      await server.restart('127.0.0.1', port, 10_000);
      assert.equal(alive(old), false, `start ${i}: the old server (pid ${old}) is still alive after restart()`);
      const now = await answerOf(server, port, `after restart ${i}`);
      assert.notEqual(now, old);
      assert.equal(server.starts, i + 1);
    }
  } finally {
    await server.stop();
  }
});
