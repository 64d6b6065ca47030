/**
 * The events a peer sent (messages, pongs) against the lists a case accepts. Autobahn's cases may
 * accept more than one sequence (OK, NON-STRICT): an event diverges only when no accepted list
 * allows it at its place, so a peer that sent the expected echo first is never blamed for it.
 */
import type { ExpectedEvents, ReportEvent } from '../model/report.js';
import { Op, type LoggedFrame, type WireFacts } from './wire-facts.js';

/** Where the received events leave every accepted list. */
export interface EventDivergence {
  /** The index (in `received`) of the first event no list allows there. */
  index: number;
  /** What the list that went furthest expects at that place (undefined: it expects nothing more). */
  want: ReportEvent | undefined;
  /** What the peer sent there (undefined: it sent nothing more). */
  have: ReportEvent | undefined;
}

/**
 * The first received event that no accepted list allows at its place: the longest prefix any list
 * shares with what was received ends there. Null when the events are one of the lists, whole.
 * On a tie the first list (OK before NON-STRICT) names the event expected.
 */
export function firstDivergence(expected: ExpectedEvents, received: readonly ReportEvent[]): EventDivergence | null {
  const lists = [expected.OK, expected['NON-STRICT']].filter((l): l is ReportEvent[] => l !== undefined);
  let best: { list: readonly ReportEvent[]; shared: number } | null = null;
  for (const list of lists) {
    let shared = 0;
    while (shared < list.length && shared < received.length && sameEvent(list[shared]!, received[shared]!)) shared++;
    if (shared === list.length && shared === received.length) return null;
    if (best === null || shared > best.shared) best = { list, shared };
  }
  const index = best?.shared ?? 0;
  return { index, want: best?.list[index], have: received[index] };
}

function sameEvent(a: ReportEvent, b: ReportEvent): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The peer frame that completed its received event `index` (a message's final frame, or a pong):
 * the case's own timer marks among the events are no frames, so they are not counted.
 */
export function eventFrame(facts: WireFacts, received: readonly ReportEvent[], index: number): LoggedFrame | undefined {
  if (received[index] === undefined || received[index][0] === 'timeout') return undefined;
  const nth = received.slice(0, index).filter((e) => e[0] !== 'timeout').length;
  let n = -1;
  for (const f of facts.peerFrames) {
    if (f.opcode === Op.Pong || ((f.opcode === Op.Text || f.opcode === Op.Binary || f.opcode === Op.Continuation) && f.fin)) n++;
    if (n === nth) return f;
  }
  return undefined;
}

/** A logged payload in a sentence: text quoted, anything with control characters (or not text) as hex; cut at 40 characters. */
export function quoteLogged(logged: string): string {
  const cut = logged.endsWith(' ...');
  const body = cut ? logged.slice(0, -4) : logged;
  // eslint-disable-next-line no-control-regex
  const text = !body.startsWith('0x') && !/[\u0000-\u001f\u007f]/.test(body);
  const shown = text ? body : body.startsWith('0x') ? body : `0x${Buffer.from(body, 'utf8').toString('hex')}`;
  const short = shown.length > 40 || cut ? `${shown.slice(0, 40)}…` : shown;
  return text ? `"${short}"` : short;
}

/** An event as words: 'a text message "Hello"', 'a pong "ping payload"', 'timeout A'. */
export function eventWords(e: ReportEvent): string {
  switch (e[0]) {
    case 'message':
      return `a ${e[2] ? 'binary' : 'text'} message ${quoteLogged(e[1])}`;
    case 'ping':
      return `a ping ${quoteLogged(e[1])}`;
    case 'pong':
      return `a pong ${quoteLogged(e[1])}`;
    case 'timeout':
      return `nothing before the case's timer ${e[1]}`;
  }
}

/** Up to three events as words, then how many more. */
export function eventsWords(events: readonly ReportEvent[]): string {
  if (events.length === 0) return 'nothing';
  const shown = events.slice(0, 3).map(eventWords).join(', ');
  return events.length > 3 ? `${shown} and ${events.length - 3} more` : shown;
}
