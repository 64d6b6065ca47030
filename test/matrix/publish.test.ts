/**
 * Publishing the matrix (docs/matrix.md):
 *   - `wsgate matrix --merge` of whole matrices of other rows (one per implementation, CI's jobs) is
 *     their union: the same matrix.json as one run over all the rows, but for generatedAt and machine;
 *     overlapping rows and other selections are refused;
 *   - the badges (DIR/badges/NAME-ROLE.json), exact, for a passing, a failing, an all-unsupported and
 *     a not-installed row of real runs (test/fixtures/matrix/), and as a merge writes them.
 * Run from the checkout's root (the fixture's command is relative).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runMain } from '../support/cli-env.js';
import { tempDir } from '../support/harness.js';

const REGISTRY = fileURLToPath(new URL('../../../test/fixtures/matrix/', import.meta.url));
const CASES = ['--cases', '1.1.1', '6.3.1', '7.9.1'];

type Json = Record<string, unknown>;
const readJson = (file: string): Json => JSON.parse(readFileSync(file, 'utf8')) as Json;
/** matrix.json without what differs from run to run and machine to machine. */
const content = (dir: string): Json => {
  const { generatedAt: _g, machine: _m, ...rest } = readJson(path.join(dir, 'matrix.json'));
  return rest;
};
const badges = (dir: string): Record<string, Json> =>
  Object.fromEntries(
    readdirSync(path.join(dir, 'badges'))
      .sort()
      .map((f) => [f, readJson(path.join(dir, 'badges', f))]),
  );

async function matrix(args: string[]): Promise<void> {
  const res = await runMain(['matrix', ...args]);
  assert.equal(res.code, 0, res.stderr);
}

describe('joining matrices of other rows, and the badges', () => {
  let root = '';
  let whole = '';
  let wsOnly = '';
  let others = '';
  before(async () => {
    root = await tempDir('wsgate-publish-');
    whole = path.join(root, 'whole');
    wsOnly = path.join(root, 'ws');
    others = path.join(root, 'others');
    await matrix(['--implementations', REGISTRY, ...CASES, '--outdir', whole]);
    await matrix(['--implementations', REGISTRY, '--only', 'ws', ...CASES, '--outdir', wsOnly]);
    await matrix(['--implementations', REGISTRY, '--only', 'missing', 'echo-invalid', ...CASES, '--outdir', others]);
  });

  test('the join of two matrices of other rows equals the matrix of one run over all of them', async () => {
    const joined = path.join(root, 'joined');
    // Given in another order than the registry's: the union is in the registry's.
    const res = await runMain(['matrix', '--merge', wsOnly, others, '--outdir', joined]);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^matrix: 4 rows: .*matrix\.json, .*index\.html, .*badges\/$/m);
    assert.deepEqual(content(joined), content(whole));
    assert.deepEqual(
      (content(joined).rows as Json[]).map((r) => `${String(r.name)}-${String(r.role)}`),
      ['echo-invalid-client', 'missing-client', 'ws-client', 'ws-server'],
    );
    assert.deepEqual(badges(joined), badges(whole));
    // Each row's own report came along, and the site links into it.
    for (const key of ['echo-invalid-client', 'ws-client', 'ws-server']) {
      assert.ok(existsSync(path.join(joined, key, 'index.html')), key);
      const from = key.startsWith('ws-') ? wsOnly : others;
      assert.deepEqual(readJson(path.join(joined, key, 'summary.json')).cases, readJson(path.join(from, key, 'summary.json')).cases);
    }
    assert.match(readFileSync(path.join(joined, 'index.html'), 'utf8'), /href="echo-invalid-client\/index.html"/);
  });

  test('the badges: exact shields.io endpoint JSON per row, passing, failing, not installed', () => {
    assert.deepEqual(badges(whole), {
      'echo-invalid-client.json': { schemaVersion: 1, label: 'wsgate client', message: '1/2 passed, 1 unsupported', color: 'red' },
      'missing-client.json': { schemaVersion: 1, label: 'wsgate client', message: 'not installed', color: 'lightgrey' },
      'ws-client.json': { schemaVersion: 1, label: 'wsgate client', message: '3/3 passed', color: 'green' },
      'ws-server.json': { schemaVersion: 1, label: 'wsgate server', message: '3/3 passed', color: 'green' },
    });
    // One line each, as shields.io reads them.
    assert.equal(
      readFileSync(path.join(whole, 'badges', 'ws-client.json'), 'utf8'),
      '{"schemaVersion":1,"label":"wsgate client","message":"3/3 passed","color":"green"}\n',
    );
  });

  test('a row that can play none of the selection: "unsupported"; a matrix of fewer rows drops the others’ badges', async () => {
    const dir = path.join(root, 'unsupported');
    await matrix(['--implementations', REGISTRY, '--only', 'echo-invalid', '--cases', '7.9.1', '--outdir', dir]);
    assert.deepEqual(badges(dir), {
      'echo-invalid-client.json': { schemaVersion: 1, label: 'wsgate client', message: 'unsupported', color: 'lightgrey' },
    });
    // Written again into the same directory with other rows: no stale badge is left.
    await matrix(['--implementations', REGISTRY, '--only', 'missing', '--cases', '7.9.1', '--outdir', dir]);
    assert.deepEqual(Object.keys(badges(dir)), ['missing-client.json']);
  });

  test('a row that could not run: "could not run"; its join is written, then exit 2 naming it', async () => {
    const registry = path.join(root, 'broken-registry');
    await mkdir(registry);
    // A server whose entry has an argument wsgate does not know: it cannot run.
    const broken = {
      name: 'broken',
      title: 'broken (test)',
      language: 'sh',
      homepage: 'https://example.com/broken',
      install: { from: 'bundled' },
      version: { from: 'command', command: 'echo 1.0' },
      roles: { server: { command: 'node dist/src/bundled/reference-server.js {port}', args: ['--bogus-flag'] } },
      supports: { permessageDeflate: false, http2: false },
    };
    await writeFile(path.join(registry, 'broken.json'), JSON.stringify(broken));
    const dir = path.join(root, 'broken');
    assert.equal((await runMain(['matrix', '--implementations', registry, ...CASES, '--outdir', dir])).code, 2);
    const badge = { schemaVersion: 1, label: 'wsgate server', message: 'could not run', color: 'lightgrey' };
    assert.deepEqual(badges(dir), { 'broken-server.json': badge });
    const joined = path.join(root, 'broken-joined');
    const res = await runMain(['matrix', '--merge', wsOnly, dir, '--outdir', joined]);
    assert.equal(res.code, 2);
    assert.match(res.stderr, /^wsgate: matrix: 1 row could not run \(broken-server\)/);
    assert.deepEqual(badges(joined)['broken-server.json'], badge);
    assert.equal(Object.keys(badges(joined)).length, 3);
  });

  test('refused (2, one line): a row in two inputs, another selection of cases', async () => {
    const twice = await runMain(['matrix', '--merge', whole, wsOnly, '--outdir', path.join(root, 'twice')]);
    assert.equal(twice.code, 2);
    assert.equal(twice.stderr, `wsgate: matrix --merge: row ws-client is in both ${whole} and ${wsOnly}\n`);
    const other = path.join(root, 'other-cases');
    await matrix(['--implementations', REGISTRY, '--only', 'echo-invalid', '--cases', '1.1.1', '--outdir', other]);
    const mixed = await runMain(['matrix', '--merge', wsOnly, other, '--outdir', path.join(root, 'mixed')]);
    assert.equal(mixed.code, 2);
    assert.equal(mixed.stderr, `wsgate: matrix --merge: ${other} ran another selection of cases than ${wsOnly} (cases 1.1.1, not cases 1.1.1 6.3.1 7.9.1)\n`);
    assert.equal(existsSync(path.join(root, 'twice')), false);
    // A shard beside a whole matrix is neither a join nor a merge of shards.
    const shard = path.join(root, 'shard');
    await matrix(['--implementations', REGISTRY, '--only', 'echo-invalid', ...CASES, '--shard', '1/2', '--outdir', shard]);
    const half = await runMain(['matrix', '--merge', wsOnly, shard, '--outdir', path.join(root, 'half')]);
    assert.equal(half.code, 2, half.stderr);
  });
});
