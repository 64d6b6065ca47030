import assert from 'node:assert/strict';
import { test } from 'node:test';
import { junitXml } from '../../src/report/junit.js';
import type { GateRun, WirelogEntry } from '../../src/model/report.js';
import { checkWellFormedXml, gateCase, referenceResult, sampleRun } from './helpers.js';

function testcases(xml: string): { attrs: Record<string, string>; body: string }[] {
  return [...xml.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)].map((m) => ({
    attrs: Object.fromEntries([...(m[1] ?? '').matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1] ?? '', a[2] ?? ''])),
    body: m[2] ?? '',
  }));
}

test('junitXml is well-formed, one suite per group, one testcase per case', () => {
  const xml = junitXml(sampleRun());
  const names = checkWellFormedXml(xml);
  assert.equal(names.filter((n) => n === 'testcase').length, 4);
  assert.equal(names.filter((n) => n === 'testsuite').length, 2);
  assert.match(xml, /<testsuites name="wsgate My Agent\/1\.0" tests="4" failures="2" errors="0" skipped="1">/);
  assert.match(xml, /<testsuite name="My Agent\/1\.0 · 6 UTF-8 Handling"[^>]* time="0\.028" tests="2" failures="1" errors="0" skipped="0">/);
  assert.match(xml, /<testsuite name="My Agent\/1\.0 · 1 Framing"[^>]* tests="2" failures="1" errors="0" skipped="1">/);
});

test('junitXml: names start with the case id; classname has one dot; time everywhere', () => {
  const cases = testcases(junitXml(sampleRun()));
  assert.deepEqual(
    cases.map((c) => c.attrs.name),
    [
      '6.9.2 Send a text message with payload which is valid UTF-8 in one fragment.',
      '6.12.7 Send a text message with payload which is not valid UTF-8 in one fragment.',
      '1.1.1 Send text message with payload 0.',
      '1.1.2 Send text message message with payload of length 125.',
    ],
  );
  assert.deepEqual(
    cases.map((c) => c.attrs.classname),
    ['my_agent_1_0.6_utf_8_handling', 'my_agent_1_0.6_utf_8_handling', 'my_agent_1_0.1_framing', 'my_agent_1_0.1_framing'],
  );
  for (const c of cases) {
    assert.match(c.attrs.classname ?? '', /^[a-z0-9_]+\.[a-z0-9_]+$/);
    assert.match(c.attrs.time ?? '', /^\d+(\.\d+)?$/);
  }
  assert.deepEqual(
    cases.map((c) => c.attrs.time),
    ['0.014', '0.014', '0', '0.003'],
  );
});

test('junitXml: failure carries type, one-line message and expected vs observed', () => {
  const failed = testcases(junitXml(sampleRun()))[1];
  assert.ok(failed);
  // The message is wsgate's explanation; Autobahn's texts and the gate's reason stay in the body.
  assert.match(
    failed.body,
    /<failure message="Invalid UTF-8 in a text message: unexpected message\. wsgate sent [^"]*RFC 6455 §8\.1, §7\.4\.1: [^"]*The peer sent a text message 0x80bf80bf80bf, which the case does not expect\.[^"]*" type="FAILED\/OK">/,
  );
  assert.match(failed.body, /Case 6\.12\.7: behavior FAILED: the peer echoed invalid UTF-8\nWhy: Invalid UTF-8 in a text message/);
  assert.match(failed.body, /Expected: \{'OK': \[\]\}/);
  assert.match(failed.body, /Observed: \[\['message', '0x80bf80bf80bf', False\]\]/);
  assert.match(failed.body, /behaviorClose: OK - Connection was properly closed/);
  assert.match(failed.body, /exit code: 1, signal: None, timed out: False/);
  assert.match(failed.body, /<property name="behavior" value="FAILED"\/>/);
  assert.match(failed.body, /<property name="behaviorClose" value="OK"\/>/);
  assert.match(failed.body, /<property name="remoteCloseCode" value="None"\/>/);
  // Client output: the control character is shown, the CDATA terminator defused.
  assert.match(failed.body, /boom\\x07 \]\] > done/);
});

test('junitXml: a case that never connected fails with type CLIENT', () => {
  const run: GateRun = {
    ...sampleRun(),
    cases: [
      gateCase({
        id: '1.1.1',
        category: 'Framing',
        status: 'failed',
        reason: 'client exited before connecting\n(exit code 127)',
        client: { command: 'nope', exitCode: null, signal: null, timedOut: false, spawnError: 'ENOENT', output: '', outputTruncated: false },
      }),
    ],
  };
  const [c] = testcases(junitXml(run));
  assert.match(c?.body ?? '', /<failure message="client exited before connecting \(exit code 127\)" type="CLIENT">/);
  assert.match(c?.body ?? '', /could not start: ENOENT/);
});

test('junitXml: skipped carries its reason; a case without a result is a failure of type CLIENT; warnings in system-err', () => {
  const cases = testcases(junitXml(sampleRun()));
  assert.match(cases[2]?.body ?? '', /<skipped message="run interrupted by SIGINT"\/>/);
  assert.match(cases[3]?.body ?? '', /<failure message="the client did not connect within 30 s; it was killed" type="CLIENT">/);
  assert.doesNotMatch(junitXml(sampleRun()), /<error\b/);
  assert.match(cases[3]?.body ?? '', /<system-err>\s*<!\[CDATA\[warning: client exited with status 3\]\]>/);
  assert.match(cases[3]?.body ?? '', /<property name="warning" value="client exited with status 3"\/>/);
  assert.doesNotMatch(cases[0]?.body ?? '', /<failure|<error|<skipped/);
});

test('junitXml: system-out holds the frame log, hex/ASCII only', () => {
  const out = /<system-out>\s*<!\[CDATA\[([\s\S]*?)\]\]>/.exec(testcases(junitXml(sampleRun()))[0]?.body ?? '')?.[1] ?? '';
  assert.match(out, /^Frame log \(full log: my_agent_1_0_x_case_6_9_2\.html\):\n000 RX OCTETS: 4745/);
  assert.match(out, /002 TX FRAME : OPCODE=1, FIN=True, RSV=0, PAYLOAD-LEN=2, MASK=None/);
  assert.match(out, /\n {15}"\\u07ff"\n/);
  assert.match(out, /011 TCP DROPPED BY ME/);
  assert.match(out, /^[\x20-\x7e\n]*$/);
});

test('junitXml: the frame log is bounded in lines and bytes', () => {
  const result = referenceResult('6.9.2');
  const entry: WirelogEntry = ['TO', [4000, 'ab'.repeat(2000)], false];
  result.wirelog = Array.from({ length: 500 }, () => entry);
  const run: GateRun = { ...sampleRun(), cases: [gateCase({ id: '6.9.2', result })] };
  const out = /<system-out>\s*<!\[CDATA\[([\s\S]*?)\]\]>/.exec(junitXml(run))?.[1] ?? '';
  assert.ok(out.split('\n').length <= 66, `lines: ${out.split('\n').length}`);
  assert.ok(Buffer.byteLength(out) <= 8 * 1024 + 100, `bytes: ${Buffer.byteLength(out)}`);
  assert.match(out, /lines omitted|cut at 8 KiB/);
});

test('junitXml: builds are independent', () => {
  const first = junitXml(sampleRun());
  const other: GateRun = { ...sampleRun(), agent: 'other', cases: [gateCase({ id: '6.9.2', result: referenceResult('6.9.2') })] };
  const second = junitXml(other);
  assert.equal((second.match(/<testcase\b/g) ?? []).length, 1);
  assert.doesNotMatch(second, /My Agent/);
  assert.equal(junitXml(sampleRun()), first);
});

test('junitXml: hostile agent and reasons stay well-formed', () => {
  const run = sampleRun();
  run.agent = '<a href="x">&\u0001]]>';
  for (const c of run.cases) c.reason = '<script>"&\'\u0000]]>';
  const xml = junitXml(run);
  checkWellFormedXml(xml);
  // Inside CDATA "<script" is inert text; outside it, it must never appear.
  assert.doesNotMatch(xml.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, ''), /<script/);
  // The NUL the builder would drop silently is shown as an escape.
  assert.match(xml, /<failure message="&lt;script>&quot;&amp;'\\x00\]\]>" type="CLIENT">/);
  assert.match(xml, /<testsuites name="wsgate &lt;a href=&quot;x&quot;>&amp;\\x01\]\]>"/);
  for (const c of testcases(xml)) assert.match(c.attrs.classname ?? '', /^a_href_x\.[a-z0-9_]+$/);
});
