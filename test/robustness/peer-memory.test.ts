/**
 * The peer's memory and liveness in the robustness profile, through the real CLI over real TCP: a
 * client of our own that allocates 300 MiB when its case opens is FAILED with the figure first under
 * the case's own budget (32 MiB for a length header), or the run's `--budget memory=` when lower, and
 * passes the bomb case, whose only budget is the run's, when that is roomy; a looping client that dies during 18.3.1
 * has that case FAILED with its error line and the rest not run; the bundled ws client and server show
 * a figure of a sane size beside the budget; a server wsgate did not start (--server-url) is found by
 * the socket it listens on and measured, the report saying so; a client that came by itself (serve)
 * is said not to be measured.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCliWith, type SummaryCase } from '../support/cli-env.js';
import { startServer } from '../../src/api.js';
import { fixtureCommand, REFERENCE_CLIENT, runNode, tempDir } from '../support/harness.js';

const REFERENCE_SERVER = fileURLToPath(new URL('../../src/bundled/reference-server.js', import.meta.url));

interface Run {
  code: number | null;
  out: string;
  cases: Map<string, SummaryCase>;
  report: (file: string) => Promise<Report>;
  text: (file: string) => Promise<string>;
}

interface Report {
  behavior: string;
  result: string;
  figures?: { name: string; value: number; unit: string; budget: number | null; over: boolean }[];
}

/** `wsgate run --robustness ARGS` into a fresh report directory. */
async function robustness(args: string[]): Promise<Run> {
  const outdir = await tempDir();
  const res = await runCliWith(['run', '--robustness', '--url', 'ws://127.0.0.1:0', '--outdir', outdir, ...args], { timeoutMs: 60_000 });
  const out = res.stdout + res.stderr;
  assert.ok(res.code === 0 || res.code === 1, out);
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as { cases: SummaryCase[] };
  const text = (file: string): Promise<string> => readFile(path.join(outdir, file), 'utf8');
  const report = async (file: string): Promise<Report> => JSON.parse(await text(file)) as Report;
  return { code: res.code, out, cases: new Map(summary.cases.map((c) => [c.id, c])), report, text };
}

/** The figure in a result: growth, budget and the resident set at the start, in MiB. */
function figure(text: string): { growth: number; budget: number; start: number } {
  const m = /the peer's process tree grew by ([\d.]+) MiB at its peak \(budget ([\d.]+) MiB; resident ([\d.]+) MiB at the start/.exec(text);
  assert.ok(m, `no memory figure in: ${text}`);
  return { growth: Number(m[1]), budget: Number(m[2]), start: Number(m[3]) };
}

test("a client that allocates 300 MiB when its case opens: FAILED under the case's own budget, or the run's when lower; passes a case whose only budget is a roomy run's", async () => {
  for (const [budget, expected] of [
    [[], 32],
    [['--budget', 'memory=1GiB'], 32],
    [['--budget', 'memory=16MiB'], 16],
  ] as const) {
    const tight = await robustness(['--client', fixtureCommand('grows-on-open'), '--cases', '18.3.1', ...budget]);
    assert.equal(tight.code, 1, tight.out);
    assert.equal(tight.cases.get('18.3.1')?.status, 'failed', tight.out);
    const report = await tight.report('client_case_18_3_1.json');
    assert.equal(report.behavior, 'FAILED');
    // Over on memory, with its figure: on a busy machine a late close can be over budget too, and worded first.
    assert.equal(report.figures?.find((f) => f.name === 'memory-growth-bytes')?.over, true, report.result);
    const over = figure(report.result);
    assert.equal(over.budget, expected, budget.join(' '));
    assert.ok(over.growth >= 250 && over.growth < 600, report.result);
    // The same figure, structured: in the JSON (over; a late close on a busy machine is the only other figure
    // that may be), the HTML (marked) and the console line.
    const figures = report.figures ?? [];
    assert.deepEqual(
      figures.filter((f) => f.over && f.name !== 'connection-ms').map((f) => f.name),
      ['memory-growth-bytes'],
    );
    const memory = figures.find((f) => f.name === 'memory-growth-bytes');
    assert.equal(memory?.budget, expected * 1024 * 1024);
    assert.equal(memory?.unit, 'bytes');
    assert.ok(Math.abs((memory?.value ?? 0) / 1024 / 1024 - over.growth) < 0.1, JSON.stringify(memory));
    const html = await tight.text('client_case_18_3_1.html');
    assert.match(html, /<tr class="figure over"[^>]*data-name="memory-growth-bytes">.*<b>over budget<\/b>/);
    assert.match(
      tight.out,
      new RegExp(`over: (.*; )?memory-growth-bytes: [\\d,]+ bytes \\([\\d.]+ MiB\\) \\(budget [\\d,]+ bytes \\(${expected}\\.0 MiB\\), over\\)`),
    );
  }

  // The bomb (18.2.1) has no budget of its own (a peer may hold up to its message limit): the run's.
  const roomy = await robustness(['--client', fixtureCommand('grows-on-open'), '--cases', '18.2.1', '--budget', 'memory=1GiB']);
  assert.equal(roomy.code, 0, roomy.out);
  const passed = (await roomy.report('client_case_18_2_1.json')).result;
  assert.match(passed, /Measured: the peer's process tree grew by/);
  assert.equal(figure(passed).budget, 1024);
  assert.ok(figure(passed).growth >= 250, passed);
});

test('a looping client that dies during 18.3.1: that case FAILED with its error line, the rest not run with the reason', async () => {
  const run = await robustness(['--client', fixtureCommand('loops-dies-on-error', '{url} crashy'), '--client-loops', '--cases', '18.3.*']);
  assert.equal(run.code, 1, run.out);
  const died = run.cases.get('18.3.1');
  assert.equal(died?.status, 'failed', run.out);
  assert.match(
    died?.reason ?? '',
    /the client process died during the case \(undici CVE-2026-1528\): it exited with status 1: RangeError: deliberate crash on a connection error/,
  );
  const report = await run.report('crashy_case_18_3_1.json');
  assert.equal(report.behavior, 'FAILED');
  assert.match(report.result, /^the client process died during the case .*The case's own verdict was OK/);
  for (const id of ['18.3.2', '18.3.3']) {
    assert.equal(run.cases.get(id)?.status, 'skipped', run.out);
    assert.match(
      run.cases.get(id)?.reason ?? '',
      /^not run: the client process died during case 18\.3\.1 \(it exited with status 1: RangeError.*so it is not restarted/,
    );
  }
});

test('the bundled ws client and server: every case shows its memory figure beside the budget, of a sane size', async () => {
  const client = await robustness(['--cases', '18.2.1', '18.3.1']);
  assert.equal(client.code, 0, client.out);
  // ws holds the bomb up to its 100 MiB limit before it refuses it (196-205 MiB measured).
  const bomb = figure((await client.report('wsgate_reference_ws_case_18_2_1.json')).result);
  assert.ok(bomb.growth >= 50 && bomb.growth < 512, JSON.stringify(bomb));
  const header = figure((await client.report('wsgate_reference_ws_case_18_3_1.json')).result);
  assert.ok(header.start >= 20 && header.start < 1024, JSON.stringify(header));

  const server = await robustness(['--role', 'server', '--cases', '17.2.1']);
  assert.equal(server.code, 0, server.out);
  const length = figure((await server.report('wsgate_reference_ws_case_17_2_1.json')).result);
  assert.ok(length.start >= 20 && length.start < 1024 && length.growth < 64, JSON.stringify(length));
});

test('a server wsgate did not start (--server-url) on this machine is found by its listening socket and measured; the report says how it was found', async () => {
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(p));
    });
  });
  const child = spawn(process.execPath, [REFERENCE_SERVER, String(port)], { stdio: 'ignore' });
  try {
    const run = await robustness(['--server-url', `ws://127.0.0.1:${port}`, '--server-start-timeout', '10', '--agent', 'remote', '--cases', '17.2.1']);
    assert.equal(run.code, 0, run.out);
    const result = (await run.report('remote_case_17_2_1.json')).result;
    assert.match(
      result,
      new RegExp(
        `Measured: the peer's process tree \\(pid ${child.pid}, node, found by its socket listening on port ${port}: wsgate did not start it\\) grew by `,
      ),
    );
  } finally {
    child.kill();
  }
});

test("serve (startServer): a client that came by itself is no process of wsgate's, and its robustness report says its memory was not measured", async () => {
  const outdir = await tempDir();
  const server = await startServer({ url: 'ws://127.0.0.1:0', outdir, robustness: true, cases: ['18.3.1'] });
  try {
    const client = await runNode(REFERENCE_CLIENT, [server.url, 'came-by-itself']);
    assert.equal(client.code, 0, client.stderr);
  } finally {
    await server.close();
  }
  const report = JSON.parse(await readFile(path.join(outdir, 'came_by_itself_case_18_3_1.json'), 'utf8')) as { behavior: string; result: string };
  assert.equal(report.behavior, 'OK');
  assert.match(report.result, /The peer's memory was not measured \(wsgate did not start it\)\.$/);
});
