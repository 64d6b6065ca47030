/**
 * The GitHub runner's part, emulated for tests: the composite action's steps run as the runner runs
 * them (bash -eo pipefail, each step's env with its `${{ }}` expressions filled in, its own
 * GITHUB_OUTPUT file, one GITHUB_STEP_SUMMARY, GITHUB_ACTIONS set), and the action's outputs taken
 * from its steps' outputs as action.yml maps them. Whatever steps action.yml holds are run.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { runFile, type ProcessResult } from './cli-env.js';
import { tempDir } from './harness.js';

/** The repository root: action.yml's directory (tests run from dist/test/support/). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** One step of a composite action (a `uses:` step has no run or shell: the emulation refuses it). */
export interface ActionStep {
  name: string;
  id?: string;
  shell: string;
  run: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}

/** The parts of action.yml the tests read. */
export interface ActionYaml {
  runs: { using: string; steps: ActionStep[] };
  inputs: Record<string, { description: string; required: boolean; default: string }>;
  outputs: Record<string, { description: string; value: string }>;
}

/** action.yml of the repository at `root`. */
export function readAction(root = REPO_ROOT): ActionYaml {
  return parse(readFileSync(path.join(root, 'action.yml'), 'utf8')) as ActionYaml;
}

/**
 * Replaces each `${{ name.path }}` in `value` by what `resolve` gives for the dotted name; fails the
 * test on an expression it does not resolve (the emulation knows no operators or functions).
 */
export function expandExpressions(value: string, resolve: (expr: string) => string | undefined): string {
  return value.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_m, expr: string) => {
    const resolved = /^[\w.-]+$/.test(expr) ? resolve(expr) : undefined;
    assert.ok(resolved !== undefined, `unknown expression \${{ ${expr} }}`);
    return resolved;
  });
}

/** The values a step wrote to its GITHUB_OUTPUT file: `name=value` lines and `name<<DELIMITER` blocks. */
export function parseGithubOutput(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const block = /^([\w-]+)<<(.+)$/.exec(line);
    if (block === null) {
      const pair = /^([\w-]+)=(.*)$/.exec(line);
      if (pair !== null) outputs[pair[1] ?? ''] = pair[2] ?? '';
      continue;
    }
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== block[2]; i++) value.push(lines[i] ?? '');
    outputs[block[1] ?? ''] = value.join('\n');
  }
  return outputs;
}

/** Runs one script as the runner runs a `shell: bash` step; returns the result and the step's outputs. */
export async function runBashStep(
  script: string,
  options: { env: NodeJS.ProcessEnv; cwd: string; runnerTemp: string; timeoutMs?: number },
): Promise<ProcessResult & { outputs: Record<string, string> }> {
  const stem = path.join(options.runnerTemp, `step-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  await writeFile(`${stem}.sh`, script);
  await writeFile(`${stem}.out`, '');
  // The runner's bash: `bash --noprofile --norc -eo pipefail {0}`.
  const res = await runFile('bash', ['--noprofile', '--norc', '-eo', 'pipefail', `${stem}.sh`], {
    env: { RUNNER_TEMP: options.runnerTemp, ...options.env, GITHUB_OUTPUT: `${stem}.out` },
    cwd: options.cwd,
    timeoutMs: options.timeoutMs ?? 90_000,
  });
  return { ...res, outputs: parseGithubOutput(await readFile(`${stem}.out`, 'utf8')) };
}

/** What a run of the action gave. */
export interface ActionRun {
  /** The last step's exit status; stdout and stderr of every step that ran. */
  res: ProcessResult;
  /** success when every step exited 0 (a `uses:` step's outcome), else failure. */
  outcome: 'success' | 'failure';
  summary: string;
  /** The action's outputs that its steps set (an unset one is absent here, empty to a workflow). */
  outputs: Record<string, string>;
  workspace: string;
}

/**
 * Runs the composite action's steps in order, as the runner does; stops at the first failing step.
 * `inputs` are the `with:` values (defaults from action.yml); the workspace is a fresh temp dir
 * unless given (a client command's relative paths start there).
 */
export async function runAction(
  inputs: Record<string, string>,
  options: { actionPath?: string; workspace?: string; timeoutMs?: number } = {},
): Promise<ActionRun> {
  const actionPath = options.actionPath ?? REPO_ROOT;
  const action = readAction(actionPath);
  const workspace = options.workspace ?? (await tempDir('wsgate-action-'));
  const runnerTemp = await tempDir('wsgate-runner-');
  const summaryFile = path.join(runnerTemp, 'summary.md');
  await writeFile(summaryFile, '');
  const github = { GITHUB_ACTIONS: 'true', CI: 'true', GITHUB_WORKSPACE: workspace, GITHUB_STEP_SUMMARY: summaryFile, GITHUB_ACTION_PATH: actionPath };
  const resolve = (expr: string): string | undefined => {
    if (expr === 'github.action_path') return actionPath;
    if (expr === 'github.workspace') return workspace;
    const name = /^inputs\.([\w-]+)$/.exec(expr)?.[1];
    const input = name === undefined ? undefined : action.inputs[name];
    return name === undefined || input === undefined ? undefined : (inputs[name] ?? input.default);
  };
  for (const name of Object.keys(inputs)) assert.ok(name in action.inputs, `action.yml has no input ${name}`);
  const stepOutputs = new Map<string, Record<string, string>>();
  let res: ProcessResult = { code: 0, stdout: '', stderr: '' };
  for (const step of action.runs.steps) {
    assert.ok(typeof step.run === 'string' && step.uses === undefined && step.if === undefined, `step "${step.name}": only run steps without if: are emulated`);
    assert.equal(step.shell, 'bash');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expandExpressions(v, resolve)]));
    const cwd = step['working-directory'] === undefined ? workspace : expandExpressions(step['working-directory'], resolve);
    const r = await runBashStep(step.run, { env: { ...github, ...env }, cwd, runnerTemp, timeoutMs: options.timeoutMs ?? 90_000 });
    res = { code: r.code, stdout: res.stdout + r.stdout, stderr: res.stderr + r.stderr };
    if (step.id !== undefined) stepOutputs.set(step.id, r.outputs);
    if (r.code !== 0) break;
  }
  const outputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.outputs)) {
    const m = /^\$\{\{\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*\}\}$/.exec(spec.value);
    assert.ok(m !== null, `output ${name}: only \${{ steps.ID.outputs.NAME }} is emulated`);
    const value = stepOutputs.get(m[1] ?? '')?.[m[2] ?? ''];
    if (value !== undefined) outputs[name] = value;
  }
  return { res, outcome: res.code === 0 ? 'success' : 'failure', summary: await readFile(summaryFile, 'utf8'), outputs, workspace };
}
