/**
 * Both roles go through one run skeleton: the same case line on the console whichever side is under
 * test and however the client drives its cases, the report files told apart the same way when two
 * agents clean to one file name, and the baseline applied once per case.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import type net from 'node:net';
import path from 'node:path';
import { describe, test } from 'node:test';
import { WebSocketServer } from 'ws';
import { runCliWith } from '../support/cli-env.js';
import { fixtureCommand, LIVE_RUNS_AT_ONCE, tempDir } from '../support/harness.js';

/** The case lines of a run's console output. */
function caseLines(stdout: string): string[] {
  return stdout.split('\n').filter((l) => /^\[\d+\/\d+\]/.test(l));
}

/** A case line with its duration taken out. */
const LINE = /^\[(\d)\/2\] (pass|FAIL|warn|skip|acc ) (\S+) +(\S+) +\d+ ms(.*)$/;

async function echoServers(count: number): Promise<{ ports: number[]; close: () => Promise<void> }> {
  const servers: WebSocketServer[] = [];
  for (let i = 0; i < count; i++) {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    wss.on('connection', (ws) => {
      ws.on('message', (d, b) => ws.send(d as Buffer, { binary: b }));
      ws.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    servers.push(wss);
  }
  return {
    ports: servers.map((s) => (s.address() as net.AddressInfo).port),
    close: async () => {
      for (const wss of servers) await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

describe('one run skeleton for both roles', { concurrency: LIVE_RUNS_AT_ONCE }, () => {
  test('the same case line in both roles, for a looping client and a client per case', async () => {
    const cases = ['--cases', '1.1.1', '1.1.2', '--jobs', '1'];
    const runs = {
      'client role, looping (bundled)': ['run', '--url', 'ws://127.0.0.1:0', ...cases],
      'client role, per case': ['run', '--url', 'ws://127.0.0.1:0', '--client', fixtureCommand('spec-peer'), ...cases],
      'server role (bundled)': ['run', '--role', 'server', ...cases],
    };
    const parsed: Record<string, string[][]> = {};
    for (const [name, args] of Object.entries(runs)) {
      const dir = await tempDir();
      const res = await runCliWith([...args, '--outdir', path.join(dir, 'r')], { cwd: dir });
      assert.equal(res.code, 0, `${name}: ${res.stdout}${res.stderr}`);
      const lines = caseLines(res.stdout);
      assert.equal(lines.length, 2, `${name}: ${res.stdout}`);
      parsed[name] = lines.map((l) => {
        const m = LINE.exec(l);
        assert.ok(m, `${name}: ${JSON.stringify(l)} is not a case line`);
        return m.slice(1);
      });
    }
    for (const [name, lines] of Object.entries(parsed)) {
      assert.deepEqual(
        lines,
        [
          ['1', 'pass', '1.1.1', 'OK/OK', ''],
          ['2', 'pass', '1.1.2', 'OK/OK', ''],
        ],
        name,
      );
    }
  });

  test('server role: two servers whose agents clean to one file name get report files of their own, and the summary points at them', async () => {
    const { ports, close } = await echoServers(2);
    try {
      const dir = await tempDir();
      const spec = path.join(dir, 'fuzzingclient.json');
      await writeFile(
        spec,
        JSON.stringify({ servers: ports.map((p, i) => ({ agent: ['my agent', 'my_agent'][i], url: `ws://127.0.0.1:${p}` })), cases: ['1.1.1'] }),
      );
      const res = await runCliWith(['run', '--spec', spec], { cwd: dir });
      assert.equal(res.code, 0, res.stdout + res.stderr);
      assert.match(res.stderr, /clean to the same report file name/);
      const outdir = path.join(dir, 'reports', 'servers');
      const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as { cases: Array<{ agent: string; reportfile: string | null }> };
      const files = summary.cases.map((c) => c.reportfile);
      assert.equal(new Set(files).size, 2, files.join(' '));
      for (const c of summary.cases) {
        assert.ok(c.reportfile !== null && existsSync(path.join(outdir, c.reportfile)), `${c.agent}: ${c.reportfile} is not written`);
        const report = JSON.parse(await readFile(path.join(outdir, c.reportfile), 'utf8')) as { agent: string };
        assert.equal(report.agent, c.agent);
      }
    } finally {
      await close();
    }
  });

  for (const role of ['client', 'server'] as const) {
    test(`${role} role: a baselined case that passes gets the "can be removed" note once`, async () => {
      const dir = await tempDir();
      const baseline = path.join(dir, 'baseline.json');
      await writeFile(baseline, JSON.stringify({ version: 1, cases: { '1.1.1': { reason: 'was flaky' } } }));
      const roleArgs = role === 'server' ? ['--role', 'server'] : ['--url', 'ws://127.0.0.1:0'];
      const res = await runCliWith(['run', ...roleArgs, '--cases', '1.1.1', '--baseline', baseline, '--outdir', path.join(dir, 'r')], { cwd: dir });
      assert.equal(res.code, 0, res.stdout + res.stderr);
      const summary = JSON.parse(await readFile(path.join(dir, 'r', 'summary.json'), 'utf8')) as {
        cases: Array<{ warnings: string[]; baseline?: { state: string } }>;
      };
      const c = summary.cases[0];
      assert.equal(c?.baseline?.state, 'passing');
      assert.equal(c?.warnings.filter((w) => w.startsWith('passes now')).length, 1, JSON.stringify(c?.warnings));
    });
  }
});
