/** The index page: the agents × cases matrix (Autobahn's layout), the legend and the case descriptions. */
import { groupCauses, type ExplainedCase } from '../../explain/causes.js';
import { explainResult } from '../../explain/explain.js';
import type { CauseGroup } from '../../model/explanation.js';
import type { CaseInfo, CaseResult, GateCell, GateIndex, GateStatus } from '../../model/report.js';
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
#intro { color: var(--muted); font-size: .85em; }
/* A wide table scrolls inside its own box: the page itself never scrolls sideways (a phone, 390 px). */
.scroll { max-width: 100%; overflow-x: auto; }
#agent_case_results { margin-top: 8px; width: 100%; }
#agent_case_results td, #agent_case_results th { padding: 3px 8px; }
#agent_case_results td.case { white-space: nowrap; }
/* Titles and agent names wrap between words, never inside one; a word longer than its cell breaks. */
#agent_case_results .title, #agent_case_results th.agent { white-space: normal; overflow-wrap: break-word; }
#agent_case_results th.agent { min-width: 7em; }
.cause { display: block; font-size: .85em; font-weight: 400; white-space: normal; max-width: 24em; color: var(--fail); }
#failure_causes td.which a { white-space: nowrap; }
#gate_summary td, #gate_summary th { text-align: right; }
#gate_summary td:first-child, #gate_summary th:first-child { text-align: left; }
.axis_note { font-size: .85em; color: var(--muted); margin: 4px 0; }
details.axis { margin: 8px 0; }
details.axis summary { color: var(--muted); cursor: pointer; }
details.more { display: inline; }
details.more summary { display: inline; cursor: pointer; color: var(--muted); }
/* A phone: less margin, and each cause a block of its own (title, count, cases, requirement) rather than four narrow columns. */
@media (max-width: 600px) {
  main { padding: 12px 12px 32px; }
  #gate_summary td, #gate_summary th, #agent_summary td, #agent_summary th { padding: 4px 5px; }
  #failure_causes tr:first-child { display: none; }
  #failure_causes, #failure_causes tbody, #failure_causes tr, #failure_causes td { display: block; width: 100%; }
  #failure_causes td { border: 0; padding: 2px 8px; }
  #failure_causes tr { border: 1px solid var(--line); margin-bottom: 8px; }
  #failure_causes td:first-child { font-weight: 600; padding-top: 6px; }
  #failure_causes td.count::after { content: " cases"; }
}
tr.case_category_row th { background: #20252d; color: #f1f3f6; position: sticky; top: 0; }
tr.case_subcategory_row td { background: #e4e8ee; font-weight: 600; }
.chips span { display: inline-block; padding: 1px 8px; margin: 2px 4px 2px 0; border-radius: 4px; font-size: .9em; }
td.case a { color: inherit; }
td.case_ok a, td.case_non_strict a, td.case_failed a, td.case_info a { color: inherit; font-weight: 600; }
.case_duration { font-size: .85em; color: var(--muted); }
td.close { font-size: .9em; white-space: nowrap; }
#legend td { padding: 4px 10px; }
#legend td:first-child { width: 120px; font-weight: 600; }
#agent_summary td, #agent_summary th { text-align: right; }
#agent_summary td:first-child, #agent_summary th:first-child { text-align: left; }
.case_desc_block { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 4px 16px 12px; margin: 12px 0; overflow-wrap: break-word; }
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

/**
 * What a row shows of a case that did not pass: the gate's cell when the run had a gate, else (a
 * fuzzing server's index written mid-run, `serve`) the explanation of a result failing by Autobahn's
 * default rule. Null for a case that passed.
 */
function failureOf(r: CaseResult | undefined, gate: GateCell | undefined): { cause: string; why: string } | null {
  if (gate !== undefined) return gate.status === 'failed' ? { cause: gate.cause ?? 'failed', why: gate.why } : null;
  if (r === undefined || !isFailing(r)) return null;
  const e = explainResult(r);
  return e === null ? null : { cause: e.cause.title, why: e.text };
}

function resultCells(agentPrefix: string, caseId: string, r: CaseResult | undefined, gate: GateCell | undefined): string {
  const failure = failureOf(r, gate);
  // The full why a hover away; the cause in a few words under the verdict.
  const hover = failure === null ? '' : ` title="${esc(failure.why)}"`;
  const cause = failure === null ? '' : `<span class="cause">${esc(failure.cause)}</span>`;
  if (r === undefined) return `<td class="case_missing" colspan="2"${hover}>Missing${cause}</td>`;
  if (r.behavior === 'UNIMPLEMENTED') return `<td class="case_unimplemented" colspan="2"${hover}>Unimplemented${cause}</td>`;
  const b = INDEX_BEHAVIOR[r.behavior] ?? { cls: 'case_failed', text: 'Fail' };
  const closeCls = INDEX_CLOSE_WITH_CODE[r.behaviorClose];
  // A failed closing says so, and the code the peer sent beside it (None: no code, or no close frame).
  const close =
    closeCls !== undefined
      ? { cls: closeCls, text: pyStr(r.remoteCloseCode) }
      : { cls: 'case_failed', text: `${r.behaviorClose === 'UNCLEAN' ? 'Unclean' : 'Fail'} · ${pyStr(r.remoteCloseCode)}` };
  let detail = r.reportTime ? `${pyInt(r.duration)} ms` : '';
  if (r.reportCompressionRatio && r.trafficStats !== null) {
    detail += ` [${ratio(r.trafficStats.incomingCompressionRatio)}/${ratio(r.trafficStats.outgoingCompressionRatio)}]`;
  }
  const href = `${caseReportBase(agentPrefix, caseId)}.html`;
  const extra = detail === '' ? '' : `<br><span class="case_duration">${esc(detail.trim())}</span>`;
  return (
    `<td class="${b.cls}"${hover}><a href="${esc(href)}">${b.text}</a>${cause}${extra}</td>` +
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
  meta: IndexMeta,
  prefixes: ReadonlyMap<string, string> = agentFilePrefixes(results.keys()).prefixes,
): string {
  const agents = [...results.keys()].sort(compareCodePoints);
  const gate = meta.gate ?? null;
  const matrix = resultRows(results, catalogue, agents, prefixes, gate);
  // Results of the fuzzing client (isServer false) are a server's.
  const side = [...results.values()].some((byCase) => [...byCase.values()].some((r) => !r.isServer)) ? 'server' : 'client';
  const body = `<header class="bar" id="top">wsgate &middot; WebSocket ${side} conformance report</header>
<main${matrix.failing > 0 ? ' class="opens_on_failures"' : ''}>
<h1>Summary</h1>
<p id="intro">Summary report generated on ${esc(meta.generatedAt)} by wsgate v${esc(meta.toolVersion)} (Autobahn|Testsuite cases and verdicts).</p>
${tlsNote(results)}${summaryBlock(results, catalogue, agents, gate)}
${causesBlock(results, catalogue, agents, prefixes, meta)}<h2>Results</h2>
${filterLine(matrix.failing, catalogue.length)}
<p class="chips"><span class="case_ok">Pass</span><span class="case_non_strict">Non-Strict</span><span class="case_failed">Fail</span><span class="case_info">Info</span><span class="case_unimplemented">Unimplemented</span><span class="case_missing">Missing</span> <a href="#legend">what they mean</a></p>
<div class="scroll"><table id="agent_case_results">
${matrix.rows.join('\n')}
</table></div>
<h2>Legend</h2>
<table id="legend">
<tr><td class="case_ok">Pass</td><td>The case ran and the peer behaved as required.</td></tr>
<tr><td class="case_non_strict">Non-Strict</td><td>The case ran and passed, but the peer did not follow a SHOULD or a canonical behaviour; still conformant.</td></tr>
<tr><td class="case_failed">Fail</td><td>The case ran and the peer broke a MUST of the protocol (or, in performance cases, a limit).</td></tr>
<tr><td class="case_info">Info</td><td>Informational case: behaviour the protocol leaves open, reported without a verdict.</td></tr>
<tr><td class="case_unimplemented">Unimplemented</td><td>The case is not implemented for this peer.</td></tr>
<tr><td class="case_missing">Missing</td><td>The case was selected but has no result: it was excluded for this agent, or the peer never ran it. Cases the run did not select are not listed.</td></tr>
<tr><td>Close column</td><td>The peer's close code (None: no code); &ldquo;Unclean&rdquo; or &ldquo;Fail&rdquo; before it when the closing was not acceptable.</td></tr>
<tr><td>Under a verdict</td><td>The cause of a case the gate failed, in a few words; hover for the whole why, click for the case's page.</td></tr>
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

/**
 * The failing cases grouped by cause (a requirement broken in one way), or nothing when none fails:
 * the run's causes when a gate ran (the console's, the job summary's, summary.json's), else those of
 * the results failing by Autobahn's default rule. Each case links to its page (a case with no result
 * to its description).
 */
function causesBlock(
  results: ReadonlyMap<string, ReadonlyMap<string, CaseResult>>,
  catalogue: readonly CaseInfo[],
  agents: readonly string[],
  prefixes: ReadonlyMap<string, string>,
  meta: IndexMeta,
): string {
  const several = agents.length > 1;
  const label = (agent: string, id: string): string => (several ? `${agent} ${id}` : id);
  const href = new Map<string, string>();
  for (const agent of agents) {
    for (const info of catalogue) {
      const has = results.get(agent)?.has(info.id) === true;
      href.set(label(agent, info.id), has ? `${caseReportBase(prefixes.get(agent) ?? '', info.id)}.html` : `#case_desc_${info.id.replaceAll('.', '_')}`);
    }
  }
  let causes: readonly CauseGroup[] | undefined = meta.causes;
  if (causes === undefined) {
    const explained: ExplainedCase[] = [];
    for (const agent of agents) {
      const byCase = results.get(agent);
      for (const info of catalogue) {
        const r = byCase?.get(info.id);
        if (r === undefined || !isFailing(r)) continue;
        const e = explainResult(r);
        if (e !== null) explained.push({ label: label(agent, info.id), explanation: e });
      }
    }
    causes = groupCauses(explained);
  }
  if (causes.length === 0) return '';
  const link = (c: string): string => (href.has(c) ? `<a href="${esc(href.get(c) ?? '')}">${esc(c)}</a>` : esc(c));
  // The first cases at once; the rest of a long list a click away, so the failing rows stay near the top.
  const links = (g: CauseGroup): string => {
    const first = g.cases.slice(0, SHOWN_CASES).map(link).join(', ');
    const rest = g.cases.slice(SHOWN_CASES);
    return rest.length === 0 ? first : `${first}, <details class="more"><summary>and ${rest.length} more</summary>${rest.map(link).join(', ')}</details>`;
  };
  const rows = causes
    .map(
      (g) =>
        `<tr data-cause="${esc(g.key)}"><td>${esc(g.title)}</td><td class="count">${g.cases.length}</td><td class="which">${links(g)}</td><td>${esc(requirementWords(g.requirement))}</td></tr>`,
    )
    .join('\n');
  return `<h2 id="causes">Failures by cause</h2>
<div class="scroll"><table id="failure_causes">
<tr><th>Cause</th><th>Cases</th><th>Which</th><th>Requirement</th></tr>
${rows}
</table></div>
`;
}

/** Cases of a cause linked at once in the causes table; the rest behind "and N more". */
const SHOWN_CASES = 24;

/** A cause's requirement as the table says it ("RFC 6455 §5.6: …"; a run-level fault has none). */
function requirementWords(r: CauseGroup['requirement']): string {
  return r.rfc === '' ? r.text : `${r.rfc}: ${r.text}`;
}

/** Over TLS, a line saying so, with the versions and cipher suites the connections agreed on; else nothing. */
function tlsNote(results: ReadonlyMap<string, ReadonlyMap<string, CaseResult>>): string {
  const seen = new Set<string>();
  for (const byCase of results.values()) for (const r of byCase.values()) if (r.tls !== undefined) seen.add(`${r.tls.version} with ${r.tls.cipher}`);
  if (seen.size === 0) return '';
  return `<p id="tls">Over TLS (wss://): ${[...seen].sort(compareCodePoints).map(esc).join('; ')}.</p>\n`;
}

/** What the index is given beyond the results: when and by what, and the gate's cells when a gate ran. */
export interface IndexMeta {
  readonly generatedAt: string;
  readonly toolVersion: string;
  /** The gate's word on every case (absent: no gate ran, as for `serve` or a report written mid-run). */
  readonly gate?: GateIndex;
  /** The run's causes (explain/run.ts), when a gate ran: the table lists them as every other output does. */
  readonly causes?: readonly CauseGroup[];
}

/**
 * The counts: the gate's (passed, failed, skipped: summary.json's), and Autobahn's, which count the
 * behavior axis alone, folded under them and labelled so. Without a gate, Autobahn's alone, labelled.
 */
function summaryBlock(
  results: ReadonlyMap<string, ReadonlyMap<string, CaseResult>>,
  catalogue: readonly CaseInfo[],
  agents: readonly string[],
  gate: GateIndex | null,
): string {
  const autobahn = `<table id="agent_summary">
<tr><th>Agent</th><th>Pass</th><th>Non-Strict</th><th>Fail</th><th>Info</th><th>Unimplemented</th><th>Missing</th></tr>
${summaryRows(results, catalogue, agents)}
</table>`;
  const axisNote =
    "Autobahn's outcome counts: the behavior axis only, as Autobahn's own report counts (a case that fails on its closing alone counts as Pass there)";
  if (gate === null)
    return `<div class="scroll">${autobahn}</div>\n<p class="axis_note">Autobahn's counts: the behavior axis only; no gate judged this report.</p>`;
  const rows = [...gate.keys()]
    .sort(compareCodePoints)
    .map((agent) => {
      const cells = [...(gate.get(agent)?.values() ?? [])];
      const n = (st: GateStatus): number => cells.filter((c) => c.status === st).length;
      return `<tr><td>${esc(agent)}</td><td>${cells.length}</td><td>${n('passed')}</td><td>${n('failed')}</td><td>${n('skipped')}</td></tr>`;
    })
    .join('\n');
  return `<div class="scroll"><table id="gate_summary">
<tr><th>Agent</th><th>Cases</th><th>Passed</th><th>Failed</th><th>Skipped</th></tr>
${rows}
</table></div>
<p class="axis_note">The gate's counts, as summary.json and the exit status have them: a case fails on either of Autobahn's two verdicts (outcome and closing), with the run's --strict and --fail-on.</p>
<details class="axis"><summary>${axisNote}</summary>
<div class="scroll">${autobahn}</div>
</details>`;
}

/** One row per agent: how many cases passed, failed, ... or are missing (Autobahn's behavior axis). */
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
  gate: GateIndex | null,
): { rows: string[]; failing: number } {
  const columns = agents.length * 2 + 1;
  const agentHeads = agents.map((a) => `<th class="agent" colspan="2">${esc(a)}</th>`).join('');
  const rows: string[] = [];
  let failingCases = 0;
  let lastCategory: string | null = null;
  for (const block of blocksOf(catalogue)) {
    const caseRows = block.cases.map((c) => {
      const anchor = `case_desc_${c.id.replaceAll('.', '_')}`;
      const gateOf = (agent: string): GateCell | undefined => gate?.get(agent)?.get(c.id);
      const cells = agents.map((agent) => resultCells(prefixes.get(agent) ?? '', c.id, results.get(agent)?.get(c.id), gateOf(agent))).join('');
      // The failing view keeps the rows the gate failed (without a gate: those failing by Autobahn's default rule).
      const failing = agents.some((agent) => (gate === null ? isFailing(results.get(agent)?.get(c.id)) : gateOf(agent)?.status === 'failed'));
      if (failing) failingCases += 1;
      const html = `<tr class="agent_case_result_row${c.origin === 'wsgate' ? ' wsgate_own' : ''}${failing ? ' has_failure' : ''}" data-case="${esc(c.id)}"><td class="case"><a href="#${esc(anchor)}">Case ${esc(c.id)}</a></td>${cells}</tr>`;
      return { html, failing };
    });
    const mark = caseRows.some((r) => r.failing) ? ' has_failure' : '';
    // The group's heading (with the agents' names) once per group, sticky at the top while its rows
    // scroll by; it shows in the failing view when any of its subgroups has a failing row.
    if (block.category !== lastCategory) {
      const groupFails = catalogue.some(
        (c) =>
          categoryLabel(c) === block.category &&
          agents.some((agent) => (gate === null ? isFailing(results.get(agent)?.get(c.id)) : gate.get(agent)?.get(c.id)?.status === 'failed')),
      );
      rows.push(
        `<tr class="case_category_row${groupFails ? ' has_failure' : ''}"><th class="case_category"><span class="title">${esc(block.category)}</span></th>${agentHeads}</tr>`,
      );
      lastCategory = block.category;
    }
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
