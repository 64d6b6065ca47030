/**
 * `wsgate matrix --only ws --versions …`: three real releases of ws installed with npm into a
 * temporary directory (one prefix each, as interop/install.sh NAME@VERSION lays them out), the
 * registry's ws server (interop/servers/ws-default.mjs) run against each over TCP, and a fourth
 * release listed but not installed. ws 8.21.1 lowered the default maxFragments from 131072 to 16384
 * and began to count the empty final frame: 9.3.1 (65536 frames of 64 bytes) and 9.3.2 (16384 of
 * 256 bytes and an empty final frame) pass on 8.20.0 and 8.21.0 and fail (1008) on 8.21.1; 1.1.1
 * and 9.3.3 (4096 frames) pass on all three. Without the registry (npm cannot install), it skips
 * with one line saying so. Run from the checkout's root.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { pickReleases, resolveReleases } from '../../src/matrix/releases.js';
import { runMain } from '../support/cli-env.js';
import { tempDir } from '../support/harness.js';

const RELEASES = ['8.20.0', '8.21.0', '8.21.1'];
const MISSING = '8.19.0';

interface Row {
  name: string;
  role: string;
  release: string | null;
  version: string | null;
  installed: boolean;
  install: string;
  reportDir: string | null;
  cases: Array<{ id: string; verdict: string; page: string | null }>;
}

function npmInstall(prefix: string, spec: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, spec], { timeout: 120_000 }, (err, _out, stderr) =>
      resolve(err === null ? null : (stderr.trim().split('\n').pop() ?? err.message)),
    );
  });
}

describe('wsgate matrix --versions', () => {
  let dir = '';
  let out = '';
  let stdout = '';
  let skip: string | false = false;
  before(async () => {
    dir = await tempDir('wsgate-versions-');
    for (const r of RELEASES) {
      const failed = await npmInstall(path.join(dir, 'releases', `ws@${r}`), `ws@${r}`);
      if (failed !== null) {
        skip = `npm cannot install ws@${r} here (${failed}): skipped`;
        return;
      }
    }
    out = path.join(dir, 'matrix');
    const versions = ['--versions', `ws@${RELEASES[2]}`, MISSING, ...RELEASES.slice(0, 2)];
    const res = await serverMatrix(versions, ['1.1.1', '9.3.1', '9.3.2', '9.3.3'], out);
    assert.equal(res.code, 0, res.stderr);
    stdout = res.stdout;
  });

  /** ws's server role over the releases installed under the test's directory. */
  const serverMatrix = (versions: string[], cases: string[], outdir: string) =>
    runMain(['matrix', '--only', 'ws', '--role', 'server', ...versions, '--versions-dir', path.join(dir, 'releases'), '--cases', ...cases, '--outdir', outdir]);

  const rows = (): Row[] => (JSON.parse(readFileSync(path.join(out, 'matrix.json'), 'utf8')) as { rows: Row[] }).rows;

  test('a row per release, oldest first, keyed NAME@RELEASE-ROLE, its version read from the installed package', (t) => {
    if (skip !== false) return t.skip(skip);
    assert.deepEqual(
      rows().map((r) => (r.reportDir === null ? `${r.release}: ${r.install}` : `${r.reportDir} ${r.version}`)),
      [
        `${MISSING}: npm install --no-save --prefix ${path.join(dir, 'releases', `ws@${MISSING}`)} ws@${MISSING}`,
        ...RELEASES.map((r) => `ws@${r}-server ${readVersion(path.join(dir, 'releases', `ws@${r}`))}`),
      ],
    );
    assert.equal(rows()[0]?.installed, false);
    assert.match(stdout, new RegExp(`ws@${MISSING}-server: not installed; install: npm install`));
  });

  test('each row’s server loaded its own release (the version it prints), not the checkout’s ws', (t) => {
    if (skip !== false) return t.skip(skip);
    for (const r of RELEASES) {
      const log = readFileSync(path.join(out, `ws@${r}-server`, 'server-output.log'), 'utf8');
      assert.match(
        log,
        new RegExp(`^ws ${r.replaceAll('.', '\\.')} from ${path.join(dir, 'releases', `ws@${r}`, 'node_modules', 'ws').replaceAll('.', '\\.')}$`, 'm'),
      );
    }
  });

  test('changes.html lists exactly the cases whose verdict changed, each a click from both releases’ case pages', (t) => {
    if (skip !== false) return t.skip(skip);
    const verdicts = rows()
      .filter((r) => r.reportDir !== null)
      .map((r) => `${r.release}: ${r.cases.map((c) => `${c.id} ${c.verdict}`).join(', ')}`);
    assert.deepEqual(verdicts, [
      '8.20.0: 1.1.1 passed, 9.3.1 passed, 9.3.2 passed, 9.3.3 passed',
      '8.21.0: 1.1.1 passed, 9.3.1 passed, 9.3.2 passed, 9.3.3 passed',
      '8.21.1: 1.1.1 passed, 9.3.1 failed, 9.3.2 failed, 9.3.3 passed',
    ]);
    const html = readFileSync(path.join(out, 'changes.html'), 'utf8');
    const changed = [
      ...html.matchAll(
        /<tr id="ws-server-([\d.]+)-([\d.]+)"><td>[\d.]+<\/td><td>(\w+)<\/td><td[^>]*><a href="([^"]+)">(\w+)[^<]*<\/a>.*?<a href="([^"]+)">(\w+)/g,
      ),
    ].map((m) => `${m[1]} ${m[2]} ${m[3]}: ${m[5]} → ${m[7]}`);
    assert.deepEqual(changed, ['8.21.1 9.3.1 regression: passed → failed', '8.21.1 9.3.2 regression: passed → failed']);
    assert.match(html, /8\.20\.0 → 8\.21\.0 <span class="meta">\(8\.20\.0 → 8\.21\.0\)<\/span><\/h3>\n<p class="meta">No verdict changed/);
    assert.match(html, new RegExp(`Not installed \\(not run\\): ${MISSING}`));
    for (const href of html.matchAll(/href="(ws@[^"]+_case_9_3_[12]\.html)"/g)) assert.ok(existsSync(path.join(out, decodeURI(href[1] as string))), href[1]);
    assert.match(html, /href="ws@8\.21\.0-server\/ws_case_9_3_1\.html"/);
    assert.match(html, /href="ws@8\.21\.1-server\/ws_case_9_3_1\.html"/);
    assert.match(readFileSync(path.join(out, 'index.html'), 'utf8'), /<a href="changes.html">Across releases<\/a>/);
    assert.match(stdout, /matrix: changed: ws-server 8\.21\.0 → 8\.21\.1: 9\.3\.1 9\.3\.2\n/);
  });

  test('a range is the installed releases in it, oldest first, beside exact ones', async (t) => {
    if (skip !== false) return t.skip(skip);
    const ranged = path.join(dir, 'ranged');
    const res = await serverMatrix(['--versions', '>=8.21.0 <9', '8.20.0'], ['1.1.1'], ranged);
    assert.equal(res.code, 0, res.stderr);
    const got = (JSON.parse(readFileSync(path.join(ranged, 'matrix.json'), 'utf8')) as { rows: Row[] }).rows;
    assert.deepEqual(
      got.map((r) => `${r.release} ${r.version} ${r.cases.map((c) => `${c.id} ${c.verdict}`).join(',')}`),
      RELEASES.map((r) => `${r} ${r} 1.1.1 passed`),
    );
  });

  test('--versions without one --only implementation, a range no installed release is in, or a word that is neither, is a usage error', async () => {
    const none = await runMain(['matrix', '--versions', '8.0.0', '--outdir', path.join(dir || '/tmp', 'none')]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--only/);
    const empty = await runMain([
      'matrix',
      '--only',
      'ws',
      '--versions',
      '^3.0.0',
      '--versions-dir',
      path.join(dir || '/tmp', 'releases'),
      '--outdir',
      path.join(dir || '/tmp', 'none'),
    ]);
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /--versions '\^3\.0\.0': no installed release of ws satisfies it \(install them: interop\/install\.sh 'ws@\^3\.0\.0'/);
    const word = await runMain(['matrix', '--only', 'ws', '--versions', 'latest-ish', '--outdir', path.join(dir || '/tmp', 'none')]);
    assert.equal(word.code, 2);
    assert.match(word.stderr, /latest-ish: neither a release \(8\.2\.0\) nor an npm range/);
    const noReleases = await runMain(['matrix', '--only', 'gorilla', '--versions', '1.5.0', '--outdir', path.join(dir || '/tmp', 'none')]);
    assert.equal(noReleases.code, 2);
    assert.match(noReleases.stderr, /"releases": true/);
  });
});

describe('which releases a range names', () => {
  const published = ['7.0.0', '7.0.1', '7.1.0', '7.5.9', '7.5.10', '8.0.0', '8.21.0-beta.1', '8.21.0', '8.21.1', '9.0.0'];

  test('install.sh NAME@RANGE: every published release in it, pre-releases left out; --minors: the newest patch of each minor', () => {
    assert.deepEqual(pickReleases(published, '7 || 8', false), ['7.0.0', '7.0.1', '7.1.0', '7.5.9', '7.5.10', '8.0.0', '8.21.0', '8.21.1']);
    assert.deepEqual(pickReleases(published, '7 || 8', true), ['7.0.1', '7.1.0', '7.5.10', '8.0.0', '8.21.1']);
    assert.deepEqual(pickReleases(published, '>=8.21.0-beta.0 <8.22', false), ['8.21.0-beta.1', '8.21.0', '8.21.1']);
    assert.throws(() => pickReleases(published, 'seven', false), /seven: not an npm range/);
  });

  test('matrix --versions: exact releases stand, installed or not; ranges pick the installed ones; each once, oldest first', () => {
    const installed = ['8.20.0', '8.21.0', '8.21.1'];
    assert.deepEqual(resolveReleases('ws', ['8.21.1', '8.19.0', '~8.21.0', '8.21.1'], installed), ['8.19.0', '8.21.0', '8.21.1']);
    assert.throws(() => resolveReleases('ws', ['9.x'], installed), /no installed release of ws satisfies it/);
  });
});

function readVersion(prefix: string): string {
  return (JSON.parse(readFileSync(path.join(prefix, 'node_modules', 'ws', 'package.json'), 'utf8')) as { version: string }).version;
}
