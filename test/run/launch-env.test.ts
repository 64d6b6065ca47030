/**
 * The malloc settings of wsgate's launchers (src/util/launch-env.ts) reach wsgate and stop there:
 * the executable's own shebang starts it with them, and the client it runs does not inherit them.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { startClient } from '../../src/processes/client-process.js';
import { MALLOC_TUNING, TUNING_MARKER, clientEnvironment } from '../../src/util/launch-env.js';
import { CLI, tempDir } from '../support/harness.js';

test('clientEnvironment drops the launcher-set malloc settings and the marker, and nothing else', () => {
  const launched = { PATH: '/usr/bin', HOME: '/root', [TUNING_MARKER]: '1', ...MALLOC_TUNING, MALLOC_TOP_PAD_: '0' };
  assert.deepEqual(clientEnvironment(launched), { PATH: '/usr/bin', HOME: '/root', MALLOC_TOP_PAD_: '0' });
  // Without the marker the same names are the user's own settings: they pass.
  const own = { PATH: '/usr/bin', MALLOC_ARENA_MAX: '4' };
  assert.deepEqual(clientEnvironment(own), own);
});

test('a client started under a tuned wsgate sees neither the settings nor the marker', async () => {
  const saved = { ...process.env };
  Object.assign(process.env, { [TUNING_MARKER]: '1', ...MALLOC_TUNING, WSGATE_TEST_KEPT: 'yes' });
  try {
    const probe = `node -e "console.log(JSON.stringify([process.env.MALLOC_ARENA_MAX, process.env.MALLOC_MMAP_THRESHOLD_, process.env.${TUNING_MARKER}, process.env.WSGATE_TEST_KEPT, process.env.WSGATE_CASE]))"`;
    const client = startClient(probe, { url: 'ws://127.0.0.1:1', case: '7', agent: 'a' });
    await client.exited;
    const run = client.snapshot(false);
    assert.equal(run.exitCode, 0, run.output);
    assert.deepEqual(JSON.parse(run.output.trim()), [null, null, null, 'yes', '7']);
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
});

test("the executable's shebang starts wsgate with the settings; its client runs without them", async () => {
  // The interpreter line as the kernel runs it: `/usr/bin/env -S <args> <script> <argv...>`.
  const shebang = readFileSync(CLI, 'utf8').split('\n', 1)[0] ?? '';
  assert.match(shebang, /^#!\/usr\/bin\/env -S /);
  const [interpreter, ...words] = shebang.slice(2).split(' ');
  const outdir = await tempDir();
  // The client reports its parent shell's parent (wsgate) environment and its own, then exits:
  // the case fails (no connection), which is fine, its output is what this test reads.
  const client = `tr '\\0' '\\n' < /proc/$PPID/environ | grep -c -e '^MALLOC_MMAP_THRESHOLD_=131072$' -e '^MALLOC_ARENA_MAX=2$'; env | grep -c '^MALLOC_' || true`;
  const code = await new Promise<number | null>((resolve) => {
    execFile(
      interpreter as string,
      [words.join(' '), CLI, 'run', '--client', client, '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', '1.1.1', '--case-timeout', '5'],
      { env: { PATH: process.env.PATH ?? '' } },
      (err) => resolve(err === null ? 0 : typeof err.code === 'number' ? err.code : null),
    );
  });
  assert.equal(code, 1, 'the probe client connects to nothing: a failed case');
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as { cases: Array<{ client: { output: string } | null }> };
  const output = summary.cases[0]?.client?.output.trim().split('\n') ?? [];
  assert.deepEqual(output, ['2', '0'], 'wsgate has both settings, its client none');
});
