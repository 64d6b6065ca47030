/**
 * Group 12: permessage-deflate with different payloads. Each case sends 1000 messages, one at a time,
 * cut one after another from a document (JSON, a bitmap, prose, HTML, a PDF: see data/deflate-corpus.ts),
 * compressed, and checks every echo's type, length and SHA-1 before sending the next. Group 13 runs
 * the same cases with the JSON document under other negotiation rules.
 *
 * RFC 7692 §7.2.1: "An endpoint uses the following algorithm to compress a message. 1. Compress all
 * the octets of the payload of the message using DEFLATE." §7.2.2: "An endpoint uses the following
 * algorithm to decompress a message. 1. Append 4 octets of 0x00 0x00 0xff 0xff to the tail end of the
 * payload of the message. 2. Decompress the resulting data using DEFLATE." The echo checks both ways.
 */
import { createHash } from 'node:crypto';
import { CloseCode } from '../protocol/constants.js';
import { DocumentChunks } from '../protocol/deflate/document.js';
import { Behavior, type OutcomeVerdict } from '../model/verdicts.js';
import { corpusFile } from './data/deflate-corpus.js';
import {
  acceptFirstOffer,
  acceptOffer,
  messageSizeRows,
  payloadSubgroups,
  type DeflateRequest,
  type MessageSizeRow,
  type TestData,
} from './data/deflate-cases.js';
import { closedByMe, defineCase } from './define.js';
import type { CaseContext, ScriptedCase, PreparedMessage } from './types.js';

/** Each document, with its chunks compressed once per run (see DocumentChunks). */
const documents = new Map<TestData['corpus'], DocumentChunks>();

/** Size of the pieces a document is deflated in, once per run. */
const CHUNK_SIZE = 8192;

/**
 * Messages of at least this many units (four chunks) are compressed from the document's chunks:
 * 94 % of the bytes of a subgroup, where compressing cost most. Shorter ones are compressed one by
 * one as they go (a chunk-sized piece would be coded on its own, without references).
 */
const CUT_FROM = 4 * CHUNK_SIZE;

/** The sliding window over a document that gives the messages of a case (Autobahn's sendOne). */
class MessageWindow {
  readonly document: DocumentChunks;
  private readonly offsets: Int32Array | null;
  /** Size of the document in the window's units: code points for text, bytes for binary. */
  readonly units: number;

  constructor(
    data: TestData,
    private readonly length: number,
  ) {
    const file = corpusFile(data.corpus);
    let document = documents.get(data.corpus);
    if (document === undefined) {
      document = new DocumentChunks(file.bytes, CHUNK_SIZE);
      documents.set(data.corpus, document);
    }
    this.document = document;
    // Text is cut on code points (so a message never splits one), binary data on bytes.
    this.offsets = data.binary ? null : file.codePointOffsets;
    this.units = this.offsets === null ? file.bytes.length : this.offsets.length - 1;
  }

  private byteAt(unit: number): number {
    return this.offsets === null ? unit : (this.offsets[unit] as number);
  }

  /** The bytes of the message that starts at unit `from`, wrapping around at the end: first byte and length. */
  range(from: number): { start: number; length: number } {
    const start = this.byteAt(from);
    const end = this.byteAt((from + this.length) % this.units);
    return { start, length: end > start ? end - start : end + this.document.bytes.length - start };
  }

  /** Where the message after the one at `from` starts. */
  next(from: number): number {
    return (from + this.length) % this.units;
  }
}

/** A message cut from the document, and the same compressed and framed, ready to go. */
interface NextMessage {
  /** The message's bytes: one view of the document, or two when it wraps around its end. */
  payload: Buffer[];
  prepared: PreparedMessage;
}

/** What one connection of a case has done so far. */
interface EchoState {
  window: MessageWindow;
  /** Start of the next message in the document. */
  position: number;
  /** Messages sent. */
  sent: number;
  /** The last message sent (views of the document): the echo must equal it. */
  expected: Buffer[];
  /** The message after it, compressed while the echo is on its way (null after the last one). */
  next: NextMessage | null;
}

/** Per connection: several clients may run the same case at once. */
const states = new WeakMap<CaseContext, EchoState>();

/** Autobahn prints Python booleans. */
const py = (b: boolean): string => (b ? 'True' : 'False');
const sha1 = (...parts: Buffer[]): string => {
  const hash = createHash('sha1');
  for (const p of parts) hash.update(p);
  return hash.digest('hex');
};

/** Whether `data` holds exactly the bytes of `parts`, in order (compared in place, nothing copied). */
function equalsParts(data: Buffer, parts: readonly Buffer[]): boolean {
  let at = 0;
  for (const p of parts) {
    if (at + p.length > data.length || !data.subarray(at, at + p.length).equals(p)) return false;
    at += p.length;
  }
  return at === data.length;
}

/** Code points of valid UTF-8 (bytes that do not continue a sequence); lenient on anything else. */
function codePoints(data: Buffer): number {
  let n = 0;
  for (let i = 0; i < data.length; i++) if (((data[i] as number) & 0xc0) !== 0x80) n++;
  return n;
}

/** Frame splitting of the compressed payload, in words. */
function framing(row: MessageSizeRow): string {
  return row.fragmentSize === 0
    ? 'each message in a single frame'
    : `the compressed payload of each message split into frames of at most ${row.fragmentSize} bytes`;
}

/** A case that echoes deflate-compressed messages: the shape of every case of groups 12 and 13. */
export function deflateEchoCase(spec: {
  id: string;
  data: TestData;
  row: MessageSizeRow;
  /** The server's accept rule (Autobahn's SERVER_ACCEPT). */
  accept: readonly DeflateRequest[];
  /** How the description words the negotiation. */
  negotiation: string;
}): ScriptedCase {
  const { data, row } = spec;
  const echo = new EchoRun(data, row);
  return defineCase({
    id: spec.id,
    ...echoTexts(data, row, spec.negotiation),
    expect: {},
    close: closedByMe([CloseCode.Normal]),
    closeExpectationAtStart: true,
    reportTime: true,
    reportCompressionRatio: true,
    schedule: {
      maxSeconds: row.waitSeconds + 2,
      cost: 0.1 + row.count * (0.0002 + row.length / (data.corpus === 'bitmap' || data.corpus === 'pdf' ? 4e6 : 20e6)),
    },
    deflate: (offers) => acceptOffer(spec.accept, offers),
    // As a client, wsgate offers what it accepts as a server (Autobahn's CLIENT_OFFERS mirror SERVER_ACCEPT).
    deflateOffers: spec.accept.map((r) => ({ requestNoContextTakeover: r.noContextTakeover, requestMaxWindowBits: r.maxWindowBits })),
    deflateLiteralsOnly: data.literalsOnly === true,
    // An echo is compared with what was sent, then dropped (a difference is reported by its SHA-1).
    transientMessages: true,
    run: (t) => echo.start(t),
    onMessage: (t, received, binary) => echo.onEcho(t, received, binary),
  });
}

/** The case's description and expectation. */
function echoTexts(data: TestData, row: MessageSizeRow, negotiation: string): { description: string; expectation: string } {
  const unit = data.binary ? 'bytes' : 'code points';
  const fromChunks = row.length >= CUT_FROM;
  return {
    description:
      `${row.count} ${data.binary ? 'binary' : 'text'} messages of ${row.length} ${unit} each, cut in turn from ` +
      `${data.what}, wrapping around at its end; sent compressed with permessage-deflate` +
      `${data.literalsOnly === true ? ' (coded as Huffman literals: LZ77 finds nothing in its noise)' : ''}` +
      `${fromChunks ? ` from ${CHUNK_SIZE / 1024} KiB chunks of the document deflated once per run, whose back-references reach into earlier messages` : ''}, ${framing(row)}. ` +
      `The next message leaves only when the previous one has come back.<br>${negotiation}`,
    expectation:
      `The client echoes every message unchanged (same type, same ${unit}) and all ${row.count} within ` +
      `${row.waitSeconds} seconds, then answers the server's close (1000) cleanly. Without permessage-deflate ` +
      'negotiated the case is UNIMPLEMENTED.',
  };
}

/** Autobahn's echo loop of one 12.x/13.x case: send, wait for the echo, compare, send the next. */
class EchoRun {
  private window: MessageWindow | null = null;
  private readonly fromChunks: boolean;

  constructor(
    private readonly data: TestData,
    private readonly row: MessageSizeRow,
  ) {
    this.fromChunks = row.length >= CUT_FROM;
  }

  start(t: CaseContext): void {
    // Autobahn's enableWirelog(False): the bulk transfer stays out of the frame log.
    t.setWirelog(false);
    if (!t.deflateActive) {
      t.setOutcome(Behavior.Unimplemented, 'Actual events differ from any expected.');
      t.sendClose(CloseCode.Normal);
      return;
    }
    t.setOutcome(Behavior.Failed, `Case did not finish within ${this.row.waitSeconds} seconds.`);
    t.closeAfter(this.row.waitSeconds);
    this.window ??= new MessageWindow(this.data, this.row.length);
    const s: EchoState = { window: this.window, position: 0, sent: 0, expected: [], next: null };
    states.set(t, s);
    this.sendNext(t, s);
  }

  onEcho(t: CaseContext, received: Buffer, binary: boolean): void {
    const { data, row } = this;
    const s = states.get(t);
    if (s === undefined) return;
    // Equal bytes are equal SHA-1s: the hashes are computed only to report a difference.
    if (binary === data.binary && equalsParts(received, s.expected)) {
      if (s.sent < row.count) {
        this.sendNext(t, s);
      } else {
        t.captureTrafficStats();
        finish(t, Behavior.Ok, "Ok, received all echo'ed messages in time.");
      }
      return;
    }
    const length = data.binary ? received.length : codePoints(received);
    const result =
      binary !== data.binary
        ? `Echo'ed message type differs from what I sent (got binary ${py(binary)}, expected binary ${py(data.binary)}).`
        : length !== row.length
          ? `Echo'ed message length differs from what I sent (got length ${length}, expected length ${row.length}).`
          : `Echo'ed message contents differs from what I sent (got SHA1 ${sha1(received)}, expected SHA1 ${sha1(...s.expected)}).`;
    finish(t, Behavior.Failed, result);
  }

  /** Cuts the next message and compresses it (Autobahn's sendOne, without the sending). */
  private prepare(t: CaseContext, s: EchoState): NextMessage {
    const { start, length } = s.window.range(s.position);
    s.position = s.window.next(s.position);
    // Shorter messages are compressed one by one, as prepareMessage does (fromChunks: false).
    const options = { binary: this.data.binary, fragmentSize: this.row.fragmentSize, fromChunks: this.fromChunks };
    return { payload: s.window.document.views(start, length), prepared: t.prepareCut(s.window.document, start, length, options) };
  }

  /**
   * Sends the prepared message, then prepares the one after it, so that its compression overlaps
   * the round trip. Messages are compressed in sending order, so the bytes on the wire are the same
   * as with sendMessage.
   */
  private sendNext(t: CaseContext, s: EchoState): void {
    const m = s.next ?? this.prepare(t, s);
    s.expected = m.payload;
    t.sendPrepared(m.prepared);
    s.sent += 1;
    s.next = s.sent < this.row.count ? this.prepare(t, s) : null;
  }
}

/** Autobahn ends the case the same way whatever the outcome: frame log back on, close 1000. */
function finish(t: CaseContext, behavior: OutcomeVerdict, result: string): void {
  t.setOutcome(behavior, result);
  t.setWirelog(true);
  t.sendClose(CloseCode.Normal);
}

const NEGOTIATION_12 = "Negotiation: the server accepts the client's first permessage-deflate offer, asking nothing of the client's compressor.";

/** 5 documents × 18 message sizes. */
export const deflatePayloadCases: readonly ScriptedCase[] = payloadSubgroups.flatMap(({ subgroup, data }) =>
  messageSizeRows.map((row) => deflateEchoCase({ id: `${subgroup}.${row.row}`, data, row, accept: acceptFirstOffer, negotiation: NEGOTIATION_12 })),
);
