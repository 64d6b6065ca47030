/**
 * The published matrix (.github/workflows/matrix.yml, docs/matrix.md "Publishing"):
 *   - `wsgate matrix --merge` of whole matrices of other rows (one per implementation, CI's jobs) is
 *     their union: the same matrix.json as one run over all the rows, but for generatedAt and machine;
 *     overlapping rows and other selections are refused;
 *   - the badges (DIR/badges/NAME-ROLE.json), exact, for a passing, a failing, an all-unsupported and
 *     a not-installed row of real runs (test/fixtures/matrix/), and as a merge writes them;
 *   - the workflow: its jobs and permissions, every script its steps call exists and is what
 *     .ci/matrix-local.sh calls too, and its run steps run here as the jobs would, on two
 *     implementations of the real registry (one job each), joined into one site.
 * Run from the checkout's root (the fixture's command is relative).
 */
import assert from 'node:assert/strict';
import { accessSync, constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../support/action-runner.js';
import { runMain } from '../support/cli-env.js';
import { tempDir } from '../support/harness.js';
import { checkoutLike, readWorkflow, runStep, runSteps, stepIndex, wasExecuted } from '../support/workflow-runner.js';

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

describe('.github/workflows/matrix.yml', () => {
  const wf = readWorkflow('matrix.yml');
  const scriptOf = (run: string): string => run.split(/\s+/)[0] ?? '';

  test('list, one job per implementation (fail-fast off), the join, the deployment; least privilege', () => {
    assert.deepEqual(Object.keys(wf.jobs), ['list', 'implementation', 'publish', 'deploy']);
    assert.ok('schedule' in wf.on && 'workflow_dispatch' in wf.on);
    const inputs = (wf.on.workflow_dispatch as { inputs: Record<string, { type: string }> }).inputs;
    assert.deepEqual(
      Object.entries(inputs).map(([k, v]) => `${k}:${v.type}`),
      ['implementations:string', 'quick:boolean'],
    );
    const job = wf.jobs.implementation as Json & { strategy: { 'fail-fast': boolean; matrix: { name: string } } };
    assert.equal(job.strategy['fail-fast'], false);
    assert.equal(job.strategy.matrix.name, '${{ fromJSON(needs.list.outputs.names) }}');
    assert.deepEqual(
      Object.values(wf.jobs).map((j) => j.needs ?? null),
      [null, 'list', 'implementation', 'publish'],
    );
    assert.deepEqual(wf.permissions, { contents: 'read' });
    assert.deepEqual(Object.fromEntries(Object.entries(wf.jobs).map(([k, j]) => [k, j.permissions ?? null])), {
      list: null,
      implementation: null,
      publish: null,
      deploy: { pages: 'write', 'id-token': 'write' },
    });
    assert.deepEqual((wf.jobs.deploy as Json).environment, { name: 'github-pages', url: '${{ steps.deployment.outputs.page_url }}' });
    const uses = Object.values(wf.jobs).flatMap((j) => (j.steps ?? []).map((s) => s.uses?.replace(/@.*/, '') ?? null));
    for (const action of ['actions/upload-artifact', 'actions/download-artifact', 'actions/upload-pages-artifact', 'actions/deploy-pages'])
      assert.ok(uses.includes(action), action);
  });

  test('every script a step runs exists, is executable, and .ci/matrix-local.sh runs it too', () => {
    const local = readFileSync(path.join(REPO_ROOT, '.ci/matrix-local.sh'), 'utf8');
    const scripts = runSteps()
      .filter((s) => s.file === 'matrix.yml' && !s.run.startsWith('npm '))
      .map((s) => scriptOf(s.run));
    assert.deepEqual(scripts, ['.ci/matrix/list.mjs', '.ci/matrix/install.sh', '.ci/matrix/row.sh', '.ci/matrix/publish.sh']);
    for (const script of scripts) {
      accessSync(path.join(REPO_ROOT, script), constants.X_OK);
      assert.ok(local.includes(`${script} `), `.ci/matrix-local.sh does not run ${script}`);
    }
    // In the workflow's order.
    const at = scripts.map((script) => local.indexOf(`${script} `));
    assert.deepEqual(
      at,
      [...at].sort((a, b) => a - b),
    );
  });

  test('the list step: the registry’s names in its order, or those asked for; an unknown one fails', async () => {
    const list = stepIndex('matrix.yml', 'list', 'list');
    const all = await runStep('matrix.yml', 'list', list, { context: { 'inputs.implementations': '' } });
    assert.equal(all.code, 0, all.stderr);
    const registry = readdirSync(path.join(REPO_ROOT, 'interop/implementations'))
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => f.replace(/\.json$/, ''));
    assert.deepEqual(JSON.parse(all.outputs.names ?? ''), registry);
    assert.ok(registry.includes('ws-bundled') && registry.length > 10);
    const some = await runStep('matrix.yml', 'list', list, { context: { 'inputs.implementations': 'ws, ws-bundled' } });
    assert.equal(some.outputs.names, '["ws-bundled","ws"]');
    const bad = await runStep('matrix.yml', 'list', list, { context: { 'inputs.implementations': 'ws nope' } });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^matrix-list: no implementation nope in interop\/implementations\//);
  });

  test('the install step: what cannot be installed is said and is no failure; an unknown name is', async () => {
    // A checkout whose interop/install.sh exits as the real one does: 1 (some could not be installed), 2 (usage).
    const dir = await tempDir('wsgate-publish-install-');
    await symlink(path.join(REPO_ROOT, '.ci'), path.join(dir, '.ci'));
    await mkdir(path.join(dir, 'interop'));
    await writeFile(path.join(dir, 'interop', 'install.sh'), '#!/bin/sh\necho "install: $1: stub"\nexit "$STUB_STATUS"\n', { mode: 0o755 });
    const install = stepIndex('matrix.yml', 'implementation', '.ci/matrix/install.sh');
    const run = (status: string) =>
      runStep('matrix.yml', 'implementation', install, { context: { 'matrix.name': 'faye' }, env: { STUB_STATUS: status }, cwd: dir });
    const ok = await run('0');
    assert.deepEqual([ok.code, ok.stdout], [0, 'install: faye: stub\n']);
    const missing = await run('1');
    assert.deepEqual(
      [missing.code, missing.stdout],
      [0, 'install: faye: stub\nmatrix-install: faye is not installed: the matrix lists its rows as not installed\n'],
    );
    const usage = await run('2');
    assert.equal(usage.code, 2);
  });

  describe('the jobs’ run steps, as the runner runs them: ws-bundled and ws in a job each, then the join', () => {
    const NAMES = ['ws-bundled', 'ws'];
    let jobs: Record<string, string> = {};
    const jobDir = (name: string): string => jobs[name] ?? assert.fail(`no job ${name}`);
    let site = '';
    let direct = '';
    before(async () => {
      // Each job's checkout, after npm ci and npm run build (the repository's own, linked in).
      const extra = ['dist', 'node_modules'];
      jobs = Object.fromEntries(await Promise.all(NAMES.map(async (n) => [n, await checkoutLike(extra)] as const)));
      const publish = await checkoutLike(extra);
      const env = { MATRIX_CASES: '1.1.1 2.1 12.1.1' };
      for (const name of NAMES) {
        const context = { 'matrix.name': name, 'inputs.quick': '' };
        const install = await runStep('matrix.yml', 'implementation', stepIndex('matrix.yml', 'implementation', '.ci/matrix/install.sh'), {
          context,
          cwd: jobDir(name),
        });
        assert.equal(install.code, 0, install.stdout + install.stderr);
        assert.match(install.stdout, new RegExp(`^install: ${name} \\S+: installed$`, 'm'));
        const row = await runStep('matrix.yml', 'implementation', stepIndex('matrix.yml', 'implementation', '.ci/matrix/row.sh'), {
          context,
          env,
          cwd: jobDir(name),
          timeoutMs: 180_000,
        });
        assert.equal(row.code, 0, row.stdout + row.stderr);
        // upload-artifact (matrix-NAME: the job's matrix-rows/NAME), then download-artifact's layout: matrix-rows/matrix-NAME/.
        await cp(path.join(jobDir(name), 'matrix-rows', name), path.join(publish, 'matrix-rows', `matrix-${name}`), { recursive: true });
      }
      const joined = await runStep('matrix.yml', 'publish', stepIndex('matrix.yml', 'publish', '.ci/matrix/publish.sh'), { cwd: publish });
      assert.equal(joined.code, 0, joined.stdout + joined.stderr);
      assert.match(joined.stdout, /^matrix-publish: joining 2 matrices into /m);
      site = path.join(publish, 'site');
      direct = path.join(await tempDir('wsgate-publish-direct-'), 'matrix');
      await matrix(['--only', ...NAMES, '--cases', '1.1.1', '2.1', '12.1.1', '--outdir', direct]);
    });

    test('the site (what upload-pages-artifact takes) equals one run over both implementations, badges included', () => {
      assert.deepEqual(content(site), content(direct));
      assert.deepEqual(badges(site), badges(direct));
      const rows = content(site).rows as Array<Json & { counts: Json }>;
      assert.deepEqual(
        rows.map((r) => `${String(r.name)}-${String(r.role)}`),
        ['ws-bundled-client', 'ws-bundled-server', 'ws-client', 'ws-server'],
      );
      assert.ok(rows.every((r) => r.counts.total === 3));
      assert.deepEqual(badges(site)['ws-bundled-server.json'], { schemaVersion: 1, label: 'wsgate server', message: '3/3 passed', color: 'green' });
      for (const key of ['ws-bundled-client', 'ws-server']) assert.ok(existsSync(path.join(site, key, 'index.html')), key);
      assert.ok(existsSync(path.join(site, 'index.html')));
    });

    test('the quick input reaches the row: --quick in matrix.json’s selection', async () => {
      const row = await runStep('matrix.yml', 'implementation', stepIndex('matrix.yml', 'implementation', '.ci/matrix/row.sh'), {
        context: { 'matrix.name': 'ws-bundled', 'inputs.quick': 'true' },
        env: { MATRIX_CASES: '1.1.1' },
        cwd: jobDir('ws-bundled'),
      });
      assert.equal(row.code, 0, row.stderr);
      assert.deepEqual(content(path.join(jobDir('ws-bundled'), 'matrix-rows', 'ws-bundled')).selection, { cases: ['1.1.1'], quick: true, shard: null });
    });

    test('every run step of matrix.yml ran here, but npm ci and npm run build (test/ci/workflows.test.ts lists them)', () => {
      const notRun = runSteps().filter((s) => s.file === 'matrix.yml' && !s.run.startsWith('npm ') && !wasExecuted(s));
      assert.deepEqual(
        notRun.map((s) => `${s.job}: ${s.run}`),
        [],
      );
    });
  });
});
