/**
 * The npm package as a user gets it: `npm pack`'s tarball installed into an empty project, then
 * `npx wsgate` (--version, --help, run, serve), the API from a plain node:test file, and its types
 * from a consumer's TypeScript. The same on Node 22 and 24 (the `node` package, test/support/node-versions.ts).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runFile, type ProcessResult } from '../support/cli-env.js';
import { tempDir } from '../support/harness.js';
import { freePort } from '../support/wstest.js';
import { nodeBinary } from '../support/node-versions.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PKG = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
const NPM_FLAGS = ['--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=error'];

interface PackFile {
  path: string;
  size: number;
}
interface PackInfo {
  filename: string;
  size: number;
  unpackedSize: number;
  files: PackFile[];
}

async function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}, timeoutMs = 180_000): Promise<ProcessResult> {
  const r = await runFile('npm', [...args, ...NPM_FLAGS], { cwd, env, timeoutMs });
  assert.equal(r.code, 0, `npm ${args.join(' ')}: ${r.stderr}`);
  return r;
}

/** PATH with the given Node's bin directory first (npx, and wsgate's `env node` shebang, find it there). */
function pathWith(nodeBin: string | null): NodeJS.ProcessEnv {
  // npm on Node 22 and later keeps a compile cache in os.tmpdir(), which would outlive the test.
  return nodeBin === null ? {} : { PATH: `${nodeBin}${path.delimiter}${process.env.PATH ?? ''}`, NODE_DISABLE_COMPILE_CACHE: '1' };
}

/** Runs `npx wsgate run` on group 1 in the installed project: green, 16 cases. */
async function runGroupOne(app: string, nodeBin: string | null): Promise<void> {
  const outdir = path.join(app, `reports-${path.basename(nodeBin ?? 'default')}-${Date.now()}`);
  const r = await runFile('npx', ['wsgate', 'run', '--cases', '1.*', '--url', 'ws://127.0.0.1:0', '--outdir', outdir], {
    cwd: app,
    env: pathWith(nodeBin),
    timeoutMs: 120_000,
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as { counts: { total: number; passed: number } };
  assert.deepEqual([summary.counts.total, summary.counts.passed], [16, 16]);
}

describe('the npm package', () => {
  let pack: PackInfo;
  let app: string;

  before(async () => {
    const dest = await tempDir('wsgate-pack-');
    // The build is npm test's first step; prepack would rebuild dist/ under the other test files' feet.
    const packed = await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', dest], ROOT);
    [pack] = JSON.parse(packed.stdout) as [PackInfo];
    app = await tempDir('wsgate-app-');
    await writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    await npm(['install', '--prefer-offline', path.join(dest, pack.filename)], app);
  });

  test('holds the built JavaScript and its types, the README, LICENSE and package.json, nothing else', (t) => {
    const files = pack.files.map((f) => f.path).sort();
    for (const f of files) assert.match(f, /^(README\.md|LICENSE|package\.json|dist\/src\/.+\.(js|d\.ts))$/, f);
    for (const f of [
      'LICENSE',
      'README.md',
      'package.json',
      'dist/src/cli.js',
      'dist/src/wstest-cli.js',
      'dist/src/api.js',
      'dist/src/api.d.ts',
      'dist/src/bundled/reference-client.js',
    ]) {
      assert.ok(files.includes(f), `${f} is in the tarball`);
    }
    // 442 KiB packed with the robustness profile (issue 36: 53 attack cases, their engine and data); 400 before it;
    // 577 KiB with the interop matrix (issue 53).
    assert.ok(pack.size < 600 * 1024, `tarball ${pack.size} bytes`);
    t.diagnostic(`${pack.filename}: ${files.length} files, ${(pack.size / 1024).toFixed(1)} KiB packed, ${(pack.unpackedSize / 1024).toFixed(1)} KiB unpacked`);
  });

  test('installed: npx wsgate --version, --help, run on the embedded default (group 1), serve until SIGTERM', async () => {
    const version = await runFile('npx', ['wsgate', '--version'], { cwd: app });
    assert.deepEqual([version.code, version.stdout.trim()], [0, PKG.version]);
    const help = await runFile('npx', ['wsgate', '--help'], { cwd: app });
    assert.equal(help.code, 0);
    for (const command of ['run', 'serve', 'judge', 'merge', 'list']) assert.match(help.stdout, new RegExp(`wsgate ${command}`));
    await runGroupOne(app, null);
    const bin = path.join(app, 'node_modules', '.bin', 'wsgate');
    const serve = spawn(bin, ['serve', '--url', 'ws://127.0.0.1:0', '--cases', '1.1.1', '--outdir', path.join(app, 'served')], {
      cwd: app,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => serve.on('exit', (code) => resolve(code)));
    let out = '';
    await new Promise<void>((resolve, reject) => {
      serve.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (/Fuzzing Server \(Port \d+\)/.test(out)) resolve();
      });
      void exited.then(() => reject(new Error(`serve ended early: ${out}`)));
    });
    serve.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.ok(existsSync(path.join(app, 'served', 'index.json')));
  });

  test("installed: the wstest bin (npx -p wsgate wstest): a fuzzingclient run on its spec exits 0 with the original's reports", async () => {
    const bin = path.join(app, 'node_modules', '.bin', 'wstest');
    assert.ok(existsSync(bin), 'npm links the wstest bin');
    const bad = await runFile('npx', ['-p', 'wsgate', 'wstest', '-m', 'nothing'], { cwd: app });
    assert.deepEqual(
      [bad.code, bad.stderr.trim()],
      [2, 'wstest: mode "nothing" is not a mode (modes: fuzzingserver, fuzzingclient, echoserver, testeeserver)'],
    );
    const port = await freePort();
    const echo = spawn(process.execPath, [path.join(app, 'node_modules', 'wsgate', 'dist', 'src', 'bundled', 'reference-server.js'), String(port)], {
      stdio: 'ignore',
    });
    try {
      await writeFile(
        path.join(app, 'fuzzingclient.json'),
        JSON.stringify({ outdir: './reports/servers', servers: [{ agent: 'packed', url: `ws://127.0.0.1:${port}` }], cases: ['1.1.*'] }),
      );
      const r = await runFile('npx', ['-p', 'wsgate', 'wstest', '-m', 'fuzzingclient', '-s', 'fuzzingclient.json'], { cwd: app, timeoutMs: 60_000 });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const index = JSON.parse(await readFile(path.join(app, 'reports', 'servers', 'index.json'), 'utf8')) as Record<string, object>;
      assert.equal(Object.keys(index.packed ?? {}).length, 8);
    } finally {
      echo.kill();
    }
  });

  test('the API from a plain node:test file: a run against the bundled client, its counts and exit decision', async () => {
    const file = path.join(app, 'conformance.test.mjs');
    await writeFile(
      file,
      [
        "import assert from 'node:assert/strict';",
        "import { test } from 'node:test';",
        "import { run, VERSION } from 'wsgate';",
        '',
        "test('the bundled client passes group 1.1', async () => {",
        "  const result = await run({ url: 'ws://127.0.0.1:0', cases: ['1.1.*'], outdir: 'reports/api' });",
        '  assert.equal(result.exitCode, 0);',
        '  assert.equal(result.ok, true);',
        '  assert.equal(result.counts.total, 8);',
        '  assert.equal(result.counts.passed, 8);',
        "  assert.equal(result.cases[0].behavior, 'OK');",
        `  assert.equal(VERSION, ${JSON.stringify(PKG.version)});`,
        '});',
        '',
      ].join('\n'),
    );
    // Without NODE_TEST_CONTEXT: the file's runner must report on stdout, not to this test runner.
    const r = await runFile(process.execPath, ['--test', '--test-reporter=tap', file], { cwd: app, env: { NODE_TEST_CONTEXT: undefined }, timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /# pass 1\n/);
  });

  test("the types: a consumer's TypeScript compiles against the .d.ts, and a wrong option is a type error", async () => {
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    // A consumer's own tsconfig.json (a tsconfig.json in a folder above would otherwise be in the way).
    const project = (file: string) =>
      JSON.stringify({
        compilerOptions: {
          noEmit: true,
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2023',
          types: ['node'],
          typeRoots: [path.join(ROOT, 'node_modules', '@types')],
        },
        files: [file],
      });
    await writeFile(
      path.join(app, 'good.ts'),
      [
        "import { judge, merge, run, startServer, type RunResult, type WsgateServer } from 'wsgate';",
        "const result: RunResult = await run({ client: 'node client.js {url}', cases: ['1.*'], failOn: ['FAILED'] });",
        'const failed: number = result.counts.failed;',
        "const server: WsgateServer = await startServer({ url: 'ws://127.0.0.1:0' });",
        'await server.close();',
        "await judge({ outdir: 'reports/clients' });",
        "await merge({ inputs: ['a', 'b'], outdir: 'merged' });",
        'export { failed };',
        '',
      ].join('\n'),
    );
    await writeFile(path.join(app, 'tsconfig.good.json'), project('good.ts'));
    const good = await runFile(process.execPath, [tsc, '-p', 'tsconfig.good.json'], { cwd: app });
    assert.equal(good.code, 0, good.stdout + good.stderr);
    await writeFile(path.join(app, 'bad.ts'), "import { run } from 'wsgate';\nawait run({ cases: 5, clientCommand: 'x' });\nexport {};\n");
    await writeFile(path.join(app, 'tsconfig.bad.json'), project('bad.ts'));
    const bad = await runFile(process.execPath, [tsc, '-p', 'tsconfig.bad.json'], { cwd: app });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stdout, /bad\.ts\(2,\d+\): error TS2/);
  });

  for (const major of [22, 24]) {
    test(`on Node ${major}: npx wsgate --version and run on group 1`, async () => {
      const bin = path.dirname(await nodeBinary(String(major)));
      const env = pathWith(bin);
      const v = await runFile('node', ['--version'], { env });
      assert.match(v.stdout, new RegExp(`^v${major}\\.`));
      const version = await runFile('npx', ['wsgate', '--version'], { cwd: app, env });
      assert.deepEqual([version.code, version.stdout.trim()], [0, PKG.version]);
      await runGroupOne(app, bin);
    });
  }
});
