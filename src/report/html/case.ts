/** The per-case HTML report: Autobahn's sections in its order, self-contained, every peer string escaped. */
import { figureAmount } from '../../model/figures.js';
import { explainResult, pointWords } from '../../explain/explain.js';
import type { CaseResult } from '../../model/report.js';
import { escapeHtml as esc, htmlFragment } from '../escape.js';
import { page } from './page.js';
import { limitString, pyInt, pyRepr, pyStr } from '../python-repr.js';
import { wirelogLines } from '../wirelog.js';

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

const CASE_OUTCOME: Readonly<Record<string, { cls: string; text: string }>> = {
  OK: { cls: 'case_ok', text: 'Pass' },
  'NON-STRICT': { cls: 'case_non_strict', text: 'Non-Strict' },
  INFORMATIONAL: { cls: 'case_info', text: 'Informational' },
};
const CASE_FAIL = { cls: 'case_failed', text: 'Fail' } as const;

// The 13 connection-state keys, in Autobahn's order, with what each one tells a reader.
const CONNECTION_STATE = [
  ['isServer', 'True when wsgate is the server and the peer under test the client; False when wsgate is the client testing a server.'],
  ['closedByMe', 'True when the test server sent the first close frame (started the closing handshake).'],
  ['failedByMe', 'True when the test server failed the connection over a protocol error, by close frame or by dropping TCP.'],
  ['droppedByMe', 'True when the test server dropped the TCP connection.'],
  ['wasClean', 'True when close frames went both ways and then the TCP connection was dropped.'],
  ['wasNotCleanReason', 'Why the connection did not close cleanly, when wasClean is False.'],
  ['wasServerConnectionDropTimeout', 'When wsgate is the client: the server should have dropped TCP after the closing handshake but did not in time.'],
  ['wasOpenHandshakeTimeout', 'The peer did not finish the opening handshake in time.'],
  ['wasCloseHandshakeTimeout', 'The test server started the closing handshake and the peer did not answer in time.'],
  ['localCloseCode', 'The close code the test server sent, if any.'],
  ['localCloseReason', 'The close reason the test server sent, if any.'],
  ['remoteCloseCode', 'The close code the peer sent, if any.'],
  ['remoteCloseReason', 'The close reason the peer sent, if any.'],
] as const satisfies readonly (readonly [keyof CaseResult, string])[];

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

/** A word for a shell command line: as it is when it is safe, else in single quotes. */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}

function handshakeText(s: string): string {
  // Python's strip(); CRLF shown as plain line breaks.
  return String(s).trim().replace(/\r\n/g, '\n');
}

/** The per-case HTML page (Autobahn's sections, in its order; every peer-supplied string escaped). */
export function caseReportHtml(result: CaseResult, options: { repro?: boolean; several?: boolean } = {}): string {
  const outcome = CASE_OUTCOME[result.behavior] ?? CASE_FAIL;
  const title =
    `<p id="case_title" class="case_title ${outcome.cls}">${esc(result.agent)} - ` +
    `<span class="case_id">Case ${esc(result.id)}</span> : <span class="outcome">${outcome.text}</span> - ` +
    `<span class="case_time"><b>${pyInt(result.duration)}</b> ms @ ${esc(result.started)}</span></p>`;
  const body = `<header class="bar"><a href="index.html">&larr; Summary</a>wsgate case report</header>
<main>
${title}
${explanationSection(result, options)}${outcomeSections(result)}
${connectionSections(result)}
<section id="wire_statistics"><h2>Wire Statistics</h2>
${statsBlock(result)}
</section>
<section id="wire_log"><h2>Wire Log</h2>
${result.createWirelog ? '' : '<p class="note">Wire log after handshake disabled!</p>\n'}<div id="wirelog">
${wirelogLines(result)
  .map((l) => `<pre class="${l.cls}">${esc(l.text)}</pre>`)
  .join('\n')}
</div>
</section>
</main>`;
  const pageTitle = `${result.agent} - Case ${result.id} : ${outcome.text}`;
  return page(pageTitle, CSS_CASE, body);
}

/** wsgate's explanation of a verdict other than OK, above Autobahn's sections (nothing on OK/OK). */
function explanationSection(result: CaseResult, options: { repro?: boolean; several?: boolean }): string {
  const e = explainResult(result);
  if (e === null) return '';
  const where = pointWords(e.at);
  // The run kept a recording of this case: one command turns it into a plain-Node script (docs/repro.md).
  const agent = options.several === true ? ` --agent ${shellWord(result.agent)}` : '';
  const repro =
    options.repro === true
      ? `\n<dt>Reproduce</dt><dd><code class="repro">wsgate repro ${esc(result.id)} --from .${esc(agent)}</code> in this report's directory (from elsewhere, give its path to --from): a plain-Node script that plays wsgate's side of this case byte for byte, to run against the peer or attach to an issue.</dd>`
      : '';
  return `<section id="case_explanation" data-cause="${esc(e.cause.key)}"><h2>Why: ${esc(e.cause.title)}</h2>
<dl class="text_block">
<dt>wsgate</dt><dd>${esc(e.did)}</dd>
<dt>${esc(e.requirement.rfc)}</dt><dd>${esc(e.requirement.text)}</dd>
<dt>The peer</dt><dd>${esc(e.peerDid)}${where === '' ? '' : ` (${esc(where)})`}</dd>
<dt>Ending</dt><dd>${esc(e.ending)}</dd>${repro}
</dl></section>
`;
}

/** A robustness case's figures beside their budgets, the ones over marked (nothing for the catalogue's cases). */
function figuresTable(figures: CaseResult['figures']): string {
  if (figures === undefined || figures.length === 0) return '';
  const rows = figures.map(
    (f) =>
      `<tr class="figure${f.over ? ' over" style="background: var(--fail-bg); color: var(--fail)' : ''}" data-name="${esc(f.name)}"><td class="key">${esc(f.name)}</td><td class="desc">${esc(f.label)}</td>` +
      `<td class="value">${esc(figureAmount(f.value, f.unit))}</td><td class="budget">${f.budget === null ? '' : esc(figureAmount(f.budget, f.unit))}</td>` +
      `<td class="over">${f.over ? '<b>over budget</b>' : ''}</td></tr>`,
  );
  return `<table id="case_figures" class="figures"><tr><th>figure</th><th>what</th><th>measured</th><th>budget</th><th></th></tr>\n${rows.join('\n')}\n</table>\n`;
}

/** Description, expectation, outcome (expected and observed events) and closing behaviour. */
function outcomeSections(result: CaseResult): string {
  return `<section id="case_description"><h2>Case Description</h2><div class="text_block">${htmlFragment(result.description)}</div></section>
<section id="case_expectation"><h2>Case Expectation</h2><div class="text_block">${htmlFragment(result.expectation)}</div></section>
<section id="case_outcome"><h2>Case Outcome</h2>
<p class="result">${esc(result.result)}</p>
${figuresTable(result.figures)}<p class="label">Expected:</p>
<pre id="case_expected" class="case_pickle">${esc(limitString(pyRepr(result.expected)))}</pre>
<p class="label">Observed:</p>
<pre id="case_observed" class="case_pickle">${esc(limitString(pyRepr(result.received)))}</pre>
</section>
<section id="case_closing_behavior"><h2>Case Closing Behavior</h2><p class="text_block">${esc(result.resultClose)} (${esc(result.behaviorClose)})</p></section>`;
}

/** The opening handshake as sent, and the connection-state table of the closing. */
function connectionSections(result: CaseResult): string {
  const state = CONNECTION_STATE.map(
    ([key, desc]) =>
      `<tr class="stats_row" data-key="${key}"><td class="key">${key}</td><td class="value">${esc(pyStr(result[key]))}</td><td class="desc">${esc(desc)}</td></tr>`,
  ).join('\n');
  // wsgate's own row: the TLS version and cipher suite, over wss:// only.
  const tls =
    (result.tls === undefined ? '' : `<p id="tls_connection">Over TLS: ${esc(result.tls.version)}, cipher suite ${esc(result.tls.cipher)}.</p>\n`) +
    (result.transport === 'h2'
      ? '<p id="transport">Over HTTP/2 (RFC 8441): the WebSocket was an extended CONNECT stream; the request and response below are its HEADERS.</p>\n'
      : '');
  return `<section id="opening_handshake"><h2>Opening Handshake</h2>
${tls}<h3>Request</h3>
<pre id="http_request" class="http_dump">${esc(handshakeText(result.httpRequest))}</pre>
<h3>Response</h3>
<pre id="http_response" class="http_dump">${esc(handshakeText(result.httpResponse))}</pre>
</section>
<section id="closing_behavior"><h2>Closing Behavior</h2>
<table id="connection_state" class="state">
<tr class="stats_header"><th>Key</th><th>Value</th><th>Description</th></tr>
${state}
</table>
</section>`;
}

/** The octet, frame and traffic tables (or the note that statistics were off). */
function statsBlock(result: CaseResult): string {
  if (!result.createStats) return '<p class="note">Statistics for octets/frames disabled!</p>';
  return `<div class="stats_grid">
${chopTable('rx_octet_stats', 'Octets Received by Chop Size', result.rxOctetStats)}
${chopTable('tx_octet_stats', 'Octets Transmitted by Chop Size', result.txOctetStats)}
</div>
<div class="stats_grid">
${opcodeTable('rx_frame_stats', 'Frames Received by Opcode', result.rxFrameStats)}
${opcodeTable('tx_frame_stats', 'Frames Transmitted by Opcode', result.txFrameStats)}
</div>
${trafficTable(result.trafficStats)}`;
}
