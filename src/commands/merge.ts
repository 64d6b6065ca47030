/** `wsgate merge`: the shards of a CI matrix joined into one report set and one exit status (or the shards of an interop matrix into one matrix). */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Argv } from 'yargs';
import { sharedBoolean, type CommandContext } from './shared.js';

export function mergeCommand<T>(y: Argv<T>, { io, env, setStatus }: CommandContext): Argv<T> {
  return y.command(
    'merge <dirs..>',
    'Join the output directories of several runs (the shards of a CI matrix) into one report set and one exit status',
    (y) =>
      y
        .positional('dirs', {
          type: 'string',
          array: true,
          describe: 'Output directories of wsgate runs (each with summary.json), or of matrix shards (each with matrix.json)',
        })
        .option('outdir', { type: 'string', describe: 'Directory for the merged reports', demandOption: true })
        .option('junit', { type: 'string', describe: 'JUnit XML file (default: OUTDIR/junit.xml)' })
        .option('json', { type: 'string', describe: 'JSON summary file (default: OUTDIR/summary.json)' })
        .option('github', sharedBoolean('github'))
        .example('$0 merge shard-1 shard-2 shard-3 --outdir merged', 'one report and one exit status for three shards'),
    async (a) => {
      const inputs = (a.dirs ?? []).map(String);
      // The shards of an interop matrix (each with matrix.json): joined as `matrix --merge` joins them.
      if (inputs.length > 0 && inputs.every((d) => existsSync(path.join(d, 'matrix.json')))) {
        const { mergeMatrix } = await import('../matrix/matrix.js');
        setStatus(await mergeMatrix(inputs, a.outdir, env, io.stdout));
        return;
      }
      const [{ mergeConfig }, { mergeRuns }] = await Promise.all([import('../config/judge-merge.js'), import('../finish/merge.js')]);
      setStatus(
        await mergeRuns(
          mergeConfig({ inputs: (a.dirs ?? []).map(String), outdir: a.outdir, junit: a.junit, json: a.json, github: a.github ?? null }, env),
          io.stdout,
        ),
      );
    },
  );
}
