/** The CLI contract: exit statuses and one-line reasons for usage errors, the embedded default, list. */
import assert from 'node:assert/strict';
import { access, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { runMain } from '../support/cli-env.js';
import { runCli, tempDir } from '../support/harness.js';

test('run with no --client plays the cases against the bundled ws client: exit 0, all reports written', async () => {
  const outdir = await tempDir();
  const res = await runCli(['run', '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', '6.9.2', '6.12.7']);
  assert.equal(res.code, 0, res.stdout + res.stderr);
  assert.match(res.stdout, /2 cases: 2 passed, 0 failed, 0 skipped/);
  for (const f of ['index.json', 'index.html', 'junit.xml', 'summary.json']) await access(path.join(outdir, f));
  const junit = await readFile(path.join(outdir, 'junit.xml'), 'utf8');
  assert.match(junit, /<testsuites [^>]*tests="2" failures="0"/);
});

const usageCases: Array<[string[], RegExp]> = [
  [['run', '--no-such-flag'], /^wsgate: unknown option --no-such-flag$/],
  [['run', '--url', 'http://127.0.0.1:9001'], /--url must start with ws:\/\//],
  [['run', '--url', 'not a url'], /is not a URL/],
  [['run', '--cases', '99.9.9'], /no case has the id "99\.9\.9"/],
  [['run', '--cases', 'abc'], /bad case pattern "abc"/],
  [['run', '--case-timeout', '-1'], /--case-timeout must be a positive number/],
  [['run', '--client', '   '], /the client command is empty/],
  [[], /name a command/],
];

// What a usage error prints and returns is main's decision: main() runs in this process (runMain),
// except for the first row, which stays a process (the real exit status and stderr).
for (const [i, [args, message]] of usageCases.entries()) {
  test(`usage error: wsgate ${args.join(' ')}`, async () => {
    const res = i === 0 ? await runCli(args) : await runMain(args);
    assert.equal(res.code, 2, res.stdout + res.stderr);
    assert.match(res.stderr.trim().split('\n').pop() ?? '', message);
    assert.match(res.stderr, /^wsgate: /m);
  });
}

test('a busy port is a usage error (exit 2), not a hang', async () => {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as net.AddressInfo).port;
  try {
    const res = await runMain(['run', '--url', `ws://127.0.0.1:${port}`, '--outdir', await tempDir()]);
    assert.equal(res.code, 2);
    assert.equal(res.stderr, `wsgate: port ${port} is already in use on 127.0.0.1\n`);
  } finally {
    blocker.close();
  }
});

test('list prints index, id and description without opening a socket', async () => {
  const res = await runMain(['list', '--cases', '6.9.2', '6.12.7']);
  assert.equal(res.code, 0);
  assert.equal(
    res.stdout,
    '1  6.9.2     A text message whose payload is valid UTF-8, in one frame. Payload: 0xdfbf\n2  6.12.7    A text message whose payload is not valid UTF-8, in one frame. Payload: 0x80bf80bf80bf\n',
  );
  const filtered = await runMain(['list', '--cases', '6.12.*']);
  const lines = filtered.stdout.trim().split('\n');
  assert.equal(lines.length, 8);
  assert.equal(lines[6], '7  6.12.7    A text message whose payload is not valid UTF-8, in one frame. Payload: 0x80bf80bf80bf');
});

test('--help works for every command', async () => {
  for (const cmd of ['run', 'serve', 'judge', 'merge', 'list', 'repro']) {
    const res = await runMain([cmd, '--help']);
    assert.equal(res.code, 0);
    assert.match(res.stdout, new RegExp(`wsgate ${cmd}`));
  }
});

test('-h is --help: run prints its options in sections, in order, exit 0', async () => {
  const res = await runCli(['run', '-h']);
  assert.equal(res.code, 0, res.stderr);
  assert.equal(res.stderr, '');
  const sections = [...res.stdout.matchAll(/^([A-Z][\w ]+):$/gm)].map((m) => m[1]);
  assert.deepEqual(sections, [
    'Selection',
    'Client under test',
    'Server under test',
    'Gate',
    'Reports',
    'Transport',
    'Robustness',
    'Browser',
    'Options',
    'Examples',
  ]);
  // Each option sits in its own section: --shard under Selection, --seed under Server under test.
  const section = (title: string) => res.stdout.split(`\n${title}:\n`)[1]?.split('\n\n')[0] ?? '';
  assert.match(section('Selection'), /^\s+--shard /m);
  assert.match(section('Server under test'), /^\s+--seed /m);
  assert.doesNotMatch(section('Selection'), /--seed/);
  assert.equal((await runCli(['-h'])).code, 0);
});

// An option wsgate does not know: one line naming the nearest it does, exit 2 (a real process: the status and stderr as a shell sees them).
const unknownCases: Array<[string[], string]> = [
  [['run', '--case', '6.*'], 'wsgate: unknown option --case; did you mean --cases?\n'],
  [['run', '--jbs=4'], 'wsgate: unknown option --jbs; did you mean --jobs?\n'],
  [['judge', '--outdri', 'r'], 'wsgate: unknown option --outdri; did you mean --outdir?\n'],
  [['serve', '--bogus'], 'wsgate: unknown option --bogus\n'],
  [['rn'], 'wsgate: unknown command rn; did you mean run?\n'],
];
for (const [args, line] of unknownCases) {
  test(`unknown: wsgate ${args.join(' ')}`, async () => {
    const res = await runCli(args);
    assert.equal(res.code, 2);
    assert.equal(res.stderr, line);
    assert.equal(res.stdout, '');
  });
}

test('the top-level --help names both roles', async () => {
  const res = await runCli(['--help']);
  assert.equal(res.code, 0);
  assert.match(res.stdout, /for clients and servers/);
  assert.match(res.stdout, /against a client \(wsgate is the fuzzing server\) or a server/);
});

test('SIGINT mid-run: the client group is killed, reports are written, cases are marked not run, exit 130', async () => {
  const { spawn } = await import('node:child_process');
  const { CLI, fixtureCommand } = await import('../support/harness.js');
  const outdir = await tempDir();
  const marker = `wsgate-sigint-${process.pid}`;
  const child = spawn(
    process.execPath,
    [
      CLI,
      'run',
      '--client',
      `${fixtureCommand('never-connect')} ${marker}`,
      '--url',
      'ws://127.0.0.1:0',
      '--outdir',
      outdir,
      '--case-timeout',
      '60',
      '--cases',
      '6.9.2',
      '6.12.7',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // Signal only once the run is under way (signal handlers installed, header printed) and the client
  // is running: a fixed delay is too short on a loaded machine.
  const { execFileSync: ps0 } = await import('node:child_process');
  const until = Date.now() + 30_000;
  while (Date.now() < until && !(out.includes('wsgate: ') && ps0('ps', ['-eo', 'args'], { encoding: 'utf8' }).includes(marker))) {
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(out.includes('wsgate: '), `the run did not start: ${out}`);
  child.kill('SIGINT');
  assert.equal(await exited, 130, out);
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as {
    interrupted: string;
    result: string;
    cases: Array<{ status: string; reason: string }>;
  };
  assert.equal(summary.interrupted, 'SIGINT');
  assert.equal(summary.result, 'failed');
  for (const c of summary.cases) assert.deepEqual([c.status, c.reason], ['skipped', 'not run: the run was interrupted (SIGINT)']);
  const junit = await readFile(path.join(outdir, 'junit.xml'), 'utf8');
  // Cut short is red to a JUnit reader too: each not-run case is an <error>, none a <skipped>.
  assert.equal((junit.match(/<error message="not run: the run was interrupted \(SIGINT\)" type="NOT RUN"\/>/g) ?? []).length, 2);
  assert.equal((junit.match(/<skipped/g) ?? []).length, 0);
  assert.match(junit, /<testsuites [^>]*failures="0" errors="2"/);
  // No client process survives: the marker argument is on no command line any more.
  const { execFileSync } = await import('node:child_process');
  const ps = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  assert.ok(!ps.includes(marker), 'a client process outlived the run');
});

test('a finished run leaves no timer, socket or process keeping the event loop alive', async () => {
  const { runNode } = await import('../support/harness.js');
  const { fileURLToPath } = await import('node:url');
  const script = fileURLToPath(new URL('../fixtures/leftover-resources.js', import.meta.url));
  const res = await runNode(script, [await tempDir()]);
  assert.deepEqual(JSON.parse(res.stdout), { code: 0, left: [] });
});
