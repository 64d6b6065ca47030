/**
 * The index page of a real run in headless Chromium (Debian's chromium; .ci/install-chromium.sh):
 * it loads without console errors, the counts it shows equal index.json, a case link opens its
 * page, and a screenshot is kept in the test output; where the matrix's first verdicts land on a
 * desktop and a phone screen; that a run of a subset shows its cases and no other, and that a run
 * with failures opens on its causes and failing rows (element boxes measured at 1280×800, screenshots
 * kept in test-artifacts/).
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { headless, launchBrowser } from '../support/chromium.js';
import { fixture, fixtureCommand, runCli, runNode, startServer, tempDir } from '../support/harness.js';
import { needs } from '../support/requirements.js';

/** Where tests keep files for a person (or a CI artifact upload) to look at: test-artifacts/, untracked. */
const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));

/** Runs headless Chromium on a local file with extra arguments, its console on stderr; resolves with stdout and stderr. */
function chromium(extra: string[], file: string): Promise<{ stdout: string; stderr: string }> {
  // A screenshot run prints nothing on stdout.
  return headless(['--enable-logging=stderr', '--v=0', ...extra], file, { tolerateFailure: extra.some((a) => a.startsWith('--screenshot')) });
}

/** Text of the cells of the first <tr> after the header in the agent summary table. */
function summaryCells(dom: string): string[] {
  const table = /<table id="agent_summary">([\s\S]*?)<\/table>/.exec(dom)?.[1] ?? '';
  const rows = [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => [...(m[1] ?? '').matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => c[1] ?? ''));
  return rows.find((r) => r.length > 0) ?? [];
}

test('index.html in headless Chromium: no console errors, the counts of index.json, working case links, a screenshot', {
  skip: needs('chromium'),
}, async () => {
  const outdir = await tempDir();
  // 2.x against a client with a wrong pong: some cases fail, some pass, so the counts mean something.
  const res = await runCli([
    'run',
    '--client',
    fixtureCommand('wrong-pong'),
    '--url',
    'ws://127.0.0.1:0',
    '--outdir',
    outdir,
    '--cases',
    '1.1.1',
    '1.1.2',
    '2.1',
    '2.2',
    '2.3',
    '2.4',
  ]);
  assert.equal(res.code, 1, res.stderr);
  const index = JSON.parse(await readFile(path.join(outdir, 'index.json'), 'utf8')) as Record<string, Record<string, { behavior: string; reportfile: string }>>;
  const cases = Object.values(index)[0] ?? {};
  const count = (b: string): number => Object.values(cases).filter((c) => c.behavior === b).length;

  const page = path.join(outdir, 'index.html');
  const { stdout: dom, stderr } = await chromium(['--dump-dom'], page);
  assert.match(dom, /<table id="agent_case_results">/);
  assert.doesNotMatch(
    stderr,
    /CONSOLE|Failed to load resource|Refused to/,
    stderr
      .split('\n')
      .filter((l) => /CONSOLE|Failed|Refused/.test(l))
      .join('\n'),
  );

  const [, pass, nonStrict, fail, info, unimplemented] = summaryCells(dom);
  assert.deepEqual([pass, nonStrict, fail, info, unimplemented].map(Number), [
    count('OK'),
    count('NON-STRICT'),
    count('FAILED'),
    count('INFORMATIONAL'),
    count('UNIMPLEMENTED'),
  ]);
  assert.ok(count('FAILED') > 0 && count('OK') > 0, JSON.stringify(cases));
  const failingRows = [...dom.matchAll(/class="agent_case_result_row[^"]*has_failure[^"]*"/g)].length;
  assert.equal(failingRows, count('FAILED'));

  // A case link opens that case's page.
  const href = /<td class="case_failed"[^>]*><a href="([^"]+)">Fail<\/a>/.exec(dom)?.[1];
  assert.ok(href !== undefined, 'no link on a failed case');
  const target = Object.entries(cases).find(([, c]) => c.reportfile.replace(/\.json$/, '.html') === href);
  assert.ok(target !== undefined, `${href} is no case's report`);
  const { stdout: caseDom } = await chromium(['--dump-dom'], path.join(outdir, href));
  assert.match(caseDom, new RegExp(`Case ${target[0].replaceAll('.', '\\.')}`));

  const shot = path.join(outdir, 'index.png');
  await chromium([`--screenshot=${shot}`, '--window-size=1280,1600', '--hide-scrollbars'], page);
  assert.ok((await stat(shot)).size > 10_000, 'the screenshot is empty');
  process.stdout.write(`# screenshot of index.html: ${shot}\n`);
});

/**
 * Where the first verdicts of the matrix land on screen, in a real browser (playwright-core drives
 * Debian's Chromium). A desktop window must show the first case's verdict cell of every agent
 * without scrolling; a phone the first agent's (the matrix may scroll sideways for the others).
 */
test('index.html shows verdicts without scrolling: 1280×800 (every agent), 390×844 (the first agent); a 1280×800 screenshot kept', {
  skip: needs('chromium'),
}, async () => {
  // Cases the spec peer passes: nothing failed, so the page opens on the matrix (a run with a failure
  // opens on its causes first: see the last test).
  const { server, base, outdir } = await startServer(['1.1.1', '1.1.2', '6.9.2']);
  try {
    for (const agent of ['ws-8.23.0', 'a client with a rather long agent name/1.0', 'undici']) {
      for (let i = 1; i <= 3; i++) await runNode(fixture('spec-peer'), [`${base}/runCase?case=${i}&agent=${encodeURIComponent(agent)}`]);
    }
    await server.updateReports();
  } finally {
    await server.close();
  }
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    for (const [width, height, agents] of [
      [1280, 800, 3],
      [390, 844, 1],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`file://${path.join(outdir, 'index.html')}`);
      // The first case row: its id cell, then two cells (verdict, close code) per agent.
      const row = page.locator('#agent_case_results tr.agent_case_result_row').first();
      assert.equal(await row.locator('td.case').innerText(), 'Case 1.1.1');
      assert.equal(await page.locator('#failure_causes').count(), 0, 'a case failed');
      for (let a = 0; a < agents; a++) {
        const box = await row
          .locator('td')
          .nth(1 + 2 * a)
          .boundingBox();
        assert.ok(box !== null, `no verdict cell for agent ${a}`);
        const inside = box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height;
        assert.ok(
          inside,
          `${width}×${height}: the first verdict cell of agent ${a + 1} is at x ${Math.round(box.x)}..${Math.round(box.x + box.width)}, y ${Math.round(box.y)}..${Math.round(box.y + box.height)}`,
        );
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

/** A matrix row as Chromium lays it out: its kind, first cell's text, and where it is (display: none rows are left out). */
interface LaidOutRow {
  kind: 'category' | 'subcategory' | 'case';
  text: string;
  top: number;
  bottom: number;
}

/** Opens an index.html at 1280×800 in Chromium and hands the page to `use`. */
async function atDesktop<T>(file: string, use: (page: import('playwright-core').Page) => Promise<T>): Promise<T> {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`file://${file}`);
    return await use(page);
  } finally {
    await browser.close();
  }
}

/** The matrix rows Chromium shows, in order, with their boxes in page coordinates. */
function laidOutRows(page: import('playwright-core').Page): Promise<LaidOutRow[]> {
  return page.$$eval('#agent_case_results tr', (trs) => {
    // The page's scroll offset (this runs in the page, where globalThis is its window).
    const scrollY = (): number => (globalThis as unknown as { scrollY: number }).scrollY;
    return trs
      .filter((tr) => tr.getClientRects().length > 0)
      .map((tr) => {
        const box = tr.getBoundingClientRect();
        const kind = tr.classList.contains('case_category_row') ? 'category' : tr.classList.contains('case_subcategory_row') ? 'subcategory' : 'case';
        return { kind, text: (tr.firstElementChild?.textContent ?? '').trim(), top: box.top + scrollY(), bottom: box.bottom + scrollY() } as const;
      });
  });
}

/** Keeps a 1280×800 screenshot of the page as it is now, in test-artifacts/. */
async function keepScreenshot(page: import('playwright-core').Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  const shot = path.join(ARTIFACTS, name);
  await page.screenshot({ path: shot });
  assert.ok((await stat(shot)).size > 10_000, 'the screenshot is empty');
  process.stdout.write(`# screenshot: ${shot}\n`);
}

/**
 * Every heading row is followed by a case row of its own group before the next category heading (no
 * empty group), and the rows touch each other from the table's top down (no blank band).
 */
function assertNoEmptyHeadingNorBand(rows: readonly LaidOutRow[], tableTop: number): void {
  rows.forEach((row, i) => {
    if (row.kind === 'case') return;
    const next = rows.slice(i + 1).find((r) => r.kind !== 'subcategory' || row.kind === 'subcategory');
    assert.ok(next?.kind === 'case' || (row.kind === 'category' && next?.kind === 'subcategory'), `the heading "${row.text}" has no case under it`);
    if (row.kind === 'category' && rows[i + 1]?.kind === 'subcategory')
      assert.equal(rows[i + 2]?.kind, 'case', `the heading "${rows[i + 1]?.text ?? ''}" has no case under it`);
  });
  assert.ok(Math.abs((rows[0]?.top ?? Infinity) - tableTop) <= 2, `the first row is ${Math.round((rows[0]?.top ?? 0) - tableTop)} px below the table's top`);
  for (let i = 1; i < rows.length; i++) {
    const gap = (rows[i]?.top ?? 0) - (rows[i - 1]?.bottom ?? 0);
    assert.ok(Math.abs(gap) <= 2, `a band of ${Math.round(gap)} px above "${rows[i]?.text ?? ''}"`);
  }
}

test('a run of a subset: index.html holds exactly its cases (no Missing row, no other group), at 1280×800 its first row on screen', {
  skip: needs('chromium'),
}, async () => {
  const outdir = await tempDir();
  const res = await runCli(['run', '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', '2.*', '6.2.*']);
  assert.equal(res.code, 0, res.stdout + res.stderr);
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as { cases: { id: string }[] };
  const selected = summary.cases.map((c) => c.id);
  assert.equal(selected.length, 15);
  await atDesktop(path.join(outdir, 'index.html'), async (page) => {
    const rows = await laidOutRows(page);
    // Every selected case, in order, and nothing else: the headings are those of 2 and 6.2 only.
    assert.deepEqual(
      rows.filter((r) => r.kind === 'case').map((r) => r.text),
      selected.map((id) => `Case ${id}`),
    );
    assert.deepEqual([...new Set(rows.filter((r) => r.kind !== 'case').map((r) => r.text.split(' ')[0]))], ['2', '6', '6.2']);
    assert.equal(await page.locator('#agent_case_results .case_missing').count(), 0);
    // The gate's counts: every selected case, all passed; Autobahn's (folded) count none Missing.
    assert.deepEqual(await page.locator('#gate_summary tr').nth(1).locator('td').allInnerTexts(), ['wsgate-reference-ws', '15', '15', '0', '0']);
    assert.equal(((await page.locator('#agent_summary tr').nth(1).locator('td').last().textContent()) ?? '').trim(), '0', 'Missing in the summary');
    assert.deepEqual(
      await page.$$eval('#test_case_descriptions h3', (hs) => hs.map((h) => h.textContent)),
      selected.map((id) => `Case ${id}`),
    );
    // Nothing failed: the page opens as before, on the summary and then the matrix.
    assert.equal(await page.locator('#failure_causes').count(), 0);
    assertNoEmptyHeadingNorBand(rows, (await page.locator('#agent_case_results').boundingBox())?.y ?? 0);
    assert.ok((rows.find((r) => r.kind === 'case')?.bottom ?? Infinity) <= 800, 'the first case row is below the first screen');
    await keepScreenshot(page, 'index-subset-1280x800.png');
  });
});

test('a run with failures opens on them at 1280×800: the causes, then the failing rows under their own headings only, no blank band; all cases one click away', {
  skip: needs('chromium'),
}, async () => {
  const outdir = await tempDir();
  const brokenServer = fileURLToPath(new URL('../fixtures/servers/broken-server.js', import.meta.url));
  // A server that echoes invalid UTF-8: it fails most of 6.3, 6.6 and no case of 1.1.1, 2.1, 6.2, 6.5.
  const selection = ['1.1.1', '2.1', '6.2.*', '6.3.*', '6.5.*', '6.6.*'];
  const res = await runCli([
    'run',
    '--role',
    'server',
    '--server',
    `'${process.execPath}' '${brokenServer}' no-utf8-check {port}`,
    '--jobs',
    '2',
    '--outdir',
    outdir,
    '--cases',
    ...selection,
  ]);
  assert.equal(res.code, 1, res.stdout + res.stderr);
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as { cases: { id: string; status: string }[] };
  const failed = summary.cases.filter((c) => c.status === 'failed').map((c) => c.id);
  assert.ok(failed.length >= 8 && failed.length < summary.cases.length - 10, failed.join(' '));
  await atDesktop(path.join(outdir, 'index.html'), async (page) => {
    const causes = await page.locator('#failure_causes').boundingBox();
    const table = await page.locator('#agent_case_results').boundingBox();
    assert.ok(causes !== null && table !== null);
    assert.ok(causes.y + causes.height <= table.y, 'the causes come before the matrix');
    assert.ok(causes.y < 800 && (await page.locator('#failure_causes').isVisible()), 'the causes are on the first screen');
    const rows = await laidOutRows(page);
    assert.deepEqual(
      rows.filter((r) => r.kind === 'case').map((r) => r.text),
      failed.map((id) => `Case ${id}`),
      'only the failing rows are shown',
    );
    // Their headings only: 6 and its 6.3 and 6.6, never 1, 2, 6.2 or 6.5.
    assert.deepEqual([...new Set(rows.filter((r) => r.kind !== 'case').map((r) => r.text.split(' ')[0]))], ['6', '6.3', '6.6']);
    assertNoEmptyHeadingNorBand(rows, table.y);
    const first = rows.find((r) => r.kind === 'case');
    assert.ok(first !== undefined && first.bottom <= 800, `the first failing row ends at y ${Math.round(first?.bottom ?? 0)}, below the first screen`);
    await keepScreenshot(page, 'index-failing-1280x800.png');

    // One click shows every selected case, the filter line at the top; another goes back.
    await page.getByRole('link', { name: `Show all ${summary.cases.length} cases` }).click();
    const all = await laidOutRows(page);
    assert.deepEqual(
      all.filter((r) => r.kind === 'case').map((r) => r.text),
      summary.cases.map((c) => `Case ${c.id}`),
    );
    assertNoEmptyHeadingNorBand(all, table.y);
    const filters = await page.locator('#failing').boundingBox();
    assert.ok(filters !== null && filters.y <= 2 && filters.y + filters.height >= 10, `after the click the filter line is at y ${Math.round(filters?.y ?? 0)}`);
    await keepScreenshot(page, 'index-failing-all-1280x800.png');
    await page.getByRole('link', { name: 'Show the failing ones only' }).click();
    assert.deepEqual(
      (await laidOutRows(page)).filter((r) => r.kind === 'case').map((r) => r.text),
      failed.map((id) => `Case ${id}`),
    );
    // On a phone, too, the page opens on the causes.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`file://${path.join(outdir, 'index.html')}`);
    const onPhone = await page.locator('#failure_causes').boundingBox();
    assert.ok(onPhone !== null && onPhone.y < 844 - 100, `390×844: the causes start at y ${Math.round(onPhone?.y ?? 0)}`);
  });
});

/** What the matrix looks like in the page, measured in it (MEASURE_MATRIX). */
interface Measured {
  headings: string[];
  failing: { id: string | null; cause: string; why: string }[];
  /** Words of headings and agent names laid out across two lines (a word split). */
  split: number;
  pageWidth: number;
  matrixWidth: number;
  mainWidth: number;
}

/** Runs in the page (a string: this project's TypeScript has no DOM types). */
const MEASURE_MATRIX = `(() => {
  const trs = [...document.querySelectorAll('#agent_case_results tr')];
  const splitWords = (el) => {
    const text = el.firstChild;
    if (text === null || text.nodeType !== 3) return 0;
    let split = 0;
    for (const m of (text.textContent ?? '').matchAll(/\\S+/g)) {
      const r = document.createRange();
      r.setStart(text, m.index);
      r.setEnd(text, m.index + m[0].length);
      if (r.getClientRects().length > 1) split += 1;
    }
    return split;
  };
  return {
    headings: trs.filter((tr) => tr.classList.contains('case_category_row')).map((tr) => tr.querySelector('th')?.textContent ?? ''),
    failing: trs
      .filter((tr) => tr.classList.contains('agent_case_result_row') && tr.classList.contains('has_failure'))
      .map((tr) => ({ id: tr.getAttribute('data-case'), cause: tr.querySelector('.cause')?.textContent ?? '', why: tr.querySelector('[title]')?.getAttribute('title') ?? '' })),
    split: [...document.querySelectorAll('#agent_case_results .title, #agent_case_results th.agent')].reduce((n, el) => n + splitWords(el), 0),
    pageWidth: document.documentElement.scrollWidth,
    matrixWidth: document.querySelector('#agent_case_results')?.getBoundingClientRect().width ?? 0,
    mainWidth: document.querySelector('main')?.clientWidth ?? 0,
  };
})()`;

test("the report is the gate, at 1280 and 390 px: the gate's counts, every failing row with its cause, one heading per group, no word split, no sideways scroll on a phone, causes linking to their cases", {
  skip: needs('chromium'),
}, async () => {
  const outdir = await tempDir();
  // A client of our own wrong in three ways (no UTF-8 check, close codes echoed, fragmented pings answered): several causes.
  const res = await runCli([
    'run',
    '--client',
    fixtureCommand('careless'),
    '--url',
    'ws://127.0.0.1:0',
    '--jobs',
    '4',
    '--outdir',
    outdir,
    '--cases',
    '2.*',
    '3.*',
    '5.*',
    '6.4.*',
    '7.9.*',
  ]);
  assert.equal(res.code, 1, res.stdout + res.stderr);
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as { cases: { id: string; status: string }[] };
  const count = (st: string): string => String(summary.cases.filter((c) => c.status === st).length);
  const failed = summary.cases.filter((c) => c.status === 'failed').map((c) => c.id);
  assert.ok(failed.length >= 20, failed.join(' '));
  const browser = await launchBrowser();
  try {
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      const page = await browser.newPage({ viewport: { width, height } });
      await page.goto(`file://${path.join(outdir, 'index.html')}#all`);
      assert.deepEqual(await page.locator('#gate_summary tr').nth(1).locator('td').allInnerTexts(), [
        'client',
        String(summary.cases.length),
        count('passed'),
        count('failed'),
        count('skipped'),
      ]);
      const seen = await page.evaluate<Measured>(MEASURE_MATRIX);
      assert.deepEqual(
        seen.headings.map((h) => h.split(' ')[0]),
        ['2', '3', '5', '6', '7'],
        'one heading per group',
      );
      assert.deepEqual(
        seen.failing.map((f) => f.id),
        failed,
      );
      for (const f of seen.failing) assert.ok(f.cause.length > 3 && f.why.length > 20, `${f.id}: no cause or why (${JSON.stringify(f)})`);
      assert.equal(seen.split, 0, `${width} px: words split across lines`);
      assert.ok(seen.pageWidth <= width, `${width} px: the page is ${seen.pageWidth} px wide`);
      if (width === 1280) assert.ok(seen.matrixWidth >= 0.9 * (seen.mainWidth - 48), `the matrix is ${seen.matrixWidth} px of ${seen.mainWidth}`);
      await mkdir(ARTIFACTS, { recursive: true });
      await page.goto(`file://${path.join(outdir, 'index.html')}`);
      await page.screenshot({ path: path.join(ARTIFACTS, `index-gate-${width}.png`) });
      await page.close();
    }
    // Every case the causes list links to its page, which says how to reproduce it.
    const page = await browser.newPage();
    await page.goto(`file://${path.join(outdir, 'index.html')}`);
    const links = await page.$$eval('#failure_causes td.which a', (as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    assert.deepEqual(links.map(([id]) => id).sort(), [...failed].sort());
    for (const [id, href] of links) {
      const html = await readFile(path.join(outdir, href ?? ''), 'utf8');
      assert.match(html, new RegExp(`wsgate repro ${(id ?? '').replaceAll('.', '\\.')} --from \\.`), `${href}`);
    }
  } finally {
    await browser.close();
  }
});
