#!/usr/bin/env node
// The committed snapshot of the interop matrix, interop/matrix/: matrix.json and its site, made by
// one command on a machine where interop/install.sh has installed the implementations.
//
//   node interop/snapshot.mjs [wsgate matrix options]     default: --quick
//   node interop/snapshot.mjs --site-only                  the site again from the committed matrix.json
//   node interop/snapshot.mjs --refresh NAME... [--role R]  only these implementations' rows (of role R) again, in place
//
// It runs `wsgate matrix` over the whole registry into a temporary directory, then copies its
// matrix.json and renders the site without links into the rows' report directories (those are not
// committed; the published site has them). A row that could not run stays in the snapshot with its
// reason. test/matrix/snapshot.test.ts checks that the snapshot has a row for every role of every
// implementation of the registry, and that its site is the one matrix.json renders. --refresh runs
// the named implementations with the committed snapshot's own selection and puts their rows in
// place of theirs (a changed entry makes the snapshot stale; the rest is not run again, and the
// snapshot's date stays the whole run's).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(root, 'interop', 'matrix');
const args = process.argv.slice(2);
const selection = args.length > 0 ? args : ['--quick'];
mkdirSync(target, { recursive: true });

execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const { renderSite } = await import(path.join(root, 'dist/src/matrix/site.js'));
if (args[0] === '--site-only') {
  const text = readFileSync(path.join(target, 'matrix.json'), 'utf8');
  writeFileSync(path.join(target, 'index.html'), renderSite(JSON.parse(text), { reports: false }));
  process.stdout.write(`snapshot: ${path.relative(root, target)}/index.html from its matrix.json\n`);
  process.exit(0);
}
const roleAt = args.indexOf('--role');
const role = roleAt < 0 ? null : args[roleAt + 1];
const refresh = args[0] === '--refresh' ? args.slice(1).filter((a, i) => a !== '--role' && i !== roleAt) : null;
if (refresh !== null && refresh.length === 0) {
  process.stderr.write('snapshot: --refresh needs the names of the implementations to run again\n');
  process.exit(2);
}
const committed = refresh === null ? null : JSON.parse(readFileSync(path.join(target, 'matrix.json'), 'utf8'));
/** The committed snapshot's selection as wsgate matrix options. */
function selectionOf(file) {
  const sel = file.selection;
  return [...(sel.quick ? ['--quick'] : []), ...(sel.cases === null ? [] : ['--cases', ...sel.cases])];
}
const work = mkdtempSync(path.join(os.tmpdir(), 'wsgate-snapshot-'));
try {
  const matrixArgs = refresh === null ? selection : [...selectionOf(committed), ...(role === null ? [] : ['--role', role]), '--only', ...refresh];
  try {
    execFileSync(process.execPath, ['dist/src/cli.js', 'matrix', ...matrixArgs, '--outdir', work], { cwd: root, stdio: 'inherit' });
  } catch (err) {
    // Status 2 with matrix.json written: some rows could not run; they are in the snapshot with their reason.
    if (!existsSync(path.join(work, 'matrix.json'))) throw err;
  }
  let text = readFileSync(path.join(work, 'matrix.json'), 'utf8');
  if (committed !== null) {
    // The fresh rows in the places of the committed ones (the registry's order; a new role where the registry puts it).
    const fresh = JSON.parse(text).rows;
    const key = (r) => `${r.name}-${r.role}`;
    const { readRegistry } = await import(path.join(root, 'dist/src/matrix/registry.js'));
    const order = readRegistry(path.join(root, 'interop/implementations')).flatMap((i) =>
      ['client', 'server'].filter((role) => i.roles[role] !== undefined).map((role) => `${i.name}-${role}`),
    );
    const kept = committed.rows.filter((r) => !refresh.includes(r.name) || (role !== null && r.role !== role));
    const rows = new Map([...kept, ...fresh].map((r) => [key(r), r]));
    committed.rows = order.filter((k) => rows.has(k)).map((k) => rows.get(k));
    text = `${JSON.stringify(committed, null, 2)}\n`;
  }
  const write = (name, content) => {
    const file = path.join(target, name);
    writeFileSync(`${file}.tmp`, content);
    renameSync(`${file}.tmp`, file);
  };
  write('index.html', renderSite(JSON.parse(text), { reports: false }));
  write('matrix.json', text);
  process.stdout.write(`snapshot: ${path.relative(root, target)}/matrix.json and index.html\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
