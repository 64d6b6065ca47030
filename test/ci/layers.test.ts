/**
 * The source's layers, written once: a file imports only from its own layer or the ones below it,
 * and no chain of imports (type-only ones included) comes back to where it started. Data flows one
 * way: config → selected cases → connections → results → reports → exit status.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

/**
 * Bottom first: a folder (ending in "/") or a file at the top of src/. Every folder sits in one
 * layer whole, so the rule holds for folders as for files.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['util/', 'version.ts', 'errors.ts'], // no wsgate imports beyond each other
  ['protocol/', 'model/'], // pure protocol code and Autobahn's protocol defaults; the report model and the verdicts
  ['cases/'], // the case contract (scripted cases and raw attacks), Autobahn's groups and wsgate's own (data and scripts)
  ['robustness/'], // the robustness profile: groups 17 and 18, one file per subgroup, their attacks, judges and budgets
  ['catalogue/'], // every case wsgate knows, in Autobahn's order: the catalogue a run selects from and reports list
  ['core/'], // the role-neutral connection: receive, send, close, record
  ['play/'], // playing one case on a connection, either side: the case runner and the verdict
  ['explain/'], // why a case did not pass: the requirement it tests, the peer's first divergence, causes shared by cases
  ['report/'], // renderers (JSON, HTML, JUnit, GitHub, the console's progress) and the report files on disk
  ['tls/'], // certificates, TLS in words, a run's certificates and their settings
  ['server/', 'fuzzing-client/'], // the two roles: the fuzzing server (upgrade, routes, its factory), the fuzzing client (upgrade, connecting per case)
  ['config/'], // options of every command by role, spec files, URLs, JSON files read and validated
  ['policy/', 'processes/', 'repro/', 'browsers/'], // the gate rule, baseline and case limits; child processes; repro recordings and scripts; browser engines found and launched
  ['peer/'], // the run's watch on a peer: its processes started and ended, their output and CPU, memory windows, crashes and restarts, as facts
  ['drivers/'], // the role drivers: how a peer is reached (client per-case or looping, server); raw outcomes
  ['finish/'], // what ends a run: JUnit, summary, baseline, GitHub, exit status; also for reports on disk (judge, merge)
  ['run/'], // the one run skeleton: select, schedule, play through a driver, conclude once (rule, exclusion, not run)
  ['matrix/'], // the interop matrix: the registry of implementations, each row a run of the skeleton, the matrix and its site
  ['main.ts', 'cli.ts', 'api.ts', 'action.ts', 'commands/', 'bundled/', 'wstest/', 'wstest-cli.ts'], // entry points (wsgate, the API, the action, the original's wstest command line); the bundled ws client and ws server
];

function layerOf(file: string): number {
  const i = LAYERS.findIndex((layer) => layer.some((prefix) => (prefix.endsWith('/') ? file.startsWith(prefix) : file === prefix)));
  if (i < 0) throw new Error(`${file} is in no layer: add it to LAYERS`);
  return i;
}

function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') ? [path.relative(SRC, full).split(path.sep).join('/')] : [];
  });
}

/** The src files a file imports (static, type-only and dynamic imports alike). */
export function importsOf(file: string): string[] {
  const text = readFileSync(path.join(SRC, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g)) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1] ?? '')).replace(/\.js$/, '.ts');
    out.push(target);
  }
  return out;
}

const files = sourceFiles();
const graph = new Map(files.map((f) => [f, importsOf(f)]));

test('every source file is in a layer, and every import points to its own layer or one below', () => {
  const upward: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      assert.ok(graph.has(target), `${file} imports ${target}, which does not exist`);
      if (layerOf(target) > layerOf(file)) upward.push(`${file} -> ${target}`);
    }
  }
  assert.deepEqual(upward, []);
});

/** Every circle in a graph (node -> the nodes it points to), each as "a -> b -> a". */
function circlesIn(nodes: Iterable<string>, next: (node: string) => Iterable<string>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const circles: string[] = [];
  const visit = (node: string, trail: string[]): void => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      circles.push([...trail.slice(trail.indexOf(node)), node].join(' -> '));
      return;
    }
    state.set(node, 'open');
    for (const to of next(node)) visit(to, [...trail, node]);
    state.set(node, 'done');
  };
  for (const node of nodes) visit(node, []);
  return circles;
}

test('no import circle', () => {
  assert.deepEqual(
    circlesIn(files, (file) => graph.get(file) ?? []),
    [],
  );
});

test('the checker sees an upward import and a circle when there is one', () => {
  // The rule itself, on a made-up pair: report/ importing run/ is upward; a -> b -> a is a circle.
  assert.ok(layerOf('run/run.ts') > layerOf('report/html/index.ts'));
  assert.ok(layerOf('tls/setup.ts') < layerOf('config/schema.ts') && layerOf('tls/certificates.ts') === layerOf('tls/setup.ts'));
  assert.ok(layerOf('cases/types.ts') < layerOf('core/connection.ts'));
  assert.deepEqual(importsOf('core/state.ts'), []);
  assert.deepEqual([folderOf('run/run.ts'), folderOf('report/html/index.ts'), folderOf('cli.ts')], ['run/', 'report/', 'cli.ts']);
  const made: Record<string, string[]> = { a: ['b'], b: ['c'], c: ['a'], d: ['a'] };
  assert.deepEqual(
    circlesIn(Object.keys(made), (n) => made[n] ?? []),
    ['a -> b -> c -> a'],
  );
  assert.ok(importsOf('core/connection.ts').includes('core/outbox.ts'));
});

test("the gate rule, exclusion and the not-run accounting are the run skeleton's alone: drivers import none of them, and only run/ calls them", () => {
  const ruleFiles = ['policy/rule.ts', 'policy/baseline.ts', 'config/spec.ts'];
  const leaks = [...graph]
    .filter(([file]) => file.startsWith('drivers/'))
    .flatMap(([file, targets]) => targets.filter((t) => ruleFiles.includes(t) || t.startsWith('run/')).map((t) => `${file} -> ${t}`));
  assert.deepEqual(leaks, []);
  const calls = files
    .filter((f) => !f.startsWith('run/') && f !== 'config/spec.ts')
    .flatMap((f) => [...readFileSync(path.join(SRC, f), 'utf8').matchAll(/\b(conclude|notRun|agentCaseExcluder)\(/g)].map((m) => `${f}: ${m[1]}`));
  assert.deepEqual(calls, []);
});

/** The folder a file belongs to ("run/"), or the file itself at the top of src/ ("cli.ts"). */
function folderOf(file: string): string {
  const slash = file.indexOf('/');
  return slash < 0 ? file : file.slice(0, slash + 1);
}

/** Imports folded by folder: folder -> folders it imports (an example file pair for each arrow). */
function folderGraph(): Map<string, Map<string, string>> {
  const folders = new Map<string, Map<string, string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    const arrows = folders.get(from) ?? new Map<string, string>();
    folders.set(from, arrows);
    for (const target of targets) if (folderOf(target) !== from && !arrows.has(folderOf(target))) arrows.set(folderOf(target), `${file} -> ${target}`);
  }
  return folders;
}

test('folder by folder: every folder is in one layer, no arrow runs back up and no circle', () => {
  const folders = folderGraph();
  const unplaced = [...folders.keys()].filter((f) => !LAYERS.some((layer) => layer.includes(f)));
  assert.deepEqual(unplaced, [], 'every folder (and top-level file) is named in LAYERS as a whole');
  const layer = (f: string): number => LAYERS.findIndex((l) => l.includes(f));
  const upward = [...folders].flatMap(([from, arrows]) => [...arrows].filter(([to]) => layer(to) > layer(from)).map(([, example]) => example));
  assert.deepEqual(upward, []);
  assert.deepEqual(
    circlesIn(folders.keys(), (folder) => folders.get(folder)?.keys() ?? []),
    [],
  );
});
