/**
 * The pages of what changed (src/matrix/changes/changes.ts decides it; these render it): DIR/changes.html,
 * the cases whose verdict changed between consecutive releases of a `--versions` matrix, and
 * DIR/compare.html, the regressions and improvements between two matrices. Each changed case links
 * to its page in both rows' report directories.
 */
import { escapeHtml as esc } from '../../report/escape.js';
import { page } from '../../report/html/page.js';
import type { CaseChange, CaseSide, Comparison, ReleaseSeries } from './changes.js';

const CSS = `
.meta { color: var(--muted); }
.scroll { max-width: 100%; overflow-x: auto; }
td.verdict { white-space: nowrap; }
td.verdict a { color: inherit; }
ul.steps { margin: .2em 0 .8em; }
`;

const VERDICT_CLASS: Record<CaseSide['verdict'], string> = {
  passed: 'case_ok',
  failed: 'case_failed',
  skipped: 'case_non_strict',
  unsupported: 'case_unimplemented',
};

/** A side's cell: its verdict (and Autobahn's) linking to its case page under BASE/REPORTDIR. */
function sideCell(s: CaseSide, base: string, reportDir: string | null): string {
  const text = `${s.verdict}${s.behavior === null ? '' : ` (${s.behavior})`}`;
  const target = reportDir === null ? null : `${base}${encodeURI(reportDir)}/${encodeURI(s.page ?? 'index.html')}`;
  const cause = s.cause === null ? '' : `<br><span class="meta">${esc(s.cause)}</span>`;
  return `<td class="verdict ${VERDICT_CLASS[s.verdict]}">${target === null ? esc(text) : `<a href="${esc(target)}">${esc(text)}</a>`}${cause}</td>`;
}

interface Side {
  label: string;
  base: string;
  reportDir: string | null;
}

function changeTable(changes: readonly CaseChange[], older: Side, newer: Side, anchor: string): string {
  const rows = changes.map(
    (c) =>
      `<tr id="${esc(`${anchor}-${c.id}`)}"><td>${esc(c.id)}</td><td>${c.kind}</td>${sideCell(c.before, older.base, older.reportDir)}${sideCell(c.after, newer.base, newer.reportDir)}</tr>`,
  );
  return `<div class="scroll"><table>
<tr><th>Case</th><th>Change</th><th>${esc(older.label)}</th><th>${esc(newer.label)}</th></tr>
${rows.join('\n')}
</table></div>`;
}

/** changes.html: per implementation and role, each step between consecutive releases and the cases it changed. */
export function renderReleaseChanges(series: readonly ReleaseSeries[], generatedAt: string): string {
  const sections = series.map((s) => {
    const id = `${s.name}-${s.role}`;
    const changed = s.steps.filter((st) => st.changes.length > 0);
    const byCase = new Map<string, string[]>();
    for (const st of changed)
      for (const c of st.changes) byCase.set(c.id, [...(byCase.get(c.id) ?? []), `${c.before.verdict} → ${c.after.verdict} in ${st.newer.release ?? ''}`]);
    const summary =
      byCase.size === 0
        ? `<p>No case changed its verdict across ${s.steps.length + 1} releases that ran.</p>`
        : `<ul>${[...byCase].map(([caseId, what]) => `<li>${esc(caseId)}: ${esc(what.join(', '))}</li>`).join('')}</ul>`;
    const missing =
      s.notInstalled.length === 0
        ? ''
        : `<p class="meta">Not installed (not run): ${s.notInstalled.map((r) => `${esc(r.release ?? '')} (<code>${esc(r.install)}</code>)`).join(', ')}</p>`;
    const steps = s.steps.map((st) => {
      const from = st.older.release ?? '';
      const to = st.newer.release ?? '';
      const head = `<h3 id="${esc(`${id}-${to}`)}">${esc(from)} → ${esc(to)} <span class="meta">(${esc(st.older.version ?? '')} → ${esc(st.newer.version ?? '')})</span></h3>`;
      if (st.changes.length === 0) return `${head}\n<p class="meta">No verdict changed.</p>`;
      return `${head}\n${changeTable(st.changes, { label: from, base: '', reportDir: st.older.reportDir }, { label: to, base: '', reportDir: st.newer.reportDir }, `${id}-${to}`)}`;
    });
    return `<h2 id="${esc(id)}">${esc(s.title)} (${s.role})</h2>\n<h3>Changed cases</h3>\n${summary}\n${missing}\n${steps.join('\n')}`;
  });
  const body = `<header class="bar">wsgate interop matrix: across releases</header>
<main>
<h1>Across releases</h1>
<p class="meta">${esc(generatedAt)} · <a href="index.html">the matrix</a> · each case whose verdict changed between consecutive releases, with both releases’ case pages a click away.</p>
${sections.join('\n') || '<p>No implementation ran more than one release.</p>'}
</main>`;
  return page('wsgate: across releases', CSS, body);
}

/** compare.html: per row of both matrices, its regressions, improvements and other changes; rows added and removed. */
export function renderComparison(c: Comparison, bases: { old: string; new: string }): string {
  const rows = c.rows
    .filter((r) => r.regressions.length + r.improvements.length + r.other.length > 0)
    .map((r) => {
      const older = { label: `old: ${r.old.version ?? 'not installed'}`, base: bases.old, reportDir: r.old.reportDir };
      const newer = { label: `new: ${r.new.version ?? 'not installed'}`, base: bases.new, reportDir: r.new.reportDir };
      const all = [...r.regressions, ...r.improvements, ...r.other];
      const counts = `${r.regressions.length} regressions, ${r.improvements.length} improvements, ${r.other.length} other`;
      const same = r.sameVersion
        ? `\n<p class="meta">The same version on both sides (${esc(r.old.version ?? '')}): these verdicts changed without a release, from timing (a race, a busy machine), the machine or wsgate; they are unstable for this row, not its regressions.</p>`
        : '';
      return `<h2 id="${esc(r.key)}">${esc(r.key)} <span class="meta">${esc(counts)}</span></h2>${same}\n${changeTable(all, older, newer, r.key)}`;
    });
  const list = (keys: readonly string[]): string => (keys.length === 0 ? 'none' : keys.map(esc).join(', '));
  const body = `<header class="bar">wsgate interop matrix: comparison</header>
<main>
<h1>Comparison</h1>
<p class="meta">old: ${esc(c.old.dir)} (${esc(c.old.generatedAt)}, wsgate ${esc(c.old.wsgate)}) · new: ${esc(c.new.dir)} (${esc(c.new.generatedAt)}, wsgate ${esc(c.new.wsgate)})</p>
<p>${c.counts.regressions} regressions (passed → failed), ${c.counts.improvements} improvements (failed → passed), ${c.counts.other} other changes, in ${c.counts.rows} rows of both.</p>
<p>Added (new only): ${list(c.added)}. Removed (old only): ${list(c.removed)}.</p>
${rows.join('\n') || '<p>No row changed a verdict.</p>'}
</main>`;
  return page('wsgate: comparison', CSS, body);
}
