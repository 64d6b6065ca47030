/**
 * `wstest`: Autobahn|Testsuite's command line in front of wsgate's engine, so that the projects that
 * run the original switch by changing the image's name (or the package they install). One engine:
 * each mode builds a wsgate configuration and runs it; what differs is the original's contract at this
 * door (every interface, lenient spec files, the original's files only, fuzzingclient's exit 0).
 */
import { makeLogger } from '../commands/setup.js';
import { ExitCode, reportError } from '../errors.js';
import { VERSION } from '../version.js';
import { parseWstestArgs, type WstestIo } from './command-line.js';
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
    const logger = makeLogger(options.debug ? 'info' : 'warn');
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
    return reportError(err, io.stderr, 'wstest', io.env);
  }
}
