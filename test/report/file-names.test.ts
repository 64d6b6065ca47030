/**
 * Report files are named exactly as Autobahn names them, `<cleaned agent>_case_<id>.json/.html`, so
 * scripts that open `reports/clients/<agent>_case_1_1_1.json` keep working; two agents of one report
 * directory that clean to the same name are told apart, and stderr says so.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import WebSocket from 'ws';
import { startChildServer } from '../support/child-server.js';
import { fixture, fixtureCommand, runCli, runNode, tempDir } from '../support/harness.js';

type Index = Record<string, Record<string, { reportfile: string }>>;

/** /updateReports, as a client driver ends: resolves when the server has closed the connection. */
function updateReports(port: number): Promise<void> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/updateReports?agent=a-b`);
    ws.on('error', () => undefined);
    ws.on('close', () => resolve());
  });
}

for (const [agent, prefix] of [
  ['ws-8.23.0', 'ws_8_23_0'],
  ['bar-py-tornado', 'bar_py_tornado'],
  ['undici', 'undici'],
] as const) {
  test(`wsgate run --agent ${agent}: ${prefix}_case_<id>.json and .html, and every pointer to them`, async () => {
    const outdir = await tempDir();
    const res = await runCli([
      'run',
      '--client',
      fixtureCommand('spec-peer'),
      '--agent',
      agent,
      '--url',
      'ws://127.0.0.1:0',
      '--outdir',
      outdir,
      '--cases',
      '6.9.2',
      '6.12.7',
    ]);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    const files = (await readdir(outdir)).sort();
    assert.deepEqual(
      files,
      [
        'index.html',
        'index.json',
        'junit.xml',
        `${prefix}_case_6_12_7.html`,
        `${prefix}_case_6_12_7.json`,
        `${prefix}_case_6_9_2.html`,
        `${prefix}_case_6_9_2.json`,
        'summary.json',
      ].sort(),
    );
    const index = JSON.parse(await readFile(path.join(outdir, 'index.json'), 'utf8')) as Index;
    assert.equal(index[agent]?.['6.9.2']?.reportfile, `${prefix}_case_6_9_2.json`);
    assert.match(await readFile(path.join(outdir, 'index.html'), 'utf8'), new RegExp(`href="${prefix}_case_6_12_7\\.html"`));
    assert.match(await readFile(path.join(outdir, 'junit.xml'), 'utf8'), new RegExp(`value="${prefix}_case_6_9_2\\.html"`));
    assert.match(await readFile(path.join(outdir, 'summary.json'), 'utf8'), new RegExp(`"reportfile": "${prefix}_case_6_9_2\\.json"`));
    assert.equal(res.stderr.includes('clean to the same report file name'), false);
  });
}

test('two agents of one serve session that clean to one name: distinct files, each index entry its own, one stderr line', async () => {
  const srv = await startChildServer(['6.9.2']);
  try {
    for (const agent of ['a-b', 'a.b']) {
      const r = await runNode(fixture('spec-peer'), [`ws://127.0.0.1:${srv.port}/runCase?case=1&agent=${encodeURIComponent(agent)}`]);
      assert.equal(r.code, 0, r.stderr);
    }
    // Written twice: the notice is printed once.
    for (let i = 0; i < 2; i++) await updateReports(srv.port);
    const index = JSON.parse(await readFile(path.join(srv.outdir, 'index.json'), 'utf8')) as Index;
    const ab = index['a-b']?.['6.9.2']?.reportfile;
    const adotb = index['a.b']?.['6.9.2']?.reportfile;
    assert.equal(ab, 'a_b_case_6_9_2.json');
    assert.match(adotb ?? '', /^a_b_[0-9a-f]{8}_case_6_9_2\.json$/);
    const files = await readdir(srv.outdir);
    for (const f of [ab, adotb]) {
      assert.ok(f !== undefined && files.includes(f), String(f));
      const report = JSON.parse(await readFile(path.join(srv.outdir, f), 'utf8')) as { agent: string };
      assert.equal(report.agent, f === ab ? 'a-b' : 'a.b');
    }
    const notices = srv
      .output()
      .split('\n')
      .filter((l) => l.includes('clean to the same report file name'));
    assert.equal(notices.length, 1, srv.output());
    assert.match(notices[0] ?? '', /^wsgate: agents "a-b" → a_b_case_\*, "a\.b" → a_b_[0-9a-f]{8}_case_\* clean to the same report file name "a_b"/);
  } finally {
    await srv.stop();
  }
});
