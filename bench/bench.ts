/**
 * `npm run bench`: runs the catalogue group by group against a client (default: the bundled ws
 * client) through the real CLI, in both modes: a client process per case (the gate's default) and
 * one client process that loops over the cases (`--client-loops`, Autobahn's way). It prints per
 * group the wall time and cases per second of each mode, wsgate's own CPU time and peak RSS, and
 * whether every verdict equals the original Autobahn's for ws
 * (../shared/reference/autobahn-verdicts-ws.json). Performance goals live here, never in tests.
 *
 *   node dist/bench/bench.js [--groups 1,2,6] [--modes per-case,loop] [--client CMD] [--loop-client CMD] [--agent NAME]
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { catalogue } from '../src/cases/registry.js';
import { codecThroughput } from './codec.js';

interface Summary {
  durationMs: number;
  resources: { cpuUserMs: number; cpuSystemMs: number; maxRssKiB: number; clientCpuMs: number | null } | null;
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
    'loop-client': { type: 'string' },
    modes: { type: 'string' },
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

interface ModeResult {
  wallS: number;
  cpuS: number;
  clientCpuS: number;
  rssMiB: number;
  failed: number;
  cases: number;
  mismatches: string[];
}

interface Row {
  group: string;
  perCase: ModeResult;
  loop: ModeResult | null;
  originalS: number | null;
}

/** Runs one group in one mode and reads its summary. */
async function runMode(group: string, outdir: string, loop: boolean): Promise<ModeResult | null> {
  const args = ['run', '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', `${group}.*`];
  const client = loop ? values['loop-client'] ?? (values.client === undefined ? undefined : null) : values.client;
  if (client === null) return null; // a custom per-case client without a looping variant
  if (client !== undefined) args.push('--client', client);
  if (loop) args.push('--client-loops');
  if (values.agent !== undefined) args.push('--agent', values.agent);
  const t0 = performance.now();
  const code = await run(args);
  const wallS = (performance.now() - t0) / 1000;
  if (code !== 0 && code !== 1) {
    process.stderr.write(`group ${group}${loop ? ' (looping)' : ''}: wsgate exited with ${code}\n`);
    return null;
  }
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as Summary;
  const mismatches: string[] = [];
  if (reference !== null) {
    for (const c of summary.cases) {
      const ref = reference.cases[c.id];
      if (ref === undefined || REFERENCE_EXCEPTIONS.has(c.id)) continue;
      if (ref.behavior !== c.behavior || ref.behaviorClose !== c.behaviorClose || ref.remoteCloseCode !== c.remoteCloseCode) {
        mismatches.push(`${c.id}${loop ? ' (looping)' : ''}: ${c.behavior}/${c.behaviorClose}/${c.remoteCloseCode} (original ${ref.behavior}/${ref.behaviorClose}/${ref.remoteCloseCode})`);
      }
    }
  }
  const r = summary.resources;
  return {
    wallS,
    cpuS: r ? (r.cpuUserMs + r.cpuSystemMs) / 1000 : NaN,
    clientCpuS: r?.clientCpuMs != null ? r.clientCpuMs / 1000 : NaN,
    rssMiB: r ? r.maxRssKiB / 1024 : NaN,
    failed: summary.counts.failed,
    cases: summary.counts.total,
    mismatches,
  };
}

const modes = new Set((values.modes ?? 'per-case,loop').split(',').map((m) => m.trim()));
const rows: Row[] = [];
const base = await mkdtemp(path.join(os.tmpdir(), 'wsgate-bench-'));
for (const group of groups) {
  const loop = modes.has('loop') ? await runMode(group, path.join(base, `group-${group}-loop`), true) : null;
  const perCase = modes.has('per-case') ? await runMode(group, path.join(base, `group-${group}`), false) : loop;
  if (perCase === null) continue;
  let originalS: number | null = null;
  if (reference !== null) {
    originalS = 0;
    for (const c of catalogue) if (c.id.split('.')[0] === group) originalS += (reference.cases[c.id]?.duration ?? 0) / 1000;
  }
  rows.push({ group, perCase, loop, originalS });
}

const fmt = (n: number, d = 1): string => (Number.isFinite(n) ? n.toFixed(d) : '-');
/** wsgate's share of the CPU time both sides used. */
const share = (ours: number, theirs: number): string => (Number.isFinite(ours) && Number.isFinite(theirs) && ours + theirs > 0 ? `${((100 * ours) / (ours + theirs)).toFixed(0)} %` : '-');
const lines = [
  `wsgate bench: ${values.client ?? 'bundled ws client'} on ${os.cpus().length}x ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}`,
  '',
  '| group | cases | per-case wall s | cases/s | looping wall s | cases/s | wsgate CPU s | client CPU s | wsgate share of CPU | peak RSS MiB | failed | verdicts = original | original case time s |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|',
];
/** Whether the per-case mode ran (else its columns are empty). */
const pc = modes.has('per-case');
const same = (r: Row): string =>
  reference === null ? 'n/a' : r.perCase.mismatches.length + (r.loop?.mismatches.length ?? 0) === 0 ? 'yes' : 'NO';
for (const r of rows) {
  const p = r.perCase;
  const l = r.loop;
  lines.push(
    `| ${r.group} | ${p.cases} | ${pc ? fmt(p.wallS, 2) : '-'} | ${pc ? fmt(p.cases / p.wallS) : '-'} | ${l ? fmt(l.wallS, 2) : '-'} | ${l ? fmt(l.cases / l.wallS) : '-'} | ${l ? fmt(l.cpuS, 2) : '-'} | ${l ? fmt(l.clientCpuS, 2) : '-'} | ${l ? share(l.cpuS, l.clientCpuS) : '-'} | ${fmt(Math.max(p.rssMiB, l?.rssMiB ?? 0))} | ${p.failed} | ${same(r)} | ${r.originalS === null ? '-' : fmt(r.originalS, 2)} |`,
  );
}
const sum = (f: (r: Row) => number): number => rows.reduce((a, r) => a + f(r), 0);
const cases = sum((r) => r.perCase.cases);
const perWall = sum((r) => r.perCase.wallS);
const loopWall = sum((r) => r.loop?.wallS ?? 0);
const loopCpu = sum((r) => r.loop?.cpuS ?? 0);
const loopClientCpu = sum((r) => r.loop?.clientCpuS ?? 0);
lines.push(
  `| **all** | ${cases} | ${pc ? fmt(perWall, 2) : '-'} | ${pc ? fmt(cases / perWall) : '-'} | ${fmt(loopWall, 2)} | ${fmt(cases / loopWall)} | ${fmt(loopCpu, 2)} | ${fmt(loopClientCpu, 2)} | ${share(loopCpu, loopClientCpu)} | ${fmt(Math.max(...rows.map((r) => Math.max(r.perCase.rssMiB, r.loop?.rssMiB ?? 0))))} | ${sum((r) => r.perCase.failed)} | ${reference === null ? 'n/a' : rows.every((r) => same(r) === 'yes') ? 'yes' : 'NO'} | ${reference === null ? '-' : fmt(sum((r) => r.originalS ?? 0), 2)} |`,
);
process.stdout.write(`${lines.join('\n')}\n`);
const all = rows.flatMap((r) => [...r.perCase.mismatches, ...(r.loop?.mismatches ?? [])]);
if (all.length > 0) process.stdout.write(`\nVerdicts that differ from the original Autobahn's for ws:\n${all.map((m) => `  ${m}`).join('\n')}\n`);
const codec = codecThroughput();
process.stdout.write(`\n| hot path | MB/s |\n|---|---:|\n${codec.map(([name, rate]) => `| ${name} | ${rate.toFixed(0)} |`).join('\n')}\n`);
process.stdout.write(`\nreports: ${base}\n`);
process.exitCode = all.length > 0 ? 1 : 0;
