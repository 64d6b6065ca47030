/**
 * /updateReports answers only once every report is on disk, for `wstest -m fuzzingserver` and for
 * `wsgate serve`, whoever closes first: real `ws` clients over TCP play 517 cases' results (three
 * agents, groups 1-7 and 10 without the slow 6.4), then ask for the reports and look at the files
 * (a) when the close they started themselves completes, (b) the moment their dial returns, without
 * closing, and (c) after SIGKILLing the server right after their close. The report directory is
 * emptied before each, so each looks at that request's files only. Finally a SIGKILL in the middle
 * of a write leaves every file absent or whole, and index.json, when present, names only files that
 * are there (it is written last).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import WebSocket from 'ws';
import { CLI, tempDir } from '../support/harness.js';
import { startWstest, type WstestProcess } from '../support/wstest.js';

const RESULTS = 517;
const FAST_GROUPS = ['1.*', '2.*', '3.*', '4.*', '5.*', '6.*', '7.*', '10.*'];
const SLOW = ['6.4.*'];

type Index = Record<string, Record<string, { behavior: string; reportfile: string }>>;

/** Plays agents agent0, agent1, … at once, each looping over the cases, until `RESULTS` cases have been played in all. */
async function playResults(base: string): Promise<number> {
  const count = await new Promise<number>((resolve, reject) => {
    const ws = new WebSocket(`${base}/getCaseCount`);
    ws.on('message', (d) => resolve(Number(String(d))));
    ws.on('error', reject);
  });
  const agents = Math.ceil(RESULTS / count);
  await Promise.all(
    Array.from({ length: agents }, async (_, a) => {
      const n = Math.min(count, RESULTS - a * count);
      for (let i = 1; i <= n; i++) {
        await new Promise<void>((resolve) => {
          const ws = new WebSocket(`${base}/runCase?case=${i}&agent=agent${a}`, { maxPayload: 64 * 1024 * 1024 });
          ws.on('message', (d, binary) => ws.send(d, { binary }));
          ws.on('close', () => resolve());
          ws.on('error', () => undefined);
        });
      }
    }),
  );
  return count;
}

/** What is wrong with the report set in outdir (an empty list: index.json there, naming RESULTS cases, each file there and whole). */
function problemsOf(outdir: string): string[] {
  const indexFile = path.join(outdir, 'index.json');
  if (!existsSync(indexFile)) return [`no index.json (${existsSync(outdir) ? readdirSync(outdir).length : 0} files in the directory)`];
  const problems: string[] = [];
  const index = JSON.parse(readFileSync(indexFile, 'utf8')) as Index;
  let n = 0;
  for (const [agent, cases] of Object.entries(index)) {
    for (const [id, row] of Object.entries(cases)) {
      n++;
      const json = path.join(outdir, row.reportfile);
      const html = json.replace(/\.json$/, '.html');
      if (!existsSync(json) || !existsSync(html)) {
        problems.push(`${agent} ${id}: ${row.reportfile} or its .html missing`);
        continue;
      }
      const report = JSON.parse(readFileSync(json, 'utf8')) as { id: string; behavior: string };
      if (report.id !== id || report.behavior !== row.behavior) problems.push(`${agent} ${id}: the report says ${report.id} ${report.behavior}`);
      if (!readFileSync(html, 'utf8').trimEnd().endsWith('</html>')) problems.push(`${agent} ${id}: the .html is cut short`);
    }
  }
  if (n !== RESULTS) problems.push(`index.json has ${n} results, not ${RESULTS}`);
  if (!existsSync(path.join(outdir, 'index.html'))) problems.push('no index.html');
  const stray = readdirSync(outdir).filter((f) => f.startsWith('.wsgate-tmp-'));
  if (stray.length > 0) problems.push(`temporary files left: ${stray.join(' ')}`);
  return problems;
}

function emptyDirectory(dir: string): void {
  for (const f of readdirSync(dir)) rmSync(path.join(dir, f), { recursive: true, force: true });
}

/** (a) Closes first as soon as the 101 is in; reads the set when its close handshake completes. Resolves with the problems and the ms from request to 101. */
function closeFirst(base: string, outdir: string): Promise<{ problems: string[]; answerMs: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let answerMs = -1;
    const ws = new WebSocket(`${base}/updateReports?agent=agent0`);
    ws.on('upgrade', () => (answerMs = performance.now() - t0));
    ws.on('open', () => ws.close(1000));
    ws.on('close', () => resolve({ problems: problemsOf(outdir), answerMs }));
    ws.on('error', reject);
  });
}

/** (b) Reads the set the moment the dial returns (the 101 is in), without closing. */
function readOnDial(base: string, outdir: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base}/updateReports?agent=agent1`);
    ws.on('upgrade', () => {
      const problems = problemsOf(outdir);
      ws.terminate();
      resolve(problems);
    });
    ws.on('error', reject);
  });
}

/** (c) Closes first, and SIGKILLs the server (Go's Process.Kill) the moment the close completes. */
function killAtClose(base: string, server: { kill(): void; exited: Promise<unknown> }): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base}/updateReports?agent=agent2`);
    ws.on('open', () => ws.close(1000));
    ws.on('close', () => {
      server.kill();
      void server.exited.then(() => resolve());
    });
    ws.on('error', reject);
  });
}

async function theThreeClients(base: string, outdir: string, server: { kill(): void; exited: Promise<unknown> }): Promise<number> {
  const count = await playResults(base);
  assert.ok(count > 150, `${count} cases selected`);
  emptyDirectory(outdir);
  const a = await closeFirst(base, outdir);
  assert.deepEqual(a.problems, [], '(a) a client that closes first right after the 101');
  // index.json is the last file written: its presence means the set is whole. (Files written within
  // one tick of the file system's clock share an mtime: no file may be newer than index.json.)
  const indexTime = statSync(path.join(outdir, 'index.json')).mtimeMs;
  const newer = readdirSync(outdir).filter((f) => statSync(path.join(outdir, f)).mtimeMs > indexTime);
  assert.deepEqual(newer, [], 'no file written after index.json');
  emptyDirectory(outdir);
  assert.deepEqual(await readOnDial(base, outdir), [], '(b) a client that reads when its dial returns');
  emptyDirectory(outdir);
  await killAtClose(base, server);
  assert.deepEqual(problemsOf(outdir), [], '(c) SIGKILL right after the close');
  return a.answerMs;
}

test(`wstest -m fuzzingserver: every report of ${RESULTS} results is on disk before /updateReports answers (close first, read on dial, SIGKILL at close)`, async () => {
  const dir = await tempDir('wsgate-reports-');
  writeFileSync(
    path.join(dir, 'spec.json'),
    JSON.stringify({ url: 'ws://127.0.0.1:0', outdir: './reports/clients', cases: FAST_GROUPS, 'exclude-cases': SLOW }),
  );
  const wstest: WstestProcess = await startWstest(['--mode', 'fuzzingserver', '--spec', 'spec.json', '--webport=0'], dir);
  try {
    const answerMs = await theThreeClients(`ws://127.0.0.1:${wstest.port}`, path.join(dir, 'reports/clients'), {
      kill: () => wstest.child.kill('SIGKILL'),
      exited: wstest.exited,
    });
    process.stderr.write(`# wstest: /updateReports answered ${Math.round(answerMs)} ms after the request, ${RESULTS} results on disk\n`);
  } finally {
    wstest.child.kill('SIGKILL');
  }
});

test(`wsgate serve: every report of ${RESULTS} results is on disk before /updateReports answers (close first, read on dial, SIGKILL at close)`, async () => {
  const outdir = await tempDir('wsgate-reports-');
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', ...FAST_GROUPS, '--exclude-cases', ...SLOW],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<unknown>((resolve) => child.on('exit', resolve));
  try {
    let out = '';
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /Fuzzing Server \(Port (\d+)\)/.exec(out);
        if (m !== null) resolve(Number(m[1]));
      });
      void exited.then(() => reject(new Error(`wsgate serve exited before listening: ${out}`)));
    });
    const answerMs = await theThreeClients(`ws://127.0.0.1:${port}`, outdir, { kill: () => child.kill('SIGKILL'), exited });
    process.stderr.write(`# wsgate serve: /updateReports answered ${Math.round(answerMs)} ms after the request, ${RESULTS} results on disk\n`);
  } finally {
    child.kill('SIGKILL');
  }
});

test('a SIGKILL in the middle of writing the reports leaves every file absent or whole, and index.json names only files that are there', async () => {
  const dir = await tempDir('wsgate-reports-');
  writeFileSync(path.join(dir, 'spec.json'), JSON.stringify({ url: 'ws://127.0.0.1:0', outdir: './out', cases: FAST_GROUPS, 'exclude-cases': SLOW }));
  const wstest = await startWstest(['-m', 'fuzzingserver', '-s', 'spec.json', '-u', '0'], dir);
  const outdir = path.join(dir, 'out');
  try {
    const base = `ws://127.0.0.1:${wstest.port}`;
    await playResults(base);
    // How long a write takes here, then a kill at about a third of it.
    emptyDirectory(outdir);
    const { answerMs } = await closeFirst(base, outdir);
    emptyDirectory(outdir);
    const ws = new WebSocket(`${base}/updateReports?agent=agent0`);
    ws.on('error', () => undefined);
    await new Promise((r) => setTimeout(r, Math.max(50, answerMs / 3)));
    wstest.child.kill('SIGKILL');
    await wstest.exited;
    const files = readdirSync(outdir);
    const reports = files.filter((f) => /_case_[0-9_]+\.json$/.test(f));
    assert.ok(reports.length > 0 && reports.length < RESULTS, `killed mid-write: ${reports.length} of ${RESULTS} case reports were written`);
    assert.ok(!files.includes('index.json'), 'index.json is written last');
    for (const f of files) {
      if (f.startsWith('.wsgate-tmp-')) continue;
      const text = readFileSync(path.join(outdir, f), 'utf8');
      if (f.endsWith('.json')) assert.doesNotThrow(() => JSON.parse(text), `${f} is whole`);
      else assert.ok(text.trimEnd().endsWith('</html>'), `${f} is whole`);
    }
  } finally {
    wstest.child.kill('SIGKILL');
  }
});
