/** The original wstest command line: long and short options, --opt=value, any order, errors as one line. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UsageError } from '../../src/errors.js';
import { parseWstestArgs, type WstestOptions } from '../../src/wstest/command-line.js';

async function options(argv: string[]): Promise<WstestOptions> {
  const r = await parseWstestArgs(argv, '9.9.9');
  assert.equal(r.kind, 'run');
  return (r as { options: WstestOptions }).options;
}

async function usage(argv: string[]): Promise<string> {
  try {
    await parseWstestArgs(argv, '9.9.9');
  } catch (err) {
    assert.ok(err instanceof UsageError, String(err));
    return err.message;
  }
  assert.fail(`no error for ${argv.join(' ')}`);
}

test('short, long and --opt=value forms, in any order, give the same options', async () => {
  const expected: WstestOptions = { mode: 'fuzzingserver', spec: 's.json', wsuri: undefined, webport: 0, debug: true, key: 'k.pem', cert: 'c.pem' };
  assert.deepEqual(await options(['-m', 'fuzzingserver', '-s', 's.json', '-u', '0', '-d', '-k', 'k.pem', '-c', 'c.pem']), expected);
  assert.deepEqual(await options(['--cert=c.pem', '--webport=0', '--debug', '--key', 'k.pem', '--spec=s.json', '--mode=fuzzingserver']), expected);
  assert.deepEqual(await options(['-d', '--spec', 's.json', '--mode', 'fuzzingserver', '-c', 'c.pem', '--webport', '0', '-k', 'k.pem']), expected);
});

test('defaults: web port 8080, no debug; -w for the modes that take it', async () => {
  assert.deepEqual(await options(['-m', 'fuzzingclient']), {
    mode: 'fuzzingclient',
    spec: undefined,
    wsuri: undefined,
    webport: 8080,
    debug: false,
    key: undefined,
    cert: undefined,
  });
  assert.equal((await options(['-m', 'echoserver', '-w', 'ws://0.0.0.0:9000'])).wsuri, 'ws://0.0.0.0:9000');
  assert.equal((await options(['--mode', 'testeeserver', '--wsuri=ws://127.0.0.1:9000'])).mode, 'testeeserver');
  // A repeated option takes its last value, as the original's parser does.
  assert.equal((await options(['-m', 'fuzzingserver', '-m', 'fuzzingclient'])).mode, 'fuzzingclient');
});

test('errors: one line each', async () => {
  assert.equal(await usage([]), 'a mode must be given: -m fuzzingserver|fuzzingclient|echoserver|testeeserver');
  assert.equal(
    await usage(['-m', 'massconnect']),
    'mode "massconnect" is not provided by wsgate (modes: fuzzingserver, fuzzingclient, echoserver, testeeserver)',
  );
  assert.equal(await usage(['-m', 'echoserver']), 'mode echoserver needs a WebSocket URI (-w ws://HOST:PORT)');
  assert.equal(await usage(['-m', 'fuzzingserver', '-u', '70000']), 'invalid web port "70000" (0 to 65535; 0 disables it)');
  assert.equal(await usage(['-m', 'fuzzingserver', '-k', 'k.pem']), '-k/--key and -c/--cert go together (the server private key and its certificate)');
  assert.equal(await usage(['-m', 'fuzzingserver', 'extra']), 'Unknown argument: extra');
  assert.match(await usage(['-m']), /Not enough arguments following: m/);
});

test('--help and -a print text and run nothing', async () => {
  const help = await parseWstestArgs(['--help'], '9.9.9');
  assert.equal(help.kind, 'text');
  assert.match((help as { text: string }).text, /-m, --mode/);
  assert.deepEqual(await parseWstestArgs(['-a'], '9.9.9'), { kind: 'text', text: "wsgate 9.9.9 (wstest: Autobahn|Testsuite's command line)" });
});
