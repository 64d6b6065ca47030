/**
 * The project's workflows (.github/workflows/: ci.yml, release.yml, matrix.yml) as the tests read and run them: their `run:` steps,
 * each run as the runner runs it with its `env:` filled in from a context that stands in for
 * GitHub's (`github.ref_name`, `secrets.NPM_TOKEN`, `steps.ID.outputs.NAME`, ...), and a record of
 * which steps a test has run.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { expandExpressions, REPO_ROOT, runBashStep } from './action-runner.js';
import type { ProcessResult } from './cli-env.js';
import { tempDir } from './harness.js';

/** The workflow files, in .github/workflows/. */
export const WORKFLOW_FILES = ['ci.yml', 'release.yml', 'matrix.yml'] as const;
export type WorkflowFile = (typeof WORKFLOW_FILES)[number];

/** One step of a job. */
export interface WorkflowStep {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
  if?: string;
  'continue-on-error'?: boolean;
  'working-directory'?: string;
}

/** One job: steps on a runner, or a call of a reusable workflow (`uses:`). */
export interface WorkflowJob {
  name?: string;
  needs?: string | string[];
  uses?: string;
  'timeout-minutes'?: number;
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  steps?: WorkflowStep[];
}

/** The parts of a workflow the tests read. */
export interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  concurrency?: { group: string; 'cancel-in-progress': boolean | string };
  jobs: Record<string, WorkflowJob>;
}

/** A workflow of this repository, parsed. */
export function readWorkflow(file: WorkflowFile): Workflow {
  return parse(readFileSync(path.join(REPO_ROOT, '.github', 'workflows', file), 'utf8')) as Workflow;
}

/** Where a `run:` step is: "ci.yml test #3". */
export interface RunStepRef {
  file: WorkflowFile;
  job: string;
  index: number;
  run: string;
}

const key = (ref: { file: string; job: string; index: number }): string => `${ref.file} ${ref.job} #${ref.index}`;

/** Every `run:` step of every workflow. */
export function runSteps(): RunStepRef[] {
  return WORKFLOW_FILES.flatMap((file) =>
    Object.entries(readWorkflow(file).jobs).flatMap(([job, spec]) =>
      (spec.steps ?? []).flatMap((step, index) => (step.run === undefined ? [] : [{ file, job, index, run: step.run }])),
    ),
  );
}

/** The steps some test has run, by runStep, in this process. */
export const executedSteps = new Set<string>();

/** Whether a test in this process has run the step. */
export function wasExecuted(ref: RunStepRef): boolean {
  return executedSteps.has(key(ref));
}

/** The index of the step of `job` whose id is `id`, or whose run text starts with `id`. */
export function stepIndex(file: WorkflowFile, job: string, id: string): number {
  const steps = readWorkflow(file).jobs[job]?.steps ?? [];
  const i = steps.findIndex((s) => s.id === id || (s.run?.startsWith(id) ?? false));
  assert.ok(i >= 0, `${file}: job ${job} has no step ${id}`);
  return i;
}

/** A stand-in for GitHub's contexts: `${{ name }}` → value; steps.ID.outputs.X of a known ID is '' when unset. */
export type Context = Record<string, string>;

function resolver(context: Context): (expr: string) => string | undefined {
  return (expr) => {
    if (expr in context) return context[expr];
    const step = /^steps\.([\w-]+)\.outputs\.[\w-]+$/.exec(expr)?.[1];
    return step !== undefined && `steps.${step}.outcome` in context ? '' : undefined;
  };
}

/**
 * Runs step `index` of `job` as the runner would: its `run:` text in bash -eo pipefail, with the
 * workflow's, the job's and the step's `env:` filled in from `context`, GitHub's default variables
 * as `env` gives them, in `cwd` (the checkout: the repository itself unless given).
 */
export async function runStep(
  file: WorkflowFile,
  job: string,
  index: number,
  options: { context?: Context; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<ProcessResult & { outputs: Record<string, string> }> {
  const workflow = readWorkflow(file);
  const spec = workflow.jobs[job];
  const step = spec?.steps?.[index];
  assert.ok(step?.run !== undefined, `${file}: job ${job} step ${index} is no run step`);
  const resolve = resolver(options.context ?? {});
  const env: Record<string, string> = {};
  for (const level of [workflow.env, spec?.env, step.env]) {
    for (const [k, v] of Object.entries(level ?? {})) env[k] = expandExpressions(String(v), resolve);
  }
  const cwd = options.cwd ?? REPO_ROOT;
  const runnerTemp = await tempDir('wsgate-runner-');
  executedSteps.add(key({ file, job, index }));
  return runBashStep(step.run, {
    env: { GITHUB_ACTIONS: 'true', CI: 'true', GITHUB_WORKSPACE: cwd, ...options.env, ...env },
    cwd,
    runnerTemp,
    timeoutMs: options.timeoutMs ?? 120_000,
  });
}

/**
 * A fresh directory that looks like this repository's checkout to a step: a symlink to each
 * tracked top-level entry (so no node_modules/ or dist/, as after actions/checkout), plus `extra`.
 */
export async function checkoutLike(extra: string[] = []): Promise<string> {
  const dir = await tempDir('wsgate-checkout-');
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '');
  const top = new Set([...tracked.map((f) => f.split('/')[0] ?? f), ...extra]);
  for (const name of top) await symlink(path.join(REPO_ROOT, name), path.join(dir, name));
  return dir;
}
