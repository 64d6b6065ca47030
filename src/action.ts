#!/usr/bin/env node
/**
 * The GitHub Action's entry (action.yml runs it on the runner): reads the action's inputs from the
 * `INPUT_<NAME>` variables (name upper-cased, hyphens kept: `INPUT_CLIENT-COMMAND`), turns them into
 * `wsgate run` arguments and runs main(). Done here rather than in bash, so no input is ever parsed
 * by a shell (a client command full of quotes arrives as one argument).
 */
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { RUN_OPTIONS, type OptionSpec } from './config/options/table.js';
import { ExitCode, UsageError } from './errors.js';
import { main } from './main.js';
import { escapeData } from './report/github/markdown.js';

/** How an input becomes arguments. */
type InputKind = 'string' | 'patterns' | 'verdicts' | 'boolean' | 'directory';

/** An input: the flag it sets, how its value becomes arguments, whether it applies when judging existing reports (`judge-reports`). */
export interface ActionInputSpec {
  flag: string | null;
  kind: InputKind;
  judge: boolean;
}

/** How a table option's input value becomes arguments: by its type (config/options/table.ts). */
function inputKind(o: OptionSpec): InputKind {
  if (o.type === 'boolean') return 'boolean';
  if (o.array === true) return 'input' in o.action && o.action.split === 'verdicts' ? 'verdicts' : 'patterns';
  return 'string';
}

/**
 * The action's inputs (action.yml declares exactly these): every `wsgate run` option the table
 * (config/options/table.ts) gives an input, then the two that are no flag of run.
 */
export const ACTION_INPUTS: Readonly<Record<string, ActionInputSpec>> = {
  ...Object.fromEntries(
    RUN_OPTIONS.flatMap((o: OptionSpec) =>
      'input' in o.action ? [[o.action.input, { flag: `--${o.flag}`, kind: inputKind(o), judge: o.action.judge === true }] as const] : [],
    ),
  ),
  // `wsgate judge --outdir DIR` instead of `wsgate run`: the reports of a server that ran elsewhere.
  'judge-reports': { flag: '--outdir', kind: 'string', judge: true },
  // Not a flag: the directory the client command and relative paths start from.
  'working-directory': { flag: null, kind: 'directory', judge: true },
};

/** The variable GitHub (and action.yml's step) uses for an input, as @actions/core reads it. */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

function input(env: NodeJS.ProcessEnv, name: string): string {
  return (env[inputVariable(name)] ?? '').trim();
}

/** YAML 1.2 core booleans, as @actions/core's getBooleanInput accepts them. */
function booleanInput(name: string, value: string): boolean {
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE'].includes(value)) return false;
  throw new UsageError(`input ${name}: must be true or false, got ${JSON.stringify(value)}`);
}

/** The `wsgate run` arguments and the working directory the inputs in `env` ask for. */
export function actionArguments(env: NodeJS.ProcessEnv): { argv: string[]; cwd: string | null } {
  const judging = input(env, 'judge-reports') !== '';
  // The action always writes the summary, annotations and outputs, whatever GITHUB_ACTIONS says.
  const argv = [judging ? 'judge' : 'run', '--github'];
  let cwd: string | null = null;
  for (const [name, { flag, kind, judge }] of Object.entries(ACTION_INPUTS)) {
    const value = input(env, name);
    if (value === '') continue;
    if (judging && !judge) {
      // A boolean left at its default "false" is no conflict.
      if (kind === 'boolean' && !booleanInput(name, value)) continue;
      throw new UsageError(`input ${name} does not apply with judge-reports (the reports exist already; nothing is run)`);
    }
    switch (kind) {
      case 'directory':
        cwd = value;
        break;
      case 'boolean':
        if (booleanInput(name, value) && flag !== null) argv.push(flag);
        break;
      case 'patterns':
        // Patterns never hold spaces: any mix of commas, spaces and newlines separates them.
        for (const p of value.split(/[\s,]+/).filter((x) => x !== '')) argv.push(`${flag}=${p}`);
        break;
      case 'verdicts':
        // Verdicts do hold spaces ("WRONG CODE"): commas and newlines separate them.
        for (const v of value
          .split(/[\n,]+/)
          .map((x) => x.trim())
          .filter((x) => x !== ''))
          argv.push(`${flag}=${v}`);
        break;
      case 'string':
        if (judging && name === 'reports-directory') argv.push(`--junit=${path.join(value, 'junit.xml')}`, `--json=${path.join(value, 'summary.json')}`);
        else argv.push(`${flag}=${value}`);
        break;
    }
  }
  return { argv, cwd };
}

/** Runs the action with the inputs in `env`; resolves with the exit status. */
export async function runAction(
  env: NodeJS.ProcessEnv,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; signal?: AbortSignal },
): Promise<number> {
  let args: { argv: string[]; cwd: string | null };
  try {
    args = actionArguments(env);
    if (args.cwd !== null) process.chdir(args.cwd);
  } catch (err) {
    const message = err instanceof UsageError ? err.message : `input working-directory: ${(err as Error).message}`;
    io.stderr.write(`wsgate: ${message}\n`);
    io.stdout.write(`::error title=wsgate::${escapeData(message)}\n`);
    return ExitCode.Usage;
  }
  // Usage errors and faults also become an annotation, so the reason shows on the run's page.
  let lastError = '';
  const stderr = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      const text = chunk.toString();
      const last = text.trimEnd().split('\n').pop() ?? '';
      if (last.startsWith('wsgate: ') && !last.startsWith('wsgate: warning:')) lastError = last.slice('wsgate: '.length);
      io.stderr.write(text, callback);
    },
  });
  const status = await main(args.argv, { ...io, stderr, isTty: false, env });
  if ((status === ExitCode.Usage || status === ExitCode.Internal) && lastError !== '') {
    io.stdout.write(`::error title=wsgate::${escapeData(lastError)}\n`);
  }
  return status;
}

// Run only as a program, not when a test imports the module.
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const controller = new AbortController();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => controller.abort(sig));
  }
  const status = await runAction(process.env, { stdout: process.stdout, stderr: process.stderr, signal: controller.signal });
  process.exitCode = status;
  setTimeout(() => process.exit(status), 2000).unref();
}
