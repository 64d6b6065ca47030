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

/** Bottom first. A path prefix ending in "/" is a folder; otherwise a file. */
export const LAYERS: readonly (readonly string[])[] = [
  ['util/', 'tls/certificates.ts', 'tls/describe.ts', 'version.ts', 'errors.ts'], // no wsgate imports beyond each other; TLS certificates and TLS in words
  ['protocol/', 'model/'], // pure protocol code and Autobahn's protocol defaults; the report model and the verdicts
  ['cases/'], // the case contract and the catalogue (data and scripts)
  ['core/'], // the role-neutral connection: receive, send, close, record
  ['play/'], // playing one case on a connection, either side: the case runner and the verdict
  ['explain/'], // why a case did not pass: the requirement it tests, the peer's first divergence, causes shared by cases
  ['server/', 'fuzzing-client/'], // the two roles: the fuzzing server (upgrade, routes), the fuzzing client (upgrade, connecting per case)
  ['report/'], // renderers and publishing (JSON, HTML, JUnit, GitHub)
  ['config/'], // options of every command by role, spec files, URLs, JSON files read and validated
  ['policy/', 'processes/', 'tls/setup.ts', 'repro/'], // verdict policy (gate rule, baseline, case limits, outcome); child processes; a run's certificates; repro recordings and scripts
  ['drivers/'], // the role drivers: the client under test (per-case or looping) and the server under test
  ['run/', 'outputs/'], // the one run skeleton (schedule, progress); what ends a run: finish, judge, merge
  ['main.ts', 'cli.ts', 'api.ts', 'commands/', 'github/', 'bundled/', 'wstest/', 'wstest-cli.ts'], // entry points (wsgate, the API, the action, the original's wstest command line); the bundled ws client and ws server
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

test('no import circle', () => {
  const state = new Map<string, 'open' | 'done'>();
  const circles: string[] = [];
  const visit = (file: string, trail: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      circles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
      return;
    }
    state.set(file, 'open');
    for (const target of graph.get(file) ?? []) visit(target, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of files) visit(file, []);
  assert.deepEqual(circles, []);
});

test('the checker sees an upward import and a circle when there is one', () => {
  // The rule itself, on a made-up pair: report/ importing run/ is upward; a -> b -> a is a circle.
  assert.ok(layerOf('run/run.ts') > layerOf('report/html/index.ts'));
  assert.ok(layerOf('tls/setup.ts') > layerOf('config/schema.ts') && layerOf('tls/certificates.ts') < layerOf('config/schema.ts'));
  assert.ok(layerOf('cases/types.ts') < layerOf('core/connection.ts'));
  assert.deepEqual(importsOf('core/state.ts'), []);
  assert.ok(importsOf('core/connection.ts').includes('core/outbox.ts'));
});

test('the gate rule, exclusion and the not-run accounting are the run skeleton\'s alone: drivers import none of them, and only run/ calls them', () => {
  const ruleFiles = ['policy/rule.ts', 'policy/baseline.ts', 'config/spec.ts'];
  const leaks = [...graph].filter(([file]) => file.startsWith('drivers/')).flatMap(([file, targets]) => targets.filter((t) => ruleFiles.includes(t) || t.startsWith('run/')).map((t) => `${file} -> ${t}`));
  assert.deepEqual(leaks, []);
  const calls = files
    .filter((f) => !f.startsWith('run/') && f !== 'config/spec.ts')
    .flatMap((f) => [...readFileSync(path.join(SRC, f), 'utf8').matchAll(/\b(conclude|notRun|agentCaseExcluder)\(/g)].map((m) => `${f}: ${m[1]}`));
  assert.deepEqual(calls, []);
});
