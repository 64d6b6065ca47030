/**
 * Explanations are right, not just present: each deliberately broken peer (a real process over TCP,
 * wrong in one way) gets explanations that name its actual fault, the requirement it breaks and the
 * frame where it happened, in both roles; the summary groups its failures by that cause.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { RUN_FAULT } from '../../src/explain/explain.js';
import type { CauseGroup, Explanation } from '../../src/model/explanation.js';
import { fixtureCommand, runCli, tempDir } from '../support/harness.js';

interface Case {
  id: string;
  status: string;
  explanation: Explanation | null;
}

interface Run {
  outdir: string;
  code: number | null;
  stdout: string;
  cases: Map<string, Case>;
  causes: CauseGroup[];
}

async function run(args: string[]): Promise<Run> {
  const outdir = await tempDir();
  const res = await runCli(['run', '--jobs', '2', '--outdir', outdir, ...args], 90_000);
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as { cases: Case[]; causes: CauseGroup[] };
  return { outdir, code: res.code, stdout: res.stdout, cases: new Map(summary.cases.map((c) => [c.id, c])), causes: summary.causes };
}

function explained(r: Run, id: string): Explanation {
  const e = r.cases.get(id)?.explanation;
  assert.ok(e, `case ${id} has an explanation`);
  return e;
}

const client = (name: string, cases: string[]): Promise<Run> => run(['--client', fixtureCommand(name), '--url', 'ws://127.0.0.1:0', '--cases', ...cases]);

const BROKEN_SERVER = fileURLToPath(new URL('../fixtures/servers/broken-server.js', import.meta.url));
const server = (mode: string, cases: string[]): Promise<Run> =>
  run(['--role', 'server', '--server', `'${process.execPath}' '${BROKEN_SERVER}' ${mode} {port}`, '--cases', ...cases]);

describe('a client under test, wrong in one way', () => {
  test('echo-invalid (echoes invalid UTF-8): "accepted", the frame that holds the bad byte, RFC 6455 §8.1, the echo as its first frame', async () => {
    const r = await client('echo-invalid', ['6.3.1', '6.3.2', '6.12.7']);
    assert.equal(r.code, 1);
    const one = explained(r, '6.3.1');
    assert.equal(one.cause.key, 'utf8-invalid:accepted');
    assert.equal(one.cause.title, 'invalid UTF-8 in a text message accepted');
    assert.match(one.requirement.rfc, /RFC 6455 §8\.1/);
    assert.match(one.did, /the first invalid byte is at offset 12 of the message \(0xa0\), in its 1st frame$/);
    assert.match(one.peerDid, /^accepted it and sent text frame 1 \(FIN, 20 bytes\) 0xcebae1bdb9cf83cebcceb5eda080/);
    assert.deepEqual([one.at?.frame, one.at?.offset], [1, 0]);
    assert.ok(typeof one.at?.ms === 'number' && one.at.ms >= 0, 'the time after the start is known in a live run');
    // 6.3.2 sends the same bytes one per frame: the 13th frame holds the byte that makes it invalid.
    assert.match(explained(r, '6.3.2').did, /at offset 12 of the message \(0xa0\), in its 13th frame$/);
    const group = r.causes.find((g) => g.key === 'utf8-invalid:accepted');
    assert.deepEqual(group?.cases, ['6.3.1', '6.3.2', '6.12.7']);
    assert.equal(group?.ranges, '6.3.1–6.3.2, 6.12.7');
    // The console: one line under each failing case, the causes once at the end.
    assert.match(r.stdout, /FAIL 6\.3\.1 .*\n +why: the peer accepted it and sent text frame 1 .* — RFC 6455 §8\.1, §7\.4\.1\n/);
    assert.match(r.stdout, /1 cause:\n {2}FAIL invalid UTF-8 in a text message accepted — 3 cases: 6\.3\.1–6\.3\.2, 6\.12\.7\n +RFC 6455 §8\.1/);
    // The case page opens with it; index.html lists the cause with its cases.
    const page = await readFile(path.join(r.outdir, 'client_case_6_3_1.html'), 'utf8');
    assert.match(
      page,
      /<main>\n<p id="case_title"[^\n]*\n<section id="case_explanation" data-cause="utf8-invalid:accepted"><h2>Why: invalid UTF-8 in a text message accepted<\/h2>/,
    );
    assert.match(page, /<dt>The peer<\/dt><dd>accepted it and sent text frame 1 \(FIN, 20 bytes\)/);
    const index = await readFile(path.join(r.outdir, 'index.html'), 'utf8');
    assert.match(
      index,
      /<tr data-cause="utf8-invalid:accepted"><td>invalid UTF-8 in a text message accepted<\/td><td class="count">3<\/td><td class="which"><a href="[^"]*case_6_3_1\.html">6\.3\.1<\/a>, <a href="[^"]*case_6_3_2\.html">6\.3\.2<\/a>, <a href="[^"]*case_6_12_7\.html">6\.12\.7<\/a><\/td>/,
    );
  });

  test('wrong-close-code (answers a close with 1001): one cause for every normal close, another for the invalid codes, each at the close frame', async () => {
    const r = await client('wrong-close-code', ['2.1', '2.2', '7.7.1', '7.9.1', '7.9.2']);
    const normal = explained(r, '2.1');
    assert.equal(normal.cause.key, 'closing-answer:code-1001');
    assert.equal(normal.peerDid, "answered wsgate's close (code 1000) with code 1001");
    assert.match(normal.requirement.rfc, /§5\.5\.1/);
    const invalid = explained(r, '7.9.2');
    assert.equal(invalid.cause.key, 'close-code-invalid:code-1001');
    assert.equal(invalid.peerDid, "answered wsgate's close frame (code 999) with code 1001 where 1002 (or none) is required");
    assert.equal(invalid.at?.frame, 1, 'the close frame is the first the client sent');
    assert.deepEqual(
      r.causes.map((g) => [g.key, g.cases]),
      [
        ['closing-answer:code-1001', ['2.1', '2.2', '7.7.1']],
        ['close-code-invalid:code-1001', ['7.9.1', '7.9.2']],
      ],
    );
  });

  test("wrong-pong (inverts a ping's bytes): the pong that differs, with both payloads, at its frame", async () => {
    const r = await client('wrong-pong', ['2.2', '2.3']);
    const e = explained(r, '2.3');
    assert.equal(e.cause.key, 'ping-pong:different-pong');
    assert.equal(e.peerDid, 'sent a pong 0xff0001020304ff00 where the case expects a pong 0x00fffefdfcfb00ff');
    assert.equal(e.at?.frame, 1);
    assert.match(explained(r, '2.2').peerDid, /^sent a pong 0xb79a9393/);
  });

  test('never-close (never answers a close): "a close frame never answered", not clean', async () => {
    const r = await client('never-close', ['7.7.1']);
    const e = explained(r, '7.7.1');
    assert.equal(e.cause.key, 'closing-answer:none');
    assert.equal(e.peerDid, "never answered wsgate's close frame");
    assert.match(e.ending, /^wsgate started the closing handshake with code 1000, the peer sent no close frame, wsgate closed TCP, not clean/);
  });

  test('unmasked-echo (sends frames without a mask): the unmasked frame, RFC 6455 §5.1', async () => {
    const r = await client('unmasked-echo', ['1.1.2']);
    const e = explained(r, '1.1.2');
    assert.equal(e.cause.key, 'masking:client');
    assert.equal(e.peerDid, 'sent text frame 1 (FIN, 125 bytes) without a mask');
    assert.match(e.requirement.rfc, /RFC 6455 §5\.1/);
    assert.match(e.ending, /wsgate failed the connection with code 1002 \("unmasked client-to-server frame"\)/);
  });

  test('ignores-stray-continuation (drops a continuation with no message open): 5.15 is told at the echo of "fragment4", not the expected echo before it', async () => {
    const r = await client('ignores-stray-continuation', ['5.15', '5.1']);
    assert.equal(r.cases.get('5.1')?.status, 'passed', 'the same peer, otherwise correct');
    const e = explained(r, '5.15');
    assert.equal(e.cause.key, 'stray-continuation:accepted');
    assert.equal(e.peerDid, 'accepted it and sent text frame 2 (FIN, 9 bytes) "fragment4" instead of failing the connection');
    assert.deepEqual([e.at?.frame, e.at?.offset], [2, 24], 'its second frame, after the 24 bytes of the echo of "fragment1fragment2"');
    assert.doesNotMatch(e.text, /sent text frame 1|"fragment1fragment2" instead/);
  });

  test('ws with its default limits (refuses 9.3.1 with 1008, its close frame not in the log the case switched off): "sent a close frame", as its ending says', async () => {
    const r = await client('ws-default', ['9.3.1']);
    const e = explained(r, '9.3.1');
    assert.equal(e.cause.key, 'large-messages:refused');
    assert.equal(e.peerDid, 'failed the connection: it sent a close frame with code 1008');
    assert.match(e.ending, /^the peer closed first, with code 1008, .*, clean$/);
    assert.doesNotMatch(e.text, /without a close frame|dropped/);
  });

  test('a client command that cannot start: a fault of the run, with no RFC requirement and nothing claimed sent', async () => {
    const r = await run(['--client', '/nonexistent/wsgate-test-cmd {url}', '--url', 'ws://127.0.0.1:0', '--cases', '1.1.1']);
    assert.equal(r.code, 1);
    const e = explained(r, '1.1.1');
    assert.equal(e.cause.key, 'no-result:no-command');
    assert.deepEqual(e.requirement, { rfc: RUN_FAULT, text: 'the client command must start (check --client)' });
    assert.equal(e.did, 'sent nothing of the case: it never had a WebSocket connection');
    assert.doesNotMatch(e.text, /RFC 6455|payload lengths|sent a text message/);
    assert.deepEqual(r.causes[0]?.requirement, e.requirement);
    assert.match(
      r.stdout,
      /FAIL no result: the client command could not be started — 1 case: 1\.1\.1\n +no RFC requirement \(a fault of the run\): the client command must start/,
    );
  });

  test('a client that never connects: the case has no result, and says so as its cause', async () => {
    const r = await client('exits-at-once', ['1.1.1']);
    const e = explained(r, '1.1.1');
    assert.equal(e.verdict, 'NO RESULT');
    assert.equal(e.cause.key, 'no-result:no-connection');
    assert.equal(e.peerDid, 'the client exited with status 0 before it connected');
    assert.equal(e.requirement.rfc, RUN_FAULT);
  });
});

describe('a server under test, wrong in one way', () => {
  test('no-utf8-check (echoes invalid UTF-8): accepted, at the echo frame', async () => {
    const r = await server('no-utf8-check', ['6.3.1', '6.9.2']);
    assert.equal(r.cases.get('6.9.2')?.explanation, null, 'a passing case has none');
    const e = explained(r, '6.3.1');
    assert.equal(e.cause.key, 'utf8-invalid:accepted');
    assert.match(e.peerDid, /^accepted it and sent text frame 1 \(FIN, 20 bytes\)/);
    assert.equal(e.at?.frame, 1);
  });

  test('accepts-unmasked is fine with masked frames; keeps-tcp (does not close TCP first): FAILED BY CLIENT explained as RFC 6455 §7.1.1', async () => {
    const r = await server('keeps-tcp', ['1.1.1']);
    const e = explained(r, '1.1.1');
    assert.equal(e.cause.key, 'tcp-close:server-kept-open');
    assert.match(e.peerDid, /RFC 6455 §7\.1\.1/);
    assert.match(e.ending, /wsgate closed TCP/);
  });

  test('no-echo (never echoes): the message missing, with the event the case expects', async () => {
    const r = await server('no-echo', ['1.1.2']);
    const e = explained(r, '1.1.2');
    assert.equal(e.cause.key, 'framing-lengths:missing-message');
    assert.match(e.peerDid, /^never sent a text message "\*{40}…" \(the 1st event the case expects\)$/);
  });
});
