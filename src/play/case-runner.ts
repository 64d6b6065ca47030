/**
 * Runs one case on one connection: gives the case its CaseContext, records the peer's events,
 * starts the closing handshake once the expected events are in, and builds the case report when the
 * TCP connection is gone.
 */
import { Opcode } from '../protocol/constants.js';
import { encodeFrameHeader, maskInPlace } from '../protocol/frame-writer.js';
import type { DocumentChunks } from '../protocol/deflate/document.js';
import type { CaseResult } from '../model/report.js';
import { Behavior, type OutcomeVerdict } from '../model/verdicts.js';
import type { CaseContext, ScriptedCase, Judgement, PeerEvent, PreparedMessage, TxFrame } from '../cases/types.js';
import { toBuffer } from '../util/bytes.js';
import { judgeCase, matchesAllExpected } from './verdict.js';
import type { Connection, ConnectionHandler } from '../core/connection.js';
import { ConnectionState } from '../core/state.js';
import { reportEvent } from '../core/wire-recorder.js';
import { attachRecording } from './recording.js';
import type { H2CaseContext } from '../cases/h2-types.js';
import { h2Facet } from './h2-facet.js';
import type { AttackRecord, Figure } from '../model/figures.js';
import { DEFAULT_BUDGETS, type RobustnessBudgets } from '../cases/data/budgets.js';
import { connectionQueues } from '../util/kernel-queues.js';

/** Payload bytes a report shows of a received event (core/wire-recorder.ts: asciiLogData / binLogData). */
const REPORTED_BYTES = 64;

/**
 * Received events a case records, from the first. The longest expected list of the catalogue has 10
 * (2.10), so past this no list can match any more and the verdict is decided: a flooding peer's
 * further events are counted, and the report says how many were left out (Autobahn records them all).
 */
export const MAX_RECORDED_EVENTS = 1000;

/** Who is running the case, and where to send the result. */
export interface RunCaseInfo {
  agent: string;
  /**
   * Autobahn's `case`: as a server, the 1-based index into the selected case list the client asked
   * for; as a client, the case's place in the whole catalogue.
   */
  index: number;
  /** ISO timestamp of the upgrade request, or of the TCP connection for a client (Autobahn's `started`). */
  started: string;
  /** Attach the connection's tape to the result, for `wsgate repro` (a run keeps those of non-passing cases). */
  keepRecording?: boolean;
  /** The run's robustness budgets (`--budget`); the defaults when absent. */
  budgets?: RobustnessBudgets;
  onResult(result: CaseResult): void;
}

/** ISO 8601 UTC with milliseconds and Z, as Autobahn's utcnow(). */
export function utcNow(): string {
  return new Date().toISOString();
}

/** The ConnectionHandler that plays one case. */
export class CaseRunner implements ConnectionHandler, CaseContext {
  private readonly received: PeerEvent[] = [];
  /** Events received past MAX_RECORDED_EVENTS. */
  private unrecorded = 0;
  /** When the case started: at open, or (a connection that never opened) when the runner was made. */
  private startedAt = performance.now();
  /** The outcome before expected events are checked: Autobahn's Case defaults, or what the case set. */
  private outcome: { behavior: OutcomeVerdict; result: string; figures?: readonly Figure[] } = {
    behavior: Behavior.Failed,
    result: 'Actual events differ from any expected.',
  };
  private trafficStats: CaseResult['trafficStats'] = null;
  private h2Facet: H2CaseContext | null | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly def: ScriptedCase,
    private readonly info: RunCaseInfo,
  ) {}

  // ---- ConnectionHandler ----

  onOpen(): void {
    this.startedAt = performance.now();
    const running = this.def.run(this);
    // A fault in an async run surfaces as a synchronous one would: an uncaught exception.
    if (running instanceof Promise) {
      running.catch((err: unknown) =>
        process.nextTick(() => {
          throw err;
        }),
      );
    }
  }

  get budgets(): RobustnessBudgets {
    return this.info.budgets ?? DEFAULT_BUDGETS;
  }

  readRate(bytesPerSecond: number | null): void {
    this.connection.setReadRate(bytesPerSecond);
  }

  flushed(options: { below?: number; within?: number } = {}): Promise<boolean> {
    return this.connection.sender.flushed(options.below ?? 1, (options.within ?? Number.POSITIVE_INFINITY) * 1000);
  }

  holdClose(): void {
    this.connection.holdClose();
  }

  unreadByPeer(): number | null {
    const queues = connectionQueues(this.connection.socket);
    return queues === null ? null : queues.ourUnacked + queues.peerUnread;
  }

  peerRead(): number | null {
    const unread = this.unreadByPeer();
    const { socket } = this.connection;
    return unread === null ? null : Math.max(0, socket.bytesWritten - socket.writableLength - unread);
  }

  get messageLengthOnly(): boolean {
    return this.def.messageLengthOnly === true;
  }

  get transientMessages(): boolean {
    return this.def.transientMessages === true;
  }

  onMessage(data: Buffer, binary: boolean, length: number): void {
    if (this.def.onMessage !== undefined) {
      this.def.onMessage(this, data, binary, length);
      return;
    }
    this.recordPeerEvent({ kind: 'message', data: this.kept(data), binary });
  }

  onPong(data: Buffer): void {
    if (this.def.onPong !== undefined) return this.def.onPong(this, data);
    this.recordPeerEvent({ kind: 'pong', data: this.kept(data) });
  }

  /** A message or pong from the peer; past MAX_RECORDED_EVENTS only counted. */
  private recordPeerEvent(event: PeerEvent): void {
    if (this.received.length >= MAX_RECORDED_EVENTS) {
      this.unrecorded += 1;
      return;
    }
    this.received.push(event);
    this.finishWhenDone();
  }

  /**
   * What is kept of the payload of the next received event. Expected lists are compared whole, so an
   * event past the longest one can match no list any more, and reports show an event's first 64 bytes
   * only (reportEvent): beyond that point only those are kept. A peer that floods a case with
   * messages (each up to the 64 MiB limit) then cannot pin them all in memory until the case's timer.
   */
  private kept(data: Buffer): Buffer {
    if (data.length <= REPORTED_BYTES) return data;
    const longestExpected = Math.max(0, ...Object.values(this.def.expect).map((list) => list?.length ?? 0));
    if (this.received.length < longestExpected) return data;
    return Buffer.from(data.subarray(0, REPORTED_BYTES));
  }

  onConnectionLost(): void {
    const duration = Math.round(performance.now() - this.startedAt);
    const verdict = this.verdict();
    const result = this.report(verdict, duration);
    if (this.def.attackBudget !== undefined) result.attack = this.attackRecord(verdict, duration);
    const c = this.connection;
    if (this.info.keepRecording === true) attachRecording(result, { tape: c.tape, def: this.def, isServer: c.isServer, deflate: c.deflateActive });
    this.info.onResult(result);
  }

  /** Both verdicts: Autobahn's common judging, the case's own adjustment, what the result says (a robustness case's figures come later: attack-figures.ts). */
  private verdict(): Judgement {
    const s = this.connection;
    const common = judgeCase(this.expectedLists(), this.def.close, this.received, this.outcome, {
      connectionWasOpen: s.record.connectionWasOpen,
      closedByMe: s.record.closedByMe,
      droppedByMe: s.record.droppedByMe,
      wasClean: s.record.wasClean,
      remoteCloseCode: s.record.remoteCloseCode,
      isServer: s.isServer,
    });
    const adjusted = this.def.adjust
      ? this.def.adjust(common, {
          connectionWasOpen: s.record.connectionWasOpen,
          txFrameStats: s.wire.txFrameStats,
          scriptedHandshake: s.record.scriptedHandshake,
          httpResponse: s.record.httpResponse,
          deflateActive: s.deflateActive,
          ...(s.transport.h2 !== undefined ? { h2: { ...s.transport.h2 } } : {}),
          outcomeFigures: common.result === this.outcome.result ? (this.outcome.figures ?? []) : [],
        })
      : common;
    // Where the original's handler raised and the socket closed behind it, its result still reads as
    // if nothing had happened ("Case did not finish within 480 seconds."): say what did.
    let result =
      s.record.droppedOnError !== null && adjusted.behavior === 'FAILED'
        ? `Dropped the connection without a close frame: ${s.record.droppedOnError}.`
        : adjusted.result;
    if (this.unrecorded > 0) {
      result += ` The first ${MAX_RECORDED_EVENTS} events received are recorded; ${this.unrecorded} more were received and not recorded.`;
    }
    return { ...adjusted, result };
  }

  /** A robustness case's own verdict and its connection's facts, kept on its result until the run's one verdict (attack-figures.ts). */
  private attackRecord(verdict: Judgement, durationMs: number): AttackRecord {
    const s = this.connection;
    const sentBytes = s.trafficStats().outgoingOctetsWireLevel ?? 0;
    return {
      own: { behavior: verdict.behavior, result: verdict.result, figures: verdict.figures ?? [] },
      connection: { durationMs, sentBytes, droppedByMe: s.record.droppedByMe, closedByMe: s.record.closedByMe },
    };
  }

  /**
   * The expected event lists as Autobahn has them when the connection is lost: its cases set them in
   * onOpen, so a connection that never opened expects nothing (no list matches: FAILED).
   */
  private expectedLists(): ScriptedCase['expect'] {
    return this.connection.record.connectionWasOpen ? this.def.expect : {};
  }

  /** The case report, in Autobahn's fields. */
  private report(verdict: Judgement, duration: number): CaseResult {
    const s = this.connection;
    const expected: CaseResult['expected'] = {};
    for (const [k, list] of Object.entries(this.expectedLists())) {
      if (list !== undefined) expected[k as 'OK' | 'NON-STRICT'] = list.map(reportEvent);
    }
    return {
      agent: this.info.agent,
      behavior: verdict.behavior,
      behaviorClose: verdict.behaviorClose,
      case: this.info.index,
      closedByMe: s.record.closedByMe,
      createStats: true,
      createWirelog: s.wire.enabled,
      description: this.def.description,
      droppedByMe: s.record.droppedByMe,
      duration,
      expectation: this.def.expectation,
      expected,
      // Set by Autobahn's cases when they start (onOpen), except groups 12/13's (init): see expectedLists.
      expectedClose: s.record.connectionWasOpen || this.def.closeExpectationAtStart === true ? { ...this.def.close } : {},
      failedByMe: s.record.failedByMe,
      httpRequest: s.record.httpRequest,
      httpResponse: s.record.httpResponse,
      id: this.def.id,
      isServer: s.isServer,
      localCloseCode: s.record.localCloseCode,
      localCloseReason: s.record.localCloseReason,
      received: this.received.map(reportEvent),
      remoteCloseCode: s.record.remoteCloseCode,
      remoteCloseReason: s.record.remoteCloseReason,
      reportCompressionRatio: this.def.reportCompressionRatio ?? false,
      reportTime: this.def.reportTime ?? false,
      result: verdict.result,
      resultClose: verdict.resultClose,
      rxFrameStats: s.wire.rxFrameStats,
      rxOctetStats: s.wire.rxOctetStats,
      started: this.info.started,
      trafficStats: this.trafficStats,
      txFrameStats: s.wire.txFrameStats,
      txOctetStats: s.wire.txOctetStats,
      wasClean: s.record.wasClean,
      wasCloseHandshakeTimeout: s.record.wasCloseHandshakeTimeout,
      wasNotCleanReason: s.record.wasNotCleanReason,
      wasOpenHandshakeTimeout: s.record.wasOpenHandshakeTimeout,
      wasServerConnectionDropTimeout: s.record.wasServerConnectionDropTimeout,
      wirelog: s.wire.entries,
      wirelogTimes: s.wire.times,
      ...(s.transport.name === 'h2' ? { transport: 'h2' as const } : {}),
    };
  }

  /** Autobahn: once the events equal every expected list, a "closed by me" case starts the close. */
  private finishWhenDone(): void {
    if (!matchesAllExpected(this.def.expect, this.received)) return;
    if (this.def.close.closedByMe && this.def.suppressClose !== true) {
      this.connection.sendClose(this.def.close.closeCode[0] ?? null);
    }
  }

  // ---- CaseContext ----

  get isOpen(): boolean {
    return this.connection.state === ConnectionState.Open;
  }

  sendFrame(frame: TxFrame): void {
    this.connection.sender.sendFrame(frame);
  }

  sendMessage(payload: Uint8Array | string, options: { binary?: boolean; fragmentSize?: number; sync?: boolean } = {}): void {
    this.connection.sender.sendMessage(toBuffer(payload), options.binary ?? false, options.fragmentSize ?? 0, options.sync ?? false);
  }

  sendPing(payload: Uint8Array | string = ''): void {
    if (this.connection.state !== ConnectionState.Open) return;
    this.connection.sender.sendFrame({ opcode: Opcode.Ping, payload });
  }

  sendClose(code: number | null = null, reason: string | null = null): void {
    this.connection.sendClose(code, reason);
  }

  sendCloseFrame(code: number | null = null, reason: string | Buffer | null = null): void {
    this.connection.sendCloseFrame(code, reason);
  }

  sendRaw(data: Uint8Array, options: { sync?: boolean } = {}): void {
    if (this.connection.isClosed()) return;
    this.connection.sender.sendData(toBuffer(data), options.sync ?? false);
  }

  beginFrame(opcode: number, fin: boolean, length: number): (piece: Uint8Array) => void {
    const mask = this.connection.newMask?.() ?? null;
    this.sendRaw(encodeFrameHeader(opcode, fin, 0, length, mask));
    let offset = 0;
    return (piece) => {
      if (mask === null) {
        this.sendRaw(piece);
        return;
      }
      const masked = Buffer.from(piece);
      maskInPlace(masked, mask, offset);
      offset += masked.length;
      this.sendRaw(masked);
    };
  }

  killAfter(seconds: number): void {
    this.connection.wire.killAfter(seconds);
    this.connection.after(seconds * 1000, () => {
      if (this.connection.state === ConnectionState.Closed) return;
      this.connection.wire.killFired();
      this.connection.failConnection();
    });
  }

  closeAfter(seconds: number): void {
    this.connection.wire.closeAfter(seconds);
    this.connection.after(seconds * 1000, () => {
      if (this.connection.state === ConnectionState.Closed) return;
      this.connection.wire.closeFired();
      this.connection.sendClose();
    });
  }

  continueLater(seconds: number, fn: () => void, tag: string | null = null): void {
    this.connection.wire.continueLater(seconds, tag);
    this.connection.after(seconds * 1000, () => {
      if (this.connection.state === ConnectionState.Closed) return;
      this.connection.wire.continueFired(tag);
      fn();
    });
  }

  pause(seconds: number, tag: string | null = null): Promise<void> {
    return new Promise((resolve) => this.continueLater(seconds, resolve, tag));
  }

  record(event: PeerEvent): void {
    if (event.kind === 'timeout') this.connection.tape.mark(event.tag);
    this.received.push(event);
  }

  prepareMessage(payload: Uint8Array | string, options: { binary?: boolean; fragmentSize?: number } = {}): PreparedMessage {
    return this.connection.sender.prepareMessage(toBuffer(payload), options.binary ?? false, options.fragmentSize ?? 0);
  }

  prepareCut(
    document: DocumentChunks,
    start: number,
    length: number,
    options: { binary?: boolean; fragmentSize?: number; fromChunks?: boolean } = {},
  ): PreparedMessage {
    return this.connection.sender.prepareCut(document, start, length, options.binary ?? false, options.fragmentSize ?? 0, options.fromChunks ?? true);
  }

  sendPrepared(message: PreparedMessage): void {
    this.connection.sender.sendPrepared(message);
  }

  get scriptedHandshake(): boolean {
    return this.connection.record.scriptedHandshake;
  }

  dropConnection(): void {
    this.connection.dropConnection('abort');
  }

  get h2(): H2CaseContext | null {
    this.h2Facet ??= h2Facet(this.connection);
    return this.h2Facet;
  }

  get deflateActive(): boolean {
    return this.connection.deflateActive;
  }

  setOutcome(behavior: OutcomeVerdict, result: string, figures?: readonly Figure[]): void {
    this.outcome = figures === undefined || figures.length === 0 ? { behavior, result } : { behavior, result, figures };
  }

  setWirelog(enabled: boolean, options: { silent?: boolean } = {}): void {
    if (options.silent === true) this.connection.wire.enabled = enabled;
    else this.connection.wire.setEnabled(enabled);
  }

  captureTrafficStats(): void {
    this.trafficStats = this.connection.trafficStats();
  }
}
