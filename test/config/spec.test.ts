/**
 * Autobahn spec files (--spec): strict validation with one line naming the key and the file (exit 2,
 * before any case runs), precedence flags > env > file, exclude-agent-cases for `run` and per agent
 * for `serve`, options wsgate does not honour warned about, WSGATE_LISTEN_HOST.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { describe, test } from 'node:test';
import WebSocket from 'ws';
import { agentCaseExcluder, autobahnSelection, readSpec, specFromJson } from '../../src/config/spec.js';
import { UsageError } from '../../src/errors.js';
import { caseIdMatcher } from '../../src/util/patterns.js';
import { runCliWith } from '../support/cli-env.js';
import { CLI, fixtureCommand, LIVE_RUNS_AT_ONCE, tempDir, usageMessage } from '../support/harness.js';

async function specFile(content: unknown, name = 'fuzzingserver.json'): Promise<{ dir: string; file: string }> {
  const dir = await tempDir();
  const file = path.join(dir, name);
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 3));
  return { dir, file };
}

describe('spec file validation', () => {
  const cases: Array<[string, unknown, string]> = [
    ['not an object', ['*'], 'fuzzingserver.json: a spec file must hold a JSON object (Autobahn fuzzingserver.json format)'],
    ['exclude-cases not an array', { 'exclude-cases': '9.*' }, 'fuzzingserver.json: "exclude-cases" must be an array of strings'],
    ['a number in cases', { cases: ['1.*', 2] }, 'fuzzingserver.json: "cases" must be an array of strings'],
    ['url not a string', { url: 9001 }, 'fuzzingserver.json: "url" must be a string (ws://HOST:PORT)'],
    [
      'exclude-agent-cases as a list',
      { 'exclude-agent-cases': ['x'] },
      'fuzzingserver.json: "exclude-agent-cases" must be an object mapping agent patterns to arrays of case patterns',
    ],
    [
      'exclude-agent-cases with a string value',
      { 'exclude-agent-cases': { a: '1.*' } },
      'fuzzingserver.json: "exclude-agent-cases" must be an object mapping agent patterns to arrays of case patterns',
    ],
    ['options not an object', { options: [] }, 'fuzzingserver.json: "options" must be an object of Autobahn protocol options'],
    ['an option of the wrong type', { options: { failByDrop: 'no' } }, 'fuzzingserver.json: "options.failByDrop" must be true or false'],
    ['autoPingSize out of range', { options: { autoPingSize: 200 } }, 'fuzzingserver.json: "options.autoPingSize" must be a whole number from 4 to 125'],
    ['an empty outdir', { outdir: '' }, 'fuzzingserver.json: "outdir" must be a non-empty string (a directory)'],
  ];
  for (const [what, value, message] of cases) {
    test(what, () => {
      assert.equal(
        usageMessage(() => specFromJson('fuzzingserver.json', value, 'wsgate')),
        message,
      );
    });
  }

  test('an unknown top-level key is named, with the known ones', () => {
    const m = usageMessage(() => specFromJson('spec.json', { cases: ['*'], 'exclude-case': [] }, 'wsgate'));
    assert.match(
      m,
      /^spec\.json: unknown key "exclude-case": not a fuzzingserver\.json key \(known: url, outdir, cases, exclude-cases, exclude-agent-cases, options,/,
    );
  });

  test('an unknown option is an error, as Autobahn raises a TypeError for it', () => {
    const m = usageMessage(() => specFromJson('spec.json', { options: { failbydrop: false } }, 'wsgate'));
    assert.match(m, /^spec\.json: unknown key "options\.failbydrop": not an Autobahn protocol option \(known: versions, /);
  });

  test('case patterns are checked like --cases, naming the key', async () => {
    const { file } = await specFile({ cases: ['6.*', '99.1.1'] });
    assert.equal(
      usageMessage(() => readSpec(file)),
      `${file}: "cases": no case has the id "99.1.1"`,
    );
    const bad = await specFile({ 'exclude-cases': ['abc'] });
    assert.equal(
      usageMessage(() => readSpec(bad.file)),
      `${bad.file}: "exclude-cases": bad case pattern "abc"`,
    );
  });

  test('a wss:// url with key and cert is read as TLS with those files; key without cert is refused', async () => {
    const { file } = await specFile({ url: 'wss://127.0.0.1:9001', key: 'server.key', cert: 'server.crt' });
    const spec = readSpec(file);
    assert.deepEqual([spec.url, spec.key, spec.cert, spec.warnings], ['wss://127.0.0.1:9001', 'server.key', 'server.crt', []]);
    const half = await specFile({ url: 'wss://127.0.0.1:9001', key: 'server.key' });
    assert.equal(
      usageMessage(() => readSpec(half.file)),
      `${half.file}: "key" and "cert" go together (the server certificate and its private key)`,
    );
  });

  test("the keys of Autobahn's example spec are accepted; options wsgate does not honour are warned about", async () => {
    const { file } = await specFile({
      url: 'ws://127.0.0.1:9001',
      options: { failByDrop: false, autoPingInterval: 10, versions: [0, 8, 13] },
      outdir: './reports/clients',
      webport: 8080,
      cases: ['*'],
      'exclude-cases': [],
      'exclude-agent-cases': {},
    });
    const spec = readSpec(file);
    assert.deepEqual(spec.protocolOptions, { failByDrop: false });
    // versions equals Autobahn's default, so only autoPingInterval is worth a warning.
    assert.deepEqual(spec.warnings, ["options.autoPingInterval = 10 is not honoured: wsgate runs with Autobahn's default"]);
    assert.equal(spec.url, 'ws://127.0.0.1:9001');
    assert.deepEqual(spec.cases, ['*']);
  });

  test('honoured options set the protocol options', async () => {
    const { file } = await specFile({ options: { failByDrop: true, openHandshakeTimeout: 2.5, closeHandshakeTimeout: 0.5 } });
    assert.deepEqual(readSpec(file).protocolOptions, { failByDrop: true, openHandshakeTimeoutMs: 2500, closeHandshakeTimeoutMs: 500 });
  });

  test('unreadable file and bad JSON', async () => {
    const dir = await tempDir();
    assert.equal(
      usageMessage(() => readSpec(path.join(dir, 'none.json'))),
      `${path.join(dir, 'none.json')}: cannot read the spec file: no such file`,
    );
    assert.equal(
      usageMessage(() => readSpec(dir)),
      `${dir}: cannot read the spec file: is a directory`,
    );
    const { file } = await specFile('{"cases": ["*"],}');
    assert.match(
      usageMessage(() => readSpec(file)),
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON: `),
    );
  });
});

describe('one reader, two readings: wsgate --spec strict, wstest -s as the original', () => {
  /** What each reading makes of a file: its warnings (as JSON), or its one-line error. */
  const both = (json: unknown): string[] =>
    (['wsgate', 'wstest'] as const).map((reading) => {
      try {
        return JSON.stringify(specFromJson('s.json', json, reading).warnings);
      } catch (err) {
        assert.ok(err instanceof UsageError, String(err));
        return err.message;
      }
    });

  const first = (json: unknown): string => both(json)[0] ?? '';

  test('a key wstest does not read is refused by wsgate, ignored by wstest; a key both read fails alike', () => {
    assert.match(first({ comment: 'x' }), /^s\.json: unknown key "comment": not a fuzzingserver\.json key/);
    assert.equal(both({ comment: 'x', webport: 'x', extended: 'x' })[1], '[]');
    const [strict, lenient] = both({ outdir: 7 });
    assert.equal(strict, 's.json: "outdir" must be a non-empty string (a directory)');
    assert.equal(lenient, strict);
    assert.deepEqual(both({ servers: [{ url: 7 }] }), Array(2).fill('s.json: "servers.0.url" must be a string (ws://HOST:PORT/PATH)'));
    assert.deepEqual(both({ servers: [{ url: 'http://x' }] }), Array(2).fill('s.json: "servers.0.url": the scheme must be ws:// or wss://, got http://'));
  });

  test('options: an unknown one is an error for wsgate, a warning for wstest; "version" is the client\'s, read by wstest only', () => {
    assert.match(
      first({ options: { acceptMaskedServerFrames: true } }),
      /^s\.json: unknown key "options\.acceptMaskedServerFrames": not an Autobahn protocol option/,
    );
    assert.equal(
      both({ options: { acceptMaskedServerFrames: true } })[1],
      JSON.stringify(["options.acceptMaskedServerFrames = true is not honoured: wsgate runs with Autobahn's default"]),
    );
    assert.match(first({ options: { version: 18 } }), /unknown key "options\.version"/);
    assert.equal(both({ options: { version: 18 } })[1], '[]');
    // A value wsgate does not read: of the wrong type, an error for wsgate, a warning for wstest; Autobahn's default, silent for both.
    assert.equal(both({ options: { tcpNoDelay: 'no' } })[0], 's.json: "options.tcpNoDelay" must be true or false');
    assert.equal(
      both({ options: { tcpNoDelay: 'no' } })[1],
      JSON.stringify(['options.tcpNoDelay = "no" is not honoured: wsgate runs with Autobahn\'s default']),
    );
    assert.deepEqual(both({ options: { tcpNoDelay: true, failByDrop: false } }), ['[]', '[]']);
  });

  test("case patterns: wsgate's refuse what names no case, the original's match nothing; both select alike where both accept", () => {
    assert.equal(both({ cases: ['8.*'] })[0], '[]');
    assert.deepEqual(autobahnSelection(specFromJson('s.json', { cases: ['8.*'] }, 'wstest')), []);
    assert.equal(both({ cases: ['1[1-4].*'] })[0], 's.json: "cases": bad case pattern "1[1-4].*"');
    assert.equal(both({ cases: ['1.(*'] })[1], 's.json: "cases": "1.(*" is not a valid pattern (a regular expression once "." and "*" are read)');
    const ids = ['1.1.1', '1.1.10', '10.1.1', '12.2.3', '2.1'];
    for (const p of ['1*', '1.*', '1.1.1', '12.*.3', '*']) {
      assert.deepEqual(ids.filter(caseIdMatcher(p, 'autobahn')), ids.filter(caseIdMatcher(p, 'wsgate')), p);
    }
  });

  test('per-server options: honoured by wstest, warned about by wsgate', () => {
    const json = { servers: [{ url: 'ws://127.0.0.1:9001', agent: 'a', options: { failByDrop: true } }] };
    assert.deepEqual(specFromJson('s.json', json, 'wstest').servers, [{ url: 'ws://127.0.0.1:9001', agent: 'a', protocolOptions: { failByDrop: true } }]);
    const strict = specFromJson('s.json', json, 'wsgate');
    assert.deepEqual(strict.servers, [{ url: 'ws://127.0.0.1:9001', agent: 'a', protocolOptions: {} }]);
    assert.deepEqual(strict.warnings, ["servers.0.options is not honoured: wsgate's fuzzing client runs with Autobahn's defaults"]);
  });
});

describe('exclude-agent-cases matching (Autobahn: anchored at both ends, * any run)', () => {
  const excluded = agentCaseExcluder({ 'my-client*': ['6.4.*', '7.1.1'], 'exact.agent': ['1.1.1'], '*': ['9.1.1'] });
  const table: Array<[string, string, boolean]> = [
    ['my-client 1.0', '6.4.1', true],
    ['my-client', '6.4.4', true],
    ['my-client', '7.1.1', true],
    ['my-client', '7.1.10', false],
    ['my-client', '6.5.1', false],
    ['other my-client', '6.4.1', false],
    ['exact.agent', '1.1.1', true],
    // "." is literal, unlike a regex.
    ['exactXagent', '1.1.1', false],
    ['anyone', '9.1.1', true],
    ['anyone', '9.1.10', false],
  ];
  for (const [agent, id, want] of table) {
    test(`${agent} / ${id}: ${want ? 'excluded' : 'kept'}`, () => {
      assert.equal(excluded(agent, id), want);
    });
  }
});

describe('spec files on the command line', { concurrency: LIVE_RUNS_AT_ONCE }, () => {
  test('a bad spec file: exit 2 and one line naming the key and the file, before any case runs', async () => {
    const { dir } = await specFile({ cases: ['1.1.1'], 'exclude-cases': '1.1.2' });
    for (const command of ['run', 'serve']) {
      const res = await runCliWith([command, '--spec', 'fuzzingserver.json'], { cwd: dir });
      assert.equal(res.code, 2, res.stderr);
      assert.equal(res.stderr, 'wsgate: fuzzingserver.json: "exclude-cases" must be an array of strings\n');
      assert.equal(res.stdout, '');
    }
    const missing = await runCliWith(['run', '--spec', 'missing.json'], { cwd: dir });
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, 'wsgate: missing.json: cannot read the spec file: no such file\n');
  });

  test("a spec file runs unchanged: its cases, its outdir relative to the working directory, its exclude-agent-cases for the run's agent", async () => {
    const { dir } = await specFile({
      url: 'ws://127.0.0.1:0',
      options: { failByDrop: false, autoPingInterval: 5 },
      outdir: './reports/clients',
      webport: 8080,
      cases: ['1.1.*'],
      'exclude-cases': ['1.1.3', '1.1.4', '1.1.5', '1.1.6', '1.1.7', '1.1.8'],
      'exclude-agent-cases': { 'wsgate-reference*': ['1.1.2'], 'someone-else': ['1.1.1'] },
    });
    const res = await runCliWith(['run', '--spec', 'fuzzingserver.json'], { cwd: dir });
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.equal(res.stderr, "wsgate: warning: fuzzingserver.json: options.autoPingInterval = 5 is not honoured: wsgate runs with Autobahn's default\n");
    assert.match(res.stdout, /2 cases: 1 passed, 0 failed, 1 skipped/);
    const summary = JSON.parse(await readFile(path.join(dir, 'reports/clients/summary.json'), 'utf8')) as {
      cases: Array<{ id: string; status: string; reason: string }>;
    };
    assert.deepEqual(
      summary.cases.map((c) => [c.id, c.status]),
      [
        ['1.1.1', 'passed'],
        ['1.1.2', 'skipped'],
      ],
    );
    assert.equal(summary.cases[1]?.reason, 'excluded for agent "wsgate-reference-ws" by exclude-agent-cases in fuzzingserver.json');
    // As in Autobahn, the excluded case has no result in index.json.
    const index = JSON.parse(await readFile(path.join(dir, 'reports/clients/index.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(index['wsgate-reference-ws'] ?? {}), ['1.1.1']);
  });

  test('flags override the file; per-case clients skip excluded cases without being started', async () => {
    const { dir } = await specFile({
      url: 'ws://127.0.0.1:1',
      outdir: 'from-file',
      cases: ['2.*'],
      'exclude-agent-cases': { 'fixture*': ['6.12.7'] },
    });
    const outdir = path.join(dir, 'from-flag');
    const res = await runCliWith(
      [
        'run',
        '--spec',
        'fuzzingserver.json',
        '--url',
        'ws://127.0.0.1:0',
        '--outdir',
        outdir,
        '--cases',
        '6.9.2',
        '6.12.7',
        '--agent',
        'fixture-a',
        '--client',
        fixtureCommand('spec-peer'),
      ],
      { cwd: dir },
    );
    assert.equal(res.code, 0, res.stdout + res.stderr);
    const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as { cases: Array<{ id: string; status: string; client: unknown }> };
    assert.deepEqual(
      summary.cases.map((c) => [c.id, c.status, c.client === null]),
      [
        ['6.9.2', 'passed', false],
        ['6.12.7', 'skipped', true],
      ],
    );
    await assert.rejects(readFile(path.join(dir, 'from-file', 'summary.json')));
  });

  test('WSGATE_LISTEN_HOST changes the address bound, keeping the port; clients are still told the url', async () => {
    const outdir = await tempDir();
    const res = await runCliWith(['run', '--url', 'ws://127.0.0.1:0', '--outdir', outdir, '--cases', '1.1.1'], { env: { WSGATE_LISTEN_HOST: '0.0.0.0' } });
    assert.equal(res.code, 0, res.stdout + res.stderr);
    const bad = await runCliWith(['run', '--cases', '1.1.1', '--outdir', outdir], { env: { WSGATE_LISTEN_HOST: 'a b' } });
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, 'wsgate: WSGATE_LISTEN_HOST must be a host name or address, got "a b"\n');
  });
});

/** Starts `wsgate serve`, resolves with its port once it listens. */
function startServe(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ port: number; output: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 15_000);
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Fuzzing Server \(Port (\d+)\)/.exec(out);
      if (m !== null) {
        clearTimeout(timer);
        resolve({ port: Number(m[1]), output: () => out, exited });
      }
    });
  });
}

/** Opens a WebSocket, echoes what it receives, resolves with the close code when the connection ends. */
function echoOnce(url: string): Promise<{ code: number; messages: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    let messages = 0;
    ws.on('message', (data, binary) => {
      messages += 1;
      ws.send(data, { binary });
    });
    ws.on('close', (code) => resolve({ code, messages }));
    ws.on('error', reject);
  });
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, host);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

test('serve applies exclude-agent-cases per connecting agent and binds WSGATE_LISTEN_HOST', async () => {
  const { dir } = await specFile({ url: 'ws://127.0.0.1:0', outdir: 'out', cases: ['1.1.1', '1.1.2'], 'exclude-agent-cases': { 'skip*': ['1.1.1'] } });
  await mkdir(path.join(dir, 'out'));
  // 127.0.0.2 is loopback too on Linux, but a different address: binding it shows the override took effect.
  const serve = await startServe(['--spec', 'fuzzingserver.json'], { WSGATE_LISTEN_HOST: '127.0.0.2' }, dir);
  try {
    assert.equal(await connects('127.0.0.2', serve.port), true);
    assert.equal(await connects('127.0.0.1', serve.port), false);
    const base = `ws://127.0.0.2:${serve.port}`;
    const skipped = await echoOnce(`${base}/runCase?case=1&agent=skipper`);
    // Autobahn's skip: the handshake completes, then an empty close (1005 to the client) and no result.
    assert.deepEqual(skipped, { code: 1005, messages: 0 });
    const ran = await echoOnce(`${base}/runCase?case=1&agent=other`);
    assert.equal(ran.messages, 1);
    await echoOnce(`${base}/runCase?case=2&agent=skipper`);
    await echoOnce(`${base}/updateReports?agent=x&shutdownOnComplete=true`);
    assert.equal(await serve.exited, 0);
    const index = JSON.parse(await readFile(path.join(dir, 'out', 'index.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(index.skipper ?? {}), ['1.1.2']);
    assert.deepEqual(Object.keys(index.other ?? {}), ['1.1.1']);
    assert.match(serve.output(), /Skipping test case ID 1\.1\.1 for agent "skipper" by test configuration/);
  } finally {
    await echoOnce(`ws://127.0.0.2:${serve.port}/stopServer`).catch(() => undefined);
  }
});
