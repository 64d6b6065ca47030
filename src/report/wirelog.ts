/**
 * The wire log as numbered text lines, the way Autobahn's per-case HTML prints it; shared by the
 * HTML page and the JUnit `<system-out>`.
 */
import type { CaseResult, WirelogEntry } from '../model/report.js';
import { pyStr } from './python-repr.js';

/** One printed line: a CSS class (Autobahn's names) and the text. */
export interface WirelogLine {
  cls: string;
  text: string;
}

const WRAP_WIDTH = 100;
// Continuation lines sit under the data: "NNN " + prefix + ": " is 2 + 4 + 9 columns wide.
const CONTINUATION = ' '.repeat(15);

// Python 2.7 textwrap's wordsep_re (ASCII \w, as it is compiled without re.UNICODE); whitespace is all
// spaces by the time it runs.
const SPACES = /( +)/;
const WORD_SEPARATORS = /( +|[^ \w]*\w+[^0-9\W]-(?=\w+[^0-9\W])|(?<=[\w!"'&.,?])-{2,}(?=\w))/;

/**
 * Python 2.7's `textwrap.wrap(s, width)` with its defaults (tabs expanded, whitespace → spaces,
 * long words broken after hyphens or where they must, whitespace dropped at line ends).
 */
export function textWrap(text: string, width = WRAP_WIDTH): string[] {
  let expanded = '';
  let col = 0;
  for (const ch of text) {
    if (ch === '\t') {
      const n = 8 - (col % 8);
      expanded += ' '.repeat(n);
      col += n;
    } else if (ch === '\n' || ch === '\r') {
      expanded += ' ';
      col = 0;
    } else {
      expanded += ch === '\v' || ch === '\f' ? ' ' : ch;
      col += 1;
    }
  }
  // Both hyphen rules need a "-"; without one, the plain split avoids the regex's quadratic backtracking on long hex.
  const chunks = expanded
    .split(expanded.includes('-') ? WORD_SEPARATORS : SPACES)
    .filter((c) => c !== undefined && c.length > 0)
    .map((c) => Array.from(c));
  chunks.reverse();
  const lines: string[] = [];
  while (chunks.length > 0) {
    const line: string[][] = [];
    let len = 0;
    // Python drops a leading blank chunk except on the first line.
    const top = chunks[chunks.length - 1];
    if (top !== undefined && top[0] === ' ' && lines.length > 0) chunks.pop();
    for (;;) {
      const next = chunks[chunks.length - 1];
      if (next === undefined || len + next.length > width) break;
      line.push(next);
      len += next.length;
      chunks.pop();
    }
    const long = chunks[chunks.length - 1];
    if (long !== undefined && long.length > width) {
      const room = width < 1 ? 1 : width - len;
      line.push(long.slice(0, room));
      // Python re-cuts the rest one line at a time; cutting it into width-sized chunks at once gives
      // the same lines without re-copying a long word for every line.
      chunks.pop();
      const rest = long.slice(room);
      const step = Math.max(width, 1);
      for (let at = Math.floor((rest.length - 1) / step) * step; at >= 0; at -= step) {
        chunks.push(rest.slice(at, at + step));
      }
    }
    const last = line[line.length - 1];
    if (last !== undefined && last[0] === ' ') line.pop();
    if (line.length > 0) lines.push(line.map((c) => c.join('')).join(''));
  }
  return lines;
}

function seconds(n: number): string {
  // Python's "%f".
  return Number.isFinite(n) ? n.toFixed(6) : String(n);
}

/**
 * The numbered lines of a wire log, ending with "TCP DROPPED BY ME/PEER". `payload` maps a frame's
 * logged payload to the text shown (identity for HTML, an ASCII-safe form for JUnit).
 */
export function wirelogLines(result: Pick<CaseResult, 'wirelog' | 'droppedByMe'>, payload: (s: string) => string = (s) => s): WirelogLine[] {
  // Reports read back from older files may lack the log entirely.
  const entries = (result.wirelog as readonly WirelogEntry[] | undefined) ?? [];
  const out: WirelogLine[] = [];
  for (const [i, entry] of entries.entries()) out.push(...entryLines(entry, String(i).padStart(3, '0'), payload));
  const num = String(entries.length).padStart(3, '0');
  out.push(
    result.droppedByMe
      ? { cls: 'wirelog_tcp_closed_by_me', text: `${num} TCP DROPPED BY ME` }
      : { cls: 'wirelog_tcp_closed_by_peer', text: `${num} TCP DROPPED BY PEER` },
  );
  return out;
}

/** The lines of one log entry, numbered `num`. */
function entryLines(entry: WirelogEntry, num: string, payload: (s: string) => string): WirelogLine[] {
  switch (entry[0]) {
    case 'RO':
    case 'TO': {
      const cls = entry[0] === 'RO' ? 'wirelog_rx_octets' : entry[2] ? 'wirelog_tx_octets_sync' : 'wirelog_tx_octets';
      const prefix = entry[0] === 'RO' ? 'RX OCTETS' : 'TX OCTETS';
      const lines = textWrap(String(entry[1][1]));
      // Autobahn prints nothing for empty data (a gap in the numbering); an empty line keeps the count readable.
      return [{ cls, text: `${num} ${prefix}: ${lines[0] ?? ''}` }, ...lines.slice(1).map((l) => ({ cls, text: CONTINUATION + l }))];
    }
    case 'RF': {
      const [, [len, data], opcode, fin, rsv, masked, mask] = entry;
      // The mask is printed as logged (Autobahn hex-encodes the hex string a second time; we do not).
      const head = `${num} RX FRAME : OPCODE=${pyStr(opcode)}, FIN=${pyStr(fin)}, RSV=${pyStr(rsv)}, PAYLOAD-LEN=${pyStr(len)}, MASKED=${pyStr(masked)}, MASK=${pyStr(mask)}`;
      return frameLines('wirelog_rx_frame', head, payload(String(data)));
    }
    case 'TF': {
      const [, [len, data], opcode, fin, rsv, mask, repeatLen, chopsize, sync] = entry;
      const head = `${num} TX FRAME : OPCODE=${pyStr(opcode)}, FIN=${pyStr(fin)}, RSV=${pyStr(rsv)}, PAYLOAD-LEN=${pyStr(len)}, MASK=${pyStr(mask)}, PAYLOAD-REPEAT-LEN=${pyStr(repeatLen)}, CHOPSIZE=${pyStr(chopsize)}, SYNC=${pyStr(sync)}`;
      return frameLines(sync || chopsize !== null ? 'wirelog_tx_frame_sync' : 'wirelog_tx_frame', head, payload(String(data)));
    }
    default:
      return [markerLine(entry, num)];
  }
}

/** A frame's head line and its payload's wrapped lines. */
function frameLines(cls: string, head: string, data: string): WirelogLine[] {
  return [{ cls, text: head }, ...textWrap(data).map((l) => ({ cls, text: CONTINUATION + l }))];
}

/** The one line of a timer, delay or wire-log switch entry. */
function markerLine(entry: WirelogEntry, num: string): WirelogLine {
  switch (entry[0]) {
    case 'KL':
      return { cls: 'wirelog_kill_after', text: `${num} FAIL CONNECTION AFTER ${seconds(entry[1])} sec` };
    case 'KLE':
      return { cls: 'wirelog_kill_after', text: `${num} FAILING CONNECTION` };
    case 'TI':
      return { cls: 'wirelog_kill_after', text: `${num} CLOSE CONNECTION AFTER ${seconds(entry[1])} sec` };
    case 'TIE':
      return { cls: 'wirelog_kill_after', text: `${num} CLOSING CONNECTION` };
    case 'CT':
      return { cls: 'wirelog_delay', text: `${num} DELAY ${seconds(entry[1])} sec for TAG ${pyStr(entry[2])}` };
    case 'CTE':
      return { cls: 'wirelog_delay', text: `${num} DELAY TIMEOUT on TAG ${pyStr(entry[1])}` };
    case 'WLM':
      return { cls: 'wirelog_delay', text: `${num} WIRELOG ${entry[1] ? 'ENABLED' : 'DISABLED'}` };
    default: {
      // Reports read back from disk may hold kinds this version does not know: show them raw.
      const unknown: readonly unknown[] = entry;
      return { cls: 'wirelog_unknown', text: `${num} ${JSON.stringify(unknown)}` };
    }
  }
}
