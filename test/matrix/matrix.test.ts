/**
 * `wsgate matrix` over a small registry of real peers (test/fixtures/matrix/: the bundled ws client
 * and server, a client that echoes invalid UTF-8 and cannot do group 7, one never installed): the
 * rows, versions, counts and verdict pairs of matrix.json, the site, and four shards merged into the
 * same matrix.json as one unsharded run. Run from the checkout's root (the fixture's command is relative).
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runMain } from '../support/cli-env.js';
import { tempDir } from '../support/harness.js';

const REGISTRY = fileURLToPath(new URL('../../../test/fixtures/matrix/', import.meta.url));
const WS_VERSION = (JSON.parse(readFileSync(fileURLToPath(new URL('../../../node_modules/ws/package.json', import.meta.url)), 'utf8')) as { version: string })
  .version;
const CASES = ['--cases', '1.1.1', '6.3.*', '7.9.1'];

interface Row {
  name: string;
  role: string;
  version: string | null;
  installed: boolean;
  install: string;
  reportDir: string | null;
  counts: Record<string, number> | null;
  groups: Record<string, Record<string, number>>;
  causes: Array<{ title: string; cases: string[] }>;
  cases: Array<{ id: string; verdict: string; behavior: string | null; behaviorClose: string | null; cause: string | null; page: string | null }>;
  error: string | null;
}
interface Matrix {
  wsgate: string;
  generatedAt?: string;
  machine: { node: string };
  selection: { shard: unknown };
  rows: Row[];
}

const readMatrix = (dir: string): Matrix => JSON.parse(readFileSync(path.join(dir, 'matrix.json'), 'utf8')) as Matrix;
const row = (m: Matrix, key: string): Row => {
  const r = m.rows.find((x) => `${x.name}-${x.role}` === key);
  assert.ok(r, `no row ${key}`);
  return r;
};

describe('wsgate matrix', () => {
  let root = '';
  let whole = '';
  before(async () => {
    root = await tempDir('wsgate-matrix-');
    whole = path.join(root, 'whole');
    const res = await runMain(['matrix', '--implementations', REGISTRY, ...CASES, '--outdir', whole]);
    assert.equal(res.code, 0, res.stderr);
  });

  test('matrix.json: a row per implementation and role, its version, counts, verdict pairs and causes', () => {
    const m = readMatrix(whole);
    assert.deepEqual(
      m.rows.map((r) => `${r.name}-${r.role}`),
      ['echo-invalid-client', 'missing-client', 'ws-client', 'ws-server'],
    );
    assert.equal(m.selection.shard, null);
    assert.equal(m.machine.node, process.version);
    for (const key of ['ws-client', 'ws-server']) {
      const r = row(m, key);
      assert.equal(r.version, WS_VERSION);
      assert.deepEqual(r.counts, { total: 4, passed: 4, failed: 0, skipped: 0, unsupported: 0 });
      assert.ok(
        r.cases.every((c) => c.behavior === 'OK' && c.behaviorClose === 'OK'),
        key,
      );
      assert.ok(existsSync(path.join(whole, key, 'index.html')), `${key}'s own report`);
    }
    const bad = row(m, 'echo-invalid-client');
    assert.equal(bad.version, process.version);
    assert.deepEqual(bad.counts, { total: 4, passed: 1, failed: 2, skipped: 0, unsupported: 1 });
    assert.deepEqual(bad.groups['7'], { total: 1, passed: 0, failed: 0, skipped: 0, unsupported: 1 });
    const byId = new Map(bad.cases.map((c) => [c.id, c]));
    assert.deepEqual(byId.get('1.1.1'), {
      id: '1.1.1',
      verdict: 'passed',
      behavior: 'OK',
      behaviorClose: 'OK',
      cause: null,
      page: 'echo_invalid_case_1_1_1.html',
    });
    assert.ok(existsSync(path.join(whole, 'echo-invalid-client', 'echo_invalid_case_1_1_1.html')), 'the case page matrix.json names');
    assert.equal(byId.get('6.3.1')?.verdict, 'failed');
    assert.equal(byId.get('6.3.1')?.behavior, 'FAILED');
    assert.match(byId.get('6.3.1')?.cause ?? '', /invalid UTF-8/);
    // Unsupported: not run, not failed.
    assert.deepEqual(byId.get('7.9.1'), { id: '7.9.1', verdict: 'unsupported', behavior: null, behaviorClose: null, cause: null, page: null });
    assert.deepEqual(
      bad.causes.map((c) => c.cases),
      [['6.3.1', '6.3.2']],
    );
  });

  test('a row that is not installed is listed with its install and not run', () => {
    const r = row(readMatrix(whole), 'missing-client');
    assert.equal(r.installed, false);
    assert.equal(r.version, null);
    assert.match(r.install, /npm install --no-save wsgate-no-such-package && make -C interop\/missing/);
    assert.equal(r.reportDir, null);
    assert.deepEqual(r.cases, []);
    assert.equal(existsSync(path.join(whole, 'missing-client')), false);
  });

  test('index.html: group cells linking into each row’s report, the not-installed row, the per-case view', () => {
    const html = readFileSync(path.join(whole, 'index.html'), 'utf8');
    for (const key of ['echo-invalid-client', 'ws-client', 'ws-server']) assert.match(html, new RegExp(`href="${key}/index.html"`));
    // All cases first (a phone shows it alone), then the groups.
    assert.match(
      html,
      /<th class="version">Version<\/th><th class="num">All<\/th><th class="num grp">1<\/th><th class="num grp">6<\/th><th class="num grp">7<\/th><\/tr>/,
    );
    assert.match(
      html,
      /<td class="cell case_failed" title="1 passed, 2 failed, 0 skipped, 1 unsupported"><a href="echo-invalid-client\/index.html">1\/3<\/a><\/td><td class="cell case_ok grp"/,
    );
    assert.match(html, /class="cell case_failed grp"[^>]*><a href="echo-invalid-client\/index.html">0\/2<\/a>/);
    assert.match(html, /class="cell case_unimplemented grp"><a href="echo-invalid-client\/index.html">n\/a<\/a>/);
    // A phone: the groups, the role and the version columns hidden; the role and version under the name.
    assert.match(html, /@media \(max-width: 640px\) \{ \.grp, \.role, \.version \{ display: none; \} \.phone \{ display: inline; \} \}/);
    assert.match(html, /<span class="meta phone"><br>client · not installed<\/span>/);
    assert.match(html, /<td class="version">not installed<\/td><td colspan="4">install: <code>npm install/);
    assert.match(
      html,
      /<h3 id="case-6\.3\.1">6\.3\.1[\s\S]*?invalid UTF-8 in a text message accepted<ul class="who"><li><a href="echo-invalid-client\/index.html">echo-invalid \(test fixture\) \(client\): FAILED \/ FAILED/,
    );
    assert.doesNotMatch(html, /id="case-1\.1\.1"/);
  });

  test('four shards merged (matrix --merge) equal the unsharded matrix', async () => {
    const shards: string[] = [];
    for (let k = 1; k <= 4; k++) {
      const dir = path.join(root, `shard-${k}`);
      const res = await runMain(['matrix', '--implementations', REGISTRY, ...CASES, '--shard', `${k}/4`, '--outdir', dir]);
      assert.equal(res.code, 0, res.stderr);
      assert.deepEqual(readMatrix(dir).selection.shard, { index: k, count: 4 });
      shards.push(dir);
    }
    const merged = path.join(root, 'merged');
    const res = await runMain(['matrix', '--merge', ...shards.reverse(), '--outdir', merged]);
    assert.equal(res.code, 0, res.stderr);
    const strip = (m: Matrix): Matrix => {
      delete m.generatedAt;
      return m;
    };
    assert.deepEqual(strip(readMatrix(merged)), strip(readMatrix(whole)));
    assert.ok(existsSync(path.join(merged, 'ws-server', 'index.html')), 'each row’s shards merged into one report');
    const incomplete = await runMain(['matrix', '--merge', ...shards.slice(1), '--outdir', path.join(root, 'partial')]);
    assert.equal(incomplete.code, 2);
    // `wsgate merge` of the shards' directories (each with matrix.json) joins them the same way.
    const byMerge = path.join(root, 'merged-by-merge');
    const viaMerge = await runMain(['merge', ...shards, '--outdir', byMerge]);
    assert.equal(viaMerge.code, 0, viaMerge.stderr);
    assert.deepEqual(strip(readMatrix(byMerge)), strip(readMatrix(whole)));
  });

  test('a row that cannot run is recorded with its reason and the matrix goes on: the rows after it run, matrix.json is whole, the status is 2', async () => {
    const registry = path.join(root, 'with-broken');
    mkdirSync(registry);
    copyFileSync(path.join(REGISTRY, 'ws.json'), path.join(registry, 'ws.json'));
    // One client that exits before it connects, one server whose entry has an argument wsgate does not know.
    const broken = {
      name: 'broken',
      title: 'broken (test)',
      language: 'sh',
      homepage: 'https://example.com/broken',
      install: { from: 'bundled' },
      version: { from: 'command', command: 'echo 1.0' },
      roles: { client: { command: "sh -c 'exit 3' {url}" }, server: { command: 'node dist/src/bundled/reference-server.js {port}', args: ['--bogus-flag'] } },
      supports: { permessageDeflate: false, http2: false },
    };
    writeFileSync(path.join(registry, 'broken.json'), JSON.stringify(broken));
    const out = path.join(root, 'broken-out');
    const res = await runMain(['matrix', '--implementations', registry, '--cases', '1.1.1', '1.1.2', '--outdir', out]);
    assert.equal(res.code, 2, res.stderr);
    assert.equal(res.stderr, `wsgate: matrix: 2 rows could not run (broken-client, broken-server): see ${path.join(out, 'matrix.json')}\n`);
    const m = readMatrix(out);
    assert.deepEqual(
      m.rows.map((r) => [`${r.name}-${r.role}`, r.counts?.passed ?? null, r.error === null ? null : r.error.slice(0, 40)]),
      [
        ['broken-client', null, 'the client command never connected in th'],
        ['broken-server', null, 'Unknown arguments: bogus-flag, bogusFlag'],
        ['ws-client', 2, null],
        ['ws-server', 2, null],
      ],
    );
    assert.match(readFileSync(path.join(out, 'index.html'), 'utf8'), /could not run: the client command never connected/);
  });

  test('an unknown --only name is a usage error (2) in one line; nothing runs', async () => {
    const res = await runMain(['matrix', '--implementations', REGISTRY, '--only', 'ws', 'nope', '--outdir', path.join(root, 'bad')]);
    assert.equal(res.code, 2);
    assert.equal(res.stderr, 'wsgate: matrix: no implementation "nope" in the registry\n');
    assert.equal(existsSync(path.join(root, 'bad')), false);
  });
});
