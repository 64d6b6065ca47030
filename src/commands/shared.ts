/** What every command shares: where it reads and writes, the server options, the spec file, the logger. */
import type { Argv, Options } from 'yargs';
import { OPTION_GROUPS, runOption, type OptionSpec, type RunFlag } from '../config/options/table.js';
import { ExitCode } from '../errors.js';

/** Where main reads and writes. */
export interface MainIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Aborted with reason 'SIGINT' or 'SIGTERM' to stop a run or a server. */
  signal?: AbortSignal;
  isTty?: boolean;
  /** The environment (WSGATE_LISTEN_HOST, GitHub Actions variables); process.env when absent. */
  env?: NodeJS.ProcessEnv;
}

/** What a command gets from main: the io, the environment, and where its exit status goes. */
export interface CommandContext {
  io: MainIo;
  env: NodeJS.ProcessEnv;
  setStatus(status: number): void;
}

/** A table option (config/options/table.ts) as yargs takes it; every option that is not a boolean needs its value. */
export function yargsOption(o: OptionSpec): Options {
  return {
    type: o.type,
    describe: o.describe,
    ...(o.array === true ? { array: true } : {}),
    ...(o.type === 'boolean' ? {} : { requiresArg: true }),
    ...(o.choices !== undefined ? { choices: [...o.choices] } : {}),
    ...(o.default !== undefined ? { default: o.default } : {}),
  };
}

/** A boolean option of run that another command shares (list's --extended, judge's --quiet), typed for yargs. */
export function sharedBoolean(flag: RunFlag): { type: 'boolean'; describe: string; default?: boolean } {
  const o = runOption(flag);
  if (o.type !== 'boolean') throw new Error(`--${flag} is not a boolean`);
  return { type: 'boolean', describe: o.describe, ...(typeof o.default === 'boolean' ? { default: o.default } : {}) };
}

/** The table's options on a command, each in its `--help` section (config/options/table.ts OPTION_GROUPS), in the table's order. */
export function tableOptions<T>(y: Argv<T>, options: readonly OptionSpec[]): Argv<T> {
  let out = y;
  for (const o of options) out = out.option(o.flag, yargsOption(o));
  for (const [group, title] of Object.entries(OPTION_GROUPS)) {
    const flags = options.filter((o) => o.group === group).map((o) => o.flag);
    if (flags.length > 0) out = out.group(flags, `${title}:`);
  }
  return out;
}

/** The exit status of a run stopped by SIGINT/SIGTERM (130/143), or null when it was not. */
export function exitForSignal(signal: AbortSignal | undefined): number | null {
  if (signal?.aborted !== true) return null;
  return signal.reason === 'SIGTERM' ? ExitCode.Terminated : ExitCode.Interrupted;
}
