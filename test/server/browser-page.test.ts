/**
 * "Test your browser" (issue 43): the page the fuzzing server serves at `/` and `/test_browser.html`
 * (and `wstest`'s web port at `/test_browser.html`), played by a real headless Chromium against a
 * real `wsgate serve` and `wstest -m fuzzingserver` over TCP: the browser's own WebSocket client
 * plays the cases, the reports name it as the original's page names a browser, and the page links to
 * them. The naming is checked on the user agents of the engines the issue names.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { agentFromUserAgent } from '../../src/server/browser-page.js';
import type { FuzzingServer } from '../../src/server/fuzzing-server.js';
import { launchBrowser } from '../support/chromium.js';
import { startChildServer } from '../support/child-server.js';
import { REFERENCE_CLIENT, runNode, startServer, tempDir } from '../support/harness.js';
import { needs } from '../support/requirements.js';
import { freePort, startWstest } from '../support/wstest.js';

test('the agent is named from the user agent as the original page names it', () => {
  const rows: Array<[string, string]> = [
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36', 'Chrome/156.0.0.0'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.7400.12 Safari/537.36', 'Chrome/156.0.7400.12'],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0', 'Firefox/153.0-20100101'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15', 'Safari/605.1.15'],
    ['Mozilla/5.0 (Linux; x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.0 Safari/605.1.15 WPE', 'Safari/605.1.15'],
    ['Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.1; Trident/6.0)', 'MSIE 10.0'],
    ['curl/7.88.1', 'unknown'],
  ];
  for (const [ua, agent] of rows) assert.equal(agentFromUserAgent(ua), agent, ua);
});

/** One plain HTTP request on a fresh connection; the whole answer as latin1 text. */
function plain(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(request));
    let got = '';
    s.on('data', (d: Buffer) => (got += d.toString('latin1')));
    s.on('end', () => resolve(got));
    s.on('error', reject);
  });
}

const get = (port: number, target: string, method = 'GET'): Promise<string> => plain(port, `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);

describe("the fuzzing server's own port: the page at / and /test_browser.html, the reports under /reports/", () => {
  let server: FuzzingServer;
  let outdir = '';
  before(async () => {
    ({ server, outdir } = await startServer(['1.1.1']));
  });
  after(() => server.close());

  test('the page for a GET of / or /test_browser.html, 426 for any other path', async () => {
    for (const target of ['/', '/test_browser.html', '/?autorun=1&agent=x']) {
      const reply = await get(server.port, target);
      assert.match(reply, /^HTTP\/1\.1 200 OK\r\n/, target);
      assert.match(reply, /\r\nContent-Type: text\/html; charset=utf-8\r\n/);
      const body = reply.slice(reply.indexOf('\r\n\r\n') + 4);
      assert.equal(Number(/\r\nContent-Length: (\d+)\r\n/.exec(reply)?.[1]), Buffer.byteLength(body, 'latin1'));
      assert.match(body, /<h1>Test your browser<\/h1>/);
      assert.match(body, /"reportsHref":"\/reports\/index.html"/);
    }
    // Only GET, as for an upgrade: the server answers any other method as it always did.
    for (const method of ['HEAD', 'POST']) assert.match(await get(server.port, '/', method), /^HTTP\/1\.1 405 Method Not Allowed\r\n/, method);
    assert.match(await get(server.port, '/getCaseCount'), /^HTTP\/1\.1 426 Upgrade Required\r\n/);
  });

  test('the reports once written, nothing outside them', async () => {
    assert.match(await get(server.port, '/reports/index.html'), /^HTTP\/1\.1 404 Not Found\r\n/);
    const base = `ws://127.0.0.1:${server.port}`;
    assert.equal((await runNode(REFERENCE_CLIENT, [`${base}/runCase?case=1&agent=pages`])).code, 0);
    assert.equal((await runNode(REFERENCE_CLIENT, [`${base}/updateReports?agent=pages`])).code, 0);
    const index = await get(server.port, '/reports/index.json');
    assert.match(index, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(index, /\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    assert.equal(
      (JSON.parse(index.slice(index.indexOf('\r\n\r\n') + 4)) as Record<string, Record<string, { behavior: string }>>).pages?.['1.1.1']?.behavior,
      'OK',
    );
    assert.match(await get(server.port, '/reports/'), /^HTTP\/1\.1 200 OK\r\n[\s\S]*<html/);
    // Outside the report directory: by dots, by encoded dots, by a link.
    const secret = path.join(path.dirname(outdir), `secret-${path.basename(outdir)}.txt`);
    await writeFile(secret, 'secret');
    await symlink(secret, path.join(outdir, 'link.txt'));
    for (const target of ['/reports/../package.json', '/reports/%2e%2e/%2e%2e/etc/passwd', '/reports/link.txt', '/reports/%00', '/reports/nope.json']) {
      const reply = await get(server.port, target);
      assert.ok(
        /^HTTP\/1\.1 (404 Not Found|426 Upgrade Required)\r\n/.test(reply) && !reply.includes('secret') && !reply.includes('root:'),
        `${target}: ${reply.slice(0, 80)}`,
      );
    }
    await rm(secret, { force: true });
  });
});

describe('headless Chromium plays the page', { skip: needs('chromium') }, () => {
  test('wsgate serve: every selected case by /getCaseCount, named as the original names Chromium, the link to its reports', async () => {
    const served = await startChildServer(['1.1.1', '1.1.2', '2.1', '2.2', '5.1']);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      // A case that has the browser fail its connection (5.1: a fragmented ping) is logged by the browser itself: not the page's error.
      page.on(
        'console',
        (m) => m.type() === 'error' && !/^WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/runCase\?/.test(m.text()) && errors.push(m.text()),
      );
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`http://127.0.0.1:${served.port}/?autorun=1`);
      await page.waitForSelector('body[data-state="done"]', { timeout: 60_000 });
      // Chromium's user agent carries its major version only (user-agent reduction): "Chrome/156.0.0.0".
      const agent = `Chrome/${browser.version().split('.')[0]}.0.0.0`;
      assert.equal(await page.inputValue('#agent'), agent);
      assert.equal(await page.textContent('#status'), `Done: 5 cases played as ${agent}`);
      assert.equal(await page.title(), `Done: 5 cases played as ${agent} - wsgate`);
      assert.deepEqual(errors, []);
      const index = JSON.parse(await readFile(path.join(served.outdir, 'index.json'), 'utf8')) as Record<string, Record<string, { behavior: string }>>;
      assert.deepEqual(Object.keys(index), [agent]);
      assert.deepEqual(
        Object.entries(index[agent] ?? {}).map(([id, r]) => [id, r.behavior]),
        [
          ['1.1.1', 'OK'],
          ['1.1.2', 'OK'],
          ['2.1', 'OK'],
          ['2.2', 'OK'],
          ['5.1', 'OK'],
        ],
      );
      // The link the page shows once done opens the reports, served by the same port.
      await page.click('#reports');
      await page.waitForLoadState();
      assert.equal(new URL(page.url()).pathname, '/reports/index.html');
      assert.match((await page.content()) ?? '', new RegExp(agent.replace(/[./]/g, '\\$&')));
    } finally {
      await browser.close();
      await served.stop();
    }
  });

  test('wsgate serve: the cases and the agent from the URL, by casetuple', async () => {
    const served = await startChildServer(['1.*', '2.*']);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${served.port}/test_browser.html?autorun=1&agent=my-browser&cases=2.3,1.2.8`);
      await page.waitForSelector('body[data-state="done"]', { timeout: 60_000 });
      assert.equal(await page.textContent('#status'), 'Done: 2 cases played as my-browser');
      const index = JSON.parse(await readFile(path.join(served.outdir, 'index.json'), 'utf8')) as Record<string, Record<string, { behavior: string }>>;
      assert.deepEqual(Object.keys(index), ['my-browser']);
      assert.deepEqual(Object.keys(index['my-browser'] ?? {}).sort(), ['1.2.8', '2.3']);
    } finally {
      await browser.close();
      await served.stop();
    }
  });

  test("wstest -m fuzzingserver: the web port's /test_browser.html plays against the fuzzing server's port, the reports under /cwd/", async () => {
    const cwd = await tempDir('wsgate-browser-wstest-');
    const [wsPort, webPort] = [await freePort(), await freePort()];
    await mkdir(path.join(cwd, 'config'));
    const spec = { url: `ws://127.0.0.1:${wsPort}`, outdir: './reports/clients', cases: ['1.1.1', '2.1'], 'exclude-cases': [], 'exclude-agent-cases': {} };
    await writeFile(path.join(cwd, 'config', 'fuzzingserver.json'), JSON.stringify(spec));
    const wstest = await startWstest(['-m', 'fuzzingserver', '-s', 'config/fuzzingserver.json', '-u', String(webPort)], cwd);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${webPort}/`);
      await page.click('text=Test your browser');
      await page.waitForLoadState();
      assert.equal(await page.inputValue('#wsuri'), `ws://127.0.0.1:${wsPort}`);
      await page.click('#start');
      await page.waitForSelector('body[data-state="done"]', { timeout: 60_000 });
      const agent = `Chrome/${browser.version().split('.')[0]}.0.0.0`;
      const index = JSON.parse(await readFile(path.join(cwd, 'reports', 'clients', 'index.json'), 'utf8')) as Record<
        string,
        Record<string, { behavior: string }>
      >;
      assert.deepEqual(Object.keys(index[agent] ?? {}), ['1.1.1', '2.1']);
      assert.equal(await page.getAttribute('#reports', 'href'), '/cwd/reports/clients/index.html');
    } finally {
      await browser.close();
      wstest.child.kill('SIGINT');
      await wstest.exited;
    }
  });
});
