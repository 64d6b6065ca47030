import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { CaseInfo, CaseResult } from '../../src/model/report.js';
import { writeReports } from '../../src/report/writer.js';
import { referenceReportText } from '../support/autobahn-reference.js';
import { referenceResult } from './helpers.js';

const CATALOGUE: CaseInfo[] = [
  {
    id: '6.9.2',
    origin: 'autobahn',
    category: 'UTF-8 Handling',
    subcategory: 'Last possible sequence of a certain length',
    description: 'd',
    expectation: 'e',
  },
  { id: '6.12.7', origin: 'autobahn', category: 'UTF-8 Handling', subcategory: 'Unexpected continuation bytes', description: 'd', expectation: 'e' },
];

test('writeReports writes per-case JSON/HTML and the indexes, nothing else', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'wsgate-writer-'));
  const outdir = path.join(root, 'nested', 'reports');
  try {
    const evil = { ...referenceResult('6.9.2'), agent: '../../evil' };
    const results = new Map<string, Map<string, CaseResult>>([
      [
        'seedpeer',
        new Map([
          ['6.9.2', referenceResult('6.9.2')],
          ['6.12.7', referenceResult('6.12.7')],
        ]),
      ],
      ['../../evil', new Map([['6.9.2', evil]])],
    ]);
    await writeReports(outdir, results, CATALOGUE, { generatedAt: '2026-11-21T23:30:00.000Z', toolVersion: '0.1.0' });
    const files = (await readdir(outdir)).sort();
    assert.equal(files.length, 8);
    assert.ok(files.includes('index.html') && files.includes('index.json'));
    for (const f of ['seedpeer_case_6_9_2.json', 'seedpeer_case_6_9_2.html', 'seedpeer_case_6_12_7.json', 'seedpeer_case_6_12_7.html']) {
      assert.ok(files.includes(f), f);
    }
    assert.equal(files.filter((f) => /^evil_case_6_9_2\.(json|html)$/.test(f)).length, 2);
    assert.equal(
      files.some((f) => f.startsWith('.wsgate-tmp-')),
      false,
    );
    assert.deepEqual(await readdir(root), ['nested']);
    assert.equal(await readFile(path.join(outdir, 'seedpeer_case_6_12_7.json'), 'utf8'), referenceReportText('6.12.7'));
    const index = JSON.parse(await readFile(path.join(outdir, 'index.json'), 'utf8')) as Record<string, Record<string, { reportfile: string }>>;
    for (const [, cases] of Object.entries(index)) {
      for (const [, entry] of Object.entries(cases)) assert.ok(files.includes(entry.reportfile), entry.reportfile);
    }
    const html = await readFile(path.join(outdir, 'index.html'), 'utf8');
    assert.match(html, /href="seedpeer_case_6_12_7\.html"/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('writeReports writes many files and rejects a bad case id', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'wsgate-writer-'));
  try {
    const cases = new Map<string, CaseResult>();
    for (let i = 1; i <= 60; i++) cases.set(`9.${i}`, { ...referenceResult('6.9.2'), id: `9.${i}` });
    await writeReports(root, new Map([['ws', cases]]), [], { generatedAt: 't', toolVersion: 'v' });
    assert.equal((await readdir(root)).length, 122);
    await assert.rejects(
      writeReports(path.join(root, 'bad'), new Map([['ws', new Map([['../x', referenceResult('6.9.2')]])]]), [], { generatedAt: 't', toolVersion: 'v' }),
      /invalid case id/,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
