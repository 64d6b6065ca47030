/**
 * Safe by default: the server binds to 127.0.0.1 unless told otherwise; agent names and case ids
 * never become paths outside the report directory; and the HTML reports show what a hostile peer
 * controls (agent name, close reason, handshake headers, payloads) as text, checked in a real browser
 * (headless Chromium: the page's DOM after its scripts ran).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { describe, test } from 'node:test';
import WebSocket from 'ws';
import { clientFrame } from '../fixtures/clients/raw-peer.js';
import { startChildServer } from '../support/child-server.js';
import { headless } from '../support/chromium.js';
import { CLI, fixtureCommand, runCli, tempDir } from '../support/harness.js';
import { needs } from '../support/requirements.js';

/** Every file under dir (relative), recursively. */
async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isDirectory()) out.push(path.relative(dir, path.join(e.parentPath, e.name)));
  }
  return out.sort();
}

/** Listening TCP sockets of a process, as "HEXIP:HEXPORT" from /proc/net/tcp{,6}, matched by socket inode. */
function listeningAddresses(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m !== null) inodes.add(m[1] as string);
    } catch {
      // closed meanwhile
    }
  }
  const out: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // st 0A is LISTEN; the inode is field 9.
      if (f[3] === '0A' && inodes.has(f[9] ?? '')) out.push(f[1] as string);
    }
  }
  return out;
}

describe('the server binds to loopback by default', () => {
  test('wsgate serve without --url listens on 127.0.0.1 only (port 9001, the default)', async () => {
    // The one test that uses the default port: the default is what it checks. If 9001 is taken, the
    // refusal names the address it tried, which is the same check.
    const outdir = await tempDir();
    const child = spawn(process.execPath, [CLI, 'serve', '--outdir', outdir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const listening = await new Promise<boolean>((resolve) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Fuzzing Server (Port 9001)')) resolve(true);
      });
      void exited.then(() => resolve(false));
    });
    if (!listening) {
      assert.equal(await exited, 2, out);
      assert.equal(out, 'wsgate: port 9001 is already in use on 127.0.0.1\n');
      return;
    }
    try {
      // 127.0.0.1:9001 is 0100007F:2329 in /proc/net/tcp (little-endian address, hex port).
      assert.deepEqual(listeningAddresses(child.pid as number), ['0100007F:2329']);
    } finally {
      child.kill('SIGINT');
      assert.equal(await exited, 0);
    }
  });
});

/** Plays case 1 (1.1.1: echo an empty text message) as agent; resolves when closed (or refused). */
function playAs(port: number, agent: string, param = 'agent'): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/runCase?case=1&${param}=${encodeURIComponent(agent)}`);
    ws.on('message', (data: Buffer, binary: boolean) => ws.send(data, { binary }));
    ws.on('close', () => resolve('closed'));
    ws.on('unexpected-response', (_req, res) => {
      resolve(String(res.statusCode));
      ws.terminate();
    });
    ws.on('error', () => resolve('error'));
  });
}

function updateReports(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/updateReports?agent=x`);
    ws.on('close', () => resolve());
    ws.on('error', reject);
  });
}

const HOSTILE_AGENTS = [
  '../../escaped',
  '../escaped',
  '..',
  '.',
  '/tmp/escaped-absolute',
  'a/../../escaped',
  '..\\..\\escaped',
  '~/escaped',
  '.wsgate-tmp-1-abc',
  'index',
  'CON',
  'é/../../ünï',
  `${'../'.repeat(80)}escaped`,
];

describe('agent names and case ids never become paths outside the report directory', () => {
  test('hostile agent names over /runCase: every file written is inside the report directory', async () => {
    // The report directory sits alone in a sandbox, so anything written beside it shows.
    const sandbox = await tempDir();
    const srv = await startChildServer(['1.1.1'], path.join(sandbox, 'reports'));
    try {
      const before = readdirSync(sandbox).sort();
      for (const agent of HOSTILE_AGENTS) assert.equal(await playAs(srv.port, agent), 'closed', agent);
      // Control characters and over-long names are refused (400) and record nothing.
      for (const agent of ['x\u0000y', 'x\ny', 'a'.repeat(300), '']) assert.equal(await playAs(srv.port, agent), '400', JSON.stringify(agent));
      // Case ids come from the catalogue only: a path in casetuple is an unknown case.
      assert.equal(await playAs(srv.port, '../../x', 'casetuple=../../etc/passwd&agent'), '404');
      await updateReports(srv.port);
      assert.deepEqual(readdirSync(sandbox).sort(), before, 'files appeared next to the report directory');
      const files = await listFiles(srv.outdir);
      // One .json and one .html per agent, plus the indexes and the served selection; every name is flat (no directory part).
      assert.equal(files.length, HOSTILE_AGENTS.length * 2 + 3, files.join('\n'));
      assert.ok(files.includes('selection.json'), files.join('\n'));
      for (const f of files) assert.match(f, /^[a-z0-9_]+\.(json|html)$/, f);
      const index = JSON.parse(await readFile(path.join(srv.outdir, 'index.json'), 'utf8')) as Record<string, unknown>;
      assert.deepEqual(Object.keys(index).sort(), [...HOSTILE_AGENTS].sort());
      assert.ok(!existsSync('/tmp/escaped-absolute.json') && !existsSync('/tmp/escaped-absolute'));
      assert.deepEqual(before, ['reports']);
    } finally {
      await srv.stop();
    }
  });

  test('wsgate run --agent ../../escaped, with --junit/--json defaults: all files under the report directory', async () => {
    const sandbox = await tempDir();
    const outdir = path.join(sandbox, 'deep', 'reports');
    await mkdir(outdir, { recursive: true });
    const res = await runCli([
      'run',
      '--client',
      fixtureCommand('spec-peer'),
      '--agent',
      '../../escaped',
      '--url',
      'ws://127.0.0.1:0',
      '--outdir',
      outdir,
      '--cases',
      '6.9.2',
    ]);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    const all = await listFiles(sandbox);
    for (const f of all) assert.ok(f.startsWith(`deep${path.sep}reports${path.sep}`), `${f} is outside the report directory`);
    assert.deepEqual(all.map((f) => path.basename(f)).sort(), [
      'escaped_case_6_9_2.html',
      'escaped_case_6_9_2.json',
      'index.html',
      'index.json',
      'junit.xml',
      'summary.json',
    ]);
  });
});

// ---- HTML escaping in a real browser ----

/** Sets the page title and marks <body> if it ever runs: either shows that peer input became markup. */
const SCRIPT = `<script>document.title='PWNED';document.body.setAttribute('data-pwned','script')</script>`;
const IMG = `<img src=x onerror="document.body.setAttribute('data-pwned','img')">`;
const AGENT = `${SCRIPT}${IMG}`;
const CLOSE_REASON = `<script>document.body.setAttribute('data-pwned','reason')</script>`;
const USER_AGENT = `</pre><script>document.body.setAttribute('data-pwned','ua')</script>`;
const MESSAGE = `<img src=y onerror="document.body.setAttribute('data-pwned','payload')"><script>document.title='PWNED'</script>`;

/** A peer whose every free-form field is a script injection: agent, User-Agent, a text message, the close reason. */
function hostilePeer(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const key = randomBytes(16).toString('base64');
    const socket = net.connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    let open = false;
    socket.on('connect', () => {
      socket.write(
        `GET /runCase?case=1&agent=${encodeURIComponent(AGENT)} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\nUser-Agent: ${USER_AGENT}\r\nSec-WebSocket-Protocol: <b>bold</b>\r\n\r\n`,
      );
    });
    socket.on('data', (d: Buffer) => {
      if (open) return;
      buf = Buffer.concat([buf, d]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      open = true;
      const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
      if (!buf.subarray(0, end).toString('latin1').includes(accept)) reject(new Error(buf.toString('latin1')));
      buf = Buffer.alloc(0);
      // Instead of the echo: a text message and a close, both carrying markup.
      const reason = Buffer.from(CLOSE_REASON);
      const close = Buffer.alloc(2 + reason.length);
      close.writeUInt16BE(1000);
      reason.copy(close, 2);
      socket.write(Buffer.concat([clientFrame(1, Buffer.from(MESSAGE)), clientFrame(8, close)]));
    });
    socket.on('close', () => resolve());
    socket.on('error', () => undefined);
  });
}

/** The DOM of a local page after its scripts ran (headless Chromium --dump-dom). */
async function dumpDom(file: string): Promise<string> {
  return (await headless(['--dump-dom'], file, { timeoutMs: 60_000 })).stdout;
}

/** The DOM has no trace of executed peer input, and shows it as text. */
function assertInert(dom: string, page: string): void {
  assert.match(dom, /<body/, `${page}: no DOM dumped`);
  assert.doesNotMatch(dom, /<body[^>]*data-pwned/, `${page}: a peer-controlled script ran`);
  // A script that ran would have made the title exactly "PWNED" (the agent name in it is text).
  assert.doesNotMatch(dom, /<title>PWNED<\/title>/, `${page}: a peer-controlled script set the title`);
  // No element came out of peer input: every "<" of it is text, which the DOM serializer writes as &lt;.
  assert.doesNotMatch(dom, /<img[^>]*onerror/i, `${page}: a peer-controlled element was created`);
  assert.doesNotMatch(dom, /<b>bold<\/b>/, `${page}: peer markup became an element`);
}

describe('HTML reports escape everything a peer controls (headless Chromium)', { skip: needs('chromium') }, () => {
  test('agent name, close reason, User-Agent and payload with <script> stay text on index.html and the case page', async () => {
    const srv = await startChildServer(['1.1.1']);
    try {
      await hostilePeer(srv.port);
      await updateReports(srv.port);
      const files = await listFiles(srv.outdir);
      const casePage = files.find((f) => f.endsWith('_case_1_1_1.html'));
      assert.ok(casePage !== undefined, files.join(' '));

      const index = await dumpDom(path.join(srv.outdir, 'index.html'));
      assertInert(index, 'index.html');
      // The agent name is shown literally (escaped once, so the text reads as the peer sent it).
      assert.ok(
        index.includes("&lt;script&gt;document.title='PWNED';document.body.setAttribute('data-pwned','script')&lt;/script&gt;"),
        'agent name not shown as text',
      );

      const page = await dumpDom(path.join(srv.outdir, casePage));
      assertInert(page, casePage);
      for (const text of [AGENT, CLOSE_REASON, USER_AGENT, '<b>bold</b>']) {
        const shown = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
        // The serializer escapes only &, < and > in text; quotes stay as they are.
        const inText = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
        assert.ok(page.includes(inText) || page.includes(shown), `not shown literally: ${text}`);
      }
      // The message payload appears in the received events, as text.
      assert.ok(page.includes('&lt;img src=y onerror='), 'the payload is not shown as text');
    } finally {
      await srv.stop();
    }
  });
});
