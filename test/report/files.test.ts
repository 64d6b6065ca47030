import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { agentFileBase, caseReportBase, cleanForFilename, resolveInside, writeFileAtomic } from '../../src/report/files.js';

test("cleanForFilename follows Autobahn's rule", () => {
  assert.equal(cleanForFilename('My Agent/1.0 (test)'), 'my_agent_1_0__test');
  assert.equal(cleanForFilename('  AutobahnPython/0.10.9  '), 'autobahnpython_0_10_9');
  assert.equal(cleanForFilename('ws'), 'ws');
  assert.equal(cleanForFilename('a--b'), 'a__b');
  assert.equal(cleanForFilename('../../x'), 'x');
  assert.equal(cleanForFilename('...'), '');
  // Python 2 worked on UTF-8 bytes: "é" is two bytes, two spaces.
  assert.equal(cleanForFilename('aéb'), 'a__b');
});

test('agentFileBase keeps plain agents and hashes the rest', () => {
  assert.equal(agentFileBase('ws'), 'ws');
  assert.equal(agentFileBase('autobahn_python_0_10_9'), 'autobahn_python_0_10_9');
  assert.match(agentFileBase('My Agent/1.0 (test)'), /^my_agent_1_0__test_[0-9a-f]{8}$/);
  assert.match(agentFileBase('../../x'), /^x_[0-9a-f]{8}$/);
  assert.match(agentFileBase(''), /^_[0-9a-f]{8}$/);
  assert.match(agentFileBase('日本語'), /^_[0-9a-f]{8}$/);
  assert.match(agentFileBase('x-日本-y'), /^x________y_[0-9a-f]{8}$/);
});

test('agentFileBase: colliding Autobahn names get distinct prefixes', () => {
  const agents = ['My Agent', 'my agent', 'my_agent', 'MY_AGENT', 'my-agent', ' my agent '];
  const bases = agents.map(agentFileBase);
  assert.equal(new Set(bases).size, agents.length);
  assert.equal(agentFileBase('my_agent'), 'my_agent');
  // A plain name that looks like a hashed one is hashed too, so it cannot take another agent's files.
  const hashed = agentFileBase('My Agent');
  assert.notEqual(agentFileBase(hashed), hashed);
});

test('agentFileBase: a 10 kB name is cut to 48 characters plus a hash', () => {
  const long = 'a'.repeat(10_000);
  const base = agentFileBase(long);
  assert.match(base, /^a{48}_[0-9a-f]{8}$/);
  assert.notEqual(agentFileBase(long + 'b'), base);
});

test('agentFileBase is always a safe, short file name (property)', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (agent) => {
      const base = agentFileBase(agent);
      assert.match(base, /^[a-z0-9_]{1,57}$/);
      assert.ok(!base.includes('..') && !base.startsWith('.'));
    }),
    { numRuns: 500 },
  );
});

test('caseReportBase joins agent and case id; rejects odd ids', () => {
  assert.equal(caseReportBase('ws', '6.9.2'), 'ws_case_6_9_2');
  assert.equal(caseReportBase('ws', '2'), 'ws_case_2');
  assert.match(caseReportBase('My Agent/1.0 (test)', '12.1.1'), /^my_agent_1_0__test_[0-9a-f]{8}_case_12_1_1$/);
  for (const bad of ['', '1..2', '../1', '1.2/3', 'a.b', '1.', '١.٢']) {
    assert.throws(() => caseReportBase('ws', bad), /invalid case id/, bad);
  }
});

test('resolveInside keeps names inside the directory', () => {
  const dir = path.join(tmpdir(), 'out');
  assert.equal(resolveInside(dir, 'ws_case_1_1_1.json'), path.join(dir, 'ws_case_1_1_1.json'));
  assert.equal(resolveInside(dir, 'a/../b.json'), path.join(dir, 'b.json'));
  for (const bad of ['../x', '..', '.', '', 'a/../../x', `..${path.sep}..${path.sep}etc`, 'x\0y']) {
    assert.throws(() => resolveInside(dir, bad), /escapes|NUL/, JSON.stringify(bad));
  }
});

test('every agent base stays inside the output directory', () => {
  const dir = path.join(tmpdir(), 'out');
  for (const agent of ['../../x', '/etc/passwd', '..', '.hidden', 'a\\..\\b', 'x'.repeat(10_000), '\0']) {
    const p = resolveInside(dir, `${caseReportBase(agent, '1.1.1')}.html`);
    assert.equal(path.dirname(p), dir);
  }
});

test('writeFileAtomic writes, replaces, and leaves no temp file', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'wsgate-files-'));
  try {
    const target = path.join(dir, 'index.json');
    await writeFileAtomic(target, 'one');
    await writeFileAtomic(target, new TextEncoder().encode('two'));
    assert.equal(await readFile(target, 'utf8'), 'two');
    assert.deepEqual(await readdir(dir), ['index.json']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('writeFileAtomic removes its temp file when the rename fails', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'wsgate-files-'));
  try {
    // A non-empty directory in the way makes rename() fail after the temp file was written.
    const target = path.join(dir, 'busy');
    await mkdir(path.join(target, 'inner'), { recursive: true });
    await assert.rejects(writeFileAtomic(target, 'x'));
    assert.deepEqual(await readdir(dir), ['busy']);
    await assert.rejects(writeFileAtomic(path.join(dir, 'missing', 'f.json'), 'x'), { code: 'ENOENT' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
