/**
 * What a case is: data (id, texts, expected events, expected closing) plus a short script that
 * drives the connection through a CaseContext. A case never touches a socket.
 */
import type { DeflateAccept, DeflateClientOffer, DeflateOffer } from '../protocol/deflate/params.js';
import type { DocumentChunks } from '../protocol/deflate/document.js';
import type { UpgradeRequestSpec } from '../protocol/client-handshake.js';
import type { UpgradeRequest } from '../protocol/handshake.js';
import type { CaseOrigin, ExpectedClose } from '../model/report.js';
import type { ServerAttack } from './attack-types.js';
import type { H2CaseContext, H2CaseOptions, H2StreamFacts } from './h2-types.js';
import type { Figure, Judgement } from './judgement.js';
import type { RobustnessBudgets } from './data/budgets.js';
import type { Requirement } from '../model/requirement.js';
import type { OutcomeVerdict } from '../model/verdicts.js';

/** An event the peer produced, with its full payload (reports cut it; verdicts compare all of it). */
export type PeerEvent =
  | { readonly kind: 'message'; readonly data: Buffer; readonly binary: boolean }
  | { readonly kind: 'pong'; readonly data: Buffer }
  | { readonly kind: 'timeout'; readonly tag: string };

/** Expected event lists keyed by the outcome they give. Declaration order is checking order. */
export type ExpectedEventLists = Partial<Record<'OK' | 'NON-STRICT', readonly PeerEvent[]>>;

/** One frame to send, with Autobahn's delivery options (the TX FRAME fields of the frame log). */
export interface TxFrame {
  opcode: number;
  payload?: Uint8Array | string;
  fin?: boolean;
  rsv?: number;
  mask?: Uint8Array | null;
  /** Repeat the payload pattern up to this many bytes. */
  payloadLen?: number | null;
  /** Write the frame's bytes in TCP writes of this size, each after the previous one flushed. */
  chopSize?: number | null;
  /** Write the frame as a TCP write of its own, after everything before it flushed. */
  sync?: boolean;
  /** As a client, send this frame unmasked (a client masks every frame otherwise). */
  unmasked?: boolean;
}

/** A message compressed and framed ahead of sending (CaseContext.prepareMessage, prepareCut). */
export interface PreparedMessage {
  readonly opcode: number;
  /** The payload as it goes on the wire (compressed when permessage-deflate is on). */
  readonly data: Buffer;
  readonly compressed: boolean;
  readonly fragmentSize: number;
  readonly sync: boolean;
  /** Payload bytes before compression. */
  readonly appLength: number;
}

/** The only API a case sees while it runs. */
export interface CaseContext {
  /** Sends one frame exactly as specified (it may be invalid on purpose). */
  sendFrame(frame: TxFrame): void;
  /** Sends a message as a well-behaved endpoint would; fragmentSize splits it into frames. */
  sendMessage(payload: Uint8Array | string, options?: { binary?: boolean; fragmentSize?: number; sync?: boolean }): void;
  /** Sends a ping (only while open). */
  sendPing(payload?: Uint8Array | string): void;
  /** Starts the closing handshake (code and reason optional, as Autobahn's sendClose). */
  sendClose(code?: number | null, reason?: string | null): void;
  /**
   * Sends a close frame with any code and reason bytes, unchecked (Autobahn's sendCloseFrame), and
   * moves to closing like any close we start. A Buffer reason is reported in hex (it may be invalid UTF-8).
   */
  sendCloseFrame(code?: number | null, reason?: string | Buffer | null): void;
  /** Writes raw bytes (a bare frame header, part of a payload) with no TX FRAME log entry. */
  sendRaw(data: Uint8Array, options?: { sync?: boolean }): void;
  /**
   * Writes a frame header for a payload of `length` bytes (masked as a client), with no TX FRAME log
   * entry (Autobahn's beginMessageFrame); the function returned writes the payload in pieces, each at
   * once (sendMessageFrameData).
   */
  beginFrame(opcode: number, fin: boolean, length: number): (piece: Uint8Array) => void;
  /** Fails the connection after the delay if it is still not closed ("FAIL CONNECTION AFTER"). */
  killAfter(seconds: number): void;
  /** Sends an empty close after the delay if still not closed ("CLOSE CONNECTION AFTER"). */
  closeAfter(seconds: number): void;
  /** Runs fn after the delay unless the connection is closed by then ("DELAY ... for TAG"). */
  continueLater(seconds: number, fn: () => void, tag?: string | null): void;
  /**
   * continueLater as a promise, for an async `run`: `await t.pause(1, 'A')` resolves after the delay
   * with the same frame-log entries, and never when the connection is closed first.
   */
  pause(seconds: number, tag?: string | null): Promise<void>;
  /** Appends an event of the case's own (e.g. a timeout tag) to the observed list. */
  record(event: PeerEvent): void;
  /** True while the WebSocket connection is open (not closing, not closed). */
  readonly isOpen: boolean;
  /** Whether permessage-deflate was negotiated on this connection (groups 12 and 13). */
  readonly deflateActive: boolean;
  /**
   * Sets the outcome the case decides itself (Autobahn's cases that judge the echoes they receive:
   * groups 9, 12, 13). Expected event lists, if any, are still checked afterwards. A robustness
   * case gives the figures its text states (AdjustFacts.outcomeFigures hands them to its `adjust`).
   */
  setOutcome(behavior: OutcomeVerdict, result: string, figures?: readonly Figure[]): void;
  /**
   * Switches the frame log on or off: logged as a "WIRELOG ENABLED/DISABLED" entry (Autobahn's
   * enableWirelog), or silently with `{ silent: true }` (Autobahn's `createWirelog = ...`).
   */
  setWirelog(enabled: boolean, options?: { silent?: boolean }): void;
  /** Puts the connection's traffic statistics (octets, frames, compression ratios) into the report. */
  captureTrafficStats(): void;
  /**
   * Compresses and frames a message now, to send later with sendPrepared: a case that waits for an
   * echo prepares its next message meanwhile. Prepared messages must be sent in preparation order.
   */
  prepareMessage(payload: Uint8Array | string, options?: { binary?: boolean; fragmentSize?: number }): PreparedMessage;
  /**
   * prepareMessage for bytes [start, start + length) of `document`, wrapping around at its end, on a
   * connection that sends the document as consecutive cuts from byte 0 (each cut starts where the
   * previous one ended): compressed from chunks made once per run (see DocumentChunks). With
   * `fromChunks: false`, the same bytes as prepareMessage of the cut (taken from the run's memo when
   * the compressor starts every message afresh: see CutMemo).
   */
  prepareCut(
    document: DocumentChunks,
    start: number,
    length: number,
    options?: { binary?: boolean; fragmentSize?: number; fromChunks?: boolean },
  ): PreparedMessage;
  /** Sends a message made by prepareMessage or prepareCut (only while open). */
  sendPrepared(message: PreparedMessage): void;
  /** Whether the case's `handshake` hook answered the upgrade request (false: the normal 101 went out). */
  readonly scriptedHandshake: boolean;
  /**
   * Drops TCP now, with no close frame (a client that rightly refused a scripted handshake response
   * may keep an HTTP connection open: it gets no WebSocket frame from us).
   */
  dropConnection(): void;
  /** The HTTP/2 stream and connection the WebSocket is on (RFC 8441); null (or absent) over HTTP/1.1. */
  readonly h2?: H2CaseContext | null;
  /** The run's robustness budgets (`--budget`; the defaults otherwise): what groups 17 and 18 hold the peer to. */
  readonly budgets: RobustnessBudgets;
  /**
   * How fast wsgate reads from the peer from now on, in bytes per second: 0 reads nothing (the peer's
   * bytes wait in the kernel's buffers, then in its own), null reads freely again (robustness cases:
   * a peer that pings and never reads, a slow reader of a large echo).
   */
  readRate(bytesPerSecond: number | null): void;
  /**
   * Resolves true once fewer than `below` bytes of what wsgate wrote wait unsent (its queue, its
   * socket's buffer; default 1: the kernel took it all), false after `within` seconds without that
   * (the peer stopped reading: back-pressure; default: no limit) or once the connection is gone. A
   * case that generates a long stream writes a batch, then awaits this, so wsgate never holds more
   * than about a batch however slowly the peer reads.
   */
  flushed(options?: { below?: number; within?: number }): Promise<boolean>;
  /**
   * From now on wsgate neither answers the peer's close frame nor drops TCP after the closing
   * handshake (robustness cases: a close left unanswered, a connection never closed); the case ends
   * the connection itself, by its own timer.
   */
  holdClose(): void;
  /**
   * Bytes wsgate handed the kernel that the peer's process has not read yet: wsgate's unacknowledged
   * bytes and the peer socket's receive queue (util/kernel-queues.ts). What the peer took is what
   * wsgate flushed minus this. Null when the peer's socket is not on this machine (or not TCP).
   */
  unreadByPeer(): number | null;
  /**
   * Bytes of all wsgate wrote on this connection (its handshake included) that the peer's process
   * has read: what wsgate flushed to the kernel less unreadByPeer(). Null where that is null.
   */
  peerRead(): number | null;
}

/** What a case that scripts the opening handshake sees of the client's upgrade request. */
export interface HandshakeRequestInfo {
  readonly request: UpgradeRequest;
  /** Sec-WebSocket-Accept for the client's key: the value a correct response carries. */
  readonly accept: string;
  /** The client's permessage-deflate offers, in its order (empty when it offered none). */
  readonly deflateOffers: readonly DeflateOffer[];
}

/**
 * How the server's upgrade response leaves (group 14): `together` in one TCP write with the frames
 * the case sends first; `separate` in a write of its own, frames only after it was flushed;
 * `bytewise` one octet per write, each after the previous one flushed. Group 18.4: `streamed` the
 * head, then the `stream` (see HeadStream); `trickled` one octet every `everyMs`, until the
 * connection closes.
 */
export type HandshakeDelivery = 'together' | 'separate' | 'bytewise' | 'streamed' | 'trickled';

/**
 * The rest of a `streamed` response after its head: `bytes` octets of "a", written in pieces of
 * `pieceBytes`, each once the socket took the one before (never held whole) and `everyMs` after it
 * (so what was written when the peer dropped is what the peer read, not what loopback's buffers
 * took), then `tail`; the writing stops when the connection closes.
 */
export interface HeadStream {
  readonly bytes: number;
  readonly pieceBytes: number;
  readonly everyMs: number;
  readonly tail: Buffer;
  /**
   * The octets as header lines of this many bytes (each value ends its line and the next line,
   * named `lineName`, begins), not one value: under any limit on a line, over any on a head.
   */
  readonly lines?: { readonly lineBytes: number; readonly lineName: string };
}

/** A case's own answer to the upgrade request: any status line, headers and delivery. */
export interface ScriptedHandshake {
  /** The response head exactly as sent (status line, header lines, empty line), as latin1 text. */
  readonly head: string;
  readonly delivery: HandshakeDelivery;
  /** A `streamed` delivery's rest of the response. */
  readonly stream?: HeadStream;
  /** A `trickled` delivery's pace: one octet every this many ms. */
  readonly everyMs?: number;
  /** permessage-deflate the server uses after this response (the offer it answered), if any. */
  readonly deflate?: DeflateAccept;
}

/** How the gate schedules a case (all optional: a short case that may overlap any other). */
export interface CaseSchedule {
  /**
   * The longest the case may take by its own timers, in seconds (Autobahn's WAITSECS plus the closing
   * handshake). The gate waits at least this long for the case before it kills the client.
   */
  readonly maxSeconds?: number;
  /**
   * The case must not overlap any other case when the gate runs cases concurrently (--jobs): its
   * duration is the measurement (group 9 times the client's throughput and round trips), or its
   * verdict is a race that another case on the same peer would tilt (3.4, 4.1.5, 4.2.5).
   */
  readonly runsAlone?: boolean;
  /**
   * The case spends its time waiting on its own pauses (Autobahn's sleeps between parts: 5.19,
   * 5.20, 6.4.x), not working: when cases run concurrently it runs beside the others without taking
   * one of the --jobs slots (never beside a `runsAlone` case; with --jobs 1 nothing overlaps).
   */
  readonly idle?: boolean;
  /**
   * What the case is expected to take against a prompt client, in seconds (its built-in pauses and
   * the bytes it moves); the gate balances shards and schedules long cases first by it. Default 0.05.
   */
  readonly cost?: number;
  /**
   * A robustness case that lasts as long as the peer tolerates a stalled connection: its time limit
   * is the run's `stall` budget plus maxSeconds (policy/case-limits.ts).
   */
  readonly stall?: boolean;
}

/**
 * What a robustness case (groups 17, 18) holds the peer to, beside its verdict: the engine measures
 * the figures once (play/attack-figures.ts) and states each beside its budget in the result; a
 * figure over its budget fails the case.
 */
export interface AttackBudget {
  /** The public advisory or issue the attack replays (e.g. "undici CVE-2026-2229"). */
  readonly advisory: string;
  /** The most CPU time the peer's process tree may spend on the case, in ms, times the run's `time` budget (when wsgate started it); absent, not judged. */
  readonly cpuMs?: number;
  /** The peer must have ended the connection within this many ms of the attack's start (the open), times the run's `time` budget. */
  readonly closeWithinMs: number;
  /** The attack stalls the connection (an unanswered close, a connection never closed): the run's `stall` budget replaces closeWithinMs. */
  readonly stall?: boolean;
  /**
   * The most the peer's process tree may grow during this case (bytes; data/budgets.ts's
   * MEMORY_GROWTH), under the run's `memory` budget, which caps it; absent: the run's alone.
   */
  readonly memoryGrowth?: number;
  /**
   * Instead of memoryGrowth, for a case that sends a message at the peer's limit: the most the tree
   * may grow as this many times the run's `message` budget, plus MEMORY_GROWTH.small.
   */
  readonly memoryPerMessageLimit?: number;
}

/** What every case declares, whatever plays it. */
interface CaseBase {
  /** Autobahn's id, explicit ("6.12.7"), never derived from position. */
  readonly id: string;
  /** What the server sends (may hold `<br>` line breaks, as Autobahn's descriptions do). */
  readonly description: string;
  /** What the peer must do. */
  readonly expectation: string;
  /** How the gate schedules the case: its time limit, whether it runs alone or idle, its expected cost. */
  readonly schedule?: CaseSchedule;
  /**
   * The requirement the case tests, where the case declares its own (the robustness profile, each
   * case with the advisory it replays); the others' are looked up by id (explain/requirements.ts).
   */
  readonly requirement?: Requirement;
}

/**
 * A raw attack of the robustness profile against a server (17.1, 17.2.1-17.2.2, 17.5): no WebSocket
 * connection of the case runner's, so no script, expected events or closing: the engine plays the
 * attack over raw connections (fuzzing-client/attacks/) and its judge decides the case's own verdict.
 */
export interface AttackCaseDef extends CaseBase {
  /** The attack the engine plays, with its judge. */
  readonly attack: ServerAttack;
}

/** A case as declared: data plus its script, played on one WebSocket connection (or an HTTP/2 session of group 16). */
export interface CaseDef extends CaseBase {
  /** Acceptable event lists. */
  readonly expect: ExpectedEventLists;
  /** What the closing handshake must look like. */
  readonly close: ExpectedClose;
  /**
   * The case's closing expectation holds from the start, not only once the connection opened
   * (Autobahn's 12.x/13.x set expectedClose in init, the others in onOpen): reported even when the
   * connection never opened.
   */
  readonly closeExpectationAtStart?: boolean;
  /** Do not start the closing handshake automatically when the expected events are in. */
  readonly suppressClose?: boolean;
  /** Autobahn's reportTime: the summary shows the case's duration (groups 9, 12, 13). */
  readonly reportTime?: boolean;
  /** Autobahn's reportCompressionRatio: the summary shows compression ratios (groups 12, 13). */
  readonly reportCompressionRatio?: boolean;
  /** A robustness case against a client (group 18): the advisory it replays and the budgets the engine measures it against. */
  readonly attackBudget?: AttackBudget;
  /**
   * How the server answers the client's permessage-deflate offers (groups 12, 13): the accepted
   * offer, or null to decline. Without it every offer is declined, as Autobahn does outside 12/13.
   */
  readonly deflate?: (offers: readonly DeflateOffer[]) => DeflateAccept | null;
  /**
   * The permessage-deflate offers wsgate makes when it is the client (the server-under-test role:
   * Autobahn's CLIENT_OFFERS, groups 12 and 13), in order; without them it offers none. Any answer
   * the server gives is taken, as Autobahn's fuzzing client does.
   */
  readonly deflateOffers?: readonly DeflateClientOffer[];
  /**
   * wsgate codes its compressed messages as Huffman literals only (no LZ77 search): for payloads LZ77
   * cannot shrink (12.2's noisy bitmap), where the search is most of wsgate's CPU and gains nothing.
   */
  readonly deflateLiteralsOnly?: boolean;
  /**
   * Answers the upgrade request with a response of the case's own (group 14, wsgate's opening
   * handshake cases), or null for the normal 101. Without the hook the normal 101 goes out, as for
   * every Autobahn case; `deflate` is not consulted when the hook returns a response.
   */
  readonly handshake?: (info: HandshakeRequestInfo) => ScriptedHandshake | null;
  /**
   * The upgrade request head wsgate sends as a client instead of its normal one (group 15, a server
   * under test), built from the normal request's parts; it may break a rule on purpose.
   */
  readonly upgradeRequest?: (normal: UpgradeRequestSpec) => string;
  /** What the case needs of HTTP/2 (group 16): wsgate's SETTINGS, or a whole session of its own. */
  readonly h2?: H2CaseOptions;
  /** Never set on a scripted case: a raw attack is an `AttackCaseDef` (what tells the two kinds apart). */
  readonly attack?: undefined;
  /**
   * Handles a message from the peer instead of recording it as an event (Autobahn's cases that
   * override onMessage: groups 9, 12, 13).
   */
  onMessage?(t: CaseContext, data: Buffer, binary: boolean, length: number): void;
  /** Handles a pong from the peer instead of recording it as an event (a ping flood counts them). */
  onPong?(t: CaseContext, data: Buffer): void;
  /**
   * onMessage gets each message's type and length only (`data` empty): for cases that check nothing
   * else (group 9), so a 16 MiB echo is validated as it arrives but never held.
   */
  readonly messageLengthOnly?: boolean;
  /**
   * onMessage reads `data` during the call and keeps nothing of it: the connection may then inflate
   * the next message into the same memory (groups 12 and 13, a thousand echoes of up to 128 KiB
   * each, which would otherwise be as many fresh buffers for the collector).
   */
  readonly transientMessages?: boolean;
  /** Runs when the connection opens (an async run may await t.pause between its steps). */
  run(t: CaseContext): void | Promise<void>;
  /**
   * Adjusts the verdicts after Autobahn's common judging, for the cases whose Autobahn class does so
   * (7.x: a wrong close code fails the outcome; 7.1.6 and 7.13.x are informational; 10.1.1 checks the
   * frames it sent).
   */
  adjust?(verdict: Judgement, facts: AdjustFacts): Judgement;
}

/** Both verdicts with their explanations (see play/verdict.ts; declared in judgement.ts). */
export type { Judgement } from './judgement.js';

/** What a case's `adjust` may look at besides the verdicts. */
export interface AdjustFacts {
  connectionWasOpen: boolean;
  /** Frames the server sent, by opcode. */
  txFrameStats: Readonly<Record<string, number>>;
  /** Whether the case's `handshake` hook answered the upgrade request (group 14; absent: no). */
  scriptedHandshake?: boolean;
  /** The peer's handshake response head as received ('?' when none), for a client (group 15). */
  httpResponse?: string;
  /** Over HTTP/2: how each side ended the stream (group 16). */
  h2?: H2StreamFacts;
  /** permessage-deflate was negotiated (a robustness case that needs it is UNIMPLEMENTED otherwise). */
  deflateActive?: boolean;
  /**
   * The figures the case gave with its outcome (setOutcome), when the verdict's text is that
   * outcome's; none otherwise. An `adjust` puts them on its verdict (withOwnFigures) or leaves them.
   */
  outcomeFigures?: readonly Figure[];
}

/** A registered case with its place in the catalogue. */
/** Where a case sits in the catalogue, from its id. */
interface Placement {
  readonly category: string;
  readonly subcategory: string;
  readonly origin: CaseOrigin;
}

/** A scripted case, placed in the catalogue: what the case runner plays. */
export type ScriptedCase = CaseDef & Placement;

/** A raw attack, placed in the catalogue: what the attack engine plays (drivers/server-attack.ts). */
export type AttackCase = AttackCaseDef & Placement & { readonly attackBudget?: undefined };

/** A case of the catalogue: scripted, or a raw attack (`attack` set). */
export type CatalogueCase = ScriptedCase | AttackCase;
