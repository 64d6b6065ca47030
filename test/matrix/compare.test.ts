/**
 * `wsgate matrix --compare`: two matrices from two real small runs of a registry whose one peer
 * changes between them (old: wsgate's bundled ws client; new: a client that echoes invalid UTF-8,
 * so 6.3.1 and 6.3.2 regress), the new registry with a row the old has not (added) and without one
 * it had (removed). Compared while the new matrix runs (--compare OLD) and standalone (--compare
 * OLD NEW, nothing runs), and the other way round (improvements). Run from the checkout's root.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { runMain } from '../support/cli-env.js';
import { tempDir } from '../support/harness.js';

const CASES = ['--cases', '1.1.1', '6.3.1', '6.3.2'];

function entry(name: string, command: string, version = '1.0.0'): string {
  return JSON.stringify({
    name,
    title: `${name} (test fixture)`,
    language: 'JavaScript',
    homepage: 'https://example.com/peer',
    install: { from: 'bundled' },
    version: { from: 'command', command: `echo ${version}` },
    roles: { client: { command } },
    supports: { permessageDeflate: false, http2: false },
  });
}

const GOOD = 'node dist/src/bundled/reference-client.js {url}';
const BAD = 'node dist/test/fixtures/clients/echo-invalid.js {url}';

interface Change {
  id: string;
  kind: string;
  before: { verdict: string; page: string | null };
  after: { verdict: string; page: string | null };
}
interface Comparison {
  counts: { regressions: number; improvements: number; other: number; rows: number };
  rows: Array<{ key: string; regressions: Change[]; improvements: Change[]; other: Change[] }>;
  added: string[];
  removed: string[];
}

const read = (dir: string): Comparison => JSON.parse(readFileSync(path.join(dir, 'compare.json'), 'utf8')) as Comparison;
const ids = (cs: Change[]): string[] => cs.map((c) => `${c.id} ${c.before.verdict}→${c.after.verdict}`);

describe('wsgate matrix --compare', () => {
  let root = '';
  let oldDir = '';
  let newDir = '';
  let newOut = '';
  before(async () => {
    root = await tempDir('wsgate-compare-');
    const registry = async (name: string, files: Record<string, string>): Promise<string> => {
      const dir = path.join(root, name);
      await mkdir(dir, { recursive: true });
      for (const [n, text] of Object.entries(files)) await writeFile(path.join(dir, `${n}.json`), text);
      return dir;
    };
    const oldReg = await registry('reg-old', { peer: entry('peer', GOOD), gone: entry('gone', GOOD) });
    const newReg = await registry('reg-new', { peer: entry('peer', BAD, '2.0.0'), fresh: entry('fresh', GOOD) });
    oldDir = path.join(root, 'old');
    newDir = path.join(root, 'new');
    const first = await runMain(['matrix', '--implementations', oldReg, ...CASES, '--outdir', oldDir]);
    assert.equal(first.code, 0, first.stderr);
    const second = await runMain(['matrix', '--implementations', newReg, ...CASES, '--compare', path.join(oldDir, 'matrix.json'), '--outdir', newDir]);
    assert.equal(second.code, 0, second.stderr);
    newOut = second.stdout;
  });

  test('with a run: regressions per row, rows added and removed, in compare.json, the text and the site', () => {
    const c = read(newDir);
    assert.deepEqual(c.counts, { regressions: 2, improvements: 0, other: 0, rows: 1 });
    assert.deepEqual(
      c.rows.map((r) => [r.key, ids(r.regressions), ids(r.improvements), ids(r.other)]),
      [['peer-client', ['6.3.1 passed→failed', '6.3.2 passed→failed'], [], []]],
    );
    assert.deepEqual(c.added, ['fresh-client']);
    assert.deepEqual(c.removed, ['gone-client']);
    assert.match(newOut, /compare: .* 2 regressions, 0 improvements, 0 other in 1 row\n/);
    assert.match(newOut, /compare: peer-client 1\.0\.0 → 2\.0\.0: regressions \(passed → failed\): 6\.3\.1 6\.3\.2\n/);
    assert.equal((c.rows[0] as { sameVersion?: boolean }).sameVersion, false);
    assert.match(newOut, /compare: added \(new only\): fresh-client\ncompare: removed \(old only\): gone-client\n/);
    assert.match(readFileSync(path.join(newDir, 'index.html'), 'utf8'), /<a href="compare.html">Comparison<\/a>/);
    const html = readFileSync(path.join(newDir, 'compare.html'), 'utf8');
    // Both sides' case pages a click away, relative to compare.html.
    const links = [...html.matchAll(/href="([^"]*peer-client\/[^"]+case_6_3_1\.html)"/g)].map((m) => m[1] as string);
    assert.equal(links.length, 2, html);
    for (const l of links) assert.ok(existsSync(path.join(newDir, decodeURI(l))), l);
  });

  test('standalone (OLD NEW, nothing runs), both ways: regressions one way are improvements the other', async () => {
    const there = path.join(root, 'diff');
    const fwd = await runMain(['matrix', '--compare', oldDir, path.join(newDir, 'matrix.json'), '--outdir', there]);
    assert.equal(fwd.code, 0, fwd.stderr);
    assert.deepEqual(read(there).rows, read(newDir).rows);
    assert.equal(existsSync(path.join(there, 'matrix.json')), false, 'nothing ran');
    const html = readFileSync(path.join(there, 'compare.html'), 'utf8');
    for (const m of html.matchAll(/href="([^"]+case_6_3_[12]\.html)"/g)) assert.ok(existsSync(path.join(there, decodeURI(m[1] as string))), m[1]);
    const back = path.join(root, 'back');
    const rev = await runMain(['matrix', '--compare', newDir, oldDir, '--outdir', back]);
    assert.equal(rev.code, 0, rev.stderr);
    const c = read(back);
    assert.deepEqual(c.counts, { regressions: 0, improvements: 2, other: 0, rows: 1 });
    assert.deepEqual(ids(c.rows[0]?.improvements ?? []), ['6.3.1 failed→passed', '6.3.2 failed→passed']);
    assert.deepEqual([c.added, c.removed], [['gone-client'], ['fresh-client']]);
  });

  test('a verdict flipped in a copy of matrix.json is exactly one other change; a missing matrix is a usage error', async () => {
    const m = JSON.parse(readFileSync(path.join(newDir, 'matrix.json'), 'utf8')) as {
      rows: Array<{ name: string; cases: Array<{ id: string; verdict: string }> }>;
    };
    const fresh = m.rows.find((r) => r.name === 'fresh');
    const c111 = fresh?.cases.find((c) => c.id === '1.1.1');
    assert.ok(c111);
    c111.verdict = 'skipped';
    const edited = path.join(root, 'edited.json');
    await writeFile(edited, JSON.stringify(m));
    const res = await runMain(['matrix', '--compare', path.join(newDir, 'matrix.json'), edited, '--outdir', path.join(root, 'edited')]);
    assert.equal(res.code, 0, res.stderr);
    const c = read(path.join(root, 'edited'));
    assert.deepEqual(c.counts, { regressions: 0, improvements: 0, other: 1, rows: 2 });
    const row = c.rows.find((r) => r.key === 'fresh-client') as (Comparison['rows'][number] & { sameVersion: boolean }) | undefined;
    assert.deepEqual(ids(row?.other ?? []), ['1.1.1 passed→skipped']);
    // The same version on both sides: a change without a release, said as such (not the implementation's regression).
    assert.equal(row?.sameVersion, true);
    assert.match(
      res.stdout,
      /^compare: fresh-client 1\.0\.0 on both sides \(changed without a release: timing, the machine or wsgate\): other: 1\.1\.1 passed → skipped$/m,
    );
    assert.match(
      readFileSync(path.join(root, 'edited', 'compare.html'), 'utf8'),
      /The same version on both sides \(1\.0\.0\): these verdicts changed without a release/,
    );
    const none = await runMain(['matrix', '--compare', path.join(root, 'nope'), '--outdir', path.join(root, 'x')]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no matrix\.json/);
  });
});
