/**
 * `wsgate run --browser` (issue 43) over a real headless Chromium: the page plays the cases with the
 * browser's own WebSocket client and the reports name the engine and its version; the watchdog ends
 * a browser that is killed mid-run, a page that stalls, and a browser that never loads the page,
 * each within its bound, the cases it cost reported as not run with the reason (never as a verdict on
 * the browser), and no process of the browser's left behind. The broken browsers are real Chromium
 * started by test/fixtures/browsers/broken-browser.ts, each wrong in one way. Over wss:// too.
 * Firefox and WPE WebKit play a few cases where they are installed (.ci/install-browsers.sh; CI
 * runs the Chromium path only).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { agentFromVersion, discoverEngine, ENGINES } from '../../src/browsers/engines.js';
import { LOAD_FLOOR_S } from '../../src/drivers/browser.js';
import { isLive, procStat } from '../../src/processes/proc.js';
import { agentFileBase } from '../../src/report/files.js';
import { fileURLToPath } from 'node:url';
import { CLI, runCli, tempDir } from '../support/harness.js';
import { chromiumPath, needs } from '../support/requirements.js';

interface SummaryCase {
  id: string;
  status: string;
  reason: string;
}
interface Summary {
  agent: string;
  interrupted: string | null;
  result: string;
  cases: SummaryCase[];
}

const summaryOf = async (outdir: string): Promise<Summary> => JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as Summary;

/** Live processes whose command line names `marker` (a profile under the run's own TMPDIR). */
function processesNaming(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
      if (cmdline.includes(marker) && isLive(procStat(pid))) found.push(pid);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

const BROKEN_BROWSER = fileURLToPath(new URL('../fixtures/browsers/broken-browser.js', import.meta.url));

/** A --browser-path script that runs broken-browser.mjs in `mode` over Debian's Chromium. */
async function brokenBrowser(dir: string, mode: string): Promise<string> {
  const file = path.join(dir, `${mode}-browser`);
  const chromium = chromiumPath() ?? 'chromium';
  await writeFile(file, `#!/bin/sh\nexec '${process.execPath}' '${BROKEN_BROWSER}' ${mode} '${dir}' '${chromium}' "$@"\n`);
  await chmod(file, 0o755);
  return file;
}

/** Runs `wsgate run --browser chromium` with its temporary files (the profiles) under `tmp`. */
function runBrowserGate(args: string[], tmp: string, timeoutMs: number, onLine?: (line: string, child: ReturnType<typeof spawn>) => void) {
  return new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [CLI, 'run', '--browser', 'chromium', '--url', 'ws://127.0.0.1:0', ...args], {
      env: { ...process.env, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let partial = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      partial += d.toString();
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) onLine?.(line, child);
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`wsgate run --browser did not end within ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - t0 });
    });
  });
}

test("the engine's version names the agent: Chromium, Chrome, Firefox, WPE WebKit", () => {
  assert.equal(agentFromVersion(ENGINES.chromium, 'Chromium 156.0.8078.108 built on Debian GNU/Linux 12 (bookworm)\n'), 'Chromium/156.0.8078.108');
  assert.equal(agentFromVersion(ENGINES.chromium, 'Google Chrome 131.0.6778.85 \n'), 'Chrome/131.0.6778.85');
  assert.equal(agentFromVersion(ENGINES.firefox, 'Mozilla Firefox 153.8.0esr\n'), 'Firefox/153.8.0esr');
  assert.equal(agentFromVersion(ENGINES.webkit, '0.16.1 (WPE WebKit 2.38.6)\n'), 'WPE-WebKit/2.38.6');
  assert.equal(agentFromVersion(ENGINES.firefox, 'something else\n'), 'Firefox');
});

test('an engine is found on PATH, then at the absolute paths the distributions use', async () => {
  const dir = await tempDir();
  const fake = path.join(dir, 'firefox');
  await writeFile(fake, '#!/bin/sh\n');
  await chmod(fake, 0o755);
  const kind = { ...ENGINES.firefox, candidates: ['firefox-esr', 'firefox', path.join(dir, 'absent')] };
  assert.equal(discoverEngine(kind, { PATH: `/nonexistent:${dir}` }), fake);
  assert.equal(discoverEngine(kind, { PATH: '/nonexistent' }), null);
  assert.equal(discoverEngine({ ...kind, candidates: ['firefox-esr', fake] }, { PATH: '' }), fake);
});

test('a missing browser is a usage error: one line, exit 2, before anything listens', async () => {
  const outdir = await tempDir();
  const r = await runCli(['run', '--browser', 'firefox', '--browser-path', '/nonexistent/firefox', '--url', 'ws://127.0.0.1:0', '--outdir', outdir]);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr, 'wsgate: --browser-path: /nonexistent/firefox is not an executable file\n');
});

test('what does not go with --browser is a usage error', async () => {
  for (const [flags, message] of [
    [['--client', 'true'], /--browser does not go with --client: the browser is the client/],
    [['--jobs', '2'], /--browser does not go with --jobs/],
    [['--http2'], /--browser does not go with --http2/],
  ] as const) {
    const r = await runCli(['run', '--browser', 'chromium', '--url', 'ws://127.0.0.1:0', ...flags]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, message);
  }
  const firefoxTls = await runCli(['run', '--browser', 'firefox', '--tls', '--url', 'ws://127.0.0.1:0']);
  assert.equal(firefoxTls.code, 2, firefoxTls.stderr);
  assert.match(
    firefoxTls.stderr,
    /^wsgate: --browser does not go with --tls \(wss:\/\/\) for firefox: a fresh Firefox profile trusts a CA only through NSS's certutil/,
  );
  const stray = await runCli(['run', '--browser-path', '/usr/bin/chromium']);
  assert.equal(stray.code, 2);
  assert.equal(stray.stderr, 'wsgate: --browser-path goes with --browser chromium|firefox|webkit\n');
});

/** Plays a few cases in an engine beside Chromium; its agent is its name and version. */
async function playsIn(engine: 'firefox' | 'webkit', agent: RegExp, extra: string[] = []): Promise<void> {
  const tmp = await tempDir();
  const outdir = path.join(tmp, 'reports');
  const r = await runCli(['run', '--browser', engine, '--url', 'ws://127.0.0.1:0', '--cases', '1.1.1,2.1,5.1,6.2.1', '--outdir', outdir, ...extra], 90_000);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const summary = await summaryOf(outdir);
  assert.match(summary.agent, agent);
  assert.deepEqual(
    summary.cases.map((c) => [c.id, c.status]),
    ['1.1.1', '2.1', '5.1', '6.2.1'].map((id) => [id, 'passed']),
  );
}

test('Firefox plays the cases on the page, named Firefox/<version>', { skip: needs('firefox') }, () => playsIn('firefox', /^Firefox\/\d+\.\d+/));

test("WPE WebKit's cog plays the cases headless, over wss:// too", { skip: needs('webkit') }, async () => {
  await playsIn('webkit', /^(WPE-WebKit\/\d+\.\d+|WebKitGTK)/);
  await playsIn('webkit', /^(WPE-WebKit\/\d+\.\d+|WebKitGTK)/, ['--tls']);
});

// Two at a time: most of these wait on the watchdog's timers (30 s for a page that never loads, 6 s
// for a stall), and each run has a browser, a profile and a report directory of its own.
describe('Chromium under the watchdog', { skip: needs('chromium'), concurrency: 2 }, () => {
  test('a browser that never loads the page: ended after the load bound (the browser timeout, at least 30 s), every case not run, not launched again', async () => {
    const tmp = await tempDir();
    const outdir = path.join(tmp, 'reports');
    const browser = await brokenBrowser(tmp, 'blank');
    // A 3 s browser timeout is for stalls: loading still has LOAD_FLOOR_S.
    const r = await runBrowserGate(['--browser-path', browser, '--browser-timeout', '3', '--cases', '1.1.1,1.1.2', '--outdir', outdir], tmp, 90_000);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(await readFile(path.join(tmp, 'launches'), 'utf8'), 'x');
    // It waited the load bound, not the 3 s stall timeout (no bound above: one launch, asserted above, is the fact).
    assert.ok(r.ms >= LOAD_FLOOR_S * 1000, `${r.ms} ms`);
    const summary = await summaryOf(outdir);
    const why = `the browser did not load the page within ${LOAD_FLOOR_S} s`;
    assert.deepEqual(
      summary.cases.map((c) => [c.id, c.status, c.reason]),
      [
        ['1.1.1', 'skipped', `not run: ${why}`],
        ['1.1.2', 'skipped', `not run: ${why}`],
      ],
    );
    assert.equal(summary.interrupted, why);
    assert.match(r.stdout, new RegExp(`interrupted: ${why}`));
    assert.deepEqual(processesNaming(tmp), []);
  });

  test("plays the cases on the page, the agent its engine's name and version; nothing of it is left", async () => {
    const tmp = await tempDir();
    const outdir = path.join(tmp, 'reports');
    const r = await runBrowserGate(['--cases', '1.1.*,2.1,5.1', '--outdir', outdir], tmp, 60_000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const summary = await summaryOf(outdir);
    assert.match(summary.agent, /^Chromium\/\d+\.\d+\.\d+\.\d+$/);
    assert.equal(summary.interrupted, null);
    assert.deepEqual(
      summary.cases.map((c) => [c.id, c.status]),
      ['1.1.1', '1.1.2', '1.1.3', '1.1.4', '1.1.5', '1.1.6', '1.1.7', '1.1.8', '2.1', '5.1'].map((id) => [id, 'passed']),
    );
    const report = JSON.parse(await readFile(path.join(outdir, 'index.json'), 'utf8')) as Record<string, Record<string, { behavior: string }>>;
    assert.deepEqual(Object.keys(report), [summary.agent]);
    assert.equal(report[summary.agent]?.['1.1.8']?.behavior, 'OK');
    assert.deepEqual(processesNaming(tmp), []);
    // Its TMPDIR holds the reports and nothing else: Chromium's org.chromium.Chromium.* singleton
    // directory, which it leaves in $TMPDIR when it is ended, went with the profile.
    assert.deepEqual(readdirSync(tmp), ['reports']);
  });

  test("a TMPDIR too long for Chromium's singleton socket: the run passes, and nothing is left in it either", async () => {
    // Past 107 bytes a socket's path cannot be bound: Chromium runs without it and leaves an empty directory.
    const tmp = path.join(await tempDir(), 'a-directory-whose-name-makes-the-socket-path-too-long-for-a-unix-socket');
    await mkdir(tmp);
    const outdir = path.join(tmp, 'reports');
    const r = await runBrowserGate(['--cases', '1.1.1,1.1.2', '--outdir', outdir], tmp, 60_000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(readdirSync(tmp), ['reports']);
  });

  test("over wss://: the page over https, Chromium pinning the run's server key", async () => {
    const tmp = await tempDir();
    const outdir = path.join(tmp, 'reports');
    const r = await runBrowserGate(['--tls', '--cases', '1.1.1,2.1,5.1', '--outdir', outdir], tmp, 60_000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /headless, on https:\/\/127\.0\.0\.1:\d+\/\?autorun=1/);
    const summary = (await summaryOf(outdir)) as Summary & { tls?: { generated: boolean } };
    assert.equal(summary.tls?.generated, true);
    assert.deepEqual(
      summary.cases.map((c) => c.status),
      ['passed', 'passed', 'passed'],
    );
    const one = JSON.parse(await readFile(path.join(outdir, `${agentFileBase(summary.agent)}_case_1_1_1.json`), 'utf8')) as { tls?: { version: string } };
    assert.match(one.tls?.version ?? '', /^TLSv1\.[23]$/);
    assert.deepEqual(processesNaming(tmp), []);
  });

  test('a browser killed mid-run: the case it was in is not run, the browser is launched again at the next, the run fails', async () => {
    const tmp = await tempDir();
    const outdir = path.join(tmp, 'reports');
    let killed = 0;
    // 5.19 takes a second (a pause between its frames); 5.18's line comes as it starts (a result is held until the next case starts).
    const r = await runBrowserGate(['--cases', '5.18,5.19,5.20', '--outdir', outdir], tmp, 90_000, (line) => {
      if (killed > 0 || !line.includes('5.18')) return;
      const main = processesNaming(`--user-data-dir=${tmp}`).filter((pid) => !readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('--type='));
      assert.equal(main.length, 1, `one main Chromium process: ${main.join(', ')}`);
      process.kill(main[0] as number, 'SIGKILL');
      killed = main[0] as number;
    });
    assert.notEqual(killed, 0);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const summary = await summaryOf(outdir);
    const byId = new Map(summary.cases.map((c) => [c.id, c]));
    assert.equal(byId.get('5.18')?.status, 'passed');
    assert.equal(byId.get('5.19')?.status, 'skipped');
    assert.equal(byId.get('5.19')?.reason, 'not run: the browser exited (signal SIGKILL) during case 5.19');
    assert.equal(byId.get('5.20')?.status, 'passed');
    assert.equal(summary.interrupted, 'the browser exited (signal SIGKILL) during case 5.19; launched again at case 5.20');
    assert.equal(summary.result, 'failed');
    // The case not run has no report: its dropped connection is no verdict.
    const report = JSON.parse(await readFile(path.join(outdir, 'index.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(report[summary.agent] ?? {}).sort(), ['5.18', '5.20']);
    assert.deepEqual(processesNaming(tmp), []);
    assert.deepEqual(readdirSync(tmp), ['reports']);
  });

  test('a page that stalls between cases: ended after the browser timeout, launched again, at most twice; the cases it never reached are not run', async () => {
    const tmp = await tempDir();
    const outdir = path.join(tmp, 'reports');
    const browser = await brokenBrowser(tmp, 'hang');
    const r = await runBrowserGate(
      ['--browser-path', browser, '--browser-timeout', '6', '--cases', '1.1.1,1.1.2,1.1.3,1.1.4', '--outdir', outdir],
      tmp,
      90_000,
    );
    assert.equal(r.code, 1, r.stdout + r.stderr);
    // Three launches, each ended 6 s after its page stopped asking (the harness ends a run that hangs).
    assert.equal(await readFile(path.join(tmp, 'launches'), 'utf8'), 'xxx', r.stdout + r.stderr);
    const summary = await summaryOf(outdir);
    const stalled = 'the page stalled: nothing was asked within 6 s after the page loaded';
    assert.deepEqual(
      summary.cases.map((c) => [c.id, c.status, c.reason]),
      [
        ['1.1.1', 'passed', ''],
        ['1.1.2', 'passed', ''],
        ['1.1.3', 'skipped', `not run: ${stalled}`],
        ['1.1.4', 'skipped', `not run: ${stalled}`],
      ],
    );
    assert.equal(summary.interrupted, stalled);
    assert.match(r.stdout, /wsgate: warning: the page stalled: nothing was asked within 6 s after case 1\.1\.2 ended; launched again at case 1\.1\.3\n/);
    assert.match(r.stdout, /wsgate: warning: the page stalled: nothing was asked within 6 s after the page loaded; launched again at case 1\.1\.3\n/);
    assert.deepEqual(processesNaming(tmp), []);
  });

  test('a page that skips a case and ends as usual: that case is not run, and the run fails', async () => {
    const tmp = await tempDir();
    const outdir = path.join(tmp, 'reports');
    const browser = await brokenBrowser(tmp, 'skip');
    const r = await runBrowserGate(['--browser-path', browser, '--cases', '1.1.1,1.1.2,1.1.3', '--outdir', outdir], tmp, 60_000);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const summary = await summaryOf(outdir);
    assert.deepEqual(
      summary.cases.map((c) => [c.id, c.status, c.reason]),
      [
        ['1.1.1', 'passed', ''],
        ['1.1.2', 'skipped', 'not run: the page did not play this case'],
        ['1.1.3', 'passed', ''],
      ],
    );
    assert.equal(summary.interrupted, 'the page did not play 1 case (1.1.2)');
    assert.deepEqual(processesNaming(tmp), []);
  });

  test("the robustness profile: the browser's process tree measured in each attack case; a browser that dies during one fails it, and is launched again", async () => {
    const tmp = await tempDir();
    const outdir = path.join(tmp, 'reports');
    const browser = await brokenBrowser(tmp, 'die');
    // In catalogue order, 18.4.4 is the second: it trickles its 101 and never ends it, so the browser is still in it when it is killed, half a second in.
    const r = await runBrowserGate(['--browser-path', browser, '--robustness', '--cases', '18.4.5,18.4.4,18.3.1', '--outdir', outdir], tmp, 120_000);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(await readFile(path.join(tmp, 'launches'), 'utf8'), 'xx');
    const summary = await summaryOf(outdir);
    const byId = new Map(summary.cases.map((c) => [c.id, c]));
    assert.equal(byId.get('18.4.5')?.status, 'passed', byId.get('18.4.5')?.reason);
    assert.equal(byId.get('18.3.1')?.status, 'passed', byId.get('18.3.1')?.reason);
    // Dying of an attack is the attack's verdict, not a case not run.
    assert.equal(byId.get('18.4.4')?.status, 'failed');
    assert.match(byId.get('18.4.4')?.reason ?? '', /SIGKILL/);
    assert.equal(summary.interrupted, null);
    assert.match(r.stdout, /wsgate: warning: the browser exited \(signal SIGKILL\) during case 18\.4\.4; launched again at case 18\.4\.5\n/);
    for (const id of ['18.4.5', '18.3.1']) {
      const report = JSON.parse(await readFile(path.join(outdir, `${agentFileBase(summary.agent)}_case_${id.replace(/\./g, '_')}.json`), 'utf8')) as {
        figures?: Array<{ name: string; value: number | null }>;
      };
      const memory = report.figures?.find((f) => f.name === 'memory-growth-bytes');
      assert.equal(typeof memory?.value, 'number', `${id}: the browser's memory measured: ${JSON.stringify(report.figures)}`);
    }
    assert.deepEqual(processesNaming(tmp), []);
  });

  test('a page that moves on from a case whose connection it keeps (as Firefox does): the browser is ended only once that case ended on its own, with its verdict', async () => {
    const tmp = await tempDir();
    const outdir = path.join(tmp, 'reports');
    // This "browser" asks for the reports at once, while 18.4.4's trickled 101 is still open: ending
    // it then would end that connection for it, and pass the case.
    const browser = await brokenBrowser(tmp, 'overlap');
    const r = await runBrowserGate(
      ['--browser-path', browser, '--robustness', '--budget', 'stall=3s', '--cases', '18.4.4,18.4.5', '--outdir', outdir],
      tmp,
      60_000,
    );
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(await readFile(path.join(tmp, 'launches'), 'utf8'), 'x');
    const summary = await summaryOf(outdir);
    assert.equal(summary.interrupted, null);
    assert.deepEqual(
      summary.cases.map((c) => [c.id, c.status]),
      [
        ['18.4.4', 'failed'],
        ['18.4.5', 'passed'],
      ],
    );
    assert.match(summary.cases[0]?.reason ?? '', /kept the trickled response open past the stall budget.*wsgate dropped it/);
    // Its console line comes after the case the page played later.
    assert.ok(r.stdout.indexOf('18.4.4   FAILED') > r.stdout.indexOf('18.4.5   OK'), r.stdout);
    // Its memory window ended when the page moved on (18.4.5's start), not at its drop 3 s later
    // (about 30 samples): what the browser does next is the next case's.
    const one = JSON.parse(await readFile(path.join(outdir, `${agentFileBase(summary.agent)}_case_18_4_4.json`), 'utf8')) as { result: string };
    const samples = Number(/, ([\d,]+) samples?\)/.exec(one.result)?.[1]?.replace(/,/g, '') ?? 'NaN');
    assert.ok(samples >= 1 && samples < 10, one.result);
    assert.deepEqual(processesNaming(tmp), []);
  });
});
