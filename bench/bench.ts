/**
 * `npm run bench`: runs the catalogue group by group against a client (default: the bundled ws
 * client, which loops over the cases itself) through the real CLI, once with `--jobs 1` and once
 * with the default number of jobs, each group in a fresh wsgate process; then, when every group is
 * selected, the whole selection in one process (the peak RSS over the whole catalogue). It prints
 * per group the wall time, cases per second, wsgate's own CPU time, its clients' CPU time and
 * wsgate's peak RSS, whether the verdicts of both runs are the same, and whether they equal the
 * original Autobahn's for ws (test/fixtures/autobahn/autobahn-verdicts-ws.json). Performance goals
 * live here, never in tests.
 *
 *   node dist/bench/bench.js [--groups 1,2,6] [--jobs N] [--no-whole] [--whole-only] [--client CMD] [--agent NAME]
 *                            [--no-server-role] [--server-only] [--no-tls] [--tls-only] [--no-wstest] [--wstest-only]
 *                            [--no-http2] [--http2-only] [--http2-runs N] [--no-robustness] [--robustness-only]
 *                            [--no-browsers] [--browsers-only] [--no-browser-whole]
 *                            [--no-matrix] [--matrix-only] [--matrix-rows NAME,…] [--matrix-cases PATTERN,…] [--matrix-from DIR]
 *
 * `--whole-only` skips the group by group runs: the whole catalogue in one process, with the default
 * jobs (or --jobs), and its verdicts against the original's (about 4 minutes instead of 30).
 * Then the server role: the whole catalogue against the bundled ws server (`run --role server`),
 * with wsgate's and the server's CPU time (`--no-server-role` leaves it out, `--server-only` runs it alone).
 * Last, TLS (`--no-tls` leaves it out, `--tls-only` runs it alone): in both roles, the 301 cases
 * outside groups 12 and 13 over ws:// and over wss:// (a throwaway CA), then the whole catalogue over
 * wss://; the TLS cost is the wall and CPU time wss:// adds, and the verdicts must not change.
 * Then `wstest` (`--no-wstest` leaves it out, `--wstest-only` runs it alone): the 301 cases through the
 * original's command line, `wstest -m fuzzingclient` against the bundled ws server (one case at a time,
 * as it runs by default) beside `wsgate run --server-url --jobs 1`, and `wstest -m fuzzingserver`
 * driven by the bundled client beside `wsgate run`: wall time, and whether the verdicts are the same.
 * Last, HTTP/2 (`--no-http2` leaves it out, `--http2-only` runs it alone; bench/http2.ts): the 301 cases
 * over HTTP/1.1 and over HTTP/2 (h2c) in both roles, `--http2-runs` times each (3), medians, the
 * ratio h2/h1 of wall time against the goal (within 1.3x), and whether the verdicts are the same.
 * Last, the robustness profile (`--no-robustness` leaves it out, `--robustness-only` runs it alone;
 * bench/robustness.ts): group 18 against the bundled client and group 17 against the bundled server,
 * against the goals (under 3 minutes per role, wsgate's peak RSS under 300 MiB).
 * Last, the browser engines installed here (`--no-browsers` leaves them out, `--browsers-only` runs
 * them alone, `--no-browser-whole` keeps only --quick; bench/browsers.ts): --quick and the whole
 * catalogue per engine through `wsgate run --browser`.
 * Last, the interop matrix (`--no-matrix` leaves it out, `--matrix-only` runs it alone; bench/matrix.ts):
 * `wsgate matrix` over every installed implementation of the registry but the browsers
 * (`--matrix-rows`), on the quick profile (`--matrix-cases`), each row's wall time against its CPU
 * floor ((wsgate's CPU + the peer's) / cores), the goal within 1.3 times; `--matrix-from DIR` tabulates a
 * matrix run before (joined from one run per implementation, or published) instead.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogue } from '../src/catalogue/registry.js';
import { defaultJobs } from '../src/config/parallel.js';
import { MALLOC_TUNING, TUNING_MARKER } from '../src/util/launch-env.js';
import { codecThroughput } from './codec.js';
import { http2Section } from './http2.js';
import { benchImplementations, matrixSection, matrixTable } from './matrix.js';
import { parseScriptArgs } from './options.js';
import { robustnessSection } from './robustness.js';
import { browsersSection, type BrowserRun } from './browsers.js';
import type { BrowserEngine } from '../src/config/schema.js';
import { differences, fmtN, type RunResult } from './runs.js';
import { referenceVerdictsWs, WS_REFERENCE_EXCEPTIONS, type ReferenceVerdict } from '../test/support/autobahn-reference.js';

interface Summary {
  agent: string;
  interrupted: string | null;
  durationMs: number;
  resources: { cpuUserMs: number; cpuSystemMs: number; maxRssKiB: number; clientCpuMs: number | null } | null;
  counts: { total: number; passed: number; failed: number; skipped: number };
  cases: Array<{ id: string; behavior: string | null; behaviorClose: string | null; remoteCloseCode: number | null; duration: number }>;
}

const CLI = fileURLToPath(new URL('../src/cli.js', import.meta.url));

const values = parseScriptArgs(
  'npm run bench --',
  'Runs the catalogue through the real CLI and prints wall time, cases/s, CPU and peak RSS per section as tables, with the goals beside them. With no option: every section (about an hour on 2 cores).',
  {
    groups: { type: 'string', describe: 'only these groups, comma-separated (e.g. 1,2,6), group by group; no other section' },
    client: { type: 'string', describe: 'the client command under test ({url} replaced; default: the bundled ws client)' },
    jobs: { type: 'string', describe: 'cases at once (default: as wsgate run chooses)' },
    whole: { type: 'boolean', default: true, describe: 'the whole catalogue in one process (--no-whole leaves it out)' },
    'whole-only': { type: 'boolean', default: false, describe: 'only the whole catalogue in one process, against the original verdicts' },
    agent: { type: 'string', describe: 'the agent name of --client' },
    'server-role': { type: 'boolean', default: true, describe: 'the server role against the bundled ws server' },
    'server-only': { type: 'boolean', default: false, describe: 'only the server role' },
    tls: { type: 'boolean', default: true, describe: 'ws:// against wss:// in both roles' },
    'tls-only': { type: 'boolean', default: false, describe: 'only the TLS section' },
    wstest: { type: 'boolean', default: true, describe: 'the original command line (wstest) beside wsgate run' },
    'wstest-only': { type: 'boolean', default: false, describe: 'only the wstest section' },
    http2: { type: 'boolean', default: true, describe: 'HTTP/1.1 against HTTP/2 (h2c) in both roles' },
    'http2-only': { type: 'boolean', default: false, describe: 'only the HTTP/2 section' },
    'http2-runs': { type: 'string', default: '3', describe: 'runs per HTTP/2 measurement (the median is kept)' },
    robustness: { type: 'boolean', default: true, describe: 'the robustness profile in both roles' },
    'robustness-only': { type: 'boolean', default: false, describe: 'only the robustness section' },
    browsers: { type: 'boolean', default: true, describe: 'each installed browser engine (run --browser): --quick, then the whole catalogue' },
    'browsers-only': { type: 'boolean', default: false, describe: 'only the browser section' },
    'browser-whole': { type: 'boolean', default: true, describe: 'the whole catalogue per engine too (--no-browser-whole: --quick only)' },
    matrix: { type: 'boolean', default: true, describe: 'wsgate matrix over the installed implementations of the registry (no browsers)' },
    'matrix-only': { type: 'boolean', default: false, describe: 'only the matrix section' },
    'matrix-rows': { type: 'string', describe: 'the matrix section: only these implementations, comma-separated (default: every installed one)' },
    'matrix-cases': { type: 'string', describe: 'the matrix section: these case patterns, comma-separated (default: the quick profile)' },
    'matrix-from': { type: 'string', describe: 'the matrix section: tabulate this matrix directory (a joined or published one) instead of running one' },
  },
);
for (const name of ['jobs', 'http2-runs'] as const) {
  const v = values[name];
  if (v !== undefined && !(Number.isInteger(Number(v)) && Number(v) > 0)) {
    process.stderr.write(`npm run bench --: --${name} must be a positive integer, not ${JSON.stringify(v)} (see --help)\n`);
    process.exit(2);
  }
}
const matrixOnly = values['matrix-only'] === true;
const browsersOnly = values['browsers-only'] === true || matrixOnly;
const robustnessOnly = values['robustness-only'] === true || browsersOnly;
const http2Only = values['http2-only'] === true || robustnessOnly;
const wstestOnly = values['wstest-only'] === true || http2Only;
const tlsOnly = values['tls-only'] === true || wstestOnly;
const serverOnly = values['server-only'] === true || tlsOnly;

const available = [...new Set(catalogue.map((c) => c.id.split('.')[0] ?? ''))];
const groups = values['whole-only'] === true || serverOnly ? [] : values.groups ? values.groups.split(',').map((g) => g.trim()) : available;
// The original's verdicts are for the bundled ws client; another client has no reference.
const reference: { cases: Record<string, ReferenceVerdict> } | null = values.client === undefined ? { cases: referenceVerdictsWs() } : null;

/** The V8 flag and malloc settings wsgate's launchers pass (see src/cli.ts): the bench measures what users run. */
const NODE_FLAGS = ['--max-semi-space-size=4'];
const LAUNCH_ENV = { ...process.env, [TUNING_MARKER]: '1', ...MALLOC_TUNING };

function run(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...NODE_FLAGS, CLI, ...args], { maxBuffer: 64 * 1024 * 1024, env: LAUNCH_ENV }, (err) => {
      resolve(err === null ? 0 : typeof err.code === 'number' ? err.code : -1);
    });
  });
}

/** The groups outside permessage-deflate (12, 13): the 301 cases the TLS comparison runs both ways. */
const NOT_DEFLATE = ['1.*', '2.*', '3.*', '4.*', '5.*', '6.*', '7.*', '9.*', '10.*'];

/** Both roles over ws:// and wss:// (301 cases), then the whole catalogue over wss://: the table, and what differs. */
async function tlsSection(base: string, jobs: number): Promise<string[]> {
  const problems: string[] = [];
  const rows: string[] = [];
  for (const role of ['client', 'server'] as const) {
    const plain = await runOnce(NOT_DEFLATE, path.join(base, `tls-${role}-301-plain`), jobs, role);
    const secure = await runOnce(NOT_DEFLATE, path.join(base, `tls-${role}-301-tls`), jobs, role, { tls: true });
    const whole = await runOnce(['*'], path.join(base, `tls-${role}-whole-tls`), jobs, role, { tls: true });
    if (plain === null || secure === null || whole === null) {
      problems.push(`TLS (${role} role): a run did not finish`);
      continue;
    }
    const same = differences(plain, secure);
    problems.push(...same.map((d) => `${role} role, ws:// vs wss://: ${d}`), ...whole.mismatches.map((m) => `${role} role, whole over wss://: ${m}`));
    const cost = (a: RunResult, b: RunResult): string =>
      `+${fmtN(b.wallS - a.wallS, 1)} s wall (${fmtN((100 * (b.wallS - a.wallS)) / a.wallS, 0)} %), +${fmtN(b.cpuS - a.cpuS, 1)} s wsgate CPU`;
    const peer = role === 'client' ? 'bundled ws client' : 'bundled ws server';
    rows.push(
      `| ${role} role (${peer}), 301 cases, ws:// | ${plain.cases} | ${tlsCells(plain)} | ${plain.failed} | |`,
      `| ${role} role (${peer}), 301 cases, wss:// | ${secure.cases} | ${tlsCells(secure)} | ${secure.failed} | ${same.length === 0 ? 'same verdicts' : `${same.length} differ`}; TLS cost ${cost(plain, secure)} |`,
      `| ${role} role (${peer}), whole catalogue, wss:// | ${whole.cases} | ${tlsCells(whole)} | ${whole.failed} | ${role === 'client' ? `verdicts = original: ${reference === null ? 'n/a' : whole.mismatches.length === 0 ? 'yes' : 'NO'}` : `${whole.failed} failed`} |`,
    );
  }
  process.stdout.write(
    `\n| TLS, --jobs ${jobs} | cases | wall s | cases/s | wsgate CPU s | peer CPU s | peak RSS MiB | failed | compared |\n|---|---:|---:|---:|---:|---:|---:|---:|---|\n${rows.join('\n')}\n`,
  );
  return problems;
}

const WSTEST = fileURLToPath(new URL('../src/wstest-cli.js', import.meta.url));
const REFERENCE_SERVER = fileURLToPath(new URL('../src/bundled/reference-server.js', import.meta.url));
const REFERENCE_CLIENT = fileURLToPath(new URL('../src/bundled/reference-client.js', import.meta.url));

/** Runs a compiled script with wsgate's launch settings in `cwd`; resolves with its stdout and wall seconds. */
function timed(script: string, args: string[], cwd: string): Promise<{ out: string; wallS: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [...NODE_FLAGS, script, ...args], { cwd, maxBuffer: 64 * 1024 * 1024, env: LAUNCH_ENV }, (_err, stdout) =>
      resolve({ out: stdout, wallS: (performance.now() - t0) / 1000 }),
    );
  });
}

/** index.json's verdicts of one agent. */
async function indexVerdicts(file: string, agent: string): Promise<Map<string, string>> {
  const index = JSON.parse(await readFile(file, 'utf8')) as Record<
    string,
    Record<string, { behavior: string; behaviorClose: string; remoteCloseCode: number | null }>
  >;
  return new Map(Object.entries(index[agent] ?? {}).map(([id, r]) => [id, `${r.behavior}/${r.behaviorClose}/${r.remoteCloseCode}`]));
}

/** A free port (closed again: a spec file names it). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a !== null ? a.port : 0));
    });
  });
}

/** The 301 cases through wstest in both roles, beside wsgate run: the table, and what differs. */
async function wstestSection(base: string): Promise<string[]> {
  const problems: string[] = [];
  const dir = await mkdtemp(path.join(base, 'wstest-'));
  // Server role: wstest -m fuzzingclient (one case at a time) and wsgate run --server-url --jobs 1 against one bundled ws server.
  const port = await freePort();
  const server = spawn(process.execPath, [REFERENCE_SERVER, String(port)], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 500));
  await writeFile(
    path.join(dir, 'fuzzingclient.json'),
    JSON.stringify({ outdir: './servers', servers: [{ agent: 'ws', url: `ws://127.0.0.1:${port}` }], cases: NOT_DEFLATE }),
  );
  const viaWstest = await timed(WSTEST, ['-m', 'fuzzingclient', '-s', 'fuzzingclient.json'], dir);
  const gate = await runOnce(NOT_DEFLATE, path.join(dir, 'gate-servers'), 1, 'server', {}, `ws://127.0.0.1:${port}`);
  server.kill();
  const used = /in ([\d.]+) s \(CPU ([\d.]+) s, peak RSS (\d+) MiB\)/.exec(viaWstest.out);
  const clientSide = await indexVerdicts(path.join(dir, 'servers/index.json'), 'ws');
  const rows: string[] = [];
  if (gate !== null) {
    const differ = [...clientSide]
      .filter(([id, v]) => gate.verdicts.get(id) !== v)
      .map(([id, v]) => `${id}: wstest ${v}, wsgate run ${gate.verdicts.get(id) ?? 'missing'}`);
    problems.push(...differ.map((d) => `wstest fuzzingclient vs wsgate run: ${d}`));
    rows.push(
      `| \`wstest -m fuzzingclient\` (one at a time) vs the bundled ws server | ${clientSide.size} | ${fmtN(viaWstest.wallS, 1)} | ${fmtN(clientSide.size / viaWstest.wallS)} | ${used?.[2] ?? '-'} | ${used?.[3] ?? '-'} | ${differ.length === 0 ? 'same as wsgate run' : `${differ.length} differ`} |`,
      `| \`wsgate run --server-url … --jobs 1\` | ${gate.cases} | ${fmtN(gate.wallS, 1)} | ${fmtN(gate.cases / gate.wallS)} | ${fmtN(gate.cpuS, 1)} | ${fmtN(gate.rssMiB, 0)} | |`,
    );
  }
  // Client role: wstest -m fuzzingserver driven by the bundled client, beside wsgate run (the same client, looping).
  const sport = await freePort();
  await writeFile(path.join(dir, 'fuzzingserver.json'), JSON.stringify({ url: `ws://127.0.0.1:${sport}`, outdir: './clients', cases: NOT_DEFLATE }));
  const fuzzingServer = spawn(process.execPath, [...NODE_FLAGS, WSTEST, '-m', 'fuzzingserver', '-s', 'fuzzingserver.json', '-u', '0'], {
    cwd: dir,
    stdio: 'ignore',
    env: LAUNCH_ENV,
  });
  await new Promise((r) => setTimeout(r, 1000));
  const loop = await timed(REFERENCE_CLIENT, [`ws://127.0.0.1:${sport}`, 'ws-client'], dir);
  fuzzingServer.kill('SIGTERM');
  await new Promise((r) => fuzzingServer.on('exit', r));
  const serverSide = await indexVerdicts(path.join(dir, 'clients/index.json'), 'ws-client');
  const gateClient = await runOnce(NOT_DEFLATE, path.join(dir, 'gate-clients'), 1);
  if (gateClient !== null) {
    const differ = [...serverSide]
      .filter(([id, v]) => gateClient.verdicts.get(id) !== v)
      .map(([id, v]) => `${id}: wstest ${v}, wsgate run ${gateClient.verdicts.get(id) ?? 'missing'}`);
    problems.push(...differ.map((d) => `wstest fuzzingserver vs wsgate run: ${d}`));
    rows.push(
      `| \`wstest -m fuzzingserver\` + the bundled client's loop | ${serverSide.size} | ${fmtN(loop.wallS, 1)} | ${fmtN(serverSide.size / loop.wallS)} | - | - | ${differ.length === 0 ? 'same as wsgate run' : `${differ.length} differ`} |`,
      `| \`wsgate run\` (the bundled client, --jobs 1) | ${gateClient.cases} | ${fmtN(gateClient.wallS, 1)} | ${fmtN(gateClient.cases / gateClient.wallS)} | ${fmtN(gateClient.cpuS, 1)} | ${fmtN(gateClient.rssMiB, 0)} | |`,
    );
  }
  process.stdout.write(
    `\n| wstest, 301 cases | cases | wall s | cases/s | wsgate CPU s | peak RSS MiB | verdicts |\n|---|---:|---:|---:|---:|---:|---|\n${rows.join('\n')}\n`,
  );
  return problems;
}

function tlsCells(r: RunResult): string {
  return `${fmtN(r.wallS, 1)} | ${fmtN(r.cases / r.wallS)} | ${fmtN(r.cpuS, 1)} | ${fmtN(r.clientCpuS, 1)} | ${fmtN(r.rssMiB)}`;
}

/** Runs the cases matching `patterns` with `jobs` and reads the summary. */
async function runOnce(
  patterns: string[],
  outdir: string,
  jobs: number,
  role: 'client' | 'server' = 'client',
  over: { tls?: boolean; http2?: boolean; robustness?: boolean; browser?: BrowserEngine; quick?: boolean } = {},
  serverUrl?: string,
): Promise<BrowserRun | null> {
  const args = [
    'run',
    '--outdir',
    outdir,
    // A browser plays its cases one after another: --jobs does not go with it.
    ...(over.browser === undefined ? ['--jobs', String(jobs)] : ['--browser', over.browser]),
    '--cases',
    ...patterns,
    ...(over.tls === true ? ['--tls'] : []),
    ...(over.http2 === true ? ['--http2'] : []),
    ...(over.robustness === true ? ['--robustness'] : []),
    ...(over.quick === true ? ['--quick'] : []),
  ];
  if (role === 'server') args.push(...(serverUrl === undefined ? ['--role', 'server'] : ['--server-url', serverUrl, '--agent', 'ws']));
  else args.push('--url', 'ws://127.0.0.1:0');
  if (values.client !== undefined && role === 'client' && over.browser === undefined) args.push('--client', values.client);
  if (values.agent !== undefined && role === 'client' && over.browser === undefined) args.push('--agent', values.agent);
  const t0 = performance.now();
  const code = await run(args);
  const wallS = (performance.now() - t0) / 1000;
  if (code !== 0 && code !== 1) {
    process.stderr.write(`${patterns.join(' ')} with --jobs ${jobs}: wsgate exited with ${code}\n`);
    return null;
  }
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as Summary;
  const mismatches: string[] = [];
  const verdicts = new Map<string, string>();
  const durations = new Map<string, number>();
  for (const c of summary.cases) {
    verdicts.set(c.id, `${c.behavior}/${c.behaviorClose}/${c.remoteCloseCode}`);
    durations.set(c.id, c.duration);
    // The original's verdicts are the ws client's: the server role has no reference here.
    const ref = role === 'server' || over.browser !== undefined ? undefined : reference?.cases[c.id];
    if (ref === undefined || WS_REFERENCE_EXCEPTIONS.has(c.id)) continue;
    if (ref.behavior !== c.behavior || ref.behaviorClose !== c.behaviorClose || ref.remoteCloseCode !== c.remoteCloseCode) {
      mismatches.push(
        `${c.id} (--jobs ${jobs}): ${c.behavior}/${c.behaviorClose}/${c.remoteCloseCode} (original ${ref.behavior}/${ref.behaviorClose}/${ref.remoteCloseCode})`,
      );
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
    verdicts,
    durations,
    mismatches,
    agent: summary.agent,
    interrupted: summary.interrupted,
    skipped: summary.counts.skipped,
  };
}

interface Row {
  group: string;
  one: RunResult;
  many: RunResult;
  originalS: number | null;
}

const jobs = values.jobs !== undefined ? Number(values.jobs) : defaultJobs();
const rows: Row[] = [];
const base = await mkdtemp(path.join(os.tmpdir(), 'wsgate-bench-'));
for (const group of groups) {
  const one = await runOnce([`${group}.*`], path.join(base, `group-${group}-jobs-1`), 1);
  const many = await runOnce([`${group}.*`], path.join(base, `group-${group}-jobs-${jobs}`), jobs);
  if (one === null || many === null) continue;
  let originalS: number | null = null;
  if (reference !== null) {
    originalS = 0;
    for (const c of catalogue) if (c.id.split('.')[0] === group) originalS += (reference.cases[c.id]?.duration ?? 0) / 1000;
  }
  rows.push({ group, one, many, originalS });
}
const whole = values.whole === true && values.groups === undefined && !serverOnly ? await runOnce(['*'], path.join(base, `whole-jobs-${jobs}`), jobs) : null;
const serverRole =
  values['server-role'] === true && values.groups === undefined && !tlsOnly
    ? await runOnce(['*'], path.join(base, `server-role-jobs-${jobs}`), jobs, 'server')
    : null;

const fmt = (n: number, d = 1): string => (Number.isFinite(n) ? n.toFixed(d) : '-');
const lines = [
  `wsgate bench: ${values.client ?? 'bundled ws client'} on ${os.cpus().length}x ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}; jobs ${jobs}`,
  '',
  `| group | cases | jobs 1 wall s | cases/s | wsgate CPU s | client CPU s | peak RSS MiB | jobs ${jobs} wall s | cases/s | wsgate CPU s | client CPU s | peak RSS MiB | speed-up | failed | verdicts jobs 1 = jobs ${jobs} | verdicts = original | original case time s |`,
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|',
];
const cells = (r: RunResult): string => `${fmt(r.wallS, 2)} | ${fmt(r.cases / r.wallS)} | ${fmt(r.cpuS, 2)} | ${fmt(r.clientCpuS, 2)} | ${fmt(r.rssMiB)}`;
const sameOriginal = (r: Row): string => (reference === null ? 'n/a' : r.one.mismatches.length + r.many.mismatches.length === 0 ? 'yes' : 'NO');
for (const r of rows) {
  lines.push(
    `| ${r.group} | ${r.one.cases} | ${cells(r.one)} | ${cells(r.many)} | ${fmt(r.one.wallS / r.many.wallS, 2)} | ${r.one.failed} | ${differences(r.one, r.many).length === 0 ? 'yes' : 'NO'} | ${sameOriginal(r)} | ${r.originalS === null ? '-' : fmt(r.originalS, 2)} |`,
  );
}
const total = (pick: (r: Row) => RunResult): RunResult => ({
  wallS: rows.reduce((a, r) => a + pick(r).wallS, 0),
  cpuS: rows.reduce((a, r) => a + pick(r).cpuS, 0),
  clientCpuS: rows.reduce((a, r) => a + pick(r).clientCpuS, 0),
  rssMiB: Math.max(...rows.map((r) => pick(r).rssMiB)),
  failed: rows.reduce((a, r) => a + pick(r).failed, 0),
  cases: rows.reduce((a, r) => a + pick(r).cases, 0),
  verdicts: new Map(rows.flatMap((r) => [...pick(r).verdicts])),
  durations: new Map(rows.flatMap((r) => [...pick(r).durations])),
  mismatches: rows.flatMap((r) => pick(r).mismatches),
});
if (rows.length > 0) {
  const one = total((r) => r.one);
  const many = total((r) => r.many);
  lines.push(
    `| **all groups** | ${one.cases} | ${cells(one)} | ${cells(many)} | ${fmt(one.wallS / many.wallS, 2)} | ${one.failed} | ${differences(one, many).length === 0 ? 'yes' : 'NO'} | ${reference === null ? 'n/a' : one.mismatches.length + many.mismatches.length === 0 ? 'yes' : 'NO'} | ${
      reference === null
        ? '-'
        : fmt(
            rows.reduce((a, r) => a + (r.originalS ?? 0), 0),
            2,
          )
    } |`,
  );
}
// --whole-only: the title line, then the whole run's table alone.
process.stdout.write(`${(rows.length > 0 ? lines : lines.slice(0, 1)).join('\n')}\n`);
const problems = rows.flatMap((r) => [...r.one.mismatches, ...r.many.mismatches, ...differences(r.one, r.many).map((d) => `jobs 1 vs ${jobs}: ${d}`)]);
if (whole !== null) {
  const sumOne = rows.reduce((a, r) => a + r.one.wallS, 0);
  process.stdout.write(
    `\n| whole selection, --jobs ${jobs} | cases | wall s | cases/s | wsgate CPU s | client CPU s | peak RSS MiB | failed | verdicts = original |\n|---|---:|---:|---:|---:|---:|---:|---:|---|\n` +
      `| one wsgate process | ${whole.cases} | ${cells(whole)} | ${whole.failed} | ${reference === null ? 'n/a' : whole.mismatches.length === 0 ? 'yes' : 'NO'} |\n`,
  );
  process.stdout.write(
    `\nWhole selection in one wsgate process, --jobs ${jobs}: ${whole.cases} cases in ${fmt(whole.wallS, 1)} s (${fmt(whole.cases / whole.wallS)} cases/s; ` +
      `${rows.length > 0 ? `${fmt(sumOne / whole.wallS, 2)}x the groups one by one with --jobs 1` : 'no group runs to compare'}), wsgate CPU ${fmt(whole.cpuS, 1)} s, client CPU ${fmt(whole.clientCpuS, 1)} s ` +
      `(wsgate ${fmt((100 * whole.cpuS) / whole.clientCpuS, 0)} % of the client's), peak RSS ${fmt(whole.rssMiB)} MiB, ${whole.failed} failed, ` +
      `verdicts = original: ${reference === null ? 'n/a' : whole.mismatches.length === 0 ? 'yes' : 'NO'}\n`,
  );
  problems.push(...whole.mismatches);
  if (rows.length > 0)
    problems.push(
      ...differences(
        total((r) => r.one),
        whole,
      ).map((d) => `groups with --jobs 1 vs whole: ${d}`),
    );
}
if (serverRole !== null) {
  const notOk = [...serverRole.verdicts].filter(([, v]) => !v.startsWith('OK/OK/')).map(([id, v]) => `${id} ${v.split('/').slice(0, 2).join('/')}`);
  process.stdout.write(
    `\n| server role: whole catalogue against the bundled ws server, --jobs ${jobs} | cases | wall s | cases/s | wsgate CPU s | server CPU s | peak RSS MiB | failed |\n|---|---:|---:|---:|---:|---:|---:|---:|\n` +
      `| one wsgate process (the fuzzing client) | ${serverRole.cases} | ${cells(serverRole)} | ${serverRole.failed} |\n` +
      `\nServer role, not OK/OK: ${notOk.length === 0 ? 'none' : notOk.join(', ')}\n`,
  );
  if (serverRole.failed > 0) problems.push(`server role: ${serverRole.failed} cases failed against the bundled ws server`);
}
if ((values.tls === true || values['tls-only'] === true) && !wstestOnly && values.groups === undefined) problems.push(...(await tlsSection(base, jobs)));
if ((values.wstest === true || values['wstest-only'] === true) && !http2Only && values.groups === undefined) problems.push(...(await wstestSection(base)));
if ((values.http2 === true || values['http2-only'] === true) && !robustnessOnly && values.groups === undefined) {
  const runs = Math.max(1, Math.floor(Number(values['http2-runs'])) || 1);
  const play = (role: 'client' | 'server', http2: boolean, outdir: string): Promise<RunResult | null> => runOnce(NOT_DEFLATE, outdir, jobs, role, { http2 });
  problems.push(...(await http2Section(play, base, jobs, runs)));
}
const onlyAnother = ['http2-only', 'wstest-only', 'tls-only', 'server-only'].some((k) => values[k as keyof typeof values] === true);
if (values['robustness-only'] === true || (values.robustness === true && !onlyAnother && !browsersOnly && values.groups === undefined)) {
  // The profile plays one case at a time unless --jobs says otherwise (wsgate run's default for it).
  const profileJobs = values.jobs === undefined ? 1 : jobs;
  problems.push(
    ...(await robustnessSection((role, outdir, http2) => runOnce(['*'], outdir, profileJobs, role, { robustness: true, http2 }), base, profileJobs)),
  );
}
if (!matrixOnly && (browsersOnly || (values.browsers === true && !onlyAnother && values['robustness-only'] !== true && values.groups === undefined))) {
  const play = (browser: BrowserEngine, quick: boolean, outdir: string): Promise<BrowserRun | null> => runOnce(['*'], outdir, 1, 'client', { browser, quick });
  problems.push(...(await browsersSection(play, base, values['browser-whole'] === true)));
}
if (matrixOnly || (values.matrix === true && !onlyAnother && !browsersOnly && values['robustness-only'] !== true && values.groups === undefined)) {
  const only = values['matrix-rows']?.split(',').map((n) => n.trim()) ?? null;
  const selection = values['matrix-cases'] === undefined ? ['--quick'] : ['--cases', ...values['matrix-cases'].split(',').map((c) => c.trim())];
  const matrixJobs = values.jobs === undefined ? [] : ['--jobs', values.jobs];
  const from = values['matrix-from'];
  if (from !== undefined) problems.push(...matrixTable(path.resolve(from), null, from));
  else problems.push(...(await matrixSection(CLI, NODE_FLAGS, LAUNCH_ENV, base, benchImplementations(only), [...selection, ...matrixJobs])));
}
if (problems.length > 0) process.stdout.write(`\nVerdicts that differ:\n${problems.map((m) => `  ${m}`).join('\n')}\n`);
const codec = codecThroughput();
process.stdout.write(`\n| hot path | MB/s |\n|---|---:|\n${codec.map(([name, rate]) => `| ${name} | ${rate.toFixed(0)} |`).join('\n')}\n`);
process.stdout.write(`\nreports: ${base}\n`);
process.exitCode = problems.length > 0 ? 1 : 0;
