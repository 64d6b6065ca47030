/**
 * Real WebSocket libraries' own test suites that start `wstest` themselves, run unchanged against
 * wsgate's `wstest` on PATH (the npm bin, linked as `npm i -g wsgate` links it). Where each comes from,
 * what it showed before and after `/updateReports` wrote every report before its 101, and the suites
 * that cannot run here: docs/wstest.md, "Real consumers' own test suites".
 * .ci/install-consumer-suites.sh installs what they need (Debian packages).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../support/harness.js';
import { GO, NHOOYR, needs } from '../support/requirements.js';
import { WSTEST } from '../support/wstest.js';

/** The first 160 of the 299 cases its spec selects (1.1.1 to 12.1.5: groups 1-5, 7, 9, 10 and five of 12.*); the other 139, compressed, take ~2.5 minutes of its own CPU. */
const PLAYED = 160;

/**
 * Go's build cache for the suite: the compiled packages of Debian's /usr/share/gocode and the test
 * binary, kept across local runs under the repository's node_modules/.cache (as the Node versions of
 * test/support/node-versions.ts are), never in the system's temporary directory.
 */
const GOCACHE = fileURLToPath(new URL('../../../node_modules/.cache/wsgate-gocache/', import.meta.url));

/** A PATH with `wstest` on it, as `npm i -g wsgate` leaves it (a link to the package's bin, made executable as npm makes it). */
async function pathWithWstest(): Promise<string> {
  chmodSync(WSTEST, 0o755);
  const bin = await tempDir('wsgate-bin-');
  symlinkSync(WSTEST, path.join(bin, 'wstest'));
  return `${bin}${path.delimiter}${process.env.PATH ?? ''}`;
}

/** Runs a command in a process group of its own; on the timeout the whole group (go, the test binary, the wstest it started) is killed. */
function runGroup(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    };
    const timer = setTimeout(() => {
      out += `\n[killed after ${timeoutMs} ms]`;
      killGroup();
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      killGroup(); // anything the run left behind
      resolve({ code, out });
    });
  });
}

test('coder/websocket 1.8.7 (Debian golang-nhooyr-websocket-dev): its own TestAutobahn starts `wstest --mode fuzzingserver --spec FILE --webport=0`, plays, closes /updateReports at once, and passes on the index.json it reads', {
  timeout: 150_000,
  skip: needs('go-suite'),
}, async () => {
  // Its test writes ci/out/wstestClientReports/ beside its sources: a copy of the package in a GOPATH of
  // its own, the rest of its imports (test dependencies included) from Debian's /usr/share/gocode.
  const root = await tempDir('wsgate-consumer-suite-');
  const dir = path.join(root, 'gopath/src/nhooyr.io/websocket');
  cpSync(NHOOYR, dir, { recursive: true });
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'WSGATE_LISTEN_HOST' && !k.startsWith('GO')));
  const env = {
    ...base,
    PATH: await pathWithWstest(),
    GOPATH: `${path.join(root, 'gopath')}${path.delimiter}/usr/share/gocode`,
    GO111MODULE: 'off',
    GOPROXY: 'off',
    GOCACHE,
    // Its test writes its spec with os.CreateTemp (temp.json*) and never removes it: into this test's own directory.
    TMPDIR: root,
    AUTOBAHN_TEST: '1',
  };
  // `go test -run` picks the cases/#NN subtests to play and keeps every per-case subtest of its judge
  // (checkWSTestIndex's TestAutobahn/<id>): nothing of the suite's code is changed. -vet=off skips
  // only the static check `go test` runs before the tests by default (a process per package, ~200);
  // the tests compiled and run are the same.
  const run = await runGroup(
    GO,
    ['test', '-v', '-vet=off', '-count=1', '-timeout', '120s', '-run', 'TestAutobahn$/^(cases|[0-9.]+)$/^#(\\d\\d|1[0-5]\\d)$', '.'],
    dir,
    env,
    140_000,
  );
  const tail = run.out
    .split('\n')
    .filter((l) => !/^\s*(=== RUN|autobahn_test\.go:67: echoLoop)/.test(l))
    .slice(-40)
    .join('\n');
  assert.doesNotMatch(run.out, /index\.json: no such file or directory/, tail);
  assert.equal(run.code, 0, tail);
  assert.match(run.out, /^--- PASS: TestAutobahn \(/m, tail);
  assert.match(run.out, /^ok\s+nhooyr\.io\/websocket\s/m, tail);
  const played = run.out.match(/^\s+--- PASS: TestAutobahn\/cases\/#\d+ /gm) ?? [];
  assert.equal(played.length, PLAYED, tail);
  // Its judge ran once per case of the index.json it found on disk the moment its own close completed.
  const judged = [...run.out.matchAll(/^\s+--- PASS: TestAutobahn\/(\d+(?:\.\d+)+) /gm)].map((m) => m[1]).sort();
  const index = JSON.parse(readFileSync(path.join(dir, 'ci/out/wstestClientReports/index.json'), 'utf8')) as Record<
    string,
    Record<string, { behavior: string; reportfile: string }>
  >;
  assert.deepEqual(Object.keys(index), ['main']);
  const cases = index.main ?? {};
  assert.deepEqual(judged, Object.keys(cases).sort());
  assert.equal(judged.length, PLAYED);
  for (const [id, r] of Object.entries(cases)) {
    assert.ok(existsSync(path.join(dir, 'ci/out/wstestClientReports', r.reportfile)), `${id}: ${r.reportfile}`);
  }
  assert.ok(
    ['1.1.1', '7.13.2', '9.8.6', '10.1.1', '12.1.5'].every((id) => id in cases),
    Object.keys(cases).join(' '),
  );
});
