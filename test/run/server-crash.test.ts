/**
 * A server under test that dies of a case: the tutorial server (ws's WebSocketServer echoing, no
 * 'error' listener on its sockets), which Node kills with the first invalid frame. The crash is
 * pinned on the case that caused it, with the line the server printed; the cases after it are played
 * on a restarted server, or not run with the reason; none fails of a connection refused. The proof of
 * "the case that caused it": the server prints each connection's Sec-WebSocket-Key, and the last one
 * a start printed before it died is the key of the case charged with its death.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { runMain, type SummaryCase } from '../support/cli-env.js';
import { tempDir } from '../support/harness.js';

const BROKEN = fileURLToPath(new URL('../fixtures/servers/broken-server.js', import.meta.url));
const TUTORIAL = `'${process.execPath}' '${BROKEN}' no-error-listener {port}`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  outdir: string;
  cases: SummaryCase[];
  interrupted: string | null;
  /** The Sec-WebSocket-Key of each case's opening handshake, by case id. */
  keys: Map<string, string>;
  /** Each start of the server, from its log: the keys it printed, whether it died of an error. */
  starts: Array<{ keys: string[]; crashed: boolean }>;
  junit: string;
}

async function run(args: string[], server = TUTORIAL): Promise<Run> {
  const outdir = await tempDir();
  const res = await runMain(['run', '--role', 'server', '--server', server, '--agent', 'tutorial', '--outdir', outdir, ...args]);
  assert.ok(res.code === 0 || res.code === 1, res.stdout + res.stderr);
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as { cases: SummaryCase[]; interrupted: string | null };
  const keys = new Map<string, string>();
  for (const c of summary.cases) {
    if (c.status === 'skipped') continue;
    const report = JSON.parse(await readFile(path.join(outdir, `tutorial_case_${c.id.replace(/\./g, '_')}.json`), 'utf8')) as { httpRequest: string };
    const key = /Sec-WebSocket-Key: (\S+)\r\n/.exec(report.httpRequest)?.[1];
    if (key !== undefined) keys.set(c.id, key);
  }
  // The server's whole output, every start's, in the report directory.
  const log = await readFile(path.join(outdir, 'server-output.log'), 'utf8');
  const starts = log
    .split(/^--- wsgate: start \d+ of the server under test: .*\n/m)
    .slice(1)
    .map((text) => ({ keys: [...text.matchAll(/^connection (\S+)$/gm)].map((m) => m[1] as string), crashed: /^Node\.js v\d/m.test(text) }));
  const junit = await readFile(path.join(outdir, 'junit.xml'), 'utf8');
  return { ...res, outdir, cases: summary.cases, interrupted: summary.interrupted, keys, starts, junit };
}

/** The keys of the last connection of each start that died of an error: the cases that killed it. */
function killers(r: Run): Set<string> {
  return new Set(r.starts.filter((s) => s.crashed).map((s) => s.keys.at(-1) as string));
}

describe('a server that dies of a case', { concurrency: 2 }, () => {
  test('--jobs 1, no restart: the case that killed it fails with the error line it printed; the rest are not run, each saying why; JUnit red', async () => {
    const r = await run(['--jobs', '1', '--cases', '1.*', '2.*', '3.*']);
    assert.equal(r.code, 1, r.stdout);
    const failed = r.cases.filter((c) => c.status === 'failed');
    assert.equal(failed.length, 1, r.stdout);
    const killer = failed[0] as SummaryCase;
    assert.match(
      killer.reason,
      /^the server under test exited with status 1: \w*Error: Invalid WebSocket frame: .*, during this case \(its whole output: server-output\.log\)$/,
    );
    // The wire's verdicts keep the original's values.
    assert.ok(killer.behavior !== null);
    // Pinned on the right case: its key is the last the server printed.
    assert.equal(r.starts.length, 1);
    assert.deepEqual([...killers(r)], [r.keys.get(killer.id)]);
    const at = r.cases.indexOf(killer);
    assert.ok(at > 0);
    assert.ok(
      r.cases.slice(0, at).every((c) => c.status === 'passed'),
      r.stdout,
    );
    const after = r.cases.slice(at + 1);
    assert.ok(after.length > 0);
    for (const c of after) {
      assert.equal(c.status, 'skipped', c.id);
      assert.match(
        c.reason,
        new RegExp(
          `^not run: the server under test had died during ${killer.id.replace('.', '\\.')} \\(exited with status 1: \\w*Error: .*\\); it is not restarted \\(--restart-server restarts it\\)$`,
        ),
      );
    }
    // The run was cut short: red in summary.json and in JUnit (its not-run cases are errors).
    assert.match(r.interrupted ?? '', new RegExp(`^the server under test died during ${killer.id.replace('.', '\\.')} and was not restarted`));
    const errors = [...r.junit.matchAll(/<error message="not run: the server under test had died/g)].length;
    assert.equal(errors, after.length);
    assert.match(r.junit, new RegExp(`<testsuites [^>]*errors="${after.length}"`));
  });

  test('a server that dies slowly (its close sent, its exit 3 s later, as a starved process dies): the crash is still pinned on the case that caused it', async () => {
    const r = await run(['--jobs', '1', '--cases', '2.4', '2.5', '2.6'], `'${process.execPath}' '${BROKEN}' dies-slowly {port}`);
    assert.equal(r.code, 1, r.stdout);
    assert.deepEqual(
      r.cases.map((c) => `${c.id} ${c.status}`),
      ['2.4 passed', '2.5 failed', '2.6 skipped'],
      r.stdout,
    );
    const [, killer, after] = r.cases as [SummaryCase, SummaryCase, SummaryCase];
    assert.match(killer.reason, /^the server under test exited with status 1: \w*Error: Invalid WebSocket frame: .*, during this case/);
    assert.deepEqual([...killers(r)], [r.keys.get('2.5')]);
    assert.match(after.reason, /^not run: the server under test had died during 2\.5 /);
  });

  // Groups 1-7 with group 6 cut to its fail-fast subgroups: the whole of group 6 adds 90 deaths of
  // the same kind (invalid UTF-8 in a text message) and a minute of restarts, and nothing to check.
  test('--restart-server, --jobs 1, groups 1-7 (6.3 and 6.4 of group 6): every crash pinned on its case, no case lost to a restart, one restart line per death', async () => {
    const r = await run(['--jobs', '1', '--restart-server', '--cases', '1.*', '2.*', '3.*', '4.*', '5.*', '6.3.*', '6.4.*', '7.*']);
    assert.equal(r.code, 1);
    const failed = r.cases.filter((c) => c.status === 'failed');
    assert.ok(failed.length > 20, `${failed.length} failed`);
    assert.deepEqual(
      r.cases.filter((c) => c.status === 'skipped' || /connect|refused|reached/.test(c.reason)).map((c) => `${c.id}: ${c.reason}`),
      [],
    );
    // The failed cases are exactly the cases that killed a start, each charged alone.
    const charged = new Set(failed.map((c) => r.keys.get(c.id)));
    const deaths = killers(r);
    assert.deepEqual(
      {
        chargedNotKiller: failed.filter((c) => !deaths.has(r.keys.get(c.id) as string)).map((c) => c.id),
        killerNotCharged: [...deaths].filter((k) => !charged.has(k)),
      },
      { chargedNotKiller: [], killerNotCharged: [] },
    );
    for (const c of failed)
      assert.match(c.reason, /^the server under test exited with status 1: \w*Error: Invalid WebSocket frame: .*, during this case \(its whole/, c.id);
    const restarts = [...r.stdout.matchAll(/^wsgate: the server under test exited with status 1: \w*Error: .* during [\d.]+; restarted it \(start \d+\)$/gm)]
      .length;
    // Every death but a last one (after the last case) was followed by a restart.
    assert.ok(restarts === killers(r).size || restarts === killers(r).size - 1, `${restarts} restarts, ${killers(r).size} deaths`);
    assert.equal(r.interrupted, null);
  });

  test('--restart-server, --jobs 4: every crash charged to the cases open when it happened, and the text says so; no case lost to a restart', async () => {
    const r = await run(['--jobs', '4', '--restart-server', '--cases', '1.*', '2.*', '3.*', '4.*', '5.*', '7.*']);
    assert.equal(r.code, 1);
    assert.deepEqual(
      r.cases.filter((c) => c.status === 'skipped').map((c) => c.id),
      [],
    );
    const failed = r.cases.filter((c) => c.status === 'failed');
    // Each death is charged to cases of the start that died: with 4 at once, the last connection a
    // start printed is not always the killer (its 101 may not have left), but the killer is one it printed.
    const charged = new Set(failed.map((c) => r.keys.get(c.id)));
    for (const [n, start] of r.starts.entries()) {
      if (start.crashed)
        assert.ok(
          start.keys.some((k) => charged.has(k)),
          `start ${n + 1} died and none of its cases is charged`,
        );
    }
    // Only with the death: no case failed of its own, nor of a connection refused.
    for (const c of failed)
      assert.match(c.reason, /^the server under test exited with status 1: \w*Error: Invalid WebSocket frame: .*, during this case/, `${c.id}: ${c.reason}`);
    // A case charged beside others names them.
    const shared = failed.filter((c) => / \(cases? [\d., ]+ (was|were) open too, and are charged with it\)/.test(c.reason));
    for (const c of shared) {
      const named = /\(cases? ([\d., ]+) (was|were) open too/.exec(c.reason)?.[1]?.split(', ') ?? [];
      for (const other of named)
        assert.ok(
          failed.some((f) => f.id === other),
          `${c.id} names ${other}, which is not charged`,
        );
    }
  });
});
