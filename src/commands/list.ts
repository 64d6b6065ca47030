/** `wsgate list`: the selected cases, without opening a socket. */
import type { Argv } from 'yargs';
import { sharedBoolean, type CommandContext } from './shared.js';

export function listCommand<T>(y: Argv<T>, { io }: CommandContext): Argv<T> {
  return y.command(
    'list',
    'Print the selected cases (index, id, description) without opening a socket',
    (y) =>
      y
        .option('cases', { type: 'string', array: true, requiresArg: true, default: [] as string[], describe: 'Case id patterns' })
        .option('exclude-cases', { type: 'string', array: true, requiresArg: true, default: [] as string[], describe: 'Case id patterns to leave out' })
        .option('extended', sharedBoolean('extended'))
        .option('robustness', sharedBoolean('robustness'))
        .option('role', {
          type: 'string',
          choices: ['client', 'server'],
          default: 'client',
          describe: "The side under test: with --extended, a server's own group is 15 (a client's 14)",
        })
        .option('http2', {
          type: 'boolean',
          default: false,
          describe: 'Over HTTP/2 (RFC 8441): with --extended, group 16 instead of 14/15 (16.1 for a server, 16.2 for a client)',
        })
        .option('quick', { type: 'boolean', default: false, describe: 'The cases `run --quick` plays: groups 9, 12 and 13 by a fixed sample' }),
    async (a) => {
      // Loaded here, not at the top: only `list` needs the catalogue without a run.
      const [{ quickSample }, { catalogueFor }, { selectCases }, { fragmentToText }, { splitList }, { checkRobustness }] = await Promise.all([
        import('../cases/quick.js'),
        import('../catalogue/registry.js'),
        import('../cases/select.js'),
        import('../report/escape.js'),
        import('../util/patterns.js'),
        import('../config/schema.js'),
      ]);
      const robustness = checkRobustness({
        robustness: a.robustness === true,
        extended: a.extended === true,
        http2: a.http2,
        quick: a.quick,
        servers: a.role === 'server',
      });
      const selected = selectCases(
        catalogueFor(a.extended === true, a.role === 'server' ? 'server' : 'client', a.http2 ? 'h2' : 'http/1.1', robustness),
        splitList(a.cases),
        splitList(a['exclude-cases']),
      );
      const cases = a.quick ? quickSample(selected) : selected;
      const width = String(cases.length).length;
      for (const [i, c] of cases.entries()) {
        io.stdout.write(`${String(i + 1).padStart(width)}  ${c.id.padEnd(8)}  ${fragmentToText(c.description).replace(/\s+/g, ' ').trim()}\n`);
      }
    },
  );
}
