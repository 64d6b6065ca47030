/** An HTTP/2 flood (17.5) played, and the report's request and response lines: what wsgate wrote, what the server sent and did. */
import type { H2Flood, H2FloodAttack, H2FloodFacts } from '../../cases/attack-types.js';
import { scaledMs } from '../../cases/data/budgets.js';
import { h2ErrorName } from '../../protocol/h2-frames.js';
import { runCutBlocks } from './h2-cut-blocks.js';
import { runH2Flood } from './h2-flood.js';
import type { AttackPlayer } from './player.js';

/** One HTTP/2 connection flooded (or, `cut-blocks`, a connection each), its grace under the run's `time` budget. */
export const h2FloodPlayer: AttackPlayer<H2FloodAttack> = {
  transport: 'h2',
  async play(attack, on) {
    const facts =
      attack.flood === 'cut-blocks'
        ? await runCutBlocks(on.target, attack, on.signal)
        : await runH2Flood(on.target, attack, scaledMs(attack.graceMs, on.budgets), on.signal);
    return { verdict: attack.judge(facts, on.budgets), ...floodLines(facts) };
  },
};

/** What each flood's unit is, for the report. */
const UNIT_WORDS: Readonly<Record<H2Flood, string>> = {
  'rapid-reset': 'streams opened (HEADERS, an extended CONNECT) and reset (RST_STREAM CANCEL)',
  continuation: 'CONTINUATION frames of one header block (HEADERS without END_HEADERS on stream 1)',
  ping: 'PING frames',
  requests: 'requests (HEADERS, a GET with END_STREAM) whose answers wsgate does not read',
  'cut-blocks': 'connections, each an unfinished header block (HEADERS without END_HEADERS, 20 CONTINUATION frames) cut by a TCP reset',
};

/** The report's request and response lines of a flood: what wsgate wrote, what the server sent and did. */
export function floodLines(f: H2FloodFacts): { request: string; response: string } {
  const n = (v: number): string => v.toLocaleString('en-US');
  if (f.refused !== null) return { request: 'HTTP/2 preface and SETTINGS', response: f.refused };
  const request = `HTTP/2 preface and SETTINGS; ${n(f.unitsWritten)} of ${n(f.units)} ${UNIT_WORDS[f.flood]} (${n(f.unitBytes)} bytes each) in ${n(Math.round(f.writingMs))} ms`;
  const end = f.end;
  if (f.flood === 'cut-blocks') {
    const response =
      end === null
        ? `every connection accepted (${n(f.unitsWritten)})`
        : `connection ${n(end.unitsWritten + 1)} failed ${n(Math.round(end.ms))} ms in: the server was gone`;
    return { request, response };
  }
  const goaway = end?.goaway;
  const ended =
    end === null
      ? `the connection still open when wsgate stopped${f.unitsWritten < f.units ? ': the server read no more' : ''}`
      : `${goaway ? `GOAWAY ${h2ErrorName(goaway.code)}, last stream ${n(goaway.lastStreamId)}` : `TCP ${f.ending === 'reset' ? 'reset' : 'closed'}`} ${n(Math.round(end.ms))} ms into the flood, ${n(end.unitsWritten)} written${end.unitsRead === null ? '' : `, ${n(end.unitsRead)} read by the server`}`;
  const read =
    f.unitsRead === null
      ? 'what the server read not measurable (its socket is not on this machine)'
      : `${n(f.unitsRead)} units read by the server at the last look`;
  const answers =
    f.answers === null
      ? ''
      : `; then wsgate read ${n(f.answers.read)} answers, ${n(f.answers.inKernel)} of them within the ${n(f.answers.kernelBytes)} bytes the kernel held`;
  return { request, response: `${ended}; ${read}; ${n(f.resetsIn)} RST_STREAM and ${n(f.responsesIn)} HEADERS from the server${answers}` };
}
