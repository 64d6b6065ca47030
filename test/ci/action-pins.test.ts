/**
 * The actions the user docs show are the majors this project's own CI runs (.github/workflows/), and
 * Renovate keeps them so: its github-actions manager updates the workflows, a custom regex manager in
 * renovate.json the `uses: actions/NAME@vN` lines of every Markdown file.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

/** `uses: OWNER/NAME@vN` (a major tag); wsgate's own action (`wsgate/wsgate@v0`) is not a dependency. */
const PIN = /uses: ([\w.-]+\/[\w.-]+)@(v\d+)\b/g;
/**
 * Actions the docs show that the workflows do not run, with the major they pin and why it is that one
 * (none now: actions/download-artifact was one until matrix.yml's publish job used it).
 */
const DOCS_ONLY: Record<string, { major: string; why: string }> = {};

interface Pin {
  file: string;
  line: number;
  action: string;
  major: string;
  text: string;
}

function pins(file: string): Pin[] {
  const found: Pin[] = [];
  read(file)
    .split('\n')
    .forEach((text, i) => {
      for (const m of text.matchAll(PIN)) {
        const [, action = '', major = ''] = m;
        if (action !== 'wsgate/wsgate') found.push({ file, line: i + 1, action, major, text });
      }
    });
  return found;
}

/** Every Markdown file of the repository, outside what npm installs and tsc writes. */
function markdownFiles(dir = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['node_modules', 'dist', '.git', 'reports'].includes(entry.name)) files.push(...markdownFiles(rel));
    } else if (entry.name.endsWith('.md')) files.push(rel);
  }
  return files;
}

const workflowFiles = readdirSync(path.join(ROOT, '.github/workflows'))
  .filter((f) => /\.ya?ml$/.test(f))
  .map((f) => `.github/workflows/${f}`);
const docPins = markdownFiles().flatMap(pins);

test('the workflows pin one major per action: the one the docs must show', () => {
  const majors = new Map<string, Set<string>>();
  for (const p of workflowFiles.flatMap(pins)) majors.set(p.action, (majors.get(p.action) ?? new Set()).add(p.major));
  for (const [action, set] of majors) assert.equal(set.size, 1, `${action}: the workflows pin ${[...set].join(' and ')}`);
  assert.ok(majors.has('actions/checkout') && majors.has('actions/upload-artifact'));
});

test("each action a doc shows is pinned to the workflows' major (or, for one the workflows do not run, to its listed major)", () => {
  const workflowMajor = new Map(workflowFiles.flatMap(pins).map((p) => [p.action, p.major]));
  // The README's and docs/github-actions.md's examples at least: a PIN that matched nothing would pass vacuously.
  assert.ok(docPins.some((p) => p.file === 'README.md' && p.action === 'actions/checkout'));
  assert.ok(docPins.some((p) => p.file === 'docs/github-actions.md' && p.action === 'actions/upload-artifact'));
  const wrong = docPins.flatMap((p) => {
    const expected = workflowMajor.get(p.action) ?? DOCS_ONLY[p.action]?.major;
    if (expected === undefined) return [`${p.file}:${p.line}: ${p.action} is neither in .github/workflows/ nor in DOCS_ONLY`];
    return p.major === expected ? [] : [`${p.file}:${p.line}: ${p.action}@${p.major}, the workflows' is @${expected}`];
  });
  assert.deepEqual(wrong, []);
  for (const action of Object.keys(DOCS_ONLY)) {
    assert.ok(!workflowMajor.has(action), `${action} is in the workflows now: drop it from DOCS_ONLY`);
    assert.ok(
      docPins.some((p) => p.action === action),
      `${action} is in no doc: drop it from DOCS_ONLY`,
    );
  }
});

test("renovate.json's custom manager finds every action pin of the docs, as the file and line they are in", () => {
  interface CustomManager {
    customType: string;
    managerFilePatterns: string[];
    matchStrings: string[];
    datasourceTemplate: string;
    versioningTemplate: string;
  }
  const config = JSON.parse(read('renovate.json')) as { customManagers?: CustomManager[] };
  const manager = config.customManagers?.find((m) => m.managerFilePatterns.some((f) => f.includes('.md')));
  assert.ok(manager, 'a custom manager for Markdown files');
  assert.equal(manager.customType, 'regex');
  assert.equal(manager.datasourceTemplate, 'github-tags');
  // Major tags only (`v7`, not `v7.0.1`), as the workflows and the docs pin them.
  const versioning = new RegExp(manager.versioningTemplate.replace(/^regex:/, ''));
  assert.ok(versioning.test('v7') && !versioning.test('v7.0.1'));
  // Renovate's file patterns are /regex/ strings, matched against the path from the repository's root.
  const files = manager.managerFilePatterns.map((f) => new RegExp(f.replace(/^\/(.*)\/$/, '$1')));
  const missed = docPins.filter((p) => {
    if (!files.some((f) => f.test(p.file))) return true;
    const m = manager.matchStrings.map((s) => new RegExp(s).exec(`${p.text}\n`)).find((x) => x !== null);
    return m?.groups?.depName !== p.action || m.groups.currentValue !== p.major;
  });
  assert.deepEqual(
    missed.map((p) => `${p.file}:${p.line}: ${p.text.trim()}`),
    [],
  );
});
