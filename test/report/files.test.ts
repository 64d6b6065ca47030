import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  agentFileBase,
  agentFilePrefixes,
  caseReportBase,
  cleanForFilename,
  collisionNotice,
  resolveInside,
  writeFileAtomic,
  type AgentFileCollision,
} from '../../src/report/files.js';

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

test("agentFileBase is Autobahn's cleaned name, with no suffix", () => {
  assert.equal(agentFileBase('ws'), 'ws');
  assert.equal(agentFileBase('ws-8.23.0'), 'ws_8_23_0');
  assert.equal(agentFileBase('bar-py-tornado'), 'bar_py_tornado');
  assert.equal(agentFileBase('undici'), 'undici');
  assert.equal(agentFileBase('My Agent/1.0 (test)'), 'my_agent_1_0__test');
  assert.equal(agentFileBase('../../x'), 'x');
  assert.equal(agentFileBase(''), '');
  assert.equal(agentFileBase('x-日本-y'), 'x________y');
});

test('agentFileBase: a name cleaning to more than 200 characters is cut, with a hash', () => {
  const long = 'a'.repeat(10_000);
  const base = agentFileBase(long);
  assert.match(base, /^a{191}_[0-9a-f]{8}$/);
  assert.notEqual(agentFileBase(`${long}b`), base);
  assert.equal(agentFileBase('a'.repeat(200)), 'a'.repeat(200));
});

test('agentFileBase is always a safe file name of at most 200 characters (property)', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (agent) => {
      const base = agentFileBase(agent);
      assert.match(base, /^[a-z0-9_]{0,200}$/);
      assert.ok(!base.includes('..') && !base.startsWith('.'));
    }),
    { numRuns: 500 },
  );
});

test('agentFilePrefixes: Autobahn names unless two agents of one directory collide; then the later ones get a suffix', () => {
  const plain = agentFilePrefixes(['ws-8.23.0', 'bar-py-tornado', 'undici']);
  assert.deepEqual(Object.fromEntries(plain.prefixes), { 'ws-8.23.0': 'ws_8_23_0', 'bar-py-tornado': 'bar_py_tornado', undici: 'undici' });
  assert.deepEqual(plain.collisions, []);

  const agents = ['My Agent', 'my agent', 'my_agent', 'MY_AGENT', 'my-agent', ' my agent '];
  const { prefixes, collisions } = agentFilePrefixes(agents);
  // The agent whose name is the cleaned name keeps it; every other gets a distinct suffix.
  assert.equal(prefixes.get('my_agent'), 'my_agent');
  assert.equal(new Set(prefixes.values()).size, agents.length);
  for (const a of agents.filter((x) => x !== 'my_agent')) assert.match(prefixes.get(a) ?? '', /^my_agent_[0-9a-f]{8}$/, a);
  assert.equal(collisions.length, 1);
  assert.equal(collisions[0]?.base, 'my_agent');
  assert.match(
    collisionNotice(collisions[0] as AgentFileCollision),
    /^wsgate: agents "my_agent" → my_agent_case_\*, .* clean to the same report file name "my_agent": the later ones get a suffix$/,
  );

  // Any order gives the same prefixes; without an exact name, the first in code-unit order keeps it.
  assert.deepEqual(agentFilePrefixes([...agents].reverse()).prefixes, prefixes);
  const ab = agentFilePrefixes(['a.b', 'a-b']).prefixes;
  assert.equal(ab.get('a-b'), 'a_b');
  assert.match(ab.get('a.b') ?? '', /^a_b_[0-9a-f]{8}$/);
  // A suffix never takes another agent's plain name.
  const taken = `a_b_${ab.get('a.b')?.slice(-8) ?? ''}`;
  const three = agentFilePrefixes(['a-b', 'a.b', taken]).prefixes;
  assert.equal(three.get(taken), taken);
  assert.equal(new Set(three.values()).size, 3);
});

test('caseReportBase joins the agent prefix and case id; rejects odd ids', () => {
  assert.equal(caseReportBase('ws', '6.9.2'), 'ws_case_6_9_2');
  assert.equal(caseReportBase('ws', '2'), 'ws_case_2');
  assert.equal(caseReportBase(agentFileBase('My Agent/1.0 (test)'), '12.1.1'), 'my_agent_1_0__test_case_12_1_1');
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
    const p = resolveInside(dir, `${caseReportBase(agentFileBase(agent), '1.1.1')}.html`);
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
