/**
 * The command lines of the bench scripts (`npm run bench`, `npm run fuzz`), read with yargs as wsgate's
 * own: `--help` prints the options and exits 0; an unknown option or a bad value is one line on
 * stderr and exit 2, before anything runs.
 */
import yargs, { type Options } from 'yargs';

/** Parses this process's arguments against `options`; `script` names the command in usage and errors. */
export function parseScriptArgs<O extends Record<string, Options>>(script: string, usage: string, options: O) {
  return (
    yargs(process.argv.slice(2))
      .scriptName(script)
      .usage(`$0 [options]\n\n${usage}`)
      .options(options)
      // The options as written (--whole-only), not a camelCase copy of each beside them.
      .parserConfiguration({ 'camel-case-expansion': false })
      .strict()
      .version(false)
      .help()
      .alias('help', 'h')
      .wrap(Math.min(110, process.stdout.columns || 100))
      .fail((msg: string | undefined, err: Error | undefined) => {
        process.stderr.write(`${script}: ${msg ?? err?.message ?? 'invalid arguments'} (see --help)\n`);
        process.exit(2);
      })
      .parseSync()
  );
}
