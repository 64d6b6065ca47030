/**
 * GitHub Actions renderings of a gate run (pure: strings in, strings out): the Markdown job summary,
 * error annotations (workflow commands), and the `$GITHUB_OUTPUT` file content.
 * https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions
 */
import { randomUUID } from 'node:crypto';
import { idRanges } from '../../explain/causes.js';
import { explanationOf, runCauses } from '../../explain/run.js';
import { caseLabel, type GateCase, type GateRun } from '../../model/report.js';

/** GitHub's limit on one step's job summary: 1 MiB ("the maximum size is 1MiB"). */
export const SUMMARY_LIMIT_BYTES = 1024 * 1024;

/** GitHub shows at most 10 error annotations per step; more are dropped. */
export const MAX_ERROR_ANNOTATIONS = 10;

/** Workflow-command message escaping: `%`, CR and LF (GitHub's escapeData). */
export function escapeData(s: string): string {
  return s.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** Workflow-command property escaping: escapeData plus `:` and `,` (GitHub's escapeProperty). */
export function escapeProperty(s: string): string {
  return escapeData(s).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

/** Counts the summary, outputs and annotations agree on. */
export interface RunCounts {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Failures accepted by the baseline (counted in skipped). */
  accepted: number;
  /** Baselined cases that pass now. */
  baselinePassing: number;
  result: 'pass' | 'fail';
}

/** The counts of a run; `result` is 'fail' on any failure or error, or when the run was interrupted. */
export function runCounts(run: GateRun): RunCounts {
  const n = (pred: (c: GateCase) => boolean): number => run.cases.filter(pred).length;
  const failed = n((c) => c.status === 'failed');
  return {
    total: run.cases.length,
    passed: n((c) => c.status === 'passed'),
    failed,
    skipped: n((c) => c.status === 'skipped'),
    accepted: n((c) => c.baseline?.state === 'accepted'),
    baselinePassing: n((c) => c.baseline?.state === 'passing'),
    result: failed > 0 || run.interrupted !== null ? 'fail' : 'pass',
  };
}

function isFailing(c: GateCase): boolean {
  return c.status === 'failed';
}

function verdicts(c: GateCase): string {
  return c.result === null ? 'no result' : `${c.result.behavior} / ${c.result.behaviorClose}`;
}

/** One line, at most `max` characters. */
function line(s: string, max = 400): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A table cell: one line, no HTML, no column breaks (reasons may carry text the client chose). */
function cell(s: string, max = 300): string {
  return line(s, max).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('|', '\\|');
}

/**
 * Error annotations for the failing cases, one per cause, the largest causes first (a run's 75
 * invalid-UTF-8 cases are one annotation, not ten of the first group): at most MAX_ERROR_ANNOTATIONS,
 * then one `::notice` naming the causes left (a notice, because an eleventh error would not be
 * shown). A failing case no cause explains is a cause of its own.
 */
export function annotations(run: GateRun, max = MAX_ERROR_ANNOTATIONS): string[] {
  const failing = run.cases.filter(isFailing);
  const byLabel = new Map(failing.map((c) => [caseLabel(c), c]));
  const causes = runCauses(run);
  const explained = new Set(causes.flatMap((g) => g.cases));
  const items: Array<{ title: string; cases: GateCase[]; requirement: string }> = [
    ...causes.map((g) => ({
      title: g.title,
      cases: g.cases.flatMap((l) => byLabel.get(l) ?? []),
      requirement: g.requirement.rfc === '' ? g.requirement.text : `${g.requirement.rfc}: ${g.requirement.text}`,
    })),
    ...failing.filter((c) => !explained.has(caseLabel(c))).map((c) => ({ title: `${caseLabel(c)}: ${verdicts(c)}`, cases: [c], requirement: '' })),
  ].sort((a, b) => b.cases.length - a.cases.length);
  const out = items.slice(0, max).map(({ title, cases, requirement }) => {
    const first = cases[0] as GateCase;
    const n = cases.length;
    const agents = [...new Set(cases.map((c) => c.agent ?? run.agent))];
    const of = agents.length === 1 ? ` failed for agent ${agents[0]}` : ' failed';
    const which = n === 1 ? `Case ${caseLabel(first)}${of}` : `${n} cases${of}: ${idRanges(cases.map(caseLabel))}`;
    const why = explanationOf(first)?.text ?? first.reason;
    const report = first.reportBase === null ? '' : `\nReport: ${first.reportBase}.html`;
    const text = `${which}${requirement === '' ? '' : `\n${requirement}`}\n${n === 1 ? '' : `First, ${caseLabel(first)}: `}${why}${report}`;
    return `::error title=${escapeProperty(`wsgate: ${title}${n === 1 ? '' : ` (${n} cases)`}`)}::${escapeData(text)}`;
  });
  if (items.length > max) {
    const rest = items.slice(max);
    const cases = rest.reduce((sum, i) => sum + i.cases.length, 0);
    const shown =
      rest
        .slice(0, 20)
        .map((i) => `${i.title} (${i.cases.length})`)
        .join('; ') + (rest.length > 20 ? '; …' : '');
    out.push(
      `::notice title=${escapeProperty('wsgate: more causes')}::${escapeData(`and ${rest.length} more cause${rest.length === 1 ? '' : 's'} (${cases} failing case${cases === 1 ? '' : 's'}): ${shown} (see the job summary and junit.xml)`)}`,
    );
  }
  const passing = run.cases.filter((c) => c.baseline?.state === 'passing').map((c) => c.id);
  if (passing.length > 0) {
    out.push(
      `::notice title=${escapeProperty('wsgate: baseline can shrink')}::${escapeData(`${passing.length} baselined case${passing.length === 1 ? '' : 's'} pass now and can be removed from the baseline: ${passing.join(', ')}`)}`,
    );
  }
  return out;
}

/** Report locations the summary points to (as the user will see them). */
export interface ReportPaths {
  outdir: string;
  junit: string;
  json: string;
}

function groupOf(c: GateCase): string {
  const group = c.id.split('.')[0] ?? '';
  return c.category.startsWith(`${group} `) ? c.category : `${group} ${c.category}`.trim();
}

const STATUS_WORD: Readonly<Record<string, string>> = {
  passed: '✅ pass',
  failed: '❌ FAIL',
  error: '💥 error',
  skipped: '⏭️ skip',
};

function statusWord(c: GateCase): string {
  if (c.baseline?.state === 'accepted') return '⚠️ accepted';
  if (c.baseline?.state === 'passing') return '✅ pass (baselined)';
  return STATUS_WORD[c.status] ?? c.status;
}

/** The Markdown sections of the summary, in order; each is a list of lines. */
function sections(run: GateRun, paths: ReportPaths): string[][] {
  return [headSection(run, paths), ...baselineSections(run), ...groupSections(run)];
}

/** The totals, the fail rule, the report paths, and the failing cases. */
function headSection(run: GateRun, paths: ReportPaths): string[] {
  const k = runCounts(run);
  const mark = k.result === 'pass' ? '✅' : '❌';
  const extra = [
    k.accepted > 0 ? `, ${k.accepted} accepted by the baseline` : '',
    k.baselinePassing > 0 ? `, ${k.baselinePassing} baselined but passing` : '',
  ].join('');
  const failing = run.cases.filter(isFailing);
  return [
    `## ${mark} wsgate: ${cell(run.agent, 120)} ${k.result === 'pass' ? 'passed' : 'failed'}`,
    '',
    `**${k.total} cases: ${k.passed} passed, ${k.failed} failed, ${k.skipped} skipped${extra}** in ${(run.durationMs / 1000).toFixed(1)} s`,
    '',
    `Fails the build: ${(run.failOn ?? []).map((v) => `\`${v}\``).join(', ') || 'the default rule'}${run.baselineFile ? ` · baseline: \`${cell(run.baselineFile, 200)}\`` : ''}`,
    ...(run.interrupted !== null ? ['', `Interrupted (${cell(run.interrupted)}): the cases not run count as not checked, so the run fails.`] : []),
    '',
    `Reports: \`${cell(paths.outdir, 200)}/index.html\`, JUnit \`${cell(paths.junit, 200)}\`, summary \`${cell(paths.json, 200)}\``,
    ...causesSection(run),
    ...(failing.length === 0
      ? []
      : [
          '',
          `### Failing cases (${failing.length})`,
          '',
          '| Case | Verdicts | Why |',
          '| --- | --- | --- |',
          ...failing.map((c) => `| ${cell(caseLabel(c))} | ${cell(verdicts(c))} | ${cell(explanationOf(c)?.short ?? c.reason)} |`),
        ]),
  ];
}

/** The failing cases grouped by cause: each cause once, with its cases and the requirement it breaks. */
function causesSection(run: GateRun): string[] {
  const causes = runCauses(run);
  if (causes.length === 0) return [];
  return [
    '',
    `### Failures by cause (${causes.length})`,
    '',
    '| Cause | Cases | Requirement |',
    '| --- | --- | --- |',
    ...causes.map(
      (g) => `| ${cell(g.title, 200)} | ${cell(`${g.cases.length}: ${g.ranges}`, 400)} | ${cell(`${g.requirement.rfc}: ${g.requirement.text}`, 300)} |`,
    ),
  ];
}

/** The failures a baseline accepts, and the baseline entries that now pass. */
function baselineSections(run: GateRun): string[][] {
  const out: string[][] = [];
  const accepted = run.cases.filter((c) => c.baseline?.state === 'accepted');
  if (accepted.length > 0) {
    out.push([
      '',
      `### Accepted failures (baseline, ${accepted.length})`,
      '',
      'These fail but the baseline accepts them, so they do not fail the build.',
      '',
      '| Case | Verdicts | Baseline reason | Failure |',
      '| --- | --- | --- | --- |',
      ...accepted.map((c) => `| ${c.id} | ${cell(verdicts(c))} | ${cell(c.baseline?.reason ?? '')} | ${cell(c.baseline?.failure ?? '')} |`),
    ]);
  }
  const passing = run.cases.filter((c) => c.baseline?.state === 'passing');
  if (passing.length > 0) {
    out.push([
      '',
      `### Can be removed from the baseline (${passing.length})`,
      '',
      ...passing.map((c) => `- ${c.id} passes now (baseline entry \`${cell(c.baseline?.pattern ?? '', 40)}\`: ${cell(c.baseline?.reason ?? '')})`),
    ]);
  }
  return out;
}

/** A folding table per case group (open when it holds a failure). */
function groupSections(run: GateRun): string[][] {
  const groups = new Map<string, GateCase[]>();
  for (const c of run.cases) {
    const g = groupOf(c);
    const list = groups.get(g);
    if (list === undefined) groups.set(g, [c]);
    else list.push(c);
  }
  const out: string[][] = [['', '### Cases by group']];
  for (const [group, cases] of groups) {
    const bad = cases.filter(isFailing).length;
    const ok = cases.filter((c) => c.status === 'passed').length;
    const open = bad > 0 ? ' open' : '';
    out.push([
      '',
      `<details${open}><summary>${cell(group, 120)}: ${ok}/${cases.length} passed${bad > 0 ? `, ${bad} failed` : ''}</summary>`,
      '',
      '| Case | Status | Verdicts | Duration | Reason |',
      '| --- | --- | --- | ---: | --- |',
      ...cases.map(
        (c) =>
          `| ${cell(caseLabel(c))} | ${statusWord(c)} | ${cell(verdicts(c))} | ${c.result === null ? '' : `${c.result.duration} ms`} | ${cell(c.reason || c.warnings.join('; '), 200)} |`,
      ),
      '',
      '</details>',
    ]);
  }
  return out;
}

/**
 * The Markdown job summary: a totals line, the failing cases with their reasons, baseline notes and a
 * table per case group. Cut line by line to stay under `limitBytes` (with a note saying so).
 */
export function jobSummary(run: GateRun, paths: ReportPaths, limitBytes = SUMMARY_LIMIT_BYTES): string {
  const note = `\n\n> [!NOTE]\n> The summary was cut to stay under GitHub's ${Math.floor(limitBytes / 1024)} KiB limit; the full results are in junit.xml and index.html.\n`;
  const closing = '\n</details>\n';
  const budget = limitBytes - Buffer.byteLength(note) - Buffer.byteLength(closing);
  let text = '';
  let used = 0;
  for (const section of sections(run, paths)) {
    for (const l of section) {
      const piece = `${l}\n`;
      const size = Buffer.byteLength(piece);
      if (used + size > budget) {
        // An open <details> is closed so the rest of the page renders normally.
        const open = text.lastIndexOf('<details') > text.lastIndexOf('</details>');
        return `${text}${open ? closing : ''}${note}`;
      }
      text += piece;
      used += size;
    }
  }
  return text;
}

/** The `$GITHUB_OUTPUT` lines for `values`, each in the heredoc form (safe for any value). */
export function outputLines(values: Readonly<Record<string, string>>, delimiter: () => string = () => `ghadelimiter_${randomUUID()}`): string {
  let out = '';
  for (const [name, value] of Object.entries(values)) {
    let d = delimiter();
    // The delimiter must not occur as a line of the value, or GitHub ends the value early.
    while (value.split(/\r?\n/).includes(d)) d = delimiter() + randomUUID();
    out += `${name}<<${d}\n${value}\n${d}\n`;
  }
  return out;
}
