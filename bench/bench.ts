/**
 * `npm run bench`: runs the catalogue group by group against a client (default: the bundled ws
 * client) through the real CLI, and prints per group the wall time, cases per second, wsgate's own
 * CPU time and peak RSS, and whether every verdict equals the original Autobahn's for ws
 * (../shared/reference/autobahn-verdicts-ws.json). Performance goals live here, never in tests.
 *
 *   node dist/bench/bench.js [--groups 1,2,6] [--client CMD] [--agent NAME]
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { catalogue } from '../src/cases/registry.js';

interface Summary {
  durationMs: number;
  resources: { cpuUserMs: number; cpuSystemMs: number; maxRssKiB: number } | null;
  counts: { total: number; passed: number; failed: number; skipped: number };
  cases: Array<{ id: string; behavior: string | null; behaviorClose: string | null; remoteCloseCode: number | null }>;
}

interface Reference {
  cases: Record<string, { behavior: string; behaviorClose: string; remoteCloseCode: number | null; duration: number }>;
}

const CLI = fileURLToPath(new URL('../src/cli.js', import.meta.url));
const REFERENCE = fileURLToPath(new URL('../../../shared/reference/autobahn-verdicts-ws.json', import.meta.url));
/** ws's default maxFragments (16384) fails these under the original; the bundled client lifts it. */
const REFERENCE_EXCEPTIONS = new Set(['9.3.1', '9.3.2', '9.4.1', '9.4.2']);

const { values } = parseArgs({
  options: {
    groups: { type: 'string' },
    client: { type: 'string' },
    agent: { type: 'string' },
  },
});

const available = [...new Set(catalogue.map((c) => c.id.split('.')[0] ?? ''))];
const groups = values.groups ? values.groups.split(',').map((g) => g.trim()) : available;
const reference: Reference | null = values.client === undefined && existsSync(REFERENCE) ? (JSON.parse(readFileSync(REFERENCE, 'utf8')) as Reference) : null;

function run(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { maxBuffer: 64 * 1024 * 1024 }, (err) => {
      resolve(err === null ? 0 : typeof err.code === 'number' ? err.code : -1);
    });
  });
}

interface Row {
  group: string;
  cases: number;
  wallS: number;
  cpuS: number;
  rssMiB: number;
  failed: number;
  mismatches: string[];
  originalS: number | null;
}

const rows: Row[] = [];
const base = await mkdtemp(path.join(os.tmpdir(), 'wsgate-bench-'));
for (const group of groups) {
  const outdir = path.join(base, `group-${group}`);
  const args = ['run', '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', `${group}.*`];
  if (values.client !== undefined) args.push('--client', values.client);
  if (values.agent !== undefined) args.push('--agent', values.agent);
  const t0 = performance.now();
  const code = await run(args);
  const wallS = (performance.now() - t0) / 1000;
  if (code !== 0 && code !== 1) {
    process.stderr.write(`group ${group}: wsgate exited with ${code}\n`);
    continue;
  }
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as Summary;
  const mismatches: string[] = [];
  let originalMs: number | null = null;
  if (reference !== null) {
    originalMs = 0;
    for (const c of summary.cases) {
      const ref = reference.cases[c.id];
      if (ref === undefined) continue;
      originalMs += ref.duration;
      if (REFERENCE_EXCEPTIONS.has(c.id)) continue;
      if (ref.behavior !== c.behavior || ref.behaviorClose !== c.behaviorClose || ref.remoteCloseCode !== c.remoteCloseCode) {
        mismatches.push(`${c.id}: ${c.behavior}/${c.behaviorClose}/${c.remoteCloseCode} (original ${ref.behavior}/${ref.behaviorClose}/${ref.remoteCloseCode})`);
      }
    }
  }
  const r = summary.resources;
  rows.push({
    group,
    cases: summary.counts.total,
    wallS,
    cpuS: r ? (r.cpuUserMs + r.cpuSystemMs) / 1000 : NaN,
    rssMiB: r ? r.maxRssKiB / 1024 : NaN,
    failed: summary.counts.failed,
    mismatches,
    originalS: originalMs === null ? null : originalMs / 1000,
  });
}

const fmt = (n: number, d = 1): string => (Number.isFinite(n) ? n.toFixed(d) : '-');
const lines = [
  `wsgate bench: ${values.client ?? 'bundled ws client'} on ${os.cpus().length}x ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}`,
  '',
  '| group | cases | wall s | cases/s | wsgate CPU s | peak RSS MiB | failed | verdicts = original | original case time s |',
  '|---|---:|---:|---:|---:|---:|---:|---|---:|',
];
for (const r of rows) {
  const same = reference === null ? 'n/a' : r.mismatches.length === 0 ? 'yes' : `NO (${r.mismatches.length})`;
  lines.push(`| ${r.group} | ${r.cases} | ${fmt(r.wallS, 2)} | ${fmt(r.cases / r.wallS)} | ${fmt(r.cpuS, 2)} | ${fmt(r.rssMiB)} | ${r.failed} | ${same} | ${r.originalS === null ? '-' : fmt(r.originalS, 2)} |`);
}
const total = rows.reduce((a, r) => ({ cases: a.cases + r.cases, wall: a.wall + r.wallS, cpu: a.cpu + r.cpuS, orig: a.orig + (r.originalS ?? 0) }), { cases: 0, wall: 0, cpu: 0, orig: 0 });
lines.push(`| **all** | ${total.cases} | ${fmt(total.wall, 2)} | ${fmt(total.cases / total.wall)} | ${fmt(total.cpu, 2)} | ${fmt(Math.max(...rows.map((r) => r.rssMiB)))} | ${rows.reduce((a, r) => a + r.failed, 0)} | ${reference === null ? 'n/a' : rows.every((r) => r.mismatches.length === 0) ? 'yes' : 'NO'} | ${reference === null ? '-' : fmt(total.orig, 2)} |`);
process.stdout.write(`${lines.join('\n')}\n`);
const all = rows.flatMap((r) => r.mismatches);
if (all.length > 0) process.stdout.write(`\nVerdicts that differ from the original Autobahn's for ws:\n${all.map((m) => `  ${m}`).join('\n')}\n`);
process.stdout.write(`\nreports: ${base}\n`);
process.exitCode = all.length > 0 ? 1 : 0;
