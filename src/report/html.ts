/**
 * HTML reports: the per-case page and the index matrix, self-contained (inline CSS, no scripts, no
 * external resources). Every peer-supplied string is escaped; descriptions keep only their `<br>`.
 */
import { isWsgateCase } from '../cases/categories.js';
import { escapeHtml as esc, htmlFragment } from './escape.js';
import { agentFilePrefixes, caseReportBase } from './files.js';
import type { CaseInfo, CaseResult } from './model.js';
import { limitString, pyRepr, pyStr } from './python-repr.js';
import { wirelogLines } from './wirelog.js';

const CSS_COMMON = `
:root { --ok: #1f7a3a; --ok-bg: #dcf3e3; --ns: #7a5a00; --ns-bg: #fff1c2; --fail: #a3161b; --fail-bg: #fbdcdc;
  --info: #1d4f91; --info-bg: #dde8f8; --almost: #8a4b00; --almost-bg: #ffe3c4; --muted: #5f6670; --line: #d9dde3; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: #1c2026; background: #f6f7f9; }
main { max-width: 1200px; margin: 0 auto; padding: 16px 24px 48px; }
header.bar { background: #20252d; color: #e8eaed; padding: 10px 24px; font-weight: 600; letter-spacing: .02em; }
header.bar a { color: #9cc3ff; text-decoration: none; margin-right: 1em; }
h1 { font-size: 1.45em; margin: .6em 0 .3em; }
h2 { font-size: 1.2em; margin: 1.6em 0 .5em; padding-bottom: .2em; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.02em; margin: 1.2em 0 .4em; }
section { margin-bottom: 1em; }
table { border-collapse: collapse; background: #fff; }
th, td { border: 1px solid var(--line); padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: #eef0f3; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
pre { margin: 0; font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  white-space: pre-wrap; overflow-wrap: anywhere; }
.case_ok { background: var(--ok-bg); color: var(--ok); }
.case_non_strict { background: var(--ns-bg); color: var(--ns); }
.case_failed { background: var(--fail-bg); color: var(--fail); }
.case_info { background: var(--info-bg); color: var(--info); }
.case_almost { background: var(--almost-bg); color: var(--almost); }
.case_unimplemented { background: #ececec; color: #555; }
.case_missing { background: #fafafa; color: #8a9099; font-style: italic; }
`;

const CSS_CASE = `
#case_title { font-size: 1.25em; padding: 12px 16px; border-radius: 6px; margin: 18px 0; font-weight: 500; }
#case_title .case_id { font-weight: 700; }
.text_block { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 10px 14px; }
pre.case_pickle, pre.http_dump { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; }
.label { color: var(--muted); font-style: italic; margin: .6em 0 .2em; }
table.state td.key { font-family: ui-monospace, Menlo, Consolas, monospace; }
table.state td.desc { color: var(--muted); }
table.stats { min-width: 260px; }
tr.stats_total td { font-weight: 700; background: #f1f3f6; }
.stats_grid { display: flex; flex-wrap: wrap; gap: 8px 32px; }
.note { color: var(--fail); font-style: italic; }
#wirelog { background: #14181f; color: #d6dbe3; border-radius: 6px; padding: 10px 12px; overflow-x: auto; }
#wirelog pre { white-space: pre; }
#wirelog .wirelog_rx_octets, #wirelog .wirelog_rx_frame { color: #8fd19e; }
#wirelog .wirelog_tx_octets, #wirelog .wirelog_tx_frame { color: #9cc3ff; }
#wirelog .wirelog_tx_octets_sync, #wirelog .wirelog_tx_frame_sync { color: #c7a6ff; }
#wirelog .wirelog_kill_after, #wirelog .wirelog_delay { color: #ffd479; }
#wirelog .wirelog_tcp_closed_by_me, #wirelog .wirelog_tcp_closed_by_peer { color: #ff9a9a; font-weight: 700; }
`;

const CSS_INDEX = `
/* The filter needs no script: #failing becomes the URL's target and hides every row without a failure. */
main:has(#failing:target) tr.agent_case_result_row:not(.has_failure),
main:has(#failing:target) tr.case_subcategory_row { display: none; }
.filters { margin: 8px 0; }
#intro { color: var(--muted); }
#agent_case_results { margin-top: 8px; }
#agent_case_results td, #agent_case_results th { padding: 3px 8px; white-space: nowrap; }
/* Titles wrap inside the width the case ids and verdicts give the table, and never widen it (a
   13.x subcategory title is longer than a screen): their text has no width of its own. */
#agent_case_results .title { display: block; width: 0; min-width: 100%; white-space: normal; overflow-wrap: anywhere; }
#agent_case_results th.case_category { min-width: 11em; }
#agent_case_results th.agent { white-space: normal; overflow-wrap: anywhere; min-width: 7em; max-width: 16em; }
tr.case_category_row th { background: #20252d; color: #f1f3f6; position: sticky; top: 0; }
tr.case_subcategory_row td { background: #e4e8ee; font-weight: 600; }
.chips span { display: inline-block; padding: 1px 8px; margin: 2px 4px 2px 0; border-radius: 4px; font-size: .9em; }
td.case a { color: inherit; }
td.case_ok a, td.case_non_strict a, td.case_failed a, td.case_info a { color: inherit; font-weight: 600; }
.case_duration { font-size: .85em; color: var(--muted); }
td.close { font-size: .9em; }
#legend td { padding: 4px 10px; }
#legend td:first-child { width: 120px; font-weight: 600; }
#agent_summary td, #agent_summary th { text-align: right; }
#agent_summary td:first-child, #agent_summary th:first-child { text-align: left; }
.case_desc_block { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 4px 16px 12px; margin: 12px 0; }
.case_desc_block h3 { display: inline-block; margin-right: 1em; }
a.up { font-size: .85em; }
`;

function page(title: string, css: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${CSS_COMMON}${css}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

const CASE_OUTCOME: Readonly<Record<string, { cls: string; text: string }>> = {
  OK: { cls: 'case_ok', text: 'Pass' },
  'NON-STRICT': { cls: 'case_non_strict', text: 'Non-Strict' },
  INFORMATIONAL: { cls: 'case_info', text: 'Informational' },
};
const CASE_FAIL = { cls: 'case_failed', text: 'Fail' } as const;

// The 13 connection-state keys, in Autobahn's order, with what each one tells a reader.
const CONNECTION_STATE = [
  ['isServer', 'True when the test server is the server and the peer under test is the client.'],
  ['closedByMe', 'True when the test server sent the first close frame (started the closing handshake).'],
  ['failedByMe', 'True when the test server failed the connection over a protocol error, by close frame or by dropping TCP.'],
  ['droppedByMe', 'True when the test server dropped the TCP connection.'],
  ['wasClean', 'True when close frames went both ways and then the TCP connection was dropped.'],
  ['wasNotCleanReason', 'Why the connection did not close cleanly, when wasClean is False.'],
  ['wasServerConnectionDropTimeout', 'Client role only: the server should have dropped TCP but did not in time.'],
  ['wasOpenHandshakeTimeout', 'The peer did not finish the opening handshake in time.'],
  ['wasCloseHandshakeTimeout', 'The test server started the closing handshake and the peer did not answer in time.'],
  ['localCloseCode', 'The close code the test server sent, if any.'],
  ['localCloseReason', 'The close reason the test server sent, if any.'],
  ['remoteCloseCode', 'The close code the peer sent, if any.'],
  ['remoteCloseReason', 'The close reason the peer sent, if any.'],
] as const satisfies readonly (readonly [keyof CaseResult, string])[];

function pyInt(n: number): string {
  // Python's "%d" truncates.
  return Number.isFinite(n) ? String(Math.trunc(n)) : String(n);
}

function statEntries(stats: Record<string, number> | null | undefined): [number, string, number][] {
  return Object.entries(stats ?? {})
    .map(([k, v]): [number, string, number] => [Number(k), k, Number(v)])
    .sort((a, b) => (Number.isNaN(a[0]) ? 1 : Number.isNaN(b[0]) ? -1 : a[0] - b[0]));
}

function chopTable(id: string, title: string, stats: Record<string, number>): string {
  let rows = '';
  let count = 0;
  let octets = 0;
  for (const [size, key, n] of statEntries(stats)) {
    const bytes = Number.isNaN(size) ? 0 : size * n;
    rows += `<tr class="stats_row"><td class="num">${esc(key)}</td><td class="num">${n}</td><td class="num">${bytes}</td></tr>\n`;
    count += n;
    octets += bytes;
  }
  return `<div><h3 id="${id}_title">${title}</h3>
<table id="${id}" class="stats">
<tr class="stats_header"><th class="num">Chop Size</th><th class="num">Count</th><th class="num">Octets</th></tr>
${rows}<tr class="stats_total"><td>Total</td><td class="num">${count}</td><td class="num">${octets}</td></tr>
</table></div>`;
}

function opcodeTable(id: string, title: string, stats: Record<string, number>): string {
  let rows = '';
  let count = 0;
  for (const [, key, n] of statEntries(stats)) {
    rows += `<tr class="stats_row"><td class="num">${esc(key)}</td><td class="num">${n}</td></tr>\n`;
    count += n;
  }
  return `<div><h3 id="${id}_title">${title}</h3>
<table id="${id}" class="stats">
<tr class="stats_header"><th class="num">Opcode</th><th class="num">Count</th></tr>
${rows}<tr class="stats_total"><td>Total</td><td class="num">${count}</td></tr>
</table></div>`;
}

function trafficTable(stats: CaseResult['trafficStats']): string {
  if (stats === null || typeof stats !== 'object') return '';
  const rows = Object.keys(stats)
    .sort()
    .map((k) => `<tr class="stats_row"><td>${esc(k)}</td><td class="num">${esc(pyStr(stats[k]))}</td></tr>`)
    .join('\n');
  return `<div><h3 id="traffic_stats_title">Traffic Statistics</h3>
<table id="traffic_stats" class="stats">
<tr class="stats_header"><th>Key</th><th class="num">Value</th></tr>
${rows}
</table></div>`;
}

function handshakeText(s: string): string {
  // Python's strip(); CRLF shown as plain line breaks.
  return String(s).trim().replace(/\r\n/g, '\n');
}

/** The per-case HTML page (Autobahn's sections, in its order; every peer-supplied string escaped). */
export function caseReportHtml(result: CaseResult): string {
  const outcome = CASE_OUTCOME[result.behavior] ?? CASE_FAIL;
  const title =
    `<p id="case_title" class="case_title ${outcome.cls}">${esc(result.agent)} - ` +
    `<span class="case_id">Case ${esc(result.id)}</span> : <span class="outcome">${outcome.text}</span> - ` +
    `<span class="case_time"><b>${pyInt(result.duration)}</b> ms @ ${esc(result.started)}</span></p>`;

  const state = CONNECTION_STATE.map(
    ([key, desc]) =>
      `<tr class="stats_row" data-key="${key}"><td class="key">${key}</td><td class="value">${esc(pyStr(result[key]))}</td><td class="desc">${esc(desc)}</td></tr>`,
  ).join('\n');

  const stats = result.createStats
    ? `<div class="stats_grid">
${chopTable('rx_octet_stats', 'Octets Received by Chop Size', result.rxOctetStats)}
${chopTable('tx_octet_stats', 'Octets Transmitted by Chop Size', result.txOctetStats)}
</div>
<div class="stats_grid">
${opcodeTable('rx_frame_stats', 'Frames Received by Opcode', result.rxFrameStats)}
${opcodeTable('tx_frame_stats', 'Frames Transmitted by Opcode', result.txFrameStats)}
</div>
${trafficTable(result.trafficStats)}`
    : '<p class="note">Statistics for octets/frames disabled!</p>';

  const log = wirelogLines(result)
    .map((l) => `<pre class="${l.cls}">${esc(l.text)}</pre>`)
    .join('\n');

  const body = `<header class="bar"><a href="index.html">&larr; Summary</a>wsgate case report</header>
<main>
${title}
<section id="case_description"><h2>Case Description</h2><div class="text_block">${htmlFragment(result.description)}</div></section>
<section id="case_expectation"><h2>Case Expectation</h2><div class="text_block">${htmlFragment(result.expectation)}</div></section>
<section id="case_outcome"><h2>Case Outcome</h2>
<p class="result">${esc(result.result)}</p>
<p class="label">Expected:</p>
<pre id="case_expected" class="case_pickle">${esc(limitString(pyRepr(result.expected)))}</pre>
<p class="label">Observed:</p>
<pre id="case_observed" class="case_pickle">${esc(limitString(pyRepr(result.received)))}</pre>
</section>
<section id="case_closing_behavior"><h2>Case Closing Behavior</h2><p class="text_block">${esc(result.resultClose)} (${esc(result.behaviorClose)})</p></section>
<section id="opening_handshake"><h2>Opening Handshake</h2>
<h3>Request</h3>
<pre id="http_request" class="http_dump">${esc(handshakeText(result.httpRequest))}</pre>
<h3>Response</h3>
<pre id="http_response" class="http_dump">${esc(handshakeText(result.httpResponse))}</pre>
</section>
<section id="closing_behavior"><h2>Closing Behavior</h2>
<table id="connection_state" class="state">
<tr class="stats_header"><th>Key</th><th>Value</th><th>Description</th></tr>
${state}
</table>
</section>
<section id="wire_statistics"><h2>Wire Statistics</h2>
${stats}
</section>
<section id="wire_log"><h2>Wire Log</h2>
${result.createWirelog ? '' : '<p class="note">Wire log after handshake disabled!</p>\n'}<div id="wirelog">
${log}
</div>
</section>
</main>`;
  const pageTitle = `${result.agent} - Case ${result.id} : ${outcome.text}`;
  return page(pageTitle, CSS_CASE, body);
}

function categoryLabel(id: string, category: string): string {
  const group = id.split('.')[0] ?? '';
  // Tolerate catalogues that already number their categories ("1 Framing").
  const label = category.startsWith(`${group} `) ? category : `${group} ${category || 'Misc'}`;
  return isWsgateCase(id) ? `${label} ${WSGATE_MARK}` : label;
}

/** How the matrix marks the groups wsgate adds to Autobahn's catalogue. */
const WSGATE_MARK = "[wsgate's own, not in Autobahn|Testsuite]";

function subcategoryLabel(id: string, subcategory: string): string | null {
  if (subcategory === '') return null;
  const prefix = id.split('.').slice(0, 2).join('.');
  return subcategory.startsWith(`${prefix} `) ? subcategory : `${prefix} ${subcategory}`;
}

function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const y = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

const INDEX_BEHAVIOR: Readonly<Record<string, { cls: string; text: string }>> = {
  OK: { cls: 'case_ok', text: 'Pass' },
  'NON-STRICT': { cls: 'case_non_strict', text: 'Non-Strict' },
  INFORMATIONAL: { cls: 'case_info', text: 'Info' },
  NO_CLOSE: { cls: 'case_no_close', text: 'No Close' },
};

// behaviorClose → class; the text is the peer's close code for these, "Unclean"/"Fail" otherwise.
const INDEX_CLOSE_WITH_CODE: Readonly<Record<string, string>> = {
  OK: 'case_ok',
  'FAILED BY CLIENT': 'case_almost',
  'WRONG CODE': 'case_non_strict',
  INFORMATIONAL: 'case_info',
};

function ratio(v: number | null | undefined): string {
  return typeof v === 'number' && Number.isFinite(v) ? v.toFixed(3) : '-';
}

/** Whether a result fails on either axis as the index colours it (a red cell). */
function isFailing(r: CaseResult | undefined): boolean {
  if (r === undefined || r.behavior === 'UNIMPLEMENTED') return false;
  const behaviorFails = (INDEX_BEHAVIOR[r.behavior]?.cls ?? 'case_failed') === 'case_failed';
  return behaviorFails || INDEX_CLOSE_WITH_CODE[r.behaviorClose] === undefined;
}

function resultCells(agentPrefix: string, caseId: string, r: CaseResult | undefined): string {
  if (r === undefined) return '<td class="case_missing" colspan="2">Missing</td>';
  if (r.behavior === 'UNIMPLEMENTED') return '<td class="case_unimplemented" colspan="2">Unimplemented</td>';
  const b = INDEX_BEHAVIOR[r.behavior] ?? { cls: 'case_failed', text: 'Fail' };
  const closeCls = INDEX_CLOSE_WITH_CODE[r.behaviorClose];
  const close =
    closeCls !== undefined
      ? { cls: closeCls, text: pyStr(r.remoteCloseCode) }
      : r.behaviorClose === 'UNCLEAN'
        ? { cls: 'case_failed', text: 'Unclean' }
        : { cls: 'case_failed', text: 'Fail' };
  let detail = r.reportTime ? `${pyInt(r.duration)} ms` : '';
  if (r.reportCompressionRatio && r.trafficStats !== null) {
    detail += ` [${ratio(r.trafficStats['incomingCompressionRatio'])}/${ratio(r.trafficStats['outgoingCompressionRatio'])}]`;
  }
  const href = `${caseReportBase(agentPrefix, caseId)}.html`;
  const extra = detail === '' ? '' : `<br><span class="case_duration">${esc(detail.trim())}</span>`;
  return (
    `<td class="${b.cls}"><a href="${esc(href)}">${b.text}</a>${extra}</td>` +
    `<td class="close ${close.cls}"><span class="close_code">${esc(close.text)}</span></td>`
  );
}

/** The index page: agents × catalogue cases matrix with legend and case descriptions. */
export function indexHtml(
  results: ReadonlyMap<string, ReadonlyMap<string, CaseResult>>,
  catalogue: readonly CaseInfo[],
  meta: { generatedAt: string; toolVersion: string },
  prefixes: ReadonlyMap<string, string> = agentFilePrefixes(results.keys()).prefixes,
): string {
  const agents = [...results.keys()].sort(compareCodePoints);
  const columns = agents.length * 2 + 1;

  const summaryRows = agents
    .map((agent) => {
      const cases = results.get(agent);
      const n = { pass: 0, nonStrict: 0, fail: 0, info: 0, unimpl: 0, missing: 0 };
      for (const c of catalogue) {
        const r = cases?.get(c.id);
        if (r === undefined) n.missing += 1;
        else if (r.behavior === 'OK') n.pass += 1;
        else if (r.behavior === 'NON-STRICT') n.nonStrict += 1;
        else if (r.behavior === 'INFORMATIONAL') n.info += 1;
        else if (r.behavior === 'UNIMPLEMENTED') n.unimpl += 1;
        else n.fail += 1;
      }
      return `<tr><td>${esc(agent)}</td><td>${n.pass}</td><td>${n.nonStrict}</td><td>${n.fail}</td><td>${n.info}</td><td>${n.unimpl}</td><td>${n.missing}</td></tr>`;
    })
    .join('\n');

  const agentHeads = agents.map((a) => `<th class="agent" colspan="2">${esc(a)}</th>`).join('');
  const rows: string[] = [];
  let lastCategory: string | null = null;
  let lastSub: string | null = null;
  let failingCases = 0;
  for (const c of catalogue) {
    const cat = categoryLabel(c.id, c.category);
    const sub = subcategoryLabel(c.id, c.subcategory);
    // The agent header repeats at every subcategory, so the columns stay readable in a long table.
    if (cat !== lastCategory || sub !== lastSub) {
      rows.push(`<tr class="case_category_row"><th class="case_category"><span class="title">${esc(cat)}</span></th>${agentHeads}</tr>`);
      if (sub !== null) {
        rows.push(`<tr class="case_subcategory_row"><td class="case_subcategory" colspan="${columns}"><span class="title">${esc(sub)}</span></td></tr>`);
      }
      lastCategory = cat;
      lastSub = sub;
    }
    const anchor = `case_desc_${c.id.replaceAll('.', '_')}`;
    const cells = agents.map((agent) => resultCells(prefixes.get(agent) ?? '', c.id, results.get(agent)?.get(c.id))).join('');
    const failing = agents.some((agent) => isFailing(results.get(agent)?.get(c.id)));
    if (failing) failingCases += 1;
    rows.push(
      `<tr class="agent_case_result_row${isWsgateCase(c.id) ? ' wsgate_own' : ''}${failing ? ' has_failure' : ''}" data-case="${esc(c.id)}"><td class="case"><a href="#${esc(anchor)}">Case ${esc(c.id)}</a></td>${cells}</tr>`,
    );
  }

  const descriptions = catalogue
    .map((c) => {
      const anchor = `case_desc_${c.id.replaceAll('.', '_')}`;
      return `<section class="case_desc_block" id="${esc(anchor)}"><h3>Case ${esc(c.id)}</h3><a class="up" href="#top">Up</a>
<p class="case_desc"><b>Case Description</b><br>${htmlFragment(c.description)}</p>
<p class="case_expect"><b>Case Expectation</b><br>${htmlFragment(c.expectation)}</p></section>`;
    })
    .join('\n');

  const body = `<header class="bar" id="top">wsgate &middot; WebSocket client conformance report</header>
<main>
<h1>Summary</h1>
<p id="intro">Summary report generated on ${esc(meta.generatedAt)} by wsgate v${esc(meta.toolVersion)} (Autobahn|Testsuite cases and verdicts).</p>
<table id="agent_summary">
<tr><th>Agent</th><th>Pass</th><th>Non-Strict</th><th>Fail</th><th>Info</th><th>Unimplemented</th><th>Missing</th></tr>
${summaryRows}
</table>
<h2>Results</h2>
<p class="filters" id="failing">${failingCases} case${failingCases === 1 ? '' : 's'} with a failure. Show: <a href="#failing">failing cases only</a> &middot; <a href="#top">all cases</a></p>
<p class="chips"><span class="case_ok">Pass</span><span class="case_non_strict">Non-Strict</span><span class="case_failed">Fail</span><span class="case_info">Info</span><span class="case_unimplemented">Unimplemented</span><span class="case_missing">Missing</span> <a href="#legend">what they mean</a></p>
<table id="agent_case_results">
${rows.join('\n')}
</table>
<h2>Legend</h2>
<table id="legend">
<tr><td class="case_ok">Pass</td><td>The case ran and the peer behaved as required.</td></tr>
<tr><td class="case_non_strict">Non-Strict</td><td>The case ran and passed, but the peer did not follow a SHOULD or a canonical behaviour; still conformant.</td></tr>
<tr><td class="case_failed">Fail</td><td>The case ran and the peer broke a MUST of the protocol (or, in performance cases, a limit).</td></tr>
<tr><td class="case_info">Info</td><td>Informational case: behaviour the protocol leaves open, reported without a verdict.</td></tr>
<tr><td class="case_unimplemented">Unimplemented</td><td>The case is not implemented for this peer.</td></tr>
<tr><td class="case_missing">Missing</td><td>No result: the case was not selected, was excluded, or the peer never ran it.</td></tr>
<tr><td>Close column</td><td>The peer's close code (None: no code) when the closing was acceptable; &ldquo;Unclean&rdquo; or &ldquo;Fail&rdquo; otherwise.</td></tr>
</table>
<h2>Case Descriptions</h2>
<div id="test_case_descriptions">
${descriptions}
</div>
</main>`;
  return page('wsgate report', CSS_INDEX, body);
}
