/**
 * The action's committed bundle (action/dist/, .ci/action-bundle.mjs): it equals a fresh build of
 * src/; the check fails when a source or the version changes without a rebuild; and the action runs
 * from a copy holding only action.yml and action/dist/ (no node_modules, no sources, no compiler),
 * its setup measured as the runner would see it.
 */
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { readAction, REPO_ROOT, runAction } from '../support/action-runner.js';
import { runCliWith, runFile } from '../support/cli-env.js';
import { LIVE_RUNS_AT_ONCE, tempDir } from '../support/harness.js';

const BUNDLER = path.join(REPO_ROOT, '.ci', 'action-bundle.mjs');

function bundler(args: string[]) {
  return runFile(process.execPath, [BUNDLER, ...args], { timeoutMs: 60_000 });
}

/** A copy of what the bundle is built from (src/, package.json, tsconfig.json, action/dist/), with the repository's node_modules. */
async function sourceCopy(): Promise<string> {
  const root = await tempDir('wsgate-bundle-');
  for (const part of ['src', 'package.json', 'tsconfig.json', path.join('action', 'dist')])
    await cp(path.join(REPO_ROOT, part), path.join(root, part), { recursive: true });
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  return root;
}

describe('the action bundle', { concurrency: LIVE_RUNS_AT_ONCE }, () => {
  test('the committed action/dist/ is what src/ builds', async () => {
    const r = await bundler(['--check']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /action\/dist\/ is up to date \(4 files\)/);
  });

  test('the check fails on a source changed without a rebuild, and on a new version; a rebuild makes it pass', async () => {
    const root = await sourceCopy();
    assert.equal((await bundler(['--check', '--root', root])).code, 0);
    const file = path.join(root, 'src', 'version.ts');
    await writeFile(file, (await readFile(file, 'utf8')).replace('`wsgate/${VERSION}`', '`wsgate-changed/${VERSION}`'));
    const stale = await bundler(['--check', '--root', root]);
    assert.equal(stale.code, 1);
    assert.match(stale.stderr, /^action-bundle: action\/dist\/ is not what src\/ builds \(.*github\/action\.js.*\): run npm run build:action and commit it\n$/);
    assert.equal((await bundler(['--root', root])).code, 0);
    assert.equal((await bundler(['--check', '--root', root])).code, 0);
    const pkg = path.join(root, 'package.json');
    await writeFile(pkg, (await readFile(pkg, 'utf8')).replace(/"version": "[^"]+"/, '"version": "9.9.9"'));
    const bumped = await bundler(['--check', '--root', root]);
    assert.equal(bumped.code, 1);
    assert.match(bumped.stderr, /github\/action\.js/);
    assert.equal((await bundler(['--check', '--bogus'])).code, 2);
  });

  test('the action runs from action.yml and action/dist/ alone: no install, no compile; its setup measured', async (t) => {
    for (const step of readAction().runs.steps)
      assert.doesNotMatch(step.run, /\b(npm|npx|yarn|pnpm|tsc|esbuild)\b/, `step "${step.name}" installs or compiles`);
    const actionPath = await tempDir('wsgate-action-copy-');
    await cp(path.join(REPO_ROOT, 'action.yml'), path.join(actionPath, 'action.yml'));
    await mkdir(path.join(actionPath, 'action'));
    await cp(path.join(REPO_ROOT, 'action', 'dist'), path.join(actionPath, 'action', 'dist'), { recursive: true });
    const started = performance.now();
    const run = await runAction({ cases: '1.1.1', url: 'ws://127.0.0.1:0' }, { actionPath });
    const actionMs = performance.now() - started;
    assert.equal(run.res.code, 0, run.res.stdout + run.res.stderr);
    assert.deepEqual([run.outputs.result, run.outputs.passed, run.outputs.total], ['pass', '1', '1']);
    const summary = JSON.parse(await readFile(run.outputs['json-report'] ?? '', 'utf8')) as { agent: string };
    assert.equal(summary.agent, 'wsgate-reference-ws', 'the bundled client ran from action/dist/clients/');
    // The same run by the command line: the action's extra time is its setup steps, Node loading the
    // bundle and the GitHub publishing (job summary, annotations, outputs) the command line skips here.
    const cliStarted = performance.now();
    const cli = await runCliWith(['run', '--cases', '1.1.1', '--url', 'ws://127.0.0.1:0', '--outdir', await tempDir('wsgate-action-cli-')]);
    const cliMs = performance.now() - cliStarted;
    assert.equal(cli.code, 0, cli.stderr);
    t.diagnostic(
      `action setup: ${((actionMs - cliMs) / 1000).toFixed(2)} s (the action ${(actionMs / 1000).toFixed(2)} s, the same run by the command line ${(cliMs / 1000).toFixed(2)} s)`,
    );
  });
});
