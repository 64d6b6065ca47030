/** `wsgate matrix`: the interop matrix, every implementation of the registry in each of its roles; `--merge` joins its shards. */
import yargs, { type Argv } from 'yargs';
import { RUN_OPTIONS, settingsFrom } from '../config/options/table.js';
import { UsageError } from '../errors.js';
import { exitForSignal, tableOptions, type CommandContext } from './shared.js';

export function matrixCommand<T>(y: Argv<T>, context: CommandContext): Argv<T> {
  const { io, env, setStatus } = context;
  return y.command(
    'matrix',
    'Run every implementation of the interop registry in each of its roles (one wsgate run per row), then write OUTDIR/matrix.json and the site OUTDIR/index.html; installs nothing',
    (y) => matrixOptions(y),
    async (a) => {
      const { mergeMatrix, runMatrix } = await import('../matrix/matrix.js');
      const compare = (a.compare ?? []).map(String);
      if (a.versions !== undefined && a.versions.length === 0) throw new UsageError('matrix --versions: name the releases (8.0.0 8.1.0 …)');
      if (compare.length > 2) throw new UsageError('matrix --compare: give OLD (with a run) or OLD NEW (nothing runs)');
      if (a.merge !== undefined) {
        if (compare.length > 0 || a.versions !== undefined) throw new UsageError('matrix --merge: not with --compare or --versions');
        setStatus(await mergeMatrix(a.merge.map(String), a.outdir, env, io.stdout));
        return;
      }
      if (compare.length === 2) {
        const { compareOnly } = await import('../matrix/changes/compare.js');
        setStatus(await compareOnly(compare[0] as string, compare[1] as string, a.outdir, io.stdout));
        return;
      }
      const options = {
        implementations: a.implementations,
        root: process.cwd(),
        only: (a.only ?? []).map(String),
        role: (a.role ?? null) as 'client' | 'server' | null,
        cases: a.cases === undefined ? null : a.cases.map(String),
        quick: a.quick,
        jobs: a.jobs ?? null,
        browsersBeside: a['browsers-beside'] !== false,
        shard: a.shard ?? null,
        versions: (a.versions ?? []).map(String),
        ...(a.versionsDir === undefined ? {} : { versionsDir: a.versionsDir }),
        compare: compare[0] ?? null,
        outdir: a.outdir,
        ...(io.signal ? { signal: io.signal } : {}),
      };
      const status = await runMatrix(options, (args, signal) => runRow(args, signal, context), io.stdout);
      setStatus(exitForSignal(io.signal) ?? status);
    },
  );
}

/** The options and examples of `wsgate matrix`. */
function matrixOptions<T>(y: Argv<T>) {
  return y
    .option('implementations', { type: 'string', default: 'interop/implementations', describe: 'The registry: one NAME.json per implementation' })
    .option('only', { type: 'string', array: true, describe: 'Only these implementations (their names)' })
    .option('role', { type: 'string', choices: ['client', 'server'], describe: 'Only this role of each implementation' })
    .option('cases', { type: 'string', array: true, describe: 'Case id patterns each row runs (default: every case)' })
    .option('quick', { type: 'boolean', default: false, describe: 'The quick profile in every row' })
    .option('jobs', {
      type: 'number',
      requiresArg: true,
      describe: 'Cases run at once within a row (default: two per core, at most 8; a browser plays one at a time)',
    })
    .option('shard', { type: 'string', requiresArg: true, describe: 'K/N: the K-th of N slices of every row’s cases; join the shards with --merge' })
    .option('versions', {
      type: 'string',
      array: true,
      describe:
        "Releases of the one --only implementation, a row each (NAME@RELEASE-ROLE): exact (8.0.0 8.1.0 …; each installed by interop/install.sh NAME@RELEASE) or an npm range ('7 || 8': the installed releases in it); then OUTDIR/changes.html, the cases whose verdict changed between consecutive releases",
    })
    .option('versions-dir', {
      type: 'string',
      requiresArg: true,
      describe: 'Where the releases are installed, one NAME@RELEASE prefix each (default interop/.versions)',
    })
    .option('compare', {
      type: 'string',
      array: true,
      describe:
        'OLD: compare this matrix with OLD (its matrix.json or directory); OLD NEW: compare two matrices, running nothing. Writes OUTDIR/compare.json and compare.html',
    })
    .option('merge', {
      type: 'string',
      array: true,
      describe:
        'Join these shards’ output directories (each with matrix.json) into OUTDIR instead of running; whole matrices of other rows are joined as their union',
    })
    .option('browsers-beside', {
      type: 'boolean',
      default: true,
      describe:
        'Run the browser rows one after another beside the other rows (they wait on the browser far more than they use a CPU); --no-browsers-beside: every row after the one before',
    })
    .option('outdir', { type: 'string', demandOption: true, describe: 'Directory for matrix.json, index.html and a report directory per row (NAME-ROLE)' })
    .example('$0 matrix --outdir matrix', 'every installed implementation, every case')
    .example('$0 matrix --only ws python-websockets --quick --outdir m', 'two implementations, the quick profile')
    .example('$0 matrix --shard 1/4 --outdir m1', 'the first of four slices; then: wsgate matrix --merge m1 m2 m3 m4 --outdir m')
    .example('$0 matrix --only ws --role server --versions 8.17.0 8.18.0 --outdir v', 'two releases of ws (interop/install.sh ws@8.17.0 ws@8.18.0 first)')
    .example('$0 matrix --compare old/matrix.json new/matrix.json --outdir diff', 'regressions and improvements between two matrices');
}

/** One row: its arguments read as `wsgate run` reads its flags, then the same engine. */
async function runRow(args: string[], signal: AbortSignal | undefined, { io, env }: CommandContext): Promise<number> {
  const [{ resolveRunConfig }, { runGate }, { makeLogger }] = await Promise.all([
    import('../config/run-config.js'),
    import('../run/run.js'),
    import('./setup.js'),
  ]);
  const parsed = await tableOptions(yargs(args), RUN_OPTIONS)
    .strict()
    .exitProcess(false)
    .fail((msg: string | undefined, err: Error | undefined) => {
      throw err?.name === 'YError' || err === undefined ? new UsageError(err?.message ?? msg ?? 'invalid arguments') : err;
    })
    .parseAsync();
  const config = resolveRunConfig(settingsFrom(parsed as Record<string, unknown>, RUN_OPTIONS), { env });
  const logger = makeLogger(config.logLevel);
  return runGate(config, { out: io.stdout, logger, isTty: false, env, ...(signal ? { signal } : {}) });
}
