/**
 * Configuration errors: every invalid flag value gets exactly one line on stderr naming what is
 * wrong, exit status 2, and no case runs (nothing on stdout, no report written). Flags are the only
 * configuration source today (src/config/schema.ts): there is no spec file or environment value to check.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { runMain } from '../support/cli-env.js';
import { runCli, tempDir } from '../support/harness.js';

let sandbox = '';
let aFile = '';
let aDir = '';
before(async () => {
  sandbox = await tempDir();
  aFile = path.join(sandbox, 'a-file');
  aDir = path.join(sandbox, 'a-dir');
  await writeFile(aFile, 'not a directory');
  await mkdir(aDir);
});

/**
 * Rows: arguments (a function, since the sandbox paths exist only once `before` ran), the one line expected.
 * The command decides the line and the status: rows run main() in this process (runMain, which also
 * captures what would reach the process's fd 2), except those in AS_PROCESS, which run the CLI as a
 * process: a usage error yargs finds, and one that gets as far as the server's listen.
 */
const rows: Array<[string, () => string[], RegExp]> = [
  ['unknown flag', () => ['run', '--bogus-flag'], /^wsgate: unknown option --bogus-flag$/],
  ['stray positional argument', () => ['run', 'extra'], /^wsgate: unknown argument extra$/],
  ['unknown command', () => ['bogus'], /^wsgate: unknown command bogus$/],
  ['no command', () => [], /^wsgate: name a command: run, serve, judge, merge, list, repro or matrix/],
  ['--url with http://', () => ['run', '--url', 'http://127.0.0.1:0'], /^wsgate: --url must start with ws:\/\//],
  [
    '--url port out of range',
    () => ['run', '--url', 'ws://127.0.0.1:70000'],
    /^wsgate: --url "ws:\/\/127\.0\.0\.1:70000" is not a URL; use ws:\/\/HOST:PORT or wss:\/\/HOST:PORT$/,
  ],
  ['--url not a URL', () => ['run', '--url', 'not a url'], /^wsgate: --url "not a url" is not a URL/],
  ['--url ftp://', () => ['run', '--url', 'ftp://127.0.0.1:0'], /^wsgate: --url must start with ws:\/\/ or wss:\/\//],
  ['--key without --cert', () => ['run', '--key', aFile], /^wsgate: --key needs --cert \(the certificate it goes with\)$/],
  ['--cert without --key', () => ['run', '--cert', aFile], /^wsgate: --cert needs --key \(its private key\)$/],
  [
    '--cert that does not exist',
    () => ['run', '--cert', path.join(sandbox, 'none.pem'), '--key', aFile],
    /^wsgate: --cert .*none\.pem: cannot read it \(ENOENT\)$/,
  ],
  [
    '--cert and --key that are not PEM',
    () => ['run', '--cert', aFile, '--key', aFile],
    /^wsgate: --cert .*a-file \/ --key .*a-file: not a usable certificate and private key/,
  ],
  ['--ca without TLS', () => ['run', '--ca', aFile], /^wsgate: --ca applies to wss:\/\/ \(add --tls\)$/],
  [
    '--ca that is not a certificate',
    () => ['run', '--tls', '--ca', aFile, '--cert', aFile, '--key', aFile],
    /^wsgate: --ca .*a-file: no PEM certificate in it$/,
  ],
  ['--ca for a client without --cert', () => ['run', '--tls', '--ca', aFile], /^wsgate: --ca names the CA of your --cert; without --cert, wsgate makes a CA/],
  ['--insecure without TLS', () => ['run', '--role', 'server', '--insecure'], /^wsgate: --insecure applies to wss:\/\//],
  ['--insecure for a client under test', () => ['run', '--tls', '--insecure'], /^wsgate: --insecure applies when servers are tested/],
  [
    '--cert for a server at --server-url',
    () => ['run', '--server-url', 'wss://127.0.0.1:1', '--cert', aFile, '--key', aFile],
    /^wsgate: --cert\/--key are for a server wsgate starts/,
  ],
  ['{ca} with no CA', () => ['run', '--client', 'true {ca}'], /^wsgate: the client command uses \{ca\}, but there is no CA to give it/],
  ['--url with a path', () => ['run', '--url', 'ws://127.0.0.1:0/x'], /^wsgate: --url takes no path or query/],
  [
    '--url on an address this host does not have',
    () => ['run', '--url', 'ws://192.0.2.1:0'],
    /^wsgate: cannot listen on 192\.0\.2\.1:0: address not available$/,
  ],
  ['--url without a value', () => ['run', '--url'], /^wsgate: Not enough arguments following: url$/],
  ['negative --case-timeout', () => ['run', '--case-timeout', '-1'], /^wsgate: --case-timeout: --case-timeout must be a positive number of seconds$/],
  ['zero --case-timeout', () => ['run', '--case-timeout', '0'], /^wsgate: --case-timeout: --case-timeout must be a positive number of seconds$/],
  ['--case-timeout not a number', () => ['run', '--case-timeout', 'soon'], /^wsgate: --case-timeout: .*expected number/],
  ['--case-timeout without a value', () => ['run', '--case-timeout'], /^wsgate: Not enough arguments following: case-timeout$/],
  [
    'patterns that select nothing',
    () => ['run', '--cases', '6.*', '--exclude-cases', '6.*'],
    /^wsgate: no case is selected: check --cases and --exclude-cases$/,
  ],
  ['an unknown case id', () => ['run', '--cases', '99.9.9'], /^wsgate: no case has the id "99\.9\.9"/],
  ['a malformed pattern', () => ['run', '--cases', 'abc'], /^wsgate: bad case pattern "abc"/],
  ['--cases without a pattern', () => ['run', '--cases'], /^wsgate: Not enough arguments following: cases$/],
  ['serve with patterns that select nothing', () => ['serve', '--cases', '99.*'], /^wsgate: no case is selected/],
  ['list with a malformed pattern', () => ['list', '--cases', 'nope'], /^wsgate: bad case pattern "nope"/],
  ['empty --agent', () => ['run', '--agent', ''], /^wsgate: --agent: agent must not be empty$/],
  ['--agent with a control character', () => ['run', '--agent', 'a\u0001b'], /^wsgate: --agent: agent name contains control characters$/],
  ['--agent longer than 256 characters', () => ['run', '--agent', 'x'.repeat(300)], /^wsgate: --agent: agent name longer than 256 characters$/],
  ['--agent without a value', () => ['run', '--agent'], /^wsgate: Not enough arguments following: agent$/],
  ['blank --client', () => ['run', '--client', '   '], /^wsgate: --client: the client command is empty$/],
  ['bad --log-level', () => ['run', '--log-level', 'loud'], /^wsgate: --log-level: /],
  [
    '--outdir in a filesystem that takes no new entries',
    () => ['run', '--outdir', '/proc/wsgate-nope'],
    /^wsgate: cannot write to the report directory \/proc\/wsgate-nope: ENOENT/,
  ],
  ['--outdir that is a file', () => ['run', '--outdir', aFile], /^wsgate: cannot write to the report directory .*a-file: ENOTDIR/],
  ['--outdir under a file', () => ['run', '--outdir', path.join(aFile, 'sub')], /^wsgate: cannot write to the report directory .*sub: ENOTDIR/],
  ['--junit that is a directory', () => ['run', '--junit', aDir], /^wsgate: --junit .*a-dir is a directory; give a file name$/],
  [
    '--json in an unwritable place',
    () => ['run', '--json', '/proc/wsgate-nope/s.json'],
    /^wsgate: cannot write to the --json directory \/proc\/wsgate-nope: ENOENT/,
  ],
  [
    'serve with an unwritable --outdir',
    () => ['serve', '--outdir', '/proc/wsgate-nope'],
    /^wsgate: cannot write to the report directory \/proc\/wsgate-nope: ENOENT/,
  ],
];

const AS_PROCESS = new Set(['unknown flag', '--url on an address this host does not have']);

describe('configuration errors: one line, exit 2, before any case runs', { concurrency: 4 }, () => {
  for (const [name, args, line] of rows) {
    test(name, async () => {
      const argv = args();
      const outdir = path.join(sandbox, `never-${name.replace(/\W+/g, '-')}`);
      // A fixed outdir (unless the row tests one), a free port and one case: if validation let the
      // row through, the run would be short and the assertions below would catch it.
      const extra =
        argv[0] === 'run' || argv[0] === 'serve'
          ? [
              ...(argv.includes('--outdir') ? [] : ['--outdir', outdir]),
              ...(argv.includes('--url') ? [] : ['--url', 'ws://127.0.0.1:0']),
              ...(argv.includes('--cases') ? [] : ['--cases', '6.9.2']),
            ]
          : [];
      // After the row's own arguments, unless the row ends with a flag that lacks its value (the
      // options would become that value): then before them.
      const dangling = argv[argv.length - 1]?.startsWith('--') === true;
      const full = argv.length === 0 ? argv : dangling ? [argv[0] as string, ...extra, ...argv.slice(1)] : [...argv, ...extra];
      const res = AS_PROCESS.has(name) ? await runCli(full, 20_000) : await runMain(full);
      assert.equal(res.code, 2, `exit ${res.code}\n${res.stdout}${res.stderr}`);
      const lines = res.stderr.split('\n').filter((l) => l !== '');
      assert.equal(lines.length, 1, res.stderr);
      assert.match(lines[0] ?? '', line);
      assert.equal(res.stdout, '', 'something ran');
      for (const f of ['summary.json', 'junit.xml', 'index.json']) assert.ok(!existsSync(path.join(outdir, f)), `${f} was written`);
    });
  }
});
