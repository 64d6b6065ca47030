/** `wsgate repro CASE --from DIR`: a stand-alone Node script that plays one case of a run again. */
import type { Argv } from 'yargs';
import { UsageError } from '../errors.js';
import type { CommandContext } from './shared.js';

export function reproCommand<T>(y: Argv<T>, { io }: CommandContext): Argv<T> {
  return y.command(
    'repro <case>',
    "Write a repro script for a case of a run that was not OK: one file that runs on plain Node >= 20 with no packages, plays wsgate's side of the case byte for byte with the run's timing, prints what the peer does and ends with the verdict",
    (y) =>
      y
        .positional('case', { type: 'string', demandOption: true, describe: 'Case id (6.4.3)' })
        .option('from', { type: 'string', requiresArg: true, default: './reports/clients', describe: 'Report directory of the run' })
        .option('out', { type: 'string', requiresArg: true, describe: 'File to write (- for stdout) [default: ./repro-CASE.mjs]' })
        .option('agent', { type: 'string', requiresArg: true, describe: 'The agent, when several ran the case' })
        .example(
          '$0 repro 6.4.3 --from reports/clients',
          'write repro-6.4.3.mjs; run it with `node repro-6.4.3.mjs 9001` and point the client at ws://127.0.0.1:9001/',
        )
        .example('$0 repro 7.9.1 --from reports/servers --out -', "print a server's repro script; run it with `node FILE ws://host:port/`"),
    async (a) => {
      const [{ writeFileAtomic }, { reproFromReport }] = await Promise.all([import('../report/files.js'), import('../repro/from-report.js')]);
      const caseId = String(a.case);
      const { script, summary } = await reproFromReport({ caseId, from: a.from, agent: a.agent ?? null });
      if (a.out === '-') {
        io.stdout.write(script);
        return;
      }
      const out = a.out ?? `repro-${caseId}.mjs`;
      await writeFileAtomic(out, script).catch((err: unknown) => {
        throw new UsageError(`cannot write ${out}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      });
      io.stdout.write(`wsgate: wrote ${out}: ${summary}\n`);
    },
  );
}
