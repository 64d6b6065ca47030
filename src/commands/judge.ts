/** `wsgate judge`: the gate applied to reports already written (by `wsgate serve` or Autobahn). */
import type { Argv } from 'yargs';
import { sharedBoolean, type CommandContext } from './shared.js';

export function judgeCommand<T>(y: Argv<T>, { io, env, setStatus }: CommandContext): Argv<T> {
  return y.command(
    'judge',
    'Apply the gate to existing reports (index.json and per-case JSON of wsgate serve or Autobahn): JUnit, summary, exit 1 on any failure',
    (y) =>
      y
        .option('outdir', { type: 'string', default: './reports/clients', describe: 'Report directory holding index.json' })
        .option('agent', { type: 'string', describe: 'Agent to judge (default: the only agent in index.json)' })
        .option('cases', {
          type: 'string',
          array: true,
          default: [] as string[],
          describe:
            "Case id patterns that must have results (default: --spec's selection, else the selection in the summary.json of the wsgate run that wrote the reports, else the whole catalogue)",
        })
        .option('spec', { type: 'string', describe: 'The spec file wstest ran from (fuzzingclient.json, fuzzingserver.json): its cases must have results' })
        .option('exclude-cases', { type: 'string', array: true, default: [] as string[], describe: 'Case id patterns to leave out' })
        .option('extended', sharedBoolean('extended'))
        .option('strict', { type: 'boolean', default: false, describe: 'NON-STRICT outcomes fail too' })
        .option('fail-on', { type: 'string', array: true, describe: 'Verdicts that fail a case (as for run)' })
        .option('baseline', { type: 'string', describe: 'Baseline file of accepted non-OK cases' })
        .option('write-baseline', { type: 'string', describe: 'Write the failing cases to a baseline file' })
        .option('github', sharedBoolean('github'))
        .option('quiet', sharedBoolean('quiet'))
        .option('junit', { type: 'string', describe: 'JUnit XML file (default: OUTDIR/junit.xml)' })
        .option('json', { type: 'string', describe: 'JSON summary file (default: OUTDIR/summary.json)' })
        .example('$0 judge --outdir reports/clients --agent my-client', 'fail the build on the reports a server wrote'),
    async (a) => {
      const [{ judgeConfig }, { judgeReports }, { makeLogger }] = await Promise.all([
        import('../config/judge-merge.js'),
        import('../finish/judge.js'),
        import('./setup.js'),
      ]);
      setStatus(
        await judgeReports(
          judgeConfig({
            outdir: a.outdir,
            agent: a.agent,
            cases: a.cases,
            excludeCases: a['exclude-cases'],
            spec: a.spec,
            extended: a.extended,
            failOn: a['fail-on'],
            strict: a.strict,
            baseline: a.baseline,
            writeBaseline: a['write-baseline'],
            github: a.github ?? null,
            quiet: a.quiet,
            junit: a.junit,
            json: a.json,
          }),
          { out: io.stdout, logger: makeLogger('warn'), isTty: io.isTty ?? false, env },
        ),
      );
    },
  );
}
