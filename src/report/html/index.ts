/** The index page: the agents × cases matrix (Autobahn's layout), the legend and the case descriptions. */
import { groupCauses, type ExplainedCase } from '../../explain/causes.js';
import { explainResult } from '../../explain/explain.js';
import type { CaseInfo, CaseResult } from '../../model/report.js';
import { escapeHtml as esc, htmlFragment } from '../escape.js';
import { agentFilePrefixes, caseReportBase } from '../files.js';
import { page } from './page.js';
import { pyInt, pyStr } from '../python-repr.js';

const CSS_INDEX = `
/* The views need no script. A run with a failure opens on the failing rows under their groups'
   headings (main.opens_on_failures) until #all is the URL's target; any run shows only those rows
   when #failing is. A heading row carries has_failure when one of its group's rows does. */
main.opens_on_failures:not(:has(#all:target)) #agent_case_results tr:not(.has_failure),
main:has(#failing:target) #agent_case_results tr:not(.has_failure) { display: none; }
main:not(:has(#all:target)) .view_all, main:has(#all:target) .view_failing { display: none; }
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

function categoryLabel({ id, category, origin }: CaseInfo): string {
  const group = id.split('.')[0] ?? '';
  // Tolerate catalogues that already number their categories ("1 Framing").
  const label = category.startsWith(`${group} `) ? category : `${group} ${category || 'Misc'}`;
  return origin === 'wsgate' ? `${label} ${WSGATE_MARK}` : label;
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
    detail += ` [${ratio(r.trafficStats.incomingCompressionRatio)}/${ratio(r.trafficStats.outgoingCompressionRatio)}]`;
  }
  const href = `${caseReportBase(agentPrefix, caseId)}.html`;
  const extra = detail === '' ? '' : `<br><span class="case_duration">${esc(detail.trim())}</span>`;
  return (
    `<td class="${b.cls}"><a href="${esc(href)}">${b.text}</a>${extra}</td>` +
    `<td class="close ${close.cls}"><span class="close_code">${esc(close.text)}</span></td>`
  );
}

/**
 * The index page: the agents × selected cases matrix with legend and case descriptions. `catalogue`
 * is the run's selection, so a case without a result is Missing and an unselected one is absent.
 * When a case failed, the page opens on its causes and the failing rows; the whole matrix is a click
 * away.
 */
export function indexHtml(
  results: ReadonlyMap<string, ReadonlyMap<string, CaseResult>>,
  catalogue: readonly CaseInfo[],
  meta: { generatedAt: string; toolVersion: string },
  prefixes: ReadonlyMap<string, string> = agentFilePrefixes(results.keys()).prefixes,
): string {
  const agents = [...results.keys()].sort(compareCodePoints);
  const matrix = resultRows(results, catalogue, agents, prefixes);
  // Results of the fuzzing client (isServer false) are a server's.
  const side = [...results.values()].some((byCase) => [...byCase.values()].some((r) => !r.isServer)) ? 'server' : 'client';
  const body = `<header class="bar" id="top">wsgate &middot; WebSocket ${side} conformance report</header>
<main${matrix.failing > 0 ? ' class="opens_on_failures"' : ''}>
<h1>Summary</h1>
<p id="intro">Summary report generated on ${esc(meta.generatedAt)} by wsgate v${esc(meta.toolVersion)} (Autobahn|Testsuite cases and verdicts).</p>
${tlsNote(results)}<table id="agent_summary">
<tr><th>Agent</th><th>Pass</th><th>Non-Strict</th><th>Fail</th><th>Info</th><th>Unimplemented</th><th>Missing</th></tr>
${summaryRows(results, catalogue, agents)}
</table>
${causesBlock(results, catalogue, agents)}<h2>Results</h2>
${filterLine(matrix.failing, catalogue.length)}
<p class="chips"><span class="case_ok">Pass</span><span class="case_non_strict">Non-Strict</span><span class="case_failed">Fail</span><span class="case_info">Info</span><span class="case_unimplemented">Unimplemented</span><span class="case_missing">Missing</span> <a href="#legend">what they mean</a></p>
<table id="agent_case_results">
${matrix.rows.join('\n')}
</table>
<h2>Legend</h2>
<table id="legend">
<tr><td class="case_ok">Pass</td><td>The case ran and the peer behaved as required.</td></tr>
<tr><td class="case_non_strict">Non-Strict</td><td>The case ran and passed, but the peer did not follow a SHOULD or a canonical behaviour; still conformant.</td></tr>
<tr><td class="case_failed">Fail</td><td>The case ran and the peer broke a MUST of the protocol (or, in performance cases, a limit).</td></tr>
<tr><td class="case_info">Info</td><td>Informational case: behaviour the protocol leaves open, reported without a verdict.</td></tr>
<tr><td class="case_unimplemented">Unimplemented</td><td>The case is not implemented for this peer.</td></tr>
<tr><td class="case_missing">Missing</td><td>The case was selected but has no result: it was excluded for this agent, or the peer never ran it. Cases the run did not select are not listed.</td></tr>
<tr><td>Close column</td><td>The peer's close code (None: no code) when the closing was acceptable; &ldquo;Unclean&rdquo; or &ldquo;Fail&rdquo; otherwise.</td></tr>
</table>
<h2>Case Descriptions</h2>
<div id="test_case_descriptions">
${descriptions(catalogue)}
</div>
</main>`;
  return page('wsgate report', CSS_INDEX, body);
}

/**
 * The line above the matrix. With a failure: which view is shown (failing rows, or all) and a link
 * to the other; #all is an empty anchor inside it, so either link keeps the line at the top.
 * Without one, as before: a link to the (empty) failing view and one back to the top.
 */
function filterLine(failing: number, selected: number): string {
  const cases = (n: number): string => `${n} case${n === 1 ? '' : 's'}`;
  if (failing === 0) {
    return '<p class="filters" id="failing">0 cases with a failure. Show: <a href="#failing">failing cases only</a> &middot; <a href="#top">all cases</a></p>';
  }
  return (
    `<p class="filters" id="failing"><span id="all"></span>${failing} of ${cases(selected)} with a failure. ` +
    `<span class="view_failing">Showing them only, under their groups' headings. <a href="#all">Show all ${cases(selected)}</a></span>` +
    `<span class="view_all">Showing all ${cases(selected)}. <a href="#failing">Show the failing ${failing === 1 ? 'one' : 'ones'} only</a></span></p>`
  );
}

/** The failing results grouped by cause (a requirement broken in one way), or nothing when none fails. */
function causesBlock(results: ReadonlyMap<string, ReadonlyMap<string, CaseResult>>, catalogue: readonly CaseInfo[], agents: readonly string[]): string {
  const explained: ExplainedCase[] = [];
  for (const agent of agents) {
    const byCase = results.get(agent);
    for (const info of catalogue) {
      const r = byCase?.get(info.id);
      if (r === undefined || !isFailing(r)) continue;
      const e = explainResult(r);
      if (e !== null) explained.push({ label: agents.length > 1 ? `${agent} ${info.id}` : info.id, explanation: e });
    }
  }
  const causes = groupCauses(explained);
  if (causes.length === 0) return '';
  const rows = causes
    .map(
      (g) =>
        `<tr data-cause="${esc(g.key)}"><td>${esc(g.title)}</td><td class="count">${g.cases.length}</td><td>${esc(g.ranges)}</td><td>${esc(`${g.requirement.rfc}: ${g.requirement.text}`)}</td></tr>`,
    )
    .join('\n');
  return `<h2 id="causes">Failures by cause</h2>
<table id="failure_causes">
<tr><th>Cause</th><th>Cases</th><th>Which</th><th>Requirement</th></tr>
${rows}
</table>
`;
}

/** Over TLS, a line saying so, with the versions and cipher suites the connections agreed on; else nothing. */
function tlsNote(results: ReadonlyMap<string, ReadonlyMap<string, CaseResult>>): string {
  const seen = new Set<string>();
  for (const byCase of results.values()) for (const r of byCase.values()) if (r.tls !== undefined) seen.add(`${r.tls.version} with ${r.tls.cipher}`);
  if (seen.size === 0) return '';
  return `<p id="tls">Over TLS (wss://): ${[...seen].sort(compareCodePoints).map(esc).join('; ')}.</p>\n`;
}

/** One row per agent: how many cases passed, failed, ... or are missing. */
function summaryRows(results: ReadonlyMap<string, ReadonlyMap<string, CaseResult>>, catalogue: readonly CaseInfo[], agents: readonly string[]): string {
  return agents
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
}

/** The cases under one heading: a category, or a subcategory of it, in catalogue order. */
interface Block {
  category: string;
  sub: string | null;
  cases: CaseInfo[];
}

function blocksOf(catalogue: readonly CaseInfo[]): Block[] {
  const blocks: Block[] = [];
  for (const c of catalogue) {
    const category = categoryLabel(c);
    const sub = subcategoryLabel(c.id, c.subcategory);
    const last = blocks.at(-1);
    if (last?.category === category && last.sub === sub) last.cases.push(c);
    else blocks.push({ category, sub, cases: [c] });
  }
  return blocks;
}

/**
 * The matrix rows: category and subcategory headings, then a row per case with a cell pair per
 * agent. A failing row, and the headings of its block, carry has_failure (the failing view keeps them).
 */
function resultRows(
  results: ReadonlyMap<string, ReadonlyMap<string, CaseResult>>,
  catalogue: readonly CaseInfo[],
  agents: readonly string[],
  prefixes: ReadonlyMap<string, string>,
): { rows: string[]; failing: number } {
  const columns = agents.length * 2 + 1;
  const agentHeads = agents.map((a) => `<th class="agent" colspan="2">${esc(a)}</th>`).join('');
  const rows: string[] = [];
  let failingCases = 0;
  for (const block of blocksOf(catalogue)) {
    const caseRows = block.cases.map((c) => {
      const anchor = `case_desc_${c.id.replaceAll('.', '_')}`;
      const cells = agents.map((agent) => resultCells(prefixes.get(agent) ?? '', c.id, results.get(agent)?.get(c.id))).join('');
      const failing = agents.some((agent) => isFailing(results.get(agent)?.get(c.id)));
      if (failing) failingCases += 1;
      const html = `<tr class="agent_case_result_row${c.origin === 'wsgate' ? ' wsgate_own' : ''}${failing ? ' has_failure' : ''}" data-case="${esc(c.id)}"><td class="case"><a href="#${esc(anchor)}">Case ${esc(c.id)}</a></td>${cells}</tr>`;
      return { html, failing };
    });
    const mark = caseRows.some((r) => r.failing) ? ' has_failure' : '';
    // The agent header repeats at every subcategory, so the columns stay readable in a long table.
    rows.push(`<tr class="case_category_row${mark}"><th class="case_category"><span class="title">${esc(block.category)}</span></th>${agentHeads}</tr>`);
    if (block.sub !== null) {
      rows.push(
        `<tr class="case_subcategory_row${mark}"><td class="case_subcategory" colspan="${columns}"><span class="title">${esc(block.sub)}</span></td></tr>`,
      );
    }
    rows.push(...caseRows.map((r) => r.html));
  }
  return { rows, failing: failingCases };
}

/** The description and expectation of every case, each with its anchor. */
function descriptions(catalogue: readonly CaseInfo[]): string {
  return catalogue
    .map((c) => {
      const anchor = `case_desc_${c.id.replaceAll('.', '_')}`;
      return `<section class="case_desc_block" id="${esc(anchor)}"><h3>Case ${esc(c.id)}</h3><a class="up" href="#top">Up</a>
<p class="case_desc"><b>Case Description</b><br>${htmlFragment(c.description)}</p>
<p class="case_expect"><b>Case Expectation</b><br>${htmlFragment(c.expectation)}</p></section>`;
    })
    .join('\n');
}
