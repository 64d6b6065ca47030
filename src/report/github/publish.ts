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
  if (summaryFile !== undefined && summaryFile !== '')
    await append('GITHUB_STEP_SUMMARY', summaryFile, jobSummary(run, shownPaths(paths, env.GITHUB_WORKSPACE)));
  const outputFile = env.GITHUB_OUTPUT;
  if (outputFile !== undefined && outputFile !== '') await append('GITHUB_OUTPUT', outputFile, outputLines(runOutputs(run, paths)));
}

/**
 * The report paths as the job summary shows them: relative to the workspace (the checkout, where the
 * reader's artifact upload and links start) when they are in it, as given otherwise. The step
 * outputs keep them whole, for the steps after.
 */
export function shownPaths(paths: ReportPaths, workspace: string | undefined): ReportPaths {
  if (workspace === undefined || workspace === '') return paths;
  const shown = (p: string): string => {
    const rel = path.relative(workspace, path.resolve(workspace, p));
    return rel === '' ? '.' : rel.startsWith('..') || path.isAbsolute(rel) ? p : rel;
  };
  return { outdir: shown(paths.outdir), junit: shown(paths.junit), json: shown(paths.json) };
}

async function append(variable: string, file: string, text: string): Promise<void> {
  try {
    await appendFile(file, text);
  } catch (err) {
    throw new UsageError(`cannot write ${variable} (${file}): ${(err as Error).message}`);
  }
}
