/**
 * The GitHub Action: action.yml declares exactly the inputs the entry reads and the outputs it
 * writes, and its composite steps, run as the runner runs them (bash -eo pipefail, the step's env
 * with the `${{ }}` expressions filled in, GITHUB_STEP_SUMMARY / GITHUB_OUTPUT / GITHUB_ACTIONS set),
 * give a summary, outputs, annotations and the exit status for a passing and a failing client.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ACTION_INPUTS, actionArguments, inputVariable } from '../../src/action.js';
import { runOutputs } from '../../src/report/github/publish.js';
import { sampleRun } from '../report/helpers.js';
import { readAction, REPO_ROOT, runAction } from '../support/action-runner.js';
import { fixtureCommand, LIVE_RUNS_AT_ONCE, runCli, tempDir } from '../support/harness.js';

const action = readAction();

describe('action.yml', () => {
  test('is a composite action whose inputs are exactly the ones the entry reads, all kebab-case', () => {
    assert.equal(action.runs.using, 'composite');
    assert.deepEqual(Object.keys(action.inputs).sort(), Object.keys(ACTION_INPUTS).sort());
    for (const [name, spec] of Object.entries(action.inputs)) {
      assert.match(name, /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
      assert.equal(typeof spec.description, 'string');
      assert.equal(spec.required, false);
    }
  });

  test('the run step passes every input under the name the entry reads, and nothing else', () => {
    const step = action.runs.steps.find((s) => s.id === 'wsgate');
    assert.ok(step?.env);
    const inputs = Object.entries(step.env).filter(([k]) => k.startsWith('INPUT_'));
    assert.deepEqual(
      inputs.sort(),
      Object.keys(ACTION_INPUTS)
        .map((name) => [inputVariable(name), `\${{ inputs.${name} }}`])
        .sort(),
    );
    // No input is spliced into a shell script: expressions appear only in env values.
    for (const s of action.runs.steps) assert.doesNotMatch(s.run, /\$\{\{/);
  });

  test('the outputs are exactly the ones wsgate writes', () => {
    const names = Object.keys(runOutputs(sampleRun(), { outdir: '/r', junit: '/r/j.xml', json: '/r/s.json' }));
    assert.deepEqual(Object.keys(action.outputs).sort(), [...names].sort());
    for (const [name, o] of Object.entries(action.outputs)) assert.equal(o.value, `\${{ steps.wsgate.outputs.${name} }}`);
  });
});

describe('inputs to arguments', () => {
  const env = (inputs: Record<string, string>): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(inputs).map(([k, v]) => [inputVariable(k), v]));

  test('empty inputs give a plain run with GitHub output', () => {
    assert.deepEqual(actionArguments(env({ strict: 'false', 'client-loops': 'false', agent: '' })), { argv: ['run', '--github'], cwd: null });
  });

  test('a browser, with its executable and timeout', () => {
    const { argv } = actionArguments(env({ browser: 'firefox', 'browser-path': '/usr/bin/firefox', 'browser-timeout': '45', quick: 'true' }));
    assert.deepEqual(argv, ['run', '--github', '--quick', '--browser=firefox', '--browser-path=/usr/bin/firefox', '--browser-timeout=45']);
  });

  test('each kind of input', () => {
    const { argv, cwd } = actionArguments(
      env({
        'client-command': `python3 client.py --name "it's" {url}`,
        cases: '1.* 6.9.2,\n7.1.1',
        'fail-on': 'FAILED, WRONG CODE\nNON-STRICT',
        strict: 'True',
        'config-file': 'autobahn/fuzzingserver.json',
        'case-timeout': '12.5',
        'working-directory': 'client',
      }),
    );
    assert.deepEqual(argv, [
      'run',
      '--github',
      // In the table's order (src/config/options/table.ts).
      '--spec=autobahn/fuzzingserver.json',
      '--cases=1.*',
      '--cases=6.9.2',
      '--cases=7.1.1',
      '--case-timeout=12.5',
      `--client=python3 client.py --name "it's" {url}`,
      '--strict',
      '--fail-on=FAILED',
      '--fail-on=WRONG CODE',
      '--fail-on=NON-STRICT',
    ]);
    assert.equal(cwd, 'client');
  });

  test('the inputs a sharding matrix needs: shard, jobs, extended, repro, seed, server-start-timeout, quiet', () => {
    const { argv } = actionArguments(
      env({
        shard: '2/4',
        jobs: '3',
        extended: 'true',
        repro: 'true',
        quiet: 'true',
        'server-command': 'node s.js {port}',
        seed: '7',
        'server-start-timeout': '60',
      }),
    );
    assert.deepEqual(argv.slice(2).sort(), [
      '--extended',
      '--jobs=3',
      '--quiet',
      '--repro',
      '--seed=7',
      '--server-start-timeout=60',
      '--server=node s.js {port}',
      '--shard=2/4',
    ]);
    // Judging reports: --extended and --quiet apply, --shard does not.
    assert.deepEqual(actionArguments(env({ 'judge-reports': 'r', extended: 'true', quiet: 'true' })).argv, [
      'judge',
      '--github',
      '--extended',
      '--quiet',
      '--outdir=r',
    ]);
    assert.throws(() => actionArguments(env({ 'judge-reports': 'r', shard: '1/2' })), /input shard does not apply with judge-reports/);
  });

  test('judge-reports judges instead of running; run-only inputs are refused with it', () => {
    assert.deepEqual(actionArguments(env({ 'judge-reports': 'reports/clients', agent: 'lib', strict: 'false', 'client-loops': 'false' })).argv, [
      'judge',
      '--github',
      '--agent=lib',
      '--outdir=reports/clients',
    ]);
    assert.throws(() => actionArguments(env({ 'judge-reports': 'r', 'client-command': 'x' })), /input client-command does not apply with judge-reports/);
  });

  test('a boolean input that is not true or false is refused', () => {
    assert.throws(() => actionArguments(env({ strict: 'yes' })), /input strict: must be true or false, got "yes"/);
  });
});

describe('the action end to end', { concurrency: LIVE_RUNS_AT_ONCE }, () => {
  test('a passing client: exit 0, result=pass, counts and report paths, a summary with the group table', async () => {
    const { res, summary, outputs, workspace } = await runAction({ cases: '1.1.1 1.1.2', url: 'ws://127.0.0.1:0', 'reports-directory': 'reports' });
    assert.equal(res.code, 0, res.stdout + res.stderr);
    const reports = path.join(workspace, 'reports');
    assert.deepEqual(outputs, {
      result: 'pass',
      passed: '2',
      failed: '0',
      skipped: '0',
      total: '2',
      accepted: '0',
      'reports-directory': reports,
      'junit-report': path.join(reports, 'junit.xml'),
      'json-report': path.join(reports, 'summary.json'),
      'html-report': path.join(reports, 'index.html'),
    });
    assert.match(summary, /^## ✅ wsgate: wsgate-reference-ws passed\n\n\*\*2 cases: 2 passed, 0 failed, 0 skipped\*\*/);
    assert.match(
      summary,
      /<details><summary>1 Framing: 2\/2 passed<\/summary>\n\n\| Case \| Status \| Verdicts \| Duration \| Reason \|\n\| --- \| --- \| --- \| ---: \| --- \|\n\| 1\.1\.1 \| ✅ pass \| OK \/ OK \|/,
    );
    assert.doesNotMatch(res.stdout, /^::error/m);
    await readFile(path.join(reports, 'junit.xml'));
  });

  test('a server under test: server-command with {port}; a server that accepts invalid UTF-8 fails, reports in reports/servers', async () => {
    const broken = fileURLToPath(new URL('../fixtures/servers/broken-server.js', import.meta.url));
    const { res, summary, outputs, workspace } = await runAction({
      cases: '1.1.1 6.3.1',
      'server-command': `'${process.execPath}' '${broken}' no-utf8-check {port}`,
      agent: 'lenient-server',
    });
    assert.equal(res.code, 1, res.stdout + res.stderr);
    assert.equal(outputs.result, 'fail');
    assert.equal(outputs.passed, '1');
    assert.equal(outputs.failed, '1');
    assert.equal(outputs['reports-directory'], path.join(workspace, 'reports', 'servers'));
    assert.match(summary, /wsgate: lenient-server failed/);
    assert.match(res.stdout, /^::error .*6\.3\.1/m);
  });

  test('shard and jobs reach the run: only the second of two slices is played, jobs=1 accepted (the entry compiled from src/, not the bundle)', async () => {
    // action/dist/ is rebuilt after a merge (test/github/action-bundle.test.ts checks it): this runs
    // action.yml's steps with an entry that loads the compiled sources, so the test holds before then.
    const actionPath = await tempDir('wsgate-action-src-');
    await copyFile(path.join(REPO_ROOT, 'action.yml'), path.join(actionPath, 'action.yml'));
    await mkdir(path.join(actionPath, 'action', 'dist', 'github'), { recursive: true });
    const entry = new URL('../../src/action.js', import.meta.url).href;
    await writeFile(
      path.join(actionPath, 'action', 'dist', 'github', 'action.js'),
      `import { runAction } from ${JSON.stringify(entry)};\nprocess.exitCode = await runAction(process.env, { stdout: process.stdout, stderr: process.stderr });\n`,
    );
    const { res, outputs } = await runAction(
      { cases: '1.1.1 1.1.2 1.1.3 1.1.4', shard: '2/2', jobs: '1', url: 'ws://127.0.0.1:0', 'reports-directory': 'reports' },
      { actionPath },
    );
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.deepEqual([outputs.result, outputs.total], ['pass', '2']);
    const summary = JSON.parse(await readFile(outputs['json-report'] ?? '', 'utf8')) as { shard: unknown; cases: unknown[] };
    assert.deepEqual(summary.shard, { index: 2, count: 2 });
    assert.equal(summary.cases.length, 2);
  });

  test('tls: the bundled client over wss://, the CA in the reports directory; a server over wss:// with role server', async () => {
    const client = await runAction({ cases: '1.1.1 2.1', tls: 'true', url: 'ws://127.0.0.1:0' });
    assert.equal(client.res.code, 0, client.res.stdout + client.res.stderr);
    assert.equal(client.outputs.passed, '2');
    const ca = await readFile(path.join(client.outputs['reports-directory'] ?? '', 'ca.pem'), 'utf8');
    assert.match(ca, /^-----BEGIN CERTIFICATE-----\n/);
    assert.match(client.res.stdout, /on wss:\/\/127\.0\.0\.1:\d+/);
    const server = await runAction({ cases: '1.1.1', role: 'server', tls: 'true' });
    assert.equal(server.res.code, 0, server.res.stdout + server.res.stderr);
    assert.match(server.res.stdout, /against the bundled ws server at wss:\/\//);
  });

  test('http2: both roles over HTTP/2, the summary saying so', async () => {
    for (const role of ['client', 'server']) {
      const { res, outputs } = await runAction({ cases: '1.1.1 2.1', http2: 'true', role, ...(role === 'client' ? { url: 'ws://127.0.0.1:0' } : {}) });
      assert.equal(res.code, 0, res.stdout + res.stderr);
      assert.equal(outputs.passed, '2');
      assert.match(res.stdout, /over HTTP\/2 \(RFC 8441, h2c\)/);
      const summary = JSON.parse(await readFile(path.join(outputs['reports-directory'] ?? '', 'summary.json'), 'utf8')) as {
        cases: Array<{ transport: string }>;
      };
      assert.deepEqual(
        summary.cases.map((c) => c.transport),
        ['h2', 'h2'],
      );
    }
  });

  test('a failing client with a quoted command and agent: exit 1, annotations, failing rows, result=fail', async () => {
    const agent = `it's a "client" & co`;
    const { res, summary, outputs } = await runAction({
      'client-command': fixtureCommand('echo-invalid'),
      agent,
      cases: '6.9.2,6.12.7',
      url: 'ws://127.0.0.1:0',
      'reports-directory': 'out',
    });
    assert.equal(res.code, 1, res.stdout + res.stderr);
    assert.equal(outputs.result, 'fail');
    assert.equal(outputs.failed, '1');
    assert.equal(outputs.passed, '1');
    const errors = res.stdout.split('\n').filter((l) => l.startsWith('::error '));
    assert.equal(errors.length, 1);
    // The annotation explains: the client echoed the invalid UTF-8 (its first frame) instead of failing with 1007.
    assert.match(
      errors[0] ?? '',
      /^::error title=wsgate%3A invalid UTF-8 in a text message accepted::Case 6\.12\.7 failed for agent it's a "client" & co%0ARFC 6455 §8\.1, §7\.4\.1: .*%0AInvalid UTF-8 in a text message accepted\. .*The peer accepted it and sent text frame 1 \(FIN, 6 bytes\) 0x80bf80bf80bf instead of failing the connection \(its frame 1, .*%0AReport: /,
    );
    assert.match(summary, /^## ❌ wsgate: it's a "client" &amp; co failed/);
    assert.match(
      summary,
      /### Failures by cause \(1\)\n\n\| Cause \| Cases \| Requirement \|\n\| --- \| --- \| --- \|\n\| invalid UTF-8 in a text message accepted \| 1: 6\.12\.7 \| RFC 6455 §8\.1, §7\.4\.1: /,
    );
    assert.match(
      summary,
      /### Failing cases \(1\)\n\n\| Case \| Verdicts \| Why \|\n\| --- \| --- \| --- \|\n\| 6\.12\.7 \| FAILED \/ FAILED \| the peer accepted it and sent text frame 1 \(FIN, 6 bytes\) 0x80bf80bf80bf instead of failing the connection \(its frame 1, [^|]*\) — RFC 6455 §8\.1, §7\.4\.1 \|/,
    );
  });

  test('a baseline through the action: the failure is accepted, exit 0, noted in the summary', async () => {
    const dir = await tempDir();
    const baseline = path.join(dir, 'baseline.json');
    await writeFile(baseline, JSON.stringify({ version: 1, cases: { '6.12.7': { reason: 'validation lands in v2' } } }));
    const { res, summary, outputs } = await runAction({
      'client-command': fixtureCommand('echo-invalid'),
      cases: '6.9.2 6.12.7',
      url: 'ws://127.0.0.1:0',
      baseline,
      'reports-directory': 'out',
    });
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.deepEqual([outputs.result, outputs.accepted, outputs.skipped], ['pass', '1', '1']);
    assert.match(summary, /### Accepted failures \(baseline, 1\)[\s\S]*\| 6\.12\.7 \| FAILED \/ FAILED \| validation lands in v2 \|/);
  });

  test('the service-container pattern: judge-reports on reports a server wrote elsewhere', async () => {
    const reports = await tempDir();
    const served = await runCli([
      'run',
      '--client',
      fixtureCommand('echo-invalid'),
      '--agent',
      'lib',
      '--url',
      'ws://127.0.0.1:0',
      '--outdir',
      reports,
      '--cases',
      '6.9.2',
      '6.12.7',
    ]);
    assert.equal(served.code, 1);
    const { res, summary, outputs, workspace } = await runAction({ 'judge-reports': reports, agent: 'lib', 'reports-directory': 'judged' });
    assert.equal(res.code, 1, res.stdout + res.stderr);
    assert.deepEqual([outputs.result, outputs.failed, outputs.total, outputs['reports-directory']], ['fail', '1', '2', reports]);
    // The JUnit and summary go where reports-directory says (the judged directory may belong to the service's user).
    assert.equal(outputs['junit-report'], path.join(workspace, 'judged', 'junit.xml'));
    await readFile(path.join(workspace, 'judged', 'summary.json'));
    assert.match(res.stdout, /^::error title=wsgate%3A invalid UTF-8 in a text message accepted::Case 6\.12\.7 failed for agent lib%0A/m);
    assert.match(summary, /\| 6\.12\.7 \| FAILED \/ FAILED \|/);
  });

  test('a bad input: exit 2, an error annotation with the reason, no case run', async () => {
    const bad = await runAction({ 'fail-on': 'FAILED, BOGUS', cases: '1.1.1', url: 'ws://127.0.0.1:0' });
    assert.equal(bad.res.code, 2);
    assert.match(bad.res.stdout, /^::error title=wsgate::--fail-on: unknown verdict "BOGUS" \(one of: /m);
    assert.deepEqual(bad.outputs, {});
    const notBool = await runAction({ strict: 'yes' });
    assert.equal(notBool.res.code, 2);
    assert.match(notBool.res.stdout, /^::error title=wsgate::input strict: must be true or false, got "yes"$/m);
  });
});
