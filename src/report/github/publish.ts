/**
 * Hands a finished run to GitHub Actions: the job summary appended to $GITHUB_STEP_SUMMARY, error
 * annotations on stdout (where the runner reads workflow commands), outputs appended to $GITHUB_OUTPUT.
 * The renderings themselves are pure (report/github/markdown.ts).
 */
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../errors.js';
import type { GateRun } from '../../model/report.js';
import { annotations, jobSummary, outputLines, runCounts, type ReportPaths } from './markdown.js';

/** The step outputs of a run (names as action.yml declares them). */
export function runOutputs(run: GateRun, paths: ReportPaths): Record<string, string> {
  const k = runCounts(run);
  return {
    result: k.result,
    passed: String(k.passed),
    failed: String(k.failed),
    skipped: String(k.skipped),
    total: String(k.total),
    accepted: String(k.accepted),
    'reports-directory': paths.outdir,
    'junit-report': paths.junit,
    'json-report': paths.json,
    'html-report': path.join(paths.outdir, 'index.html'),
  };
}

/** Writes the summary, annotations and outputs where the environment says; a missing variable skips its part. */
export async function publishToGithub(run: GateRun, paths: ReportPaths, env: NodeJS.ProcessEnv, out: NodeJS.WritableStream): Promise<void> {
  for (const l of annotations(run)) out.write(`${l}\n`);
  const summaryFile = env.GITHUB_STEP_SUMMARY;
  if (summaryFile !== undefined && summaryFile !== '') await append('GITHUB_STEP_SUMMARY', summaryFile, jobSummary(run, paths));
  const outputFile = env.GITHUB_OUTPUT;
  if (outputFile !== undefined && outputFile !== '') await append('GITHUB_OUTPUT', outputFile, outputLines(runOutputs(run, paths)));
}

async function append(variable: string, file: string, text: string): Promise<void> {
  try {
    await appendFile(file, text);
  } catch (err) {
    throw new UsageError(`cannot write ${variable} (${file}): ${(err as Error).message}`);
  }
}
