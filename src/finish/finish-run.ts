/**
 * How every command that concludes a run ends it (`run`, `judge`, `merge`): JUnit and the JSON
 * summary written atomically, a baseline file when asked, the console summary, the GitHub job
 * summary and annotations inside Actions, and the exit status.
 */
import path from 'node:path';
import { ExitCode } from '../errors.js';
import type { GateRun } from '../model/report.js';
import { makeDirectory, writeFileAtomic } from '../report/files.js';
import { summaryJson } from '../report/json.js';
import { releaseMemoryNow } from '../util/memory.js';
import { baselineFromRun } from '../policy/baseline.js';

/** Where a run's files go. */
export interface RunOutputs {
  /** The report directory (index.html and the case reports, written before). */
  outdir: string;
  junit: string;
  json: string;
  /** --write-baseline: a baseline file accepting the run's failures, or null. */
  writeBaseline: string | null;
}

/** How the run is told: the console lines, and whether to publish to GitHub. */
export interface FinishOptions {
  /** Prints the run's outcome once the files are written (the command's own summary lines). */
  tell: (run: GateRun) => void;
  /** --github, or null: inside GitHub Actions (GITHUB_ACTIONS=true) only. */
  github: boolean | null;
  env: NodeJS.ProcessEnv;
  out: NodeJS.WritableStream;
}

/** 1 when any case failed or the run was interrupted, else 0. */
export function exitStatusOf(run: GateRun): number {
  return run.interrupted !== null || run.cases.some((c) => c.status === 'failed') ? ExitCode.Failure : ExitCode.Pass;
}

/** Writes the run's files, tells it, publishes it to GitHub where asked; returns the exit status. */
export async function finishRun(run: GateRun, outputs: RunOutputs, options: FinishOptions): Promise<number> {
  for (const file of [outputs.junit, outputs.json, outputs.writeBaseline]) if (file !== null) await makeDirectory(path.dirname(file));
  // Loaded only now: the JUnit builder is not needed (nor kept in memory) while cases run. Its
  // document tree is the largest thing built after a run: it starts from a collected heap.
  releaseMemoryNow();
  const { junitXml } = await import('../report/junit.js');
  await writeFileAtomic(outputs.junit, junitXml(run));
  releaseMemoryNow();
  await writeFileAtomic(outputs.json, summaryJson(run));
  if (outputs.writeBaseline !== null) await writeFileAtomic(outputs.writeBaseline, baselineFromRun(run));
  options.tell(run);
  if (outputs.writeBaseline !== null) options.out.write(`baseline: ${outputs.writeBaseline} (edit each reason to say why the failure is accepted)\n`);
  if (options.github ?? options.env.GITHUB_ACTIONS === 'true') {
    const { publishToGithub } = await import('../report/github/publish.js');
    await publishToGithub(run, { outdir: outputs.outdir, junit: outputs.junit, json: outputs.json }, options.env, options.out);
  }
  return exitStatusOf(run);
}
