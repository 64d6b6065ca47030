/**
 * A case's frame log read back as facts: the frames each side sent (with the peer's offsets and the
 * time each was logged), the close frames and the timers that fired. Works on a report read from
 * disk as well as on a fresh one (times are then unknown).
 */
import type { CaseResult, WirelogEntry } from '../model/report.js';

/** One frame of the log, either side. */
export interface LoggedFrame {
  /** Index of its entry in the wirelog. */
  entry: number;
  /** 1-based among the frames of the same side. */
  n: number;
  opcode: number;
  fin: boolean;
  rsv: number;
  length: number;
  /** The frame carried a masking key. */
  masked: boolean;
  /** The payload as logged: text, or "0x" + hex; cut at 64 bytes with " ..." (Autobahn's rule). */
  logged: string;
  /** Offset of the frame's first byte in that side's WebSocket stream, or null once the log had a gap. */
  offset: number | null;
  /** ms after the connection started, or null. */
  ms: number | null;
}

/** What the log says about one connection. */
export interface WireFacts {
  peerFrames: LoggedFrame[];
  ownFrames: LoggedFrame[];
  /** The log was switched off at some point (bulk transfers): frames are missing from it. */
  gaps: boolean;
  /** wsgate's timers that fired: "kill" (fail the connection), "close" (close it). */
  fired: { kind: 'kill' | 'close'; seconds: number | null; ms: number | null }[];
}

export const Op = { Continuation: 0, Text: 1, Binary: 2, Close: 8, Ping: 9, Pong: 10 } as const;

/** The size of a frame on the wire: header, extended length, mask and payload. */
function frameSize(length: number, masked: boolean): number {
  return 2 + (length > 65535 ? 8 : length > 125 ? 2 : 0) + (masked ? 4 : 0) + length;
}

/** Reads the log of a result into frames and fired timers. */
export function wireFacts(result: Pick<CaseResult, 'wirelog' | 'wirelogTimes'>): WireFacts {
  const peerFrames: LoggedFrame[] = [];
  const ownFrames: LoggedFrame[] = [];
  const fired: WireFacts['fired'] = [];
  let peerOffset: number | null = 0;
  let ownOffset: number | null = 0;
  let gaps = false;
  let killSeconds: number | null = null;
  let closeSeconds: number | null = null;
  const log: readonly WirelogEntry[] = result.wirelog;
  const time = (i: number): number | null => result.wirelogTimes?.[i] ?? null;
  log.forEach((e, i) => {
    switch (e[0]) {
      case 'RF': {
        const [, [length, logged], opcode, fin, rsv, masked] = e;
        peerFrames.push({ entry: i, n: peerFrames.length + 1, opcode, fin, rsv, length, masked, logged, offset: peerOffset, ms: time(i) });
        if (peerOffset !== null) peerOffset += frameSize(length, masked);
        break;
      }
      case 'TF': {
        const [, [length, logged], opcode, fin, rsv, mask, repeat] = e;
        const size = repeat ?? length;
        ownFrames.push({ entry: i, n: ownFrames.length + 1, opcode, fin, rsv, length: size, masked: mask !== null, logged, offset: ownOffset, ms: time(i) });
        if (ownOffset !== null) ownOffset += frameSize(size, mask !== null);
        break;
      }
      case 'WLM':
        if (!e[1]) {
          gaps = true;
          peerOffset = null;
          ownOffset = null;
        }
        break;
      case 'KL':
        killSeconds = e[1];
        break;
      case 'KLE':
        fired.push({ kind: 'kill', seconds: killSeconds, ms: time(i) });
        break;
      case 'TI':
        closeSeconds = e[1];
        break;
      case 'TIE':
        fired.push({ kind: 'close', seconds: closeSeconds, ms: time(i) });
        break;
      default:
        break;
    }
  });
  return { peerFrames, ownFrames, gaps, fired };
}

/** The bytes of a logged payload when the log holds all of them (not cut), else null. */
export function loggedBytes(logged: string): Buffer | null {
  if (logged.endsWith(' ...')) return null;
  if (logged.startsWith('0x')) return Buffer.from(logged.slice(2), 'hex');
  return Buffer.from(logged, 'utf8');
}

/** A frame in words: "text frame 2 (FIN, 13 bytes)". */
export function frameWords(f: LoggedFrame): string {
  const flags = [f.fin ? 'FIN' : 'no FIN', ...(f.rsv !== 0 ? [`RSV ${f.rsv}`] : [])].join(', ');
  return `${opcodeName(f.opcode)} frame ${f.n} (${flags}, ${bytes(f.length)})`;
}

/** An opcode's name. */
export function opcodeName(opcode: number): string {
  switch (opcode) {
    case Op.Continuation:
      return 'continuation';
    case Op.Text:
      return 'text';
    case Op.Binary:
      return 'binary';
    case Op.Close:
      return 'close';
    case Op.Ping:
      return 'ping';
    case Op.Pong:
      return 'pong';
    default:
      return `opcode-${opcode}`;
  }
}

/** "1 byte", "13 bytes". */
export function bytes(n: number): string {
  return `${n} byte${n === 1 ? '' : 's'}`;
}

/** 1st, 2nd, 3rd, 4th … */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
