#!/usr/bin/env node
// `npm run build` when dist/ is older than what it is built from, and nothing otherwise: npm run gate's
// first step. A full build takes about 20 s (tsc over src/, test/ and bench/, then the repro runtime),
// longer than the quick gate it comes before; a checkout whose dist/ is current skips it.
//
//   node .ci/build-if-changed.mjs [--root DIR]   exit 0 when dist/ is current or rebuilt, the build's status otherwise
//
// Current means: the build's last output, the repro runtime (.ci/build-repro-runtime.mjs writes it
// after tsc), is newer than every input of the build: the files and folders of src/, test/ and bench/
// (a folder's time changes when a file in it is added, removed or renamed), tsconfig.json,
// package.json, package-lock.json (npm ci with other releases rewrites it) and the runtime's script. A
// build that failed wrote no runtime, so the next run builds again; git checkout and editors give what
// they write the time of writing. What it cannot see: a file saved during a build, after tsc read it.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUNTIME_FILE } from './build-repro-runtime.mjs';

/** The build's last output: its time is the build's. */
export const STAMP = RUNTIME_FILE;
/** What the build reads. */
export const INPUTS = ['src', 'test', 'bench', 'tsconfig.json', 'package.json', 'package-lock.json', '.ci/build-repro-runtime.mjs'];

/** The newest modification time (ms) under `file`, folders included; node_modules folders are not read. */
function newest(file) {
  const st = statSync(file, { throwIfNoEntry: false });
  if (st === undefined) return 0;
  let time = st.mtimeMs;
  if (st.isDirectory()) {
    for (const entry of readdirSync(file)) {
      if (entry !== 'node_modules') time = Math.max(time, newest(path.join(file, entry)));
    }
  }
  return time;
}

/** Why dist/ under `root` must be built again, or undefined when it is current. */
export function staleReason(root) {
  const stamp = statSync(path.join(root, STAMP), { throwIfNoEntry: false });
  if (stamp === undefined) return `no ${STAMP}`;
  for (const input of INPUTS) {
    if (newest(path.join(root, input)) >= stamp.mtimeMs) return `${input} changed since the last build`;
  }
  return undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--root');
  const root = at > 0 ? path.resolve(process.argv[at + 1] ?? '.') : path.resolve(fileURLToPath(import.meta.url), '../..');
  const reason = staleReason(root);
  if (reason === undefined) {
    console.error(`build: dist/ is current (not built again; npm run build builds it whole)`);
  } else {
    console.error(`build: ${reason}: npm run build`);
    const npm = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    process.exitCode = npm.status ?? 1;
  }
}
