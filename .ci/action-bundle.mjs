#!/usr/bin/env node
// The GitHub Action's committed bundle: action/dist/, made by esbuild from src/ so that the action
// runs on the runner's Node at once, with no `npm ci` and no compiler (what JavaScript actions do:
// actions/typescript-action commits dist/ and checks it in CI).
//
//   node .ci/action-bundle.mjs            write action/dist/
//   node .ci/action-bundle.mjs --check    build into a temporary folder and compare, file by file,
//                                         with the committed one: exit 1 and the files that differ
//   --root DIR                            the repository to work on (default: this script's)
//
// The layout mirrors tsc's dist/src/: github/action.js, and bundled/reference-client.js and
// bundled/reference-server.js, which the gate starts by a path relative to its own module. The
// inputs: src/, package.json (the version), tsconfig.json (esbuild reads its strictness) and node_modules.
// The version is compiled in (src/version.ts reads package.json otherwise), and so is the repro
// scripts' runtime (.ci/build-repro-runtime.mjs; src/repro/script.ts reads it from dist otherwise). Third-party licences
// go to action/dist/licenses.txt. Exit 0 done, 1 stale (--check), 2 usage error.
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const USAGE = 'usage: node .ci/action-bundle.mjs [--check] [--root DIR]';
const args = process.argv.slice(2);
let check = false;
let root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--check') check = true;
  else if (args[i] === '--root' && args[i + 1] !== undefined) root = path.resolve(args[++i]);
  else {
    console.error(`action-bundle: unknown argument ${args[i]}\n${USAGE}`);
    process.exit(2);
  }
}
const { build } = await import('esbuild').catch(() => {
  console.error('action-bundle: esbuild is not installed: run npm ci first');
  process.exit(2);
});

const { reproRuntime } = await import('./build-repro-runtime.mjs');

// The action's entry (src/action.ts, beside cli.ts) is written as github/action.js: one folder deep,
// as the drivers' modules are in dist/src/, so their path to ../bundled/ holds in the bundle too.
const ENTRIES = [{ in: 'src/action.ts', out: 'github/action' }, 'src/bundled/reference-client.ts', 'src/bundled/reference-server.ts'];
const OUT = path.join(root, 'action', 'dist');

/** Builds the bundle into `outdir`; returns the files written, relative to it. */
async function bundle(outdir) {
  const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
  const result = await build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outbase: 'src',
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // Optional native addons of ws and of the frame writer: absent, each falls back to JavaScript.
    // Left out so that the bundle does not depend on whether they were built on this machine.
    external: ['bufferutil', 'utf-8-validate'],
    define: { WSGATE_BUNDLED_VERSION: JSON.stringify(version), WSGATE_REPRO_RUNTIME: JSON.stringify(await reproRuntime(root)) },
    // CommonJS dependencies (yargs's helpers, pino, junit-report-builder) call require() on
    // Node's built-in modules: an ES module bundle needs a real require for them.
    banner: { js: "import { createRequire as __wsgateCreateRequire } from 'node:module';\nconst require = __wsgateCreateRequire(import.meta.url);" },
    legalComments: 'none',
    // Paths in the bundle's comments stay node_modules/..., wherever node_modules really is.
    preserveSymlinks: true,
    metafile: true,
    logLevel: 'error',
  });
  writeFileSync(path.join(outdir, 'licenses.txt'), licences(result.metafile));
  return listFiles(outdir);
}

/** The licence texts of every package that went into the bundle, in name order. */
function licences(metafile) {
  const packages = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m === null) continue;
    const dir = path.join(root, input.slice(0, m.index + m[0].length));
    if (packages.has(m[1])) continue;
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const file = readdirSync(dir).find((f) => /^(licen[sc]e|copying)(\.|$)/i.test(f));
    const text = file === undefined ? `(no licence file; package.json says ${pkg.license ?? 'nothing'})` : readFileSync(path.join(dir, file), 'utf8').trim();
    packages.set(m[1], `${pkg.name} ${pkg.version} (${pkg.license ?? 'unknown'})\n\n${text}\n`);
  }
  const names = [...packages.keys()].sort();
  return names.map((n) => packages.get(n)).join(`\n${'-'.repeat(72)}\n\n`);
}

function listFiles(dir, prefix = '') {
  const out = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

const digest = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

const temp = mkdtempSync(path.join(tmpdir(), 'wsgate-action-bundle-'));
try {
  const fresh = await bundle(temp);
  if (check) {
    const committed = existsSync(OUT) ? listFiles(OUT) : [];
    const names = [...new Set([...fresh, ...committed])].sort();
    const stale = names.filter((n) => !fresh.includes(n) || !committed.includes(n) || digest(path.join(temp, n)) !== digest(path.join(OUT, n)));
    if (stale.length > 0) {
      console.error(`action-bundle: action/dist/ is not what src/ builds (${stale.join(', ')}): run npm run build:action and commit it`);
      // Not process.exit(): the temporary build below is removed first.
      process.exitCode = 1;
    } else {
      console.log(`action-bundle: action/dist/ is up to date (${fresh.length} files)`);
    }
  } else {
    // Replaced whole, so that a file the build no longer makes does not linger.
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(path.dirname(OUT), { recursive: true });
    chmodSync(temp, 0o755); // mkdtemp's 0700 would become the committed folder's mode
    renameSync(temp, OUT);
    const sizes = fresh.map((n) => `${n} ${(readFileSync(path.join(OUT, n)).length / 1024).toFixed(0)} KiB`);
    console.log(`action-bundle: wrote action/dist/: ${sizes.join(', ')}`);
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
