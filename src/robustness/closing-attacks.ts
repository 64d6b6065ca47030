/**
 * Back-pressure and closing attacks, written once for both roles: 17.4 plays them against a server
 * under test, 18.5 against a client under test (the CaseContext is the same in both; masking is the
 * engine's). Each is a scripted connection with an attack budget: the engine states how long the
 * connection lasted and who ended it beside the budget (play/attack-figures.ts); the case states its
 * own figure (pong bytes delivered, bytes the peer took) beside its budget (data/attacks-closing.ts).
 *
 * 1. a ping flood while wsgate reads nothing; 2. a large echo read at 1 KiB/s while wsgate writes on;
 * 3. the peer's close left unanswered; 4. the closing handshake done, TCP never ended by wsgate.
 */
import { CloseCode, Opcode } from '../protocol/constants.js';
import type { Requirement } from '../model/requirement.js';
import { Behavior, CloseBehavior } from '../model/verdicts.js';
import { closedByMe, defineCase, failedByPeer } from '../cases/define.js';
import { neverClosedBudget, PING_FLOOD, pingFloodBudget, SLOW_ECHO, slowEchoBudget, STALL_MARGIN_S, unansweredCloseBudget } from './data/attacks-closing.js';
import { DEFAULT_BUDGETS, scaledMs } from '../cases/data/budgets.js';
import { budgetFigure, statedFigure, type Figure } from '../cases/judgement.js';
import { judgedFigure, ownFiguresOnly, withOwnFigures } from './own-figures.js';
import type { CaseContext, ScriptedCase, Judgement } from '../cases/types.js';

/** Who is under test: the peer's role. */
export type PeerRole = 'server' | 'client';

/** A count with thousands separators. */
function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Seconds with at most one decimal ("3.5", "102"). */
function seconds(s: number): string {
  return s.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

/** What a flood or a slow read counted on one connection (per CaseContext: cases run concurrently). */
interface Tally {
  bytes: number;
  lastAt: number;
}
const tallies = new WeakMap<CaseContext, Tally>();

function tally(t: CaseContext): Tally {
  let s = tallies.get(t);
  if (s === undefined) {
    s = { bytes: 0, lastAt: performance.now() };
    tallies.set(t, s);
  }
  return s;
}

/** The outcome's first words when the peer ended the connection during the attack (bounded: OK; its close not judged). */
const ENDED_DURING = 'The peer ended the connection during the attack';

/** A peer that ended the connection during the attack closed as it should have: its close is not judged. */
function endedDuringIsOk(verdict: Judgement): Judgement {
  if (!verdict.result.startsWith(ENDED_DURING)) return verdict;
  return { ...verdict, behaviorClose: CloseBehavior.Ok, resultClose: 'Not judged: the peer ended the connection during the attack.' };
}

/**
 * Writes `write()` until `total` bytes (or until `deadline`, a performance.now() time), each write
 * once the peer took the previous one: wsgate never holds more than one write. Returns the bytes the
 * peer took and whether it stopped taking them (a write left unflushed for `stalledAfterS` seconds);
 * `taken` hears of each write taken (the outcome must be set before the connection ends: the
 * verdict is made then).
 */
async function writeWhileTaken(
  t: CaseContext,
  plan: { total: number; stalledAfterS: number; deadline?: number },
  write: () => number,
  taken: (bytes: number) => void,
): Promise<{ taken: number; stalled: boolean }> {
  let sofar = 0;
  while (sofar < plan.total && t.isOpen && performance.now() < (plan.deadline ?? Infinity)) {
    const n = write();
    if (!(await t.flushed({ within: plan.stalledAfterS }))) return { taken: sofar, stalled: t.isOpen };
    sofar += n;
    taken(sofar);
  }
  return { taken: sofar, stalled: false };
}

/** Resolves once no pong or message came for `quietS` seconds, or after `maxS`, or never when the connection ends first. */
async function untilQuiet(t: CaseContext, quietS: number, maxS: number): Promise<void> {
  const s = tally(t);
  const start = performance.now();
  s.lastAt = start;
  while (performance.now() - s.lastAt < quietS * 1000 && performance.now() - start < maxS * 1000) await t.pause(0.1);
}

/** The longest head of a 64 KiB frame: 2 bytes, 8 of length, 4 of mask. */
const FRAME_HEAD_MAX = 14;

/**
 * Waits until `expected` payload bytes have come (an echo peer gave back all it took) and then 1 s of
 * quiet, or 3 s of quiet whatever came (a peer that dropped echoes), or `maxS`.
 */
async function untilDrained(t: CaseContext, expected: number, maxS: number): Promise<void> {
  const s = tally(t);
  const start = performance.now();
  s.lastAt = start;
  const quietMs = (): number => performance.now() - s.lastAt;
  while (performance.now() - start < maxS * 1000 && quietMs() < 3000 && !(s.bytes >= expected && quietMs() >= 1000)) await t.pause(0.1);
}

// ---- 1. a ping flood while wsgate reads nothing -----------------------------------------------------

// RFC 6455 §5.5.3: "If an endpoint receives a Ping frame and has not yet sent Pong frame(s) in
// response to previous Ping frame(s), the endpoint MAY elect to send a Pong frame for only the most
// recently processed Ping frame." Nothing obliges a peer to queue every answer.
async function pingFlood(t: CaseContext): Promise<void> {
  const f = PING_FLOOD;
  const payload = Buffer.alloc(f.payloadBytes, 0x70);
  t.setWirelog(false, { silent: true });
  t.readRate(0);
  const pings = (bytes: number): string => `${count(bytes / f.payloadBytes)} pings (${count(bytes)} payload bytes)`;
  const pingFigures = (bytes: number): Figure[] => [
    statedFigure('ping-count', 'pings the peer took while wsgate read nothing', bytes / f.payloadBytes, 'count'),
    statedFigure('ping-payload-bytes', 'of ping payload', bytes, 'bytes'),
  ];
  const during = (bytes: number): void =>
    t.setOutcome(Behavior.Ok, `${ENDED_DURING}: the peer had taken ${pings(bytes)} while wsgate read nothing.`, pingFigures(bytes));
  during(0);
  const { taken, stalled } = await writeWhileTaken(
    t,
    { total: f.totalBytes, stalledAfterS: f.stalledAfterS },
    () => {
      for (let i = 0; i < f.pingsPerWrite; i++) t.sendPing(payload);
      return f.pingsPerWrite * f.payloadBytes;
    },
    during,
  );
  if (!t.isOpen) return;
  const wrote = `wsgate wrote ${pings(taken)} while reading nothing${stalled ? `, until the peer stopped taking them for ${f.stalledAfterS} s (back-pressure)` : ''}`;
  t.readRate(null);
  await untilQuiet(t, f.quietS, f.countForS);
  const pongs = tally(t).bytes;
  const figure = `${wrote}; once it read again the peer delivered ${count(pongs)} pong payload bytes (budget ${count(f.pongBudgetBytes)}).`;
  const figures = [...pingFigures(taken), pongFigure(pongs)];
  if (pongs > f.pongBudgetBytes) t.setOutcome(Behavior.Failed, `The peer queued its pongs without bound while wsgate read nothing: ${figure}`, figures);
  else t.setOutcome(Behavior.Ok, `The peer's pongs stayed bounded: ${figure}`, figures);
  t.setWirelog(true, { silent: true });
  t.sendClose(CloseCode.Normal);
}

/** The pong payload the peer delivered once wsgate read again, beside its budget. */
function pongFigure(bytes: number): Figure {
  return budgetFigure('pong-payload-bytes', 'of pong payload the peer delivered once wsgate read again', bytes, 'bytes', PING_FLOOD.pongBudgetBytes);
}

export function pingFloodCase(id: string): ScriptedCase {
  const f = PING_FLOOD;
  return defineCase({
    id,
    description: `While wsgate reads nothing, pings of ${f.payloadBytes} bytes, ${f.pingsPerWrite} per write, each write once the peer took the previous one, up to ${count(f.totalBytes)} payload bytes; then wsgate reads again and counts the pong bytes the peer delivers, then closes with 1000. (RFC 6455 §5.5.2, §5.5.3; ${pingFloodBudget.advisory})`,
    expectation: `The peer answers only some pings (RFC 6455 §5.5.3 lets it answer the most recent only), or stops reading while its answers back up: at most ${count(f.pongBudgetBytes)} pong payload bytes arrive once wsgate reads again (its kernel buffers hold a few MiB), and it completes the closing handshake. Ending the connection during the flood is also OK. Queuing every pong (about as many bytes as the pings) is FAILED.`,
    expect: {},
    close: closedByMe([CloseCode.Normal]),
    suppressClose: true,
    attackBudget: pingFloodBudget,
    schedule: { maxSeconds: pingFloodBudget.closeWithinMs / 1000, runsAlone: true, cost: 3 },
    run: pingFlood,
    onPong(t, data) {
      const s = tally(t);
      const before = s.bytes;
      s.bytes += data.length;
      s.lastAt = performance.now();
      // Should the peer end the connection before the count is in, the verdict is already this.
      if (before <= f.pongBudgetBytes && s.bytes > f.pongBudgetBytes)
        t.setOutcome(
          Behavior.Failed,
          `The peer queued its pongs without bound while wsgate read nothing: more than ${count(f.pongBudgetBytes)} pong payload bytes arrived once wsgate read again.`,
          [pongFigure(s.bytes)],
        );
    },
    adjust: (verdict, facts) => withOwnFigures(facts, endedDuringIsOk(verdict)),
  });
}

// ---- 2. a large echo read at 1 KiB/s while wsgate writes on --------------------------------------------

// RFC 6455 §10.4 asks for limits on what a peer takes; a peer whose echo cannot leave and that reads
// on, queuing every further echo, holds whatever the attacker writes. Reading is no harm in itself: a
// peer that reads on and drops what it cannot send (load shedding) holds nothing. So the figure
// judged is what the peer held: the echoes it delivers once wsgate reads freely again, past the large
// message's and those of the bytes still in the kernel's buffers toward it at the window's end (it
// read them only then). What it read is stated: wsgate's flushed bytes less what the kernel still
// held (tcp_rmem lets that grow to tens of MiB on a busy machine).
async function slowEcho(t: CaseContext): Promise<void> {
  const e = SLOW_ECHO;
  const piece = Buffer.alloc(e.fragmentBytes, 0x65);
  const fragments = e.messageBytes / e.fragmentBytes;
  t.setWirelog(false, { silent: true });
  t.readRate(e.readBytesPerSecond);
  const windowEnds = performance.now() + e.windowS * 1000;
  let i = 0;
  const during = (bytes: number): void =>
    t.setOutcome(Behavior.Ok, `${ENDED_DURING}: the peer had taken ${count(bytes)} bytes while wsgate read at ${count(e.readBytesPerSecond)} bytes/s.`, [
      statedFigure('taken-bytes', 'the peer had taken while wsgate read slowly', bytes, 'bytes'),
    ]);
  during(0);
  const write = (): number => {
    if (i < fragments) t.sendFrame({ opcode: i === 0 ? Opcode.Binary : Opcode.Continuation, fin: i === fragments - 1, payload: piece });
    else t.sendMessage(piece, { binary: true });
    i += 1;
    return piece.length;
  };
  const { taken, stalled } = await writeWhileTaken(
    t,
    { total: e.messageBytes + e.furtherCapBytes, stalledAfterS: e.stalledAfterS, deadline: windowEnds },
    write,
    during,
  );
  const rest = windowEnds - performance.now();
  if (rest > 0) await t.pause(rest / 1000);
  const unread = t.unreadByPeer();
  const read = Math.max(0, taken - (unread ?? 0));
  const further = Math.max(0, read - e.messageBytes);
  const buffers =
    unread === null
      ? `wsgate flushed ${count(taken)} bytes to the kernel, its buffers counted in (the peer's socket is not on this machine)`
      : `wsgate flushed ${count(taken)} bytes to the kernel, ${count(unread)} of them still in its buffers unread`;
  const wrote = `while wsgate read at ${count(e.readBytesPerSecond)} bytes/s for ${e.windowS} s, the peer read ${count(read)} bytes: the ${count(Math.min(read, e.messageBytes))}-byte message and ${count(further)} bytes of further messages (${buffers})`;
  const readFigures = [
    statedFigure('peer-read-bytes', 'the peer read while wsgate read slowly', read, 'bytes'),
    statedFigure('message-read-bytes', 'of them of the large message', Math.min(read, e.messageBytes), 'bytes'),
    statedFigure('further-read-bytes', 'of them of further messages', further, 'bytes'),
    statedFigure('flushed-bytes', 'wsgate flushed to the kernel', taken, 'bytes'),
    ...(unread === null ? [] : [statedFigure('unread-bytes', "of them still in the kernel's buffers unread", unread, 'bytes')]),
  ];
  // A peer that ends the connection now passes, whatever it read.
  t.setOutcome(Behavior.Ok, `${ENDED_DURING}: ${wrote}.`, readFigures);
  t.readRate(null);
  // Reading freely: until every byte the peer took has come back, or nothing has for a while. A peer
  // starved of CPU drains tens of MiB of kernel buffers slowly (a busy .ci/run: 36 MiB): a close sent
  // behind them would time out unanswered.
  await untilDrained(t, Math.floor(taken / (e.fragmentBytes + FRAME_HEAD_MAX)) * e.fragmentBytes, 30);
  const echoed = tally(t).bytes;
  const held = Math.max(0, echoed - e.messageBytes - (unread ?? 0));
  const budget = unread === null ? e.heldBudgetUnreadUnknownBytes : e.heldBudgetBytes;
  const over = held > budget;
  const notCounted = unread === null ? '' : `; the echoes of the ${count(unread)} bytes the kernel still held toward it not counted`;
  const after = `reading freely again, wsgate received ${count(echoed)} bytes of echoes: besides the message's, ${count(held)} bytes of further messages' echoes the peer held (budget ${count(budget)}${notCounted})`;
  // Over budget the peer read on, whether or not its reading stopped later: only a bounded peer's stop is back-pressure.
  const stop = stalled ? (over ? '; its reading stopped only after that' : '; then its reading stopped (back-pressure)') : '';
  const figures = [
    ...readFigures,
    statedFigure('echo-bytes', 'of echoes wsgate received reading freely again', echoed, 'bytes'),
    judgedFigure('further-held-bytes', "of further messages' echoes the peer held", held, 'bytes', budget, over),
  ];
  const lead = over
    ? 'The peer read on while its echo could not leave, queuing the echoes'
    : !stalled && further > budget
      ? 'The peer read on while its echo could not leave but dropped the echoes it could not send (load shedding), holding little'
      : 'The peer stayed bounded while its echo was read slowly';
  t.setOutcome(over ? Behavior.Failed : Behavior.Ok, `${lead}: ${wrote}${stop}; ${after}.`, figures);
  t.setWirelog(true, { silent: true });
  t.sendClose(CloseCode.Normal);
}

export function slowEchoCase(id: string): ScriptedCase {
  const e = SLOW_ECHO;
  return defineCase({
    id,
    description: `A binary message of ${count(e.messageBytes)} bytes in ${count(e.fragmentBytes)}-byte fragments, then further ${count(e.fragmentBytes)}-byte messages (at most ${count(e.furtherCapBytes)} bytes), each write once the peer took the previous one, while wsgate reads the echoes at ${count(e.readBytesPerSecond)} bytes/s for ${e.windowS} s; then it reads freely and closes with 1000. (RFC 6455 §10.4; ${slowEchoBudget.advisory})`,
    expectation: `The peer holds no more than ${count(e.heldBudgetBytes)} bytes of echoes of further messages while its echo cannot leave: it stops reading (back-pressure), drops what it cannot send (load shedding), or drops the connection; then it completes the closing handshake. Reading on and queuing every echo (all it read past the message) is FAILED.`,
    expect: {},
    close: closedByMe([CloseCode.Normal]),
    suppressClose: true,
    attackBudget: slowEchoBudget,
    messageLengthOnly: true,
    schedule: { maxSeconds: slowEchoBudget.closeWithinMs / 1000, runsAlone: true, cost: e.windowS + 2 },
    run: slowEcho,
    onMessage(t, _data, _binary, length) {
      const s = tally(t);
      s.bytes += length;
      s.lastAt = performance.now();
    },
    adjust: (verdict, facts) => withOwnFigures(facts, endedDuringIsOk(verdict)),
  });
}

// ---- 3. the peer's close left unanswered -----------------------------------------------------------

// RFC 6455 §5.2: an unknown opcode makes the receiver _Fail the WebSocket Connection_ (§7.1.7: a
// close frame, then close TCP). wsgate answers nothing and keeps TCP: the peer must not wait forever.
function unansweredClose(t: CaseContext): void {
  t.holdClose();
  t.setOutcome(Behavior.Ok, 'The peer failed the connection on the reserved opcode and ended TCP though wsgate never answered its close.');
  t.sendFrame({ opcode: 3, payload: '' });
  const limitS = t.budgets.stallMs / 1000 + STALL_MARGIN_S;
  t.continueLater(limitS, () => {
    t.setOutcome(
      Behavior.Failed,
      `The peer kept the connection open for ${seconds(limitS)} s after the reserved opcode, past the stall budget: with its close unanswered (or without failing the connection at all) it never ended TCP. wsgate closed it.`,
      [budgetFigure('held-open-ms', 'the peer kept the connection open after the reserved opcode', limitS * 1000, 'ms', t.budgets.stallMs)],
    );
    t.sendClose(CloseCode.Normal);
    // wsgate still holds the close: it drops TCP itself a second later.
    t.continueLater(1, () => t.dropConnection());
  });
}

export function unansweredCloseCase(id: string): ScriptedCase {
  return defineCase({
    id,
    description: `A frame with the reserved opcode 3 (RFC 6455 §5.2: the peer must fail the connection); wsgate then neither answers the peer's close frame nor ends TCP. (RFC 6455 §5.2, §7.1.1, §7.1.7; ${unansweredCloseBudget.advisory})`,
    expectation: `The peer sends its close (1002) and, its close unanswered, ends TCP itself within the stall budget (${count(DEFAULT_BUDGETS.stallMs)} ms unless --budget stall= says otherwise). Keeping the connection past it is FAILED.`,
    expect: {},
    close: failedByPeer([CloseCode.ProtocolError]),
    suppressClose: true,
    attackBudget: unansweredCloseBudget,
    schedule: { maxSeconds: DEFAULT_BUDGETS.stallMs / 1000 + STALL_MARGIN_S + 3, idle: true, cost: 1 },
    run: unansweredClose,
    adjust: ownFiguresOnly,
  });
}

// ---- 4. the closing handshake done, TCP never ended by wsgate ------------------------------------------

// RFC 6455 §7.1.1: "the underlying TCP connection, in most normal cases, SHOULD be closed first by
// the server"; a client waits for it, but "MAY close the connection at any time" and should not wait
// forever. wsgate, whichever role, never ends TCP after the handshake.
function neverClosed(peer: PeerRole): (t: CaseContext) => void {
  return (t) => {
    t.holdClose();
    const budgetMs = peer === 'server' ? scaledMs(neverClosedBudget('server').closeWithinMs, t.budgets) : t.budgets.stallMs;
    t.setOutcome(Behavior.Ok, `The peer answered wsgate's close and ended TCP though wsgate kept it open.`);
    t.sendClose(CloseCode.Normal);
    const limitS = budgetMs / 1000 + STALL_MARGIN_S;
    t.continueLater(limitS, () => {
      t.setOutcome(
        Behavior.Failed,
        `The peer kept TCP open for ${seconds(limitS)} s after the closing handshake, past its budget of ${count(budgetMs)} ms: it waits for wsgate to end the connection, without a timeout. wsgate dropped it.`,
        [budgetFigure('held-open-ms', 'the peer kept TCP open after the closing handshake', limitS * 1000, 'ms', budgetMs)],
      );
      t.dropConnection();
    });
  };
}

/** A peer that never answered wsgate's close: wsgate dropped TCP at its closing-handshake timeout (the connection is unclean). */
function unansweredIsFailed(verdict: Judgement): Judgement {
  if (verdict.behaviorClose !== CloseBehavior.Unclean) return verdict;
  return {
    ...verdict,
    behavior: Behavior.Failed,
    result: "The peer never answered wsgate's close frame: wsgate dropped TCP at its closing-handshake timeout.",
  };
}

export function neverClosedCase(id: string, peer: PeerRole): ScriptedCase {
  const budget = neverClosedBudget(peer);
  const within =
    peer === 'server'
      ? `within ${count(budget.closeWithinMs)} ms (RFC 6455 §7.1.1: the server closes TCP first, at once)`
      : `within the stall budget (${count(DEFAULT_BUDGETS.stallMs)} ms unless --budget stall= says otherwise: a client waits for the server to end TCP, but not forever)`;
  return defineCase({
    id,
    description: `wsgate sends a close frame (1000); once the peer answered with its own, wsgate never ends TCP. (RFC 6455 §7.1.1; ${budget.advisory})`,
    expectation: `The ${peer} answers the close and ends TCP itself ${within}. Keeping it open past the budget, or never answering the close, is FAILED.`,
    expect: {},
    close: { ...closedByMe([CloseCode.Normal]), requireClean: true },
    suppressClose: true,
    attackBudget: budget,
    schedule: { maxSeconds: (peer === 'server' ? budget.closeWithinMs : DEFAULT_BUDGETS.stallMs) / 1000 + STALL_MARGIN_S + 3, idle: true, cost: 1 },
    run: neverClosed(peer),
    adjust: (verdict, facts) => withOwnFigures(facts, unansweredIsFailed(verdict)),
  });
}

/** 17.4 and 18.5: the back-pressure and closing attacks, the same four against either role. */
function closingRequirements(peer: PeerRole): Record<keyof ClosingAttacks, Requirement> {
  const drop =
    peer === 'server' ? 'ends TCP at once (a server closes it first)' : 'ends TCP within the stall budget (a client waits for the server, but not forever)';
  return {
    pingFlood: {
      key: 'ping-flood-bounded',
      rfc: 'RFC 6455 §5.5.3',
      text: `a ${peer} flooded with pings by a peer that reads nothing answers only some (RFC 6455 §5.5.3: the most recent may do) or stops reading: the pongs it delivers afterwards stay within the budget (CVE-2019-9512, the HTTP/2 ping flood)`,
      subject: 'a ping flood with nothing read',
    },
    slowEcho: {
      key: 'slow-reader-bounded',
      rfc: 'RFC 6455 §10.4',
      text: `a ${peer} whose echo is read at 1 KiB/s stops reading further messages (back-pressure) or drops the connection, rather than queuing its echoes without bound (CVE-2019-9517, HTTP/2 internal data buffering)`,
      subject: 'a large echo read slowly',
    },
    unansweredClose: {
      key: 'unanswered-close-dropped',
      rfc: 'RFC 6455 §7.1.1, §7.1.7',
      text: `a ${peer} that failed the connection (1002 on a reserved opcode) and got no answer to its close ends TCP itself within the stall budget`,
      subject: 'a close frame left unanswered',
    },
    neverClosed: {
      key: 'never-closed-dropped',
      rfc: 'RFC 6455 §7.1.1',
      text: `a ${peer} that answered wsgate's close ${drop}, though wsgate keeps TCP open`,
      subject: 'a connection never closed after the closing handshake',
    },
  };
}

/** The four closing attacks against a peer of one role, each a factory of the case with the id given, its requirement attached. */
export interface ClosingAttacks {
  pingFlood(id: string): ScriptedCase;
  slowEcho(id: string): ScriptedCase;
  unansweredClose(id: string): ScriptedCase;
  neverClosed(id: string): ScriptedCase;
}

/** The closing attacks against a peer of role `peer`: its subgroup's file names each case's id. */
export function closingAttacks(peer: PeerRole): ClosingAttacks {
  const r = closingRequirements(peer);
  return {
    pingFlood: (id) => ({ ...pingFloodCase(id), requirement: r.pingFlood }),
    slowEcho: (id) => ({ ...slowEchoCase(id), requirement: r.slowEcho }),
    unansweredClose: (id) => ({ ...unansweredCloseCase(id), requirement: r.unansweredClose }),
    neverClosed: (id) => ({ ...neverClosedCase(id, peer), requirement: r.neverClosed }),
  };
}
