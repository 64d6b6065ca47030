/**
 * The command line: yargs wiring for `run`, `serve`, `judge`, `merge`, `list`, `repro` and `matrix` (one file each under
 * commands/). `main` returns an exit status and never exits the process, so it can be tested without one.
 */
import yargs from 'yargs';
import { judgeCommand } from './commands/judge.js';
import { listCommand } from './commands/list.js';
import { matrixCommand } from './commands/matrix.js';
import { mergeCommand } from './commands/merge.js';
import { reproCommand } from './commands/repro.js';
import { runCommand } from './commands/run.js';
import { serveCommand } from './commands/serve.js';
import type { CommandContext, MainIo } from './commands/shared.js';
import { unknownArgument } from './commands/usage.js';
import { ExitCode, reportError, UsageError } from './errors.js';
import { VERSION } from './version.js';

export type { MainIo } from './commands/shared.js';

/** Parses argv (without node and script) and runs the command; resolves with the exit status. */
export async function main(argv: readonly string[], io: MainIo): Promise<number> {
  let status: number = ExitCode.Pass;
  const context: CommandContext = { io, env: io.env ?? process.env, setStatus: (s) => (status = s) };
  let parser = yargs([...argv])
    .scriptName('wsgate')
    .usage(
      '$0 <command> [options]\n\nWebSocket conformance gate for clients and servers: plays the Autobahn|Testsuite case catalogue against a client (wsgate is the fuzzing server) or a server (--role server, --server-url, --server: wsgate is the fuzzing client) and fails the build on any violation.',
    )
    .version(VERSION)
    .strict()
    .exitProcess(false)
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((msg: string | undefined, err: Error | undefined, usage: unknown) => {
      // yargs' own validation errors (a flag without its value, ...) are usage errors too.
      if (err?.name === 'YError') throw new UsageError(err.message);
      if (err !== undefined) throw err;
      throw new UsageError(unknownArgument(msg ?? '', argv, ...knownNames(usage)) ?? msg ?? 'invalid arguments');
    });
  for (const add of [runCommand, serveCommand, mergeCommand, judgeCommand, listCommand, reproCommand, matrixCommand]) parser = add(parser, context);
  parser = parser.demandCommand(1, 'name a command: run, serve, judge, merge, list, repro or matrix (see --help)').help().alias('h', 'help');
  try {
    let helpText = '';
    await parser.parseAsync([...argv], {}, (_err, _argv, output) => {
      helpText = output;
    });
    if (helpText !== '') io.stdout.write(`${helpText}\n`);
    return status;
  } catch (err) {
    return reportError(err, io.stderr, 'wsgate');
  }
}

/**
 * The option names and the commands yargs knew where parsing failed (the command's, or the top
 * level's). yargs hands fail() its usage object, not the parser: its descriptions are keyed by
 * every option declared, its commands are the ones at that level.
 */
function knownNames(usage: unknown): [string[], string[]] {
  const u = usage as { getDescriptions?(): Record<string, unknown>; getCommands?(): unknown[][] } | undefined;
  const options = Object.keys(u?.getDescriptions?.() ?? {});
  const commands = (u?.getCommands?.() ?? []).map((c) => String(c[0]).split(' ')[0] ?? '');
  return [options, commands];
}
