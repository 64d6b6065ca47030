/**
 * The frame log and wire statistics of one connection, in the shapes of Autobahn's per-case JSON
 * (`wirelog`, `rxOctetStats`, `txOctetStats`, `rxFrameStats`, `txFrameStats`).
 */
import type { ReportEvent, WirelogEntry } from '../model/report.js';
import type { PeerEvent } from '../cases/types.js';

/** How many payload bytes a log entry keeps; longer data is cut and marked with " ...". */
const LOG_BYTES = 64;
const ELLIPSIS = ' ...';
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** Hex of the first 64 bytes, with " ..." when the data is longer than 60 bytes (Autobahn's rule). */
export function binLogData(data: Uint8Array): string {
  if (data.length > LOG_BYTES - ELLIPSIS.length) {
    return Buffer.from(data.buffer, data.byteOffset, Math.min(data.length, LOG_BYTES)).toString('hex') + ELLIPSIS;
  }
  return Buffer.from(data.buffer, data.byteOffset, data.length).toString('hex');
}

/** The data as text when its first 64 bytes are valid UTF-8, else "0x" + hex (Autobahn's rule). */
export function asciiLogData(data: Uint8Array): string {
  const cut = data.length > LOG_BYTES - ELLIPSIS.length;
  const head = cut ? data.subarray(0, LOG_BYTES) : data;
  try {
    return strictDecoder.decode(head) + (cut ? ELLIPSIS : '');
  } catch {
    return `0x${binLogData(data)}`;
  }
}

/** An observed or expected event as reports show it. */
export function reportEvent(event: PeerEvent): ReportEvent {
  switch (event.kind) {
    case 'message':
      return ['message', asciiLogData(event.data), event.binary];
    case 'pong':
      return ['pong', asciiLogData(event.data)];
    case 'timeout':
      return ['timeout', event.tag];
  }
}

function bump(map: Record<string, number>, key: number): void {
  const k = String(key);
  map[k] = (map[k] ?? 0) + 1;
}

/** Header fields of a frame for the log. */
export interface LoggedFrame {
  opcode: number;
  fin: boolean;
  rsv: number;
}

/** Collects the frame log and the wire statistics of one connection. */
export class WireLog {
  readonly entries: WirelogEntry[] = [];
  readonly rxOctetStats: Record<string, number> = {};
  readonly txOctetStats: Record<string, number> = {};
  readonly rxFrameStats: Record<string, number> = {};
  readonly txFrameStats: Record<string, number> = {};
  /** Whether entries are recorded (bulk transfers switch it off). Statistics are always kept. */
  enabled = true;
  /**
   * When each entry was logged, in ms since the log was made (the connection's start), to 0.1 ms:
   * wsgate's own, beside Autobahn's entries (which carry no time), for explaining a failure.
   */
  readonly times: number[] = [];
  /** Upper bound on entries, so a hostile peer cannot grow the log without limit. */
  private readonly maxEntries: number;
  private readonly origin = performance.now();

  constructor(maxEntries = 20_000) {
    this.maxEntries = maxEntries;
  }

  private push(entry: WirelogEntry): void {
    if (this.enabled) this.pushAlways(entry);
  }

  /** Timer entries are logged even while the log is off, as Autobahn appends them unconditionally. */
  private pushAlways(entry: WirelogEntry): void {
    if (this.entries.length >= this.maxEntries) return;
    this.entries.push(entry);
    this.times.push(Math.round((performance.now() - this.origin) * 10) / 10);
  }

  /** Switches entry recording, logging the change as Autobahn does ("WLM"). */
  setEnabled(enabled: boolean): void {
    if (enabled === this.enabled) return;
    this.enabled = enabled;
    this.pushAlways(['WLM', enabled]);
  }

  rxOctets(data: Uint8Array): void {
    bump(this.rxOctetStats, data.length);
    if (this.enabled) this.push(['RO', [data.length, binLogData(data)]]);
  }

  /** Sent octets: `data` holds the write or at least its first 64 bytes, `length` its full size. */
  txOctets(data: Uint8Array, sync: boolean, length = data.length): void {
    bump(this.txOctetStats, length);
    if (this.enabled) this.push(['TO', [length, binLogDataOfHead(data, length)], sync]);
  }

  /** A received frame; `payloadHead` holds at least its first 64 payload bytes. */
  rxFrame(frame: LoggedFrame, length: number, payloadHead: Buffer, mask: Buffer | null): void {
    bump(this.rxFrameStats, frame.opcode);
    if (!this.enabled) return;
    const shown = payloadHead.length > length ? payloadHead.subarray(0, length) : payloadHead;
    // The logged length is the frame's; the text is cut from the head exactly as from the whole payload.
    const text = length > shown.length ? asciiLogDataOfHead(shown, length) : asciiLogData(shown);
    this.push(['RF', [length, text], frame.opcode, frame.fin, frame.rsv, mask !== null, mask ? mask.toString('hex') : null]);
  }

  /** A sent frame: `payload` is the pattern given (not repeated), as Autobahn logs it. */
  txFrame(frame: LoggedFrame, payload: Buffer, mask: Uint8Array | null, repeatLength: number | null, chopSize: number | null, sync: boolean): void {
    bump(this.txFrameStats, frame.opcode);
    // Building the entry decodes the payload: skip it while the log is off (bulk transfers).
    if (!this.enabled) return;
    this.push([
      'TF',
      [payload.length, asciiLogData(payload)],
      frame.opcode,
      frame.fin,
      frame.rsv,
      mask ? Buffer.from(mask).toString('hex') : null,
      repeatLength,
      chopSize,
      sync,
    ]);
  }

  killAfter(seconds: number): void {
    this.pushAlways(['KL', seconds]);
  }
  killFired(): void {
    this.pushAlways(['KLE']);
  }
  closeAfter(seconds: number): void {
    this.pushAlways(['TI', seconds]);
  }
  closeFired(): void {
    this.pushAlways(['TIE']);
  }
  continueLater(seconds: number, tag: string | null): void {
    this.pushAlways(['CT', seconds, tag]);
  }
  continueFired(tag: string | null): void {
    this.pushAlways(['CTE', tag]);
  }
}

/** binLogData for data of which only the first bytes were kept. */
function binLogDataOfHead(head: Uint8Array, fullLength: number): string {
  const hex = Buffer.from(head.buffer, head.byteOffset, Math.min(head.length, LOG_BYTES)).toString('hex');
  return fullLength > LOG_BYTES - ELLIPSIS.length ? hex + ELLIPSIS : hex;
}

/** asciiLogData for a payload of which only the first bytes were kept (always more than 60 bytes long). */
function asciiLogDataOfHead(head: Buffer, fullLength: number): string {
  // Only the first 64 bytes matter for the rule; a long payload always gets the ellipsis.
  if (fullLength <= LOG_BYTES - ELLIPSIS.length) return asciiLogData(head);
  const first = head.subarray(0, LOG_BYTES);
  try {
    return strictDecoder.decode(first) + ELLIPSIS;
  } catch {
    return `0x${first.toString('hex')}${ELLIPSIS}`;
  }
}
