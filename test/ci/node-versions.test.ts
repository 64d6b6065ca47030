/**
 * The permessage-deflate codec drives node:zlib's native handle synchronously (protocol/deflate/sync-zlib.ts:
 * `_handle.writeSync`, Node's internals, not its API). The rest of the suite runs it on the Node
 * that runs the tests (20 here); this file runs the codec's tests and a selection of groups 12 and 13
 * against the bundled ws client on Node 22 and 24 too, installed as the `node` package from the npm
 * registry the machine's npm is configured with (test/support/node-versions.ts).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CLI, tempDir } from '../support/harness.js';
import { nodeBinary } from '../support/node-versions.js';

const CODEC_TESTS = fileURLToPath(new URL('../protocol/deflate.test.js', import.meta.url));

/** Every kind of 12.x/13.x case: sizes, fragmentation, the five documents, offers and accepts, window sizes. */
const DEFLATE_SELECTION = [
  '12.1.1',
  '12.1.11',
  '12.2.5',
  '12.3.10',
  '12.4.16',
  '12.5.17',
  '13.1.1',
  '13.2.7',
  '13.3.11',
  '13.4.4',
  '13.5.12',
  '13.6.9',
  '13.7.3',
];

function run(file: string, args: string[], timeoutMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : null;
      resolve({ code, out: `${stdout}${stderr}` });
    });
  });
}

for (const major of ['22', '24']) {
  test(`Node ${major}: the deflate codec's tests and groups 12/13 against ws pass`, { timeout: 600_000 }, async () => {
    const node = await nodeBinary(major);
    const version = await run(node, ['--version'], 10_000);
    assert.match(version.out, new RegExp(`^v${major}\\.`), version.out);
    const codec = await run(node, ['--test', CODEC_TESTS], 300_000);
    assert.equal(codec.code, 0, codec.out.slice(-4000));
    const outdir = await tempDir();
    const gate = await run(node, [CLI, 'run', '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', ...DEFLATE_SELECTION], 300_000);
    assert.equal(gate.code, 0, gate.out.slice(-4000));
    const summary = JSON.parse(readFileSync(path.join(outdir, 'summary.json'), 'utf8')) as { counts: { total: number; passed: number } };
    assert.deepEqual([summary.counts.total, summary.counts.passed], [DEFLATE_SELECTION.length, DEFLATE_SELECTION.length]);
  });
}
