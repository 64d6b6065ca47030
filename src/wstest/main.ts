/**
 * `wstest`: Autobahn|Testsuite's command line in front of wsgate's engine, so that the projects that
 * run the original switch by changing the image's name (or the package they install). One engine:
 * each mode builds a wsgate configuration and runs it; what differs is the original's contract at this
 * door (every interface, lenient spec files, the original's files only, fuzzingclient's exit 0).
 */
import { pino } from 'pino';
import { ExitCode, UsageError } from '../errors.js';
import { VERSION } from '../version.js';
import { parseWstestArgs, type WstestIo } from './command-line.js';

export type { WstestIo } from './command-line.js';
import { echoServer } from './echo-server.js';
import { fuzzingClient } from './fuzzing-client.js';
import { fuzzingServer } from './fuzzing-server.js';

/** Runs a wstest command line; resolves with the exit status (never exits the process). */
export async function wstestMain(argv: readonly string[], io: WstestIo): Promise<number> {
  try {
    const request = await parseWstestArgs(argv, VERSION);
    if (request.kind === 'text') {
      io.stdout.write(`${request.text}\n`);
      return ExitCode.Pass;
    }
    const { options } = request;
    const logger = pino({ level: options.debug ? 'info' : 'warn', base: null }, pino.destination({ dest: 2, sync: true }));
    switch (options.mode) {
      case 'fuzzingserver':
        return await fuzzingServer(options, io, logger);
      case 'fuzzingclient':
        return await fuzzingClient(options, io, logger);
      case 'echoserver':
      case 'testeeserver':
        return await echoServer(options, io);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`wstest: ${err.message}\n`);
      return ExitCode.Usage;
    }
    io.stderr.write(`wstest: internal error: ${(err instanceof Error ? err.message : String(err)).split('\n')[0] ?? ''}\n`);
    if (io.env.WSGATE_DEBUG === '1' && err instanceof Error) io.stderr.write(`${err.stack ?? ''}\n`);
    return ExitCode.Internal;
  }
}
