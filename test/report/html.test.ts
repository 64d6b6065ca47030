import assert from 'node:assert/strict';
import { test } from 'node:test';
import { caseReportHtml } from '../../src/report/html/case.js';
import { indexHtml } from '../../src/report/html/index.js';
import type { CaseInfo, CaseResult, GateCell, GateIndex } from '../../src/model/report.js';
import type { CauseGroup } from '../../src/model/explanation.js';
import type { OutcomeVerdict } from '../../src/model/verdicts.js';
import { elementById, referenceResult, textContent } from './helpers.js';

const XSS = '<script>alert(1)</script>';

function rowsOf(tableHtml: string): string[][] {
  return [...tableHtml.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((m) =>
    [...(m[1] ?? '').matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((c) => textContent(c[1] ?? '')),
  );
}

test('caseReportHtml: title line text', () => {
  const html = caseReportHtml(referenceResult('6.9.2'));
  assert.equal(textContent(elementById(html, 'case_title')), 'seedpeer - Case 6.9.2 : Pass - 14 ms @ 2026-11-21T23:27:12.563Z');
  assert.match(html, /<p id="case_title" class="case_title case_ok">/);
  const outcomes: [OutcomeVerdict, string][] = [
    ['NON-STRICT', 'Non-Strict'],
    ['INFORMATIONAL', 'Informational'],
    ['FAILED', 'Fail'],
    ['UNIMPLEMENTED', 'Fail'],
  ];
  for (const [behavior, word] of outcomes) {
    const r = { ...referenceResult('6.9.2'), behavior };
    assert.match(textContent(elementById(caseReportHtml(r), 'case_title')), new RegExp(` : ${word} - 14 ms @ `));
  }
});

test('caseReportHtml: sections in order, with description, outcome and closing', () => {
  const html = caseReportHtml(referenceResult('6.9.2'));
  const ids = [
    'case_title',
    'case_description',
    'case_expectation',
    'case_outcome',
    'case_closing_behavior',
    'opening_handshake',
    'connection_state',
    'rx_octet_stats',
    'tx_octet_stats',
    'rx_frame_stats',
    'tx_frame_stats',
    'wirelog',
  ];
  const positions = ids.map((id) => html.indexOf(`id="${id}"`));
  assert.ok(
    positions.every((p) => p > 0),
    `missing: ${ids.filter((_, i) => (positions[i] ?? -1) < 0).join(',')}`,
  );
  assert.deepEqual(
    [...positions].sort((a, b) => a - b),
    positions,
  );
  assert.match(elementById(html, 'case_description'), /in one fragment\.<br><br>Payload: 0xdfbf/);
  assert.match(elementById(html, 'case_outcome'), /Actual events match at least one expected\./);
  assert.equal(textContent(elementById(html, 'case_expected')), "{'OK': [['message', '\u07ff', False]]}");
  assert.equal(textContent(elementById(html, 'case_observed')), "[['message', '\u07ff', False]]");
  assert.equal(textContent(elementById(html, 'case_closing_behavior')), 'Case Closing BehaviorConnection was properly closed (OK)');
  assert.match(textContent(elementById(html, 'http_request')), /^GET \/runCase\?case=1&agent=seedpeer HTTP\/1\.1\nHost: 127\.0\.0\.1:9231\n/);
  assert.match(textContent(elementById(html, 'http_response')), /Sec-WebSocket-Accept: xodQy4YkXpGCBAuV387XdCv2Kaw=$/);
});

test('caseReportHtml: Expected/Observed cut at 1000 characters', () => {
  const r = referenceResult('6.9.2');
  r.received = [['message', 'x'.repeat(2000), false]];
  const observed = textContent(elementById(caseReportHtml(r), 'case_observed'));
  assert.equal(observed.length, 1000);
  assert.ok(observed.endsWith('xxx ...'));
});

test('caseReportHtml: every connection-state key and value', () => {
  const rows = rowsOf(elementById(caseReportHtml(referenceResult('6.9.2')), 'connection_state'));
  assert.deepEqual(rows[0], ['Key', 'Value', 'Description']);
  const values = Object.fromEntries(rows.slice(1).map((r) => [r[0], r[1]]));
  assert.deepEqual(values, {
    isServer: 'True',
    closedByMe: 'True',
    failedByMe: 'False',
    droppedByMe: 'True',
    wasClean: 'True',
    wasNotCleanReason: 'None',
    wasServerConnectionDropTimeout: 'False',
    wasOpenHandshakeTimeout: 'False',
    wasCloseHandshakeTimeout: 'False',
    localCloseCode: '1000',
    localCloseReason: 'None',
    remoteCloseCode: 'None',
    remoteCloseReason: 'None',
  });
  assert.ok(
    rows.slice(1).every((r) => (r[2] ?? '').length > 10),
    'each key has a description',
  );
});

test('caseReportHtml: chop-size and opcode tables with totals', () => {
  const html = caseReportHtml(referenceResult('6.9.2'));
  assert.deepEqual(rowsOf(elementById(html, 'rx_octet_stats')), [
    ['Chop Size', 'Count', 'Octets'],
    ['6', '1', '6'],
    ['8', '1', '8'],
    ['182', '1', '182'],
    ['Total', '3', '196'],
  ]);
  assert.deepEqual(rowsOf(elementById(html, 'tx_octet_stats')).at(-1), ['Total', '3', '216']);
  assert.deepEqual(rowsOf(elementById(html, 'rx_frame_stats')), [
    ['Opcode', 'Count'],
    ['1', '1'],
    ['8', '1'],
    ['Total', '2'],
  ]);
  assert.deepEqual(rowsOf(elementById(html, 'tx_frame_stats')).at(-1), ['Total', '2']);
  assert.match(textContent(elementById(html, 'rx_octet_stats_title')), /^Octets Received by Chop Size$/);
  // Numeric order, not string order.
  const r = referenceResult('6.9.2');
  r.txOctetStats = { '100': 2, '9': 1, '10': 3 };
  assert.deepEqual(
    rowsOf(elementById(caseReportHtml(r), 'tx_octet_stats'))
      .slice(1)
      .map((row) => row[0]),
    ['9', '10', '100', 'Total'],
  );
});

function wirelogText(html: string): string[] {
  return [...elementById(html, 'wirelog').matchAll(/<pre class="[^"]*">([\s\S]*?)<\/pre>/g)].map((m) => textContent(m[1] ?? ''));
}

test('caseReportHtml: wire log lines of 6.9.2', () => {
  const lines = wirelogText(caseReportHtml(referenceResult('6.9.2')));
  assert.deepEqual(lines, [
    '000 RX OCTETS: 474554202f72756e436173653f636173653d31266167656e743d736565647065657220485454502f312e310d0a486f73743a',
    '               203132372e302e302e313a393233 ...',
    '001 TX OCTETS: 485454502f312e312031303120537769746368696e672050726f746f636f6c730d0a5365727665723a204175746f6261686e',
    '               5465737453756974652f32352e31 ...',
    '002 TX FRAME : OPCODE=1, FIN=True, RSV=0, PAYLOAD-LEN=2, MASK=None, PAYLOAD-REPEAT-LEN=None, CHOPSIZE=None, SYNC=False',
    '               \u07ff',
    '003 TX OCTETS: 8102dfbf',
    '004 FAIL CONNECTION AFTER 0.500000 sec',
    '005 RX OCTETS: 81825874b14787cb',
    '006 RX FRAME : OPCODE=1, FIN=True, RSV=0, PAYLOAD-LEN=2, MASKED=True, MASK=5874b147',
    '               \u07ff',
    '007 TX FRAME : OPCODE=8, FIN=True, RSV=0, PAYLOAD-LEN=2, MASK=None, PAYLOAD-REPEAT-LEN=None, CHOPSIZE=None, SYNC=False',
    '               0x03e8',
    '008 TX OCTETS: 880203e8',
    '009 RX OCTETS: 8880a915503b',
    '010 RX FRAME : OPCODE=8, FIN=True, RSV=0, PAYLOAD-LEN=0, MASKED=True, MASK=a915503b',
    '011 TCP DROPPED BY ME',
  ]);
});

test('caseReportHtml: timer and marker entries, and TCP DROPPED BY PEER', () => {
  const r: CaseResult = {
    ...referenceResult('6.12.7'),
    droppedByMe: false,
    wirelog: [
      ['KL', 0.5],
      ['KLE'],
      ['TI', 1],
      ['TIE'],
      ['CT', 1, 'A'],
      ['CTE', 'A'],
      ['WLM', false],
      ['WLM', true],
      ['TF', [3, 'abc'], 2, false, 1, 'aabbccdd', 1024, 7, true],
      ['TO', [4, 'ab'.repeat(130)], true],
    ],
  };
  const lines = wirelogText(caseReportHtml(r));
  assert.deepEqual(lines, [
    '000 FAIL CONNECTION AFTER 0.500000 sec',
    '001 FAILING CONNECTION',
    '002 CLOSE CONNECTION AFTER 1.000000 sec',
    '003 CLOSING CONNECTION',
    '004 DELAY 1.000000 sec for TAG A',
    '005 DELAY TIMEOUT on TAG A',
    '006 WIRELOG DISABLED',
    '007 WIRELOG ENABLED',
    '008 TX FRAME : OPCODE=2, FIN=False, RSV=1, PAYLOAD-LEN=3, MASK=aabbccdd, PAYLOAD-REPEAT-LEN=1024, CHOPSIZE=7, SYNC=True',
    '               abc',
    `009 TX OCTETS: ${'ab'.repeat(50)}`,
    `               ${'ab'.repeat(50)}`,
    `               ${'ab'.repeat(30)}`,
    '010 TCP DROPPED BY PEER',
  ]);
});

test('caseReportHtml: peer-controlled text is escaped everywhere', () => {
  const r: CaseResult = {
    ...referenceResult('6.9.2'),
    agent: XSS,
    remoteCloseReason: XSS,
    wasNotCleanReason: `${XSS}"'&`,
    httpRequest: `GET /runCase?case=1&agent=${XSS} HTTP/1.1\r\nX-Evil: ${XSS}\r\n\r\n`,
    httpResponse: XSS,
    description: `Payload ${XSS}<br><img src=x onerror=alert(1)>`,
    expectation: XSS,
    result: XSS,
    resultClose: XSS,
    started: XSS,
    received: [['message', XSS, false]],
    wirelog: [
      ['RF', [30, XSS], 1, true, 0, true, XSS],
      ['TO', [3, XSS], false],
    ],
    rxOctetStats: { [XSS]: 1 },
  };
  const html = caseReportHtml(r);
  assert.doesNotMatch(html, /<script/i);
  assert.doesNotMatch(html, /<img/i);
  assert.match(html, /Payload &lt;script&gt;alert\(1\)&lt;\/script&gt;<br>&lt;img/);
  assert.equal(textContent(elementById(html, 'case_title')).startsWith(`${XSS} - Case 6.9.2`), true);
  const idx = indexHtml(
    new Map([[XSS, new Map([['6.9.2', r]])]]),
    [{ id: '6.9.2', origin: 'autobahn', category: XSS, subcategory: XSS, description: XSS, expectation: XSS }],
    { generatedAt: XSS, toolVersion: XSS },
  );
  assert.doesNotMatch(idx, /<script/i);
});

test('caseReportHtml: control characters become visible, never raw', () => {
  const r = { ...referenceResult('6.9.2'), remoteCloseReason: 'a\u0000b\u001bc\u0085d' };
  const html = caseReportHtml(r);
  assert.doesNotMatch(html, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
  assert.match(html, /a\\x00b\\x1bc\\x85d/);
});

const CATALOGUE: CaseInfo[] = [
  {
    id: '1.1.1',
    origin: 'autobahn',
    category: 'Framing',
    subcategory: 'Text Messages',
    description: 'Send text message with payload 0.',
    expectation: "Receive echo'ed text message (with empty payload).<br>Clean close with normal code.",
  },
  {
    id: '1.1.2',
    origin: 'autobahn',
    category: 'Framing',
    subcategory: 'Text Messages',
    description: 'Send text message with payload of length 125.',
    expectation: 'Echo.',
  },
  {
    id: '1.2.1',
    origin: 'autobahn',
    category: 'Framing',
    subcategory: 'Binary Messages',
    description: 'Send binary message with payload 0.',
    expectation: 'Echo.',
  },
  { id: '2.1', origin: 'autobahn', category: 'Pings/Pongs', subcategory: '', description: 'Send ping without payload.', expectation: 'Pong.' },
  { id: '2.2', origin: 'autobahn', category: 'Pings/Pongs', subcategory: '', description: 'Send ping with small text payload.', expectation: 'Pong.' },
  {
    id: '6.9.2',
    origin: 'autobahn',
    category: 'UTF-8 Handling',
    subcategory: 'Last possible sequence of a certain length',
    description: 'x',
    expectation: 'y',
  },
];

function results(): Map<string, Map<string, CaseResult>> {
  const base = referenceResult('6.9.2');
  const mk = (agent: string, id: string, over: Partial<CaseResult> = {}): [string, CaseResult] => [id, { ...base, agent, id, ...over }];
  return new Map([
    [
      'zeta',
      new Map([
        mk('zeta', '1.1.1', { reportTime: true, duration: 42 }),
        mk('zeta', '1.1.2', { behavior: 'NON-STRICT', behaviorClose: 'WRONG CODE', remoteCloseCode: 1002 }),
        mk('zeta', '1.2.1', { behavior: 'FAILED', behaviorClose: 'UNCLEAN' }),
        mk('zeta', '2.1', { behavior: 'UNIMPLEMENTED' }),
        mk('zeta', '2.2', { behavior: 'INFORMATIONAL', behaviorClose: 'INFORMATIONAL', remoteCloseCode: 1000 }),
      ]),
    ],
    ['My Agent', new Map([mk('My Agent', '1.1.1', { behaviorClose: 'FAILED' })])],
  ]);
}

test('indexHtml: agent columns sorted, the group heading once per group, subcategory rows', () => {
  const html = indexHtml(results(), CATALOGUE, { generatedAt: '2026-11-21T23:30:00.000Z', toolVersion: '0.1.0' });
  const table = elementById(html, 'agent_case_results');
  const rows = rowsOf(table);
  assert.deepEqual(rows[0], ['1 Framing', 'My Agent', 'zeta']);
  assert.deepEqual(rows[1], ['1.1 Text Messages']);
  assert.equal(rows[2]?.[0], 'Case 1.1.1');
  // The next subgroup of the same group: its own heading, not the group's again.
  assert.deepEqual(rows[4], ['1.2 Binary Messages']);
  assert.equal(rows[5]?.[0], 'Case 1.2.1');
  // Groups without subcategories get the category row only.
  assert.deepEqual(rows[6], ['2 Pings/Pongs', 'My Agent', 'zeta']);
  assert.equal(rows[7]?.[0], 'Case 2.1');
  assert.equal(rows.filter((r) => r[0] === '1 Framing').length, 1);
  assert.match(html, /Summary report generated on 2026-11-21T23:30:00\.000Z by wsgate v0\.1\.0/);
});

test('indexHtml: behavior and close cells per outcome, Missing and Unimplemented', () => {
  const html = indexHtml(results(), CATALOGUE, { generatedAt: 't', toolVersion: 'v' });
  const row = (id: string): string => {
    const m = new RegExp(`<tr class="agent_case_result_row[^"]*" data-case="${id.replaceAll('.', '\\.')}">([\\s\\S]*?)</tr>`).exec(html);
    assert.ok(m, `row ${id}`);
    return m[1] ?? '';
  };
  // My Agent (first column) has only 1.1.1, with a failed closing: its cause under the verdict, the
  // whole why a hover away, and the code the peer sent (None) beside "Fail".
  assert.match(
    row('1.1.1'),
    /<td class="case_ok" title="[^"]+"><a href="my_agent_case_1_1_1\.html">Pass<\/a><span class="cause">[^<]+<\/span><\/td><td class="close case_failed"><span class="close_code">Fail · None<\/span><\/td>/,
  );
  assert.match(
    row('1.1.1'),
    /<td class="case_ok"><a href="zeta_case_1_1_1\.html">Pass<\/a><br><span class="case_duration">42 ms<\/span><\/td><td class="close case_ok"><span class="close_code">None<\/span><\/td>/,
  );
  assert.match(row('1.1.2'), /<td class="case_missing" colspan="2">Missing<\/td>/);
  assert.match(
    row('1.1.2'),
    /case_non_strict"><a href="zeta_case_1_1_2\.html">Non-Strict<\/a><\/td><td class="close case_non_strict"><span class="close_code">1002</,
  );
  assert.match(
    row('1.2.1'),
    /class="case_failed" title="[^"]+"><a [^>]*>Fail<\/a><span class="cause">[^<]+<\/span><\/td><td class="close case_failed"><span class="close_code">Unclean · None</,
  );
  assert.match(row('2.1'), /<td class="case_unimplemented" colspan="2">Unimplemented<\/td>/);
  assert.match(row('2.2'), />Info<\/a><\/td><td class="close case_info"><span class="close_code">1000</);
  assert.equal((row('6.9.2').match(/>Missing</g) ?? []).length, 2);
});

test('indexHtml: rows with a failure on either axis carry has_failure, and so do the headings of their groups only', () => {
  const html = indexHtml(results(), CATALOGUE, { generatedAt: 't', toolVersion: 'v' });
  const failing = [...html.matchAll(/<tr class="agent_case_result_row[^"]*\bhas_failure\b[^"]*" data-case="([^"]+)"/g)].map((m) => m[1]);
  // 1.1.1: My Agent's closing FAILED; 1.2.1: zeta's outcome FAILED and UNCLEAN. Non-Strict, Info,
  // Unimplemented and Missing are not failures.
  assert.deepEqual(failing, ['1.1.1', '1.2.1']);
  // The failing view keeps every row marked has_failure: the two headings above each failing row's
  // group, never the headings of 2 (Pings/Pongs) or 6.9 (no failure there).
  const kept = rowsOf([...html.matchAll(/<tr class="[^"]*\bhas_failure\b[^"]*"[^>]*>[\s\S]*?<\/tr>/g)].map((m) => m[0]).join('\n')).map((r) => r[0]);
  assert.deepEqual(kept, ['1 Framing', '1.1 Text Messages', 'Case 1.1.1', '1.2 Binary Messages', 'Case 1.2.1']);
  assert.match(
    html,
    /<p class="filters" id="failing"><span id="all"><\/span>2 of 6 cases with a failure\. <span class="view_failing">Showing them only, under their groups' headings\. <a href="#all">Show all 6 cases<\/a><\/span>/,
  );
  assert.match(html, /<a href="#failing">Show the failing ones only<\/a>/);
  // It opens on them (no script: a class on main, and #all as the URL's target shows everything).
  assert.match(html, /<main class="opens_on_failures">/);
  assert.match(html, /main\.opens_on_failures:not\(:has\(#all:target\)\) #agent_case_results tr:not\(\.has_failure\)/);
  assert.doesNotMatch(html, /<script/);
});

test('indexHtml: with a failure, its causes come before the matrix; without one, the page is the matrix as before', () => {
  const html = indexHtml(results(), CATALOGUE, { generatedAt: 't', toolVersion: 'v' });
  const at = (s: string): number => html.indexOf(s);
  assert.ok(at('id="agent_summary"') < at('id="failure_causes"') && at('id="failure_causes"') < at('id="agent_case_results"'), 'summary, causes, matrix');
  const passing = new Map([['zeta', new Map([['1.1.1', { ...referenceResult('6.9.2'), agent: 'zeta', id: '1.1.1' }]])]]);
  const quiet = indexHtml(passing, CATALOGUE.slice(0, 1), { generatedAt: 't', toolVersion: 'v' });
  assert.match(quiet, /<main>/);
  assert.doesNotMatch(quiet, /id="failure_causes"|class="[^"]*has_failure|id="all"/);
  assert.match(
    quiet,
    /<p class="filters" id="failing">0 cases with a failure\. Show: <a href="#failing">failing cases only<\/a> &middot; <a href="#top">all cases<\/a><\/p>/,
  );
});

test('indexHtml: the cases given are the matrix, the counts and the descriptions; no other case appears', () => {
  // A run that selected 1.1.2 and 2.2 only: zeta's other results are not rows, and nothing is Missing.
  const selected = CATALOGUE.filter((c) => c.id === '1.1.2' || c.id === '2.2');
  const html = indexHtml(new Map([...results()].filter(([a]) => a === 'zeta')), selected, { generatedAt: 't', toolVersion: 'v' });
  assert.deepEqual(
    [...html.matchAll(/data-case="([^"]+)"/g)].map((m) => m[1]),
    ['1.1.2', '2.2'],
  );
  assert.deepEqual(
    [...html.matchAll(/<section class="case_desc_block" id="([^"]+)"/g)].map((m) => m[1]),
    ['case_desc_1_1_2', 'case_desc_2_2'],
  );
  assert.deepEqual(rowsOf(elementById(html, 'agent_summary'))[1], ['zeta', '0', '1', '0', '1', '0', '0']);
  assert.doesNotMatch(elementById(html, 'agent_case_results'), /Missing|1\.2 Binary|6 UTF-8/);
});

test('indexHtml: descriptions of all the cases given, with anchors and line breaks', () => {
  const html = indexHtml(results(), CATALOGUE, { generatedAt: 't', toolVersion: 'v' });
  for (const c of CATALOGUE) {
    const anchor = `case_desc_${c.id.replaceAll('.', '_')}`;
    assert.match(html, new RegExp(`<a href="#${anchor}">Case ${c.id.replaceAll('.', '\\.')}</a>`));
    assert.ok(html.includes(`<section class="case_desc_block" id="${anchor}">`), anchor);
  }
  assert.ok(html.includes('Receive echo&#39;ed text message (with empty payload).<br>Clean close with normal code.'));
  assert.match(html, /id="legend"[\s\S]*Missing/);
  assert.doesNotMatch(html, /<script|<link|src=|@import|url\(/i);
});

test("indexHtml with the gate's cells: its counts (summary.json's) first, Autobahn's one-axis counts labelled, the rows and causes the gate failed", () => {
  const cell = (status: GateCell['status'], cause: string | null = null, why = ''): GateCell => ({ status, cause, why });
  // zeta: --strict failed the NON-STRICT 1.1.2; 2.1 was not run (skipped); 6.9.2 has no result and failed.
  const gate: GateIndex = new Map([
    [
      'zeta',
      new Map([
        ['1.1.1', cell('passed')],
        ['1.1.2', cell('failed', 'a non-strict answer', 'NON-STRICT fails under --strict')],
        ['1.2.1', cell('failed', 'a binary message mangled', 'the echo differed at byte 3')],
        ['2.1', cell('skipped')],
        ['2.2', cell('passed')],
        ['6.9.2', cell('failed', 'the client command could not be started', 'no result: spawn ENOENT')],
      ]),
    ],
  ]);
  const causes: CauseGroup[] = [
    { key: 'mangled', title: 'a binary message mangled', requirement: { rfc: 'RFC 6455 §6.2', text: 'deliver it whole' }, cases: ['1.2.1'], ranges: '1.2.1' },
    {
      key: 'no-client',
      title: 'the client command could not be started',
      requirement: { rfc: '', text: 'a run-level fault' },
      cases: ['6.9.2'],
      ranges: '6.9.2',
    },
  ];
  const zeta = new Map([...results()].filter(([a]) => a === 'zeta'));
  const html = indexHtml(zeta, CATALOGUE, { generatedAt: 't', toolVersion: 'v', gate, causes });
  assert.deepEqual(rowsOf(elementById(html, 'gate_summary')), [
    ['Agent', 'Cases', 'Passed', 'Failed', 'Skipped'],
    ['zeta', '6', '2', '3', '1'],
  ]);
  assert.match(html, /<details class="axis"><summary>Autobahn's outcome counts: the behavior axis only, as Autobahn's own report counts/);
  assert.ok(html.indexOf('id="gate_summary"') < html.indexOf('id="agent_summary"'));
  // The failing view keeps what the gate failed: 1.1.2 (Non-Strict, failed by --strict), 1.2.1, 6.9.2 (no result).
  const failing = [...html.matchAll(/<tr class="agent_case_result_row[^"]*\bhas_failure\b[^"]*" data-case="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(failing, ['1.1.2', '1.2.1', '6.9.2']);
  assert.match(
    html,
    /<td class="case_non_strict" title="NON-STRICT fails under --strict"><a href="zeta_case_1_1_2\.html">Non-Strict<\/a><span class="cause">a non-strict answer<\/span>/,
  );
  assert.match(
    html,
    /<td class="case_missing" colspan="2" title="no result: spawn ENOENT">Missing<span class="cause">the client command could not be started<\/span><\/td>/,
  );
  // The causes: each case a link to its page (one with no result: to its description); a run-level fault has no RFC.
  const table = elementById(html, 'failure_causes');
  assert.match(table, /<td class="which"><a href="zeta_case_1_2_1\.html">1\.2\.1<\/a><\/td><td>RFC 6455 §6\.2: deliver it whole<\/td>/);
  assert.match(table, /<td class="which"><a href="#case_desc_6_9_2">6\.9\.2<\/a><\/td><td>a run-level fault<\/td>/);
});

test('caseReportHtml: a case that did not pass says how to reproduce it when the run kept recordings; the agent named when several ran', () => {
  const failed: CaseResult = { ...referenceResult('6.9.2'), id: '5.15', behavior: 'FAILED' };
  assert.match(
    caseReportHtml(failed, { repro: true }),
    /<dt>Reproduce<\/dt><dd><code class="repro">wsgate repro 5\.15 --from \.<\/code> in this report's directory/,
  );
  assert.match(
    caseReportHtml({ ...failed, agent: 'My Agent' }, { repro: true, several: true }),
    /wsgate repro 5\.15 --from \. --agent &#39;My Agent&#39;<\/code>|wsgate repro 5\.15 --from \. --agent 'My Agent'<\/code>/,
  );
  assert.doesNotMatch(caseReportHtml(failed, { repro: false }), /wsgate repro/);
  assert.doesNotMatch(caseReportHtml(referenceResult('6.9.2'), { repro: true }), /wsgate repro/);
});
