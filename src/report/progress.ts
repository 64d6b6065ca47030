/**
 * Human output of a gate run: one line per case as it finishes, counted `[k/N]` (k cases finished
 * of N; `judge` counts by the case's place instead), and under a failing case one line saying why; a
 * line when nothing has finished for STALL_LINE_MS, naming the cases still open and for how long;
 * then a summary with the failures grouped by cause. Quiet: the summary only.
 */
import { figureLine } from '../model/figures.js';
import { causeLine } from '../explain/causes.js';
import { explanationOf, runCauses } from '../explain/run.js';
import { caseLabel, type GateCase, type GateRun } from '../model/report.js';

/** Causes listed in the summary; more are counted in one line (summary.json and the job summary have them all). */
const MAX_CAUSES = 12;

/** Nothing finished for this long: a line naming the cases still open (and again as long as it lasts). */
export const STALL_LINE_MS = 30_000;

/** What the counter at the start of a case's line counts. */
export type Counter = 'finished' | 'index';

/** Writes progress lines; colours only on a terminal. */
export class Progress {
  private readonly width: number;
  /** Cases finished so far (the counter of a run's lines). */
  private finished = 0;
  /** Cases begun and not yet finished: their labels and when each began. */
  private readonly open = new Map<number, { label: string; at: number }>();
  private lastAt = performance.now();
  private timer: NodeJS.Timeout | null = null;
  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly tty: boolean,
    private readonly total: number,
    private readonly quiet = false,
    private readonly options: { counter?: Counter; stallMs?: number } = {},
  ) {
    this.width = String(total).length;
  }

  /**
   * A case began (index in the run's selection): named by the stall line while it runs. Starts the
   * watch for stalls on the first call; stop() ends it.
   */
  caseStarted(index: number, label: string): void {
    if (this.quiet) return;
    this.open.set(index, { label, at: performance.now() });
    if (this.timer !== null) return;
    const every = this.options.stallMs ?? STALL_LINE_MS;
    this.lastAt = performance.now();
    this.timer = setInterval(() => this.stalled(every), Math.max(10, every / 4));
    // The watch never keeps wsgate alive.
    this.timer.unref();
  }

  /** Nothing finished for `every` ms: one line naming what is still open, the longest first, and for how long. */
  private stalled(every: number): void {
    const now = performance.now();
    if (now - this.lastAt < every || this.open.size === 0) return;
    this.lastAt = now;
    const open = [...this.open.values()].sort((a, b) => a.at - b.at);
    const shown = open.slice(0, 5).map((o) => `${o.label} (${Math.round((now - o.at) / 1000)} s)`);
    const more = open.length > shown.length ? ` and ${open.length - shown.length} more` : '';
    this.out.write(`[${String(this.finished).padStart(this.width)}/${this.total}] still running: ${shown.join(', ')}${more}\n`);
  }

  /** Ends the watch for stalls. */
  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.open.clear();
  }

  private colour(code: number, text: string): string {
    return this.tty ? `\u001b[${code}m${text}\u001b[0m` : text;
  }

  header(line: string): void {
    this.out.write(`${line}\n`);
  }

  /** A case is settled (either role, however it was played). */
  caseDone(c: GateCase): void {
    this.finished += 1;
    this.open.delete(c.index);
    this.lastAt = performance.now();
    if (this.quiet) return;
    const counter = this.options.counter === 'index' ? c.index : this.finished;
    const mark =
      c.baseline?.state === 'accepted'
        ? this.colour(33, 'acc ')
        : c.status === 'passed'
          ? this.colour(32, c.warnings.length > 0 ? 'warn' : 'pass')
          : c.status === 'skipped'
            ? this.colour(33, 'skip')
            : this.colour(31, 'FAIL');
    const verdicts = c.result ? `${c.result.behavior}/${c.result.behaviorClose}` : 'no result';
    const duration = c.result ? `${c.result.duration} ms` : `${c.timeMs} ms`;
    const why = c.reason !== '' ? `  ${c.reason}` : c.warnings.length > 0 ? `  ${c.warnings.join('; ')}` : '';
    this.out.write(
      `[${String(counter).padStart(this.width)}/${this.total}] ${mark} ${caseLabel(c).padEnd(8)} ${verdicts.padEnd(24)} ${duration.padStart(8)}${why}\n`,
    );
    const e = c.status === 'failed' && c.result !== null ? explanationOf(c) : null;
    if (e !== null) this.out.write(`${' '.repeat(2 * this.width + 4)}why: ${e.short}\n`);
    // A robustness case that failed on a figure: the figure, beside its budget.
    const over = c.status === 'failed' ? (c.result?.figures ?? []).filter((f) => f.over) : [];
    if (over.length > 0) this.out.write(`${' '.repeat(2 * this.width + 4)}over: ${over.map(figureLine).join('; ')}\n`);
  }

  summary(run: GateRun, files: { outdir: string; junit: string; json: string }): void {
    this.stop();
    const count = (s: string): number => run.cases.filter((c) => c.status === s).length;
    const failed = count('failed');
    const warned = run.cases.filter((c) => c.status === 'passed' && c.warnings.length > 0).length;
    const accepted = run.cases.filter((c) => c.baseline?.state === 'accepted');
    const acceptedText = accepted.length > 0 ? ` (${accepted.length} accepted by the baseline)` : '';
    const line = `${run.cases.length} cases: ${count('passed')} passed${warned > 0 ? ` (${warned} with warnings)` : ''}, ${failed} failed, ${count('skipped')} skipped${acceptedText} in ${(run.durationMs / 1000).toFixed(1)} s`;
    this.out.write(`\n${failed > 0 || run.interrupted !== null ? this.colour(31, line) : this.colour(32, line)}\n`);
    const causes = runCauses(run);
    if (causes.length > 0) this.out.write(`${causes.length} cause${causes.length === 1 ? '' : 's'}:\n`);
    for (const g of causes.slice(0, MAX_CAUSES)) {
      this.out.write(`  ${this.colour(31, 'FAIL')} ${causeLine(g)}\n         ${g.requirement.rfc}: ${g.requirement.text}\n`);
    }
    if (causes.length > MAX_CAUSES) {
      const rest = causes.slice(MAX_CAUSES);
      const n = rest.reduce((sum, g) => sum + g.cases.length, 0);
      this.out.write(`  and ${rest.length} more causes (${n} cases): see summary.json or index.html\n`);
    }
    for (const c of accepted.slice(0, 20)) {
      // The failure in its cause's words, once; the baseline's reason only when it says more.
      const what = c.baseline?.cause ?? c.baseline?.failure ?? '';
      const why = c.baseline?.reason ?? '';
      this.out.write(`  ${this.colour(33, 'accepted failure')} ${c.id}: ${what}${why === what || why === c.baseline?.failure ? '' : ` (baseline: ${why})`}\n`);
    }
    const removable = run.cases.filter((c) => c.baseline?.state === 'passing').map((c) => c.id);
    if (removable.length > 0)
      this.out.write(`  baseline: ${removable.join(', ')} pass${removable.length === 1 ? 'es' : ''} now: can be removed from the baseline\n`);
    if (run.interrupted !== null) this.out.write(`  interrupted: ${run.interrupted}\n`);
    this.out.write(`reports: ${files.outdir}/index.html\njunit:   ${files.junit}\nsummary: ${files.json}\n`);
  }
}
