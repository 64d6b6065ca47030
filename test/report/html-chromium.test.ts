/**
 * The index page of a real run in headless Chromium (Debian's chromium; .ci/install-chromium.sh):
 * it loads without console errors, the counts it shows equal index.json, a case link opens its
 * page, and a screenshot is kept in the test output; and where the matrix's first verdicts land on a
 * desktop and a phone screen.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fixture, fixtureCommand, runCli, runNode, startServer, tempDir } from '../support/harness.js';

/** Where tests keep files for a person (or a CI artifact upload) to look at: test-artifacts/, untracked. */
const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

/** Runs headless Chromium on a local file with extra arguments; resolves with stdout and stderr. */
async function chromium(extra: string[], file: string): Promise<{ stdout: string; stderr: string }> {
  assert.ok(CHROMIUM !== undefined, 'chromium is not installed: run .ci/install-chromium.sh');
  const profile = await tempDir('wsgate-chromium-');
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`, '--enable-logging=stderr', '--v=0', ...extra, `file://${file}`];
  return new Promise((resolve, reject) => {
    execFile(CHROMIUM, args, { timeout: 90_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err !== null && stdout === '' && !extra.some((a) => a.startsWith('--screenshot'))) reject(new Error(`chromium failed: ${err.message}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

/** Text of the cells of the first <tr> after the header in the agent summary table. */
function summaryCells(dom: string): string[] {
  const table = /<table id="agent_summary">([\s\S]*?)<\/table>/.exec(dom)?.[1] ?? '';
  const rows = [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => [...(m[1] ?? '').matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => c[1] ?? ''));
  return rows.find((r) => r.length > 0) ?? [];
}

test('index.html in headless Chromium: no console errors, the counts of index.json, working case links, a screenshot', async () => {
  const outdir = await tempDir();
  // 2.x against a client with a wrong pong: some cases fail, some pass, so the counts mean something.
  const res = await runCli(['run', '--client', fixtureCommand('wrong-pong'), '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', '1.1.1', '1.1.2', '2.1', '2.2', '2.3', '2.4']);
  assert.equal(res.code, 1, res.stderr);
  const index = JSON.parse(await readFile(path.join(outdir, 'index.json'), 'utf8')) as Record<string, Record<string, { behavior: string; reportfile: string }>>;
  const cases = Object.values(index)[0] ?? {};
  const count = (b: string): number => Object.values(cases).filter((c) => c.behavior === b).length;

  const page = path.join(outdir, 'index.html');
  const { stdout: dom, stderr } = await chromium(['--dump-dom'], page);
  assert.match(dom, /<table id="agent_case_results">/);
  assert.doesNotMatch(stderr, /CONSOLE|Failed to load resource|Refused to/, stderr.split('\n').filter((l) => /CONSOLE|Failed|Refused/.test(l)).join('\n'));

  const [, pass, nonStrict, fail, info, unimplemented] = summaryCells(dom);
  assert.deepEqual(
    [pass, nonStrict, fail, info, unimplemented].map(Number),
    [count('OK'), count('NON-STRICT'), count('FAILED'), count('INFORMATIONAL'), count('UNIMPLEMENTED')],
  );
  assert.ok(count('FAILED') > 0 && count('OK') > 0, JSON.stringify(cases));
  const failingRows = [...dom.matchAll(/class="agent_case_result_row[^"]*has_failure[^"]*"/g)].length;
  assert.equal(failingRows, count('FAILED'));

  // A case link opens that case's page.
  const href = /<td class="case_failed"><a href="([^"]+)">Fail<\/a>/.exec(dom)?.[1];
  assert.ok(href !== undefined, 'no link on a failed case');
  const target = Object.entries(cases).find(([, c]) => c.reportfile.replace(/\.json$/, '.html') === href);
  assert.ok(target !== undefined, `${href} is no case's report`);
  const { stdout: caseDom } = await chromium(['--dump-dom'], path.join(outdir, href));
  assert.match(caseDom, new RegExp(`Case ${target[0].replaceAll('.', '\\.')}`));

  const shot = path.join(outdir, 'index.png');
  await chromium(['--screenshot=' + shot, '--window-size=1280,1600', '--hide-scrollbars'], page);
  assert.ok((await stat(shot)).size > 10_000, 'the screenshot is empty');
  process.stdout.write(`# screenshot of index.html: ${shot}\n`);
});

/**
 * Where the first verdicts of the matrix land on screen, in a real browser (playwright-core drives
 * Debian's Chromium). A desktop window must show the first case's verdict cell of every agent
 * without scrolling; a phone the first agent's (the matrix may scroll sideways for the others).
 */
test('index.html shows verdicts without scrolling: 1280×800 (every agent), 390×844 (the first agent); a 1280×800 screenshot kept', async () => {
  assert.ok(CHROMIUM !== undefined, 'chromium is not installed: run .ci/install-chromium.sh');
  const { server, base, outdir } = await startServer(['1.1.1', '1.1.2', '2.1']);
  try {
    for (const agent of ['ws-8.23.0', 'a client with a rather long agent name/1.0', 'undici']) {
      for (let i = 1; i <= 3; i++) await runNode(fixture('spec-peer'), [`${base}/runCase?case=${i}&agent=${encodeURIComponent(agent)}`]);
    }
    await server.updateReports();
  } finally {
    await server.close();
  }
  const { chromium: pw } = await import('playwright-core');
  const browser = await pw.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  try {
    const page = await browser.newPage();
    for (const [width, height, agents] of [[1280, 800, 3], [390, 844, 1]] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`file://${path.join(outdir, 'index.html')}`);
      // The first case row: its id cell, then two cells (verdict, close code) per agent.
      const row = page.locator('#agent_case_results tr.agent_case_result_row').first();
      assert.equal(await row.locator('td.case').innerText(), 'Case 1.1.1');
      for (let a = 0; a < agents; a++) {
        const box = await row.locator('td').nth(1 + 2 * a).boundingBox();
        assert.ok(box !== null, `no verdict cell for agent ${a}`);
        const inside = box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height;
        assert.ok(inside, `${width}×${height}: the first verdict cell of agent ${a + 1} is at x ${Math.round(box.x)}..${Math.round(box.x + box.width)}, y ${Math.round(box.y)}..${Math.round(box.y + box.height)}`);
      }
      if (width === 1280) {
        await mkdir(ARTIFACTS, { recursive: true });
        const shot = path.join(ARTIFACTS, 'index-1280x800.png');
        await page.screenshot({ path: shot });
        assert.ok((await stat(shot)).size > 10_000, 'the screenshot is empty');
        process.stdout.write(`# screenshot of index.html at 1280×800: ${shot}\n`);
      }
    }
  } finally {
    await browser.close();
  }
});
