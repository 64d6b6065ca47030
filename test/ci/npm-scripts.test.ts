/**
 * Every npm script works: each names a program the repository has (a file of its own, or a binary its
 * devDependencies install, or npm and node), and the bench scripts read their options as wsgate does:
 * `--help` prints them and exits 0, an unknown option is one line and exit 2, before anything runs.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runFile } from '../support/cli-env.js';
import { tempDir } from '../support/harness.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BENCH = fileURLToPath(new URL('../../bench/bench.js', import.meta.url));
const FUZZ = fileURLToPath(new URL('../../bench/fuzz.js', import.meta.url));
const BUILD_IF_CHANGED = path.join(ROOT, '.ci/build-if-changed.mjs');
const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The program each command of a script line runs ("a && b" is two commands), after `env VAR=…`. */
function programs(line: string): string[] {
  return line.split(/&&|\|\|/).map((command) => {
    const words = command.trim().split(/\s+/);
    let i = 0;
    if (words[i] === 'env') for (i++; words[i] !== undefined && /^[A-Z_]+=/.test(words[i] as string); i++);
    // node runs the file that follows its flags.
    if (words[i] === 'node') for (i++; words[i] !== undefined && (words[i] as string).startsWith('-'); i++);
    return words[i] ?? '';
  });
}

describe('npm scripts', () => {
  test('each runs a program the repository has: its own file, a devDependency binary, npm or node', () => {
    const missing: string[] = [];
    for (const [name, line] of Object.entries(scripts)) {
      for (const program of programs(line)) {
        const ok =
          ['npm', 'node'].includes(program) || existsSync(path.join(ROOT, 'node_modules', '.bin', program)) || /^(dist|\.ci|bench|src|test)\//.test(program);
        // A file of the repository's own: committed, or built from a committed .ts under dist/.
        const own = /^\.ci\//.test(program)
          ? existsSync(path.join(ROOT, program))
          : /^dist\//.test(program) && !program.includes('*')
            ? existsSync(path.join(ROOT, program.replace(/^dist\//, '').replace(/\.js$/, '.ts')))
            : true;
        if (!ok || !own) missing.push(`${name}: ${program}`);
      }
    }
    assert.ok(Object.keys(scripts).length >= 10);
    assert.deepEqual(missing, []);
  });

  for (const [script, file, option] of [
    ['bench', BENCH, '--robustness-only'],
    ['fuzz', FUZZ, '--seconds'],
  ] as const) {
    test(`npm run ${script} -- --help prints its options and exits 0; an unknown option is one line, exit 2`, async () => {
      const help = await runFile(process.execPath, [file, '--help'], { timeoutMs: 30_000 });
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, new RegExp(`^npm run ${script} -- \\[options\\]`));
      assert.match(help.stdout, new RegExp(`^ +${option} `, 'm'));
      assert.equal(help.stderr, '');
      const bad = await runFile(process.execPath, [file, '--bogus-option'], { timeoutMs: 30_000 });
      assert.equal(bad.code, 2);
      assert.equal(bad.stderr, `npm run ${script} --: Unknown argument: bogus-option (see --help)\n`);
      assert.equal(bad.stdout, '');
    });
  }

  test('npm run fuzz -- --seconds 1 --seed 7 fuzzes for a second and says what it did', async () => {
    const res = await runFile(process.execPath, [FUZZ, '--seconds', '1', '--seed', '7'], { timeoutMs: 60_000 });
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.match(res.stdout, /^total: [\d,]+ inputs in 1 s \([\d,]+\/s\), 0 crashes, seed 7$/m);
  });

  test('npm run gate builds first only when dist/ is older than a source: npm run build stays a full build', async () => {
    assert.match(scripts.gate ?? '', /^node \.ci\/build-if-changed\.mjs && /);
    assert.equal(scripts.build, 'tsc -p tsconfig.json && node .ci/build-repro-runtime.mjs');
    // A checkout in miniature: every input the script names, the build's last output, and a build
    // script that says it ran (exit 7 when asked to fail).
    const root = await tempDir('wsgate-build-if-changed-');
    const build = "node -e \"require('fs').appendFileSync('built', 'x'); process.exit(process.env.FAIL ? 7 : 0)\"";
    for (const dir of ['src/run', 'test', 'bench', '.ci', 'dist/src/repro']) mkdirSync(path.join(root, dir), { recursive: true });
    for (const file of ['src/run/run.ts', 'test/a.test.ts', 'bench/bench.ts', 'tsconfig.json', 'package-lock.json', '.ci/build-repro-runtime.mjs']) {
      writeFileSync(path.join(root, file), '');
    }
    writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'x', private: true, scripts: { build } }));
    const stamp = path.join(root, 'dist/src/repro/runtime-bundle.js');
    const inputs = [
      'src',
      'src/run',
      'src/run/run.ts',
      'test',
      'test/a.test.ts',
      'bench',
      'bench/bench.ts',
      'tsconfig.json',
      'package.json',
      'package-lock.json',
      '.ci/build-repro-runtime.mjs',
    ];
    const age = (seconds: number): void => {
      for (const file of inputs) utimesSync(path.join(root, file), new Date(Date.now() - seconds * 1000), new Date(Date.now() - seconds * 1000));
    };
    const gate = (env: NodeJS.ProcessEnv = {}) => runFile(process.execPath, [BUILD_IF_CHANGED, '--root', root], { env, timeoutMs: 60_000 });
    const builds = (): number => (existsSync(path.join(root, 'built')) ? readFileSync(path.join(root, 'built'), 'utf8').length : 0);

    // No build yet: it builds.
    let res = await gate();
    assert.equal(res.code, 0, res.stderr);
    assert.equal(builds(), 1);
    // Built after every input changed: nothing to do.
    age(60);
    writeFileSync(stamp, '');
    res = await gate();
    assert.equal(res.code, 0, res.stderr);
    assert.equal(builds(), 1);
    assert.match(res.stderr, /dist\/ is current/);
    // A source edited, a file removed (its folder's time), the lock file rewritten by npm ci: built each time.
    let expected = 1;
    for (const change of [
      () => writeFileSync(path.join(root, 'src/run/run.ts'), 'export {};'),
      () => rmSync(path.join(root, 'test/a.test.ts')),
      () => writeFileSync(path.join(root, 'package-lock.json'), '{}'),
    ]) {
      if (!existsSync(path.join(root, 'test/a.test.ts'))) writeFileSync(path.join(root, 'test/a.test.ts'), '');
      age(60);
      writeFileSync(stamp, '');
      change();
      res = await gate();
      assert.equal(res.code, 0, res.stderr);
      assert.equal(builds(), ++expected, `${change.toString()} is seen`);
    }
    // A build that fails: its status is the gate's, so the gate never runs on what it left.
    res = await gate({ FAIL: '1' });
    assert.equal(res.code, 7);
  });
});
