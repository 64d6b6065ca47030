/**
 * A client command's whole output is kept in the report directory (client-output.log), as a server's
 * is: a per-case client's lines each marked with the case they belong to, stdout and stderr alike,
 * also when cases run at once; a client that drives every case itself, as it printed.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { run } from '../../src/api.js';
import { shellQuote } from '../../src/processes/client-process.js';
import { REFERENCE_CLIENT, tempDir } from '../support/harness.js';

const CASES = ['1.1.1', '1.1.2', '2.1', '2.2'];

test('per-case, --jobs 2: every line each client printed is in client-output.log, marked with its case', async () => {
  const outdir = await tempDir();
  // One line on stdout before it connects, one on stderr after it ended, the second cut by no newline.
  const client = `echo before {case}; ${shellQuote(process.execPath)} ${shellQuote(REFERENCE_CLIENT)} {url}; printf "after %s" {case} >&2`;
  const summary = await run({ client, cases: CASES, jobs: 2, outdir, url: 'ws://127.0.0.1:0' });
  assert.equal(summary.counts.passed, CASES.length, JSON.stringify(summary.counts));
  const log = readFileSync(path.join(outdir, 'client-output.log'), 'utf8');
  for (const id of CASES) {
    assert.ok(log.includes(`[${id}] before ${id}\n`), log);
    assert.ok(log.includes(`[${id}] after ${id}\n`), log);
  }
  // Every line is marked: nothing of one case's output sits unmarked between two others'.
  assert.deepEqual(
    log.split('\n').filter((line) => line !== '' && !/^\[\d+\.\d+(\.\d+)?\] /.test(line)),
    [],
  );
  assert.equal(existsSync(path.join(outdir, 'client-output.log.part')), false);
});

test('--client-loops: the one client process prints into client-output.log after a line naming it', async () => {
  const outdir = await tempDir();
  const client = `echo "looping client up"; ${shellQuote(process.execPath)} ${shellQuote(REFERENCE_CLIENT)} {url}`;
  const summary = await run({ client, clientLoops: true, cases: CASES, outdir, url: 'ws://127.0.0.1:0' });
  assert.equal(summary.counts.passed, CASES.length, JSON.stringify(summary.counts));
  const log = readFileSync(path.join(outdir, 'client-output.log'), 'utf8');
  assert.match(log, /^--- wsgate: the client under test, driving every case: .*\nlooping client up\n/);
});
