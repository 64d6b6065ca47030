/**
 * The matrix's site, DIR/index.html: implementations × case groups, each cell the group's count
 * linking into the row's own report; then the per-case view (who fails a case, grouped by cause).
 * It renders matrix.json and decides nothing.
 */
import { compareIds } from '../cases/select.js';
import { escapeHtml as esc } from '../report/escape.js';
import { page } from '../report/html/page.js';
import type { MatrixCounts, MatrixFile, MatrixRow } from './result.js';
import { groupOf, rowKey } from './result.js';

const CSS = `
td.cell { text-align: center; white-space: nowrap; }
td.cell a { color: inherit; text-decoration: none; display: block; }
.meta { color: var(--muted); }
/* The table scrolls inside its box, never the page (a phone); an install line breaks anywhere. */
.scroll { max-width: 100%; overflow-x: auto; }
td code { overflow-wrap: anywhere; }
ul.who { margin: .2em 0 .8em; }
td.version { white-space: nowrap; }
/* A phone: the implementation (its role and version under it) and its count of all cases; the groups are a wider screen's. */
.phone { display: none; }
@media (max-width: 640px) { .grp, .role, .version { display: none; } .phone { display: inline; } }
`;

/** A version as a cell shows it: its first version-like word ("Chromium 156.0.8078.114 built on …": 156.0.8078.114); the whole in its title. */
function shortVersion(version: string | null): string {
  const full = version ?? '';
  return /\d+(?:\.\d+)+[^\s,()]*/.exec(full)?.[0] ?? full;
}

function versionCell(version: string | null): string {
  const full = version ?? '';
  const short = shortVersion(version);
  return short === full ? `<td class="version">${esc(full)}</td>` : `<td class="version" title="${esc(full)}">${esc(short)}</td>`;
}

/**
 * `reports: false`: the rows' report directories are not beside the page (a committed snapshot): no links into them.
 * `changes`, `compare`: the pages beside index.html it links to: changes.html (a --versions matrix), compare.html (--compare).
 */
export interface SiteOptions {
  reports?: boolean;
  changes?: boolean;
  compare?: boolean;
}

export function renderSite(m: MatrixFile, options: SiteOptions = {}): string {
  const reports = options.reports ?? true;
  const groups = [...new Set(m.rows.flatMap((r) => Object.keys(r.groups)))].sort((a, b) => Number(a) - Number(b));
  const shard = m.selection.shard === null ? '' : `, shard ${m.selection.shard.index}/${m.selection.shard.count}`;
  const machine = `${m.machine.hostname}: ${m.machine.platform} ${m.machine.release} ${m.machine.arch}, ${m.machine.cpus} × ${m.machine.cpu}, Node.js ${m.machine.node}`;
  const body = `<header class="bar">wsgate interop matrix</header>
<main>
<h1>Interop matrix</h1>
<p class="meta">${esc(m.generatedAt)} · wsgate ${esc(m.wsgate)} · ${esc(machine)} · cases: ${esc(m.selection.cases?.join(' ') ?? 'all')}${m.selection.quick ? ' (quick)' : ''}${esc(shard)}</p>
${pageLinks(options)}
<div class="scroll"><table>
<tr><th>Implementation</th><th class="role">Role</th><th class="version">Version</th><th class="num">All</th>${groups.map((g) => `<th class="num grp">${esc(g)}</th>`).join('')}</tr>
${m.rows.map((r) => rowLine(r, groups, reports)).join('\n')}
</table></div>
<p class="meta">Each cell: cases passed of the cases played (all of the row's, then per case group); red when one failed, grey (n/a) when the implementation cannot play them (unsupported). On a narrow screen, the count of all cases alone.</p>
${caseView(m.rows, reports)}
</main>`;
  return page('wsgate interop matrix', CSS, body);
}

function pageLinks(links: SiteOptions): string {
  const items = [
    links.changes === true ? '<a href="changes.html">Across releases</a>: the cases whose verdict changed between consecutive releases' : '',
    links.compare === true ? '<a href="compare.html">Comparison</a>: regressions and improvements since the matrix compared with' : '',
  ].filter((l) => l !== '');
  return items.length === 0 ? '' : `<ul>${items.map((l) => `<li>${l}</li>`).join('')}</ul>`;
}

function rowLine(r: MatrixRow, groups: readonly string[], reports: boolean): string {
  const release = (r.release ?? null) === null ? '' : ` <span class="meta">@${esc(r.release ?? '')}</span>`;
  const phone = `<span class="meta phone"><br>${r.role} · ${r.installed ? esc(shortVersion(r.version)) : 'not installed'}</span>`;
  const head = `<td><a href="${esc(r.homepage)}">${esc(r.title)}</a>${release} <span class="meta">${esc(r.language)}</span>${phone}</td><td class="role">${r.role}</td>`;
  if (r.error !== null && r.error !== undefined) {
    return `<tr>${head}${versionCell(r.version)}<td class="case_failed" colspan="${groups.length + 1}">could not run: ${esc(r.error)}</td></tr>`;
  }
  if (r.counts === null || r.reportDir === null) {
    return `<tr>${head}<td class="version">not installed</td><td colspan="${groups.length + 1}">install: <code>${esc(r.install)}</code></td></tr>`;
  }
  const report = reports ? `${encodeURI(r.reportDir)}/index.html` : null;
  const cells = groups.map((g) => cell(r.groups[g], report, 'grp'));
  return `<tr>${head}${versionCell(r.version)}${cell(r.counts, report)}${cells.join('')}</tr>`;
}

function cell(c: MatrixCounts | undefined, href: string | null, extra = ''): string {
  const link = (text: string): string => (href === null ? text : `<a href="${href}">${text}</a>`);
  const cls = (kind: string): string => `cell ${kind}${extra === '' ? '' : ` ${extra}`}`;
  if (c === undefined || c.total === 0) return `<td class="${cls('case_missing')}">–</td>`;
  if (c.unsupported === c.total) return `<td class="${cls('case_unimplemented')}">${link('n/a')}</td>`;
  const played = c.total - c.unsupported;
  const kind = c.failed > 0 ? 'case_failed' : c.passed === played ? 'case_ok' : 'case_non_strict';
  const title = `${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped, ${c.unsupported} unsupported`;
  return `<td class="${cls(kind)}" title="${title}">${link(`${c.passed}/${played}`)}</td>`;
}

/** Every case some row failed: which rows, grouped by cause, in catalogue order. */
function caseView(rows: readonly MatrixRow[], reports: boolean): string {
  const failing = new Map<string, Map<string, string[]>>();
  for (const r of rows) {
    for (const c of r.cases) {
      if (c.verdict !== 'failed') continue;
      const causes = failing.get(c.id) ?? new Map<string, string[]>();
      const who = `${r.title} (${r.role}): ${c.behavior ?? '–'} / ${c.behaviorClose ?? '–'}`;
      causes.set(c.cause ?? 'no explanation', [
        ...(causes.get(c.cause ?? 'no explanation') ?? []),
        reports ? `<a href="${encodeURI(rowKey(r))}/index.html">${esc(who)}</a>` : esc(who),
      ]);
      failing.set(c.id, causes);
    }
  }
  if (failing.size === 0) return '<h2 id="cases">By case</h2>\n<p>No row failed a case.</p>';
  const ids = [...failing.keys()].sort(compareIds);
  const sections = ids.map((id) => {
    const causes = [...(failing.get(id) ?? [])].map(([cause, who]) => `<li>${esc(cause)}<ul class="who">${who.map((w) => `<li>${w}</li>`).join('')}</ul></li>`);
    return `<h3 id="case-${esc(id)}">${esc(id)} <span class="meta">(group ${esc(groupOf(id))})</span></h3>\n<ul>${causes.join('')}</ul>`;
  });
  return `<h2 id="cases">By case</h2>\n<p class="meta">Who fails each case, and why.</p>\n${sections.join('\n')}`;
}
