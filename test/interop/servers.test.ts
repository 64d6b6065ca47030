/**
 * The server role against real servers: Python `websockets` (Debian's python3-websockets 10.4, run
 * with /usr/bin/python3, interop/servers/python-websockets.py) and ws's WebSocketServer with its
 * default options (interop/servers/ws-default.mjs), on a selection where their verdicts do not depend
 * on timing. The verdicts are the original fuzzing client's for the same servers (interop/README.md):
 * websockets checks UTF-8 frame by frame (6.4.1/6.4.2 OK, 6.4.3/6.4.4 within one frame NON-STRICT);
 * ws with its defaults has no permessage-deflate (12.x, 13.x UNIMPLEMENTED) and at most 16384
 * fragments per message (9.3.1 fails, as under the original).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { runCliWith } from '../support/cli-env.js';
import { tempDir } from '../support/harness.js';
import type { Explanation } from '../../src/model/explanation.js';
import { needs, PYTHON } from '../support/requirements.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface Summary {
  cases: Array<{ id: string; behavior: string | null; behaviorClose: string | null; remoteCloseCode: number | null; explanation: Explanation | null }>;
}

async function runServer(
  command: string,
  cases: string[],
): Promise<{ code: number | null; verdicts: Map<string, string>; explanations: Map<string, Explanation | null> }> {
  const dir = await tempDir();
  const res = await runCliWith(['run', '--server', command, '--agent', 'srv', '--cases', ...cases], { cwd: dir, timeoutMs: 120_000 });
  assert.ok(res.code === 0 || res.code === 1, res.stdout + res.stderr);
  const summary = JSON.parse(await readFile(path.join(dir, 'reports', 'servers', 'summary.json'), 'utf8')) as Summary;
  return {
    code: res.code,
    verdicts: new Map(summary.cases.map((c) => [c.id, `${c.behavior ?? '-'}/${c.behaviorClose ?? '-'}`])),
    explanations: new Map(summary.cases.map((c) => [c.id, c.explanation])),
  };
}

describe('Python websockets as the server under test', { skip: needs('python-clients') }, () => {
  test('groups 1, 2, 6.4, 7.1, 10 and 12.1.1-12.1.3: OK but 6.4.3/6.4.4 NON-STRICT and 7.1.6 INFORMATIONAL, exit 0', async () => {
    const script = path.join(ROOT, 'interop', 'servers', 'python-websockets.py');
    const { code, verdicts, explanations } = await runServer(`${PYTHON} '${script}' {port}`, [
      '1.*',
      '2.*',
      '6.4.*',
      '7.1.*',
      '10.*',
      '12.1.1',
      '12.1.2',
      '12.1.3',
    ]);
    assert.equal(code, 0);
    for (const [id, v] of verdicts) {
      const expected = id === '6.4.3' || id === '6.4.4' ? 'NON-STRICT/OK' : id === '7.1.6' ? 'INFORMATIONAL/INFORMATIONAL' : 'OK/OK';
      assert.equal(v, expected, id);
    }
    assert.equal(verdicts.size, 16 + 11 + 4 + 6 + 1 + 3);
    // Every non-OK verdict explains itself: 6.4.3 validates the frame only once it is complete.
    for (const [id, v] of verdicts) assert.equal(explanations.get(id) === null, v === 'OK/OK', id);
    const late = explanations.get('6.4.3');
    assert.equal(late?.cause.key, 'utf8-invalid:non-strict');
    assert.match(
      late?.peerDid ?? '',
      /^let the case's pauses A, B pass, then closed with code 1007[^:]*: failing the connection only once the message \(or frame\) is complete, not at the first invalid byte, is allowed by RFC 6455 §8\.1/,
    );
    assert.equal(explanations.get('7.1.6')?.cause.key, 'closing-handshake:informational');
  });
});

test("ws's WebSocketServer with its defaults: no permessage-deflate (UNIMPLEMENTED), 9.3.1 fails past 16384 fragments", async () => {
  const script = path.join(ROOT, 'interop', 'servers', 'ws-default.mjs');
  const { code, verdicts, explanations } = await runServer(`'${process.execPath}' '${script}' {port}`, ['1.1.1', '9.3.1', '12.1.1', '13.7.1']);
  assert.equal(code, 1);
  assert.equal(verdicts.get('1.1.1'), 'OK/OK');
  assert.equal(verdicts.get('9.3.1'), 'FAILED/FAILED');
  assert.equal(verdicts.get('12.1.1'), 'UNIMPLEMENTED/OK');
  assert.equal(verdicts.get('13.7.1'), 'UNIMPLEMENTED/OK');
  // Not applicable, and why: the server declined the offers; 9.3.1's explanation names the limit.
  assert.equal(explanations.get('12.1.1')?.cause.key, 'unimplemented:deflate');
  assert.match(explanations.get('12.1.1')?.peerDid ?? '', /^declined permessage-deflate/);
  assert.match(explanations.get('9.3.1')?.text ?? '', /RFC 6455 §5\.4, §10\.4/);
});
