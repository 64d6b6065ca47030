/**
 * Debian's tornado 6.2 ignores client_max_window_bits=9 (13.7.x answers it) and compresses its echoes
 * with a 32 KiB window. The original's inflater raises and Twisted drops the connection without a
 * close frame: FAILED/FAILED with no remote close code. wsgate gives the same pair, and its result
 * names the compressed message that reached past the window (the original's still reads "Case did
 * not finish within N seconds."). 12.1.1 and 13.1.1 (no window asked for) pass.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import type { CauseGroup, Explanation } from '../../src/model/explanation.js';
import type { CaseResult } from '../../src/model/report.js';
import { needs } from '../support/requirements.js';
import { pair, runClient } from './clients.js';

test('tornado 6.2 on 13.7.1-13.7.8: FAILED/FAILED, remoteCloseCode null, the result names the window', { skip: needs('python-clients') }, async () => {
  const ids = ['13.7.1', '13.7.2', '13.7.3', '13.7.4', '13.7.5', '13.7.6', '13.7.7', '13.7.8'];
  const { outdir, index, code } = await runClient('python-tornado', [...ids, '12.1.1', '13.1.1'], ['--jobs', '2']);
  assert.equal(code, 1);
  assert.equal(pair(index, '12.1.1'), 'OK/OK');
  assert.equal(pair(index, '13.1.1'), 'OK/OK');
  for (const id of ids) {
    assert.equal(pair(index, id), 'FAILED/FAILED', id);
    assert.equal(index[id]?.remoteCloseCode, null, id);
    const report = JSON.parse(await readFile(path.join(outdir, index[id]?.reportfile ?? ''), 'utf8')) as CaseResult;
    assert.match(report.httpResponse, /client_max_window_bits=9/, id);
    assert.match(
      report.result,
      /^Dropped the connection without a close frame: the client's compressed text message \d+ could not be inflated: a back-reference reaches further back than the 512-byte window negotiated with client_max_window_bits=9/,
      id,
    );
    assert.equal(report.localCloseCode, null, id);
  }
  // The explanations name the fault (data that cannot be inflated: the window), one cause for all eight.
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as {
    causes: CauseGroup[];
    cases: { id: string; explanation: Explanation | null }[];
  };
  assert.deepEqual(
    summary.causes.map((g) => [g.key, g.cases]),
    [['deflate-parameters:bad-data', ids]],
  );
  const e = summary.cases.find((c) => c.id === '13.7.1')?.explanation;
  assert.match(
    e?.peerDid ?? '',
    /^sent data wsgate had to reject: the client's compressed text message \d+ could not be inflated: a back-reference reaches further back than the 512-byte window/,
  );
  assert.equal(e?.requirement.rfc, 'RFC 7692 §7.1');
  assert.match(e?.ending ?? '', /no close frame was exchanged, wsgate closed TCP, not clean/);
});
