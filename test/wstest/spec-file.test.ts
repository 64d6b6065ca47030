/** Spec files as the original `wstest` reads them: its pattern rules, leniency and defaults. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { catalogue } from '../../src/catalogue/registry.js';
import { agentCaseExcluder, autobahnSelection, specFromJson } from '../../src/config/spec.js';
import { protocolOptionsOf } from '../../src/config/spec-options.js';
import { UsageError } from '../../src/errors.js';
import { loadWstestSpec } from '../../src/wstest/spec-file.js';

const ids = catalogue.map((c) => c.id);
const read = (json: unknown) => specFromJson('spec.json', json, 'wstest');
const pick = (cases: string[], exclude: string[] = []): string[] => autobahnSelection(read({ cases, 'exclude-cases': exclude }));
const agentExclusions = (rules: Record<string, string[]>) => read({ 'exclude-agent-cases': rules }).excludeAgentCases;

test('an entry with * is a regular expression matched at the start ("." literal, "*" any run); other syntax passes through', () => {
  // "1[1-4].*": 11.x to 14.x; of Autobahn's groups, 12 and 13.
  assert.deepEqual(
    pick(['1[1-4].*']),
    ids.filter((id) => id.startsWith('12.') || id.startsWith('13.')),
  );
  // "12.*.[1234]$": 12.x.y with y from 1 to 4 (anchored at the end by the $).
  assert.deepEqual(
    pick(['12.*.[1234]$']),
    ids.filter((id) => /^12\.\d+\.[1234]$/.test(id)),
  );
  // Matched at the start only: "1*" is every group starting with 1 (1, 10, 12, 13), "1.*" only group 1.
  assert.deepEqual(new Set(pick(['1*']).map((id) => id.split('.')[0])), new Set(['1', '10', '12', '13']));
  assert.deepEqual(new Set(pick(['1.*']).map((id) => id.split('.')[0])), new Set(['1']));
  assert.equal(pick(['*']).length, 517);
});

test('an entry without * is an id taken literally; one naming no case, and groups that do not exist, match nothing, silently', () => {
  assert.deepEqual(pick(['2.1', '1[1-4].1.1', '8.1.1', '8.*', '11.*']), ['2.1']);
  // An empty string in exclude-cases (two projects have one) excludes nothing.
  assert.equal(pick(['*'], ['']).length, 517);
  assert.deepEqual(pick(['1.1.*'], ['1.1.2', '1.1.[3-8]*']), ['1.1.1']);
  // Selection keeps Autobahn's order, whatever the order of the patterns.
  assert.deepEqual(pick(['10.*', '2.2', '1.1.1']), ['1.1.1', '2.2', '10.1.1']);
});

test('an invalid regular expression is one line naming the file and key', () => {
  assert.throws(
    () => pick(['1.(*']),
    (e: unknown) => e instanceof UsageError && /spec\.json: "cases": "1\.\(\*" is not a valid pattern/.test(e.message),
  );
  assert.throws(() => agentExclusions({ 'a[': ['1.*'] }), UsageError);
});

test('exclude-agent-cases: agent and case patterns anchored at both ends, regular expressions otherwise as written', () => {
  const rules = agentExclusions({ 'AutobahnPython/0.*': ['12.*', '13.1.1'], 'curl/[0-9]+': ['2.1'] });
  const excluded = agentCaseExcluder(rules, 'autobahn');
  assert.equal(excluded('AutobahnPython/0.10.9', '12.1.1'), true);
  assert.equal(excluded('AutobahnPython/0.10.9', '13.1.1'), true);
  assert.equal(excluded('AutobahnPython/0.10.9', '13.1.10'), false, 'anchored at the end');
  assert.equal(excluded('MyAutobahnPython/0.1', '12.1.1'), false, 'anchored at the start');
  assert.equal(excluded('curl/8', '2.1'), true);
  // wsgate's own spec reading keeps its wildcards: "[0-9]+" is literal there.
  assert.equal(agentCaseExcluder(rules)('curl/8', '2.1'), false);
  assert.equal(agentCaseExcluder(rules)('curl/[0-9]+', '2.1'), true);
});

test('options: failByDrop and the handshake timers honoured, "version": 13 to 18 accepted as RFC 6455, anything else warned about', () => {
  assert.deepEqual(protocolOptionsOf('s', 'options', { failByDrop: true, version: 18, openHandshakeTimeout: 2, closeHandshakeTimeout: 0.5 }, 'wstest'), {
    options: { failByDrop: true, openHandshakeTimeoutMs: 2000, closeHandshakeTimeoutMs: 500 },
    warnings: [],
  });
  assert.deepEqual(protocolOptionsOf('s', 'options', { version: 8, tcpNoDelay: false }, 'wstest').warnings, [
    'options.version = 8 is not honoured: wsgate speaks RFC 6455 (versions 13 to 18)',
    "options.tcpNoDelay = false is not honoured: wsgate runs with Autobahn's default",
  ]);
  assert.throws(
    () => protocolOptionsOf('s', 'servers.0.options', { failByDrop: 'yes' }, 'wstest'),
    /s: "servers\.0\.options\.failByDrop" must be true or false/,
  );
});

test('keys wstest does not use are ignored; a used key of the wrong type is one line', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'wsgate-spec-'));
  const file = path.join(dir, 'fuzzingserver.json');
  writeFileSync(file, JSON.stringify({ url: 'ws://127.0.0.1:9001', outdir: './r', webport: 8080, comment: 'x', options: { version: 18 } }));
  const loaded = loadWstestSpec('fuzzingserver', file);
  assert.equal(loaded.spec.url, 'ws://127.0.0.1:9001');
  assert.deepEqual(loaded.notes, [`Using explicit spec file '${file}'`]);
  writeFileSync(file, JSON.stringify({ outdir: 7 }));
  assert.throws(
    () => loadWstestSpec('fuzzingserver', file),
    (e: unknown) => e instanceof UsageError && e.message === `${file}: "outdir" must be a non-empty string (a directory)`,
  );
  writeFileSync(file, '[1]');
  assert.throws(() => loadWstestSpec('fuzzingserver', file), /must hold a JSON object/);
  rmSync(dir, { recursive: true, force: true });
});

test("no --spec: the defaults are written once (a fuzzingclient's -w as its server), then read", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'wsgate-spec-'));
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const first = loadWstestSpec('fuzzingclient', undefined, 'ws://127.0.0.1:9009/echo');
    assert.deepEqual(first.notes, ["Auto-generating spec file 'fuzzingclient.json'"]);
    assert.deepEqual((JSON.parse(readFileSync('fuzzingclient.json', 'utf8')) as { servers: unknown }).servers, [{ url: 'ws://127.0.0.1:9009/echo' }]);
    const again = loadWstestSpec('fuzzingclient', undefined);
    assert.deepEqual(again.notes, ["Using implicit spec file 'fuzzingclient.json'"]);
  } finally {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  }
});
