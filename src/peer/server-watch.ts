/**
 * The watch on a server wsgate started: each case's time against each start of it, its deaths
 * charged to the cases open when they happened, and its restarts (waited for until it accepts
 * connections, at most RESTART_LIMIT). Facts only; explain/peer-words.ts words them.
 */
import type { PeerDeath, ServerGone } from '../model/peer.js';
import type { ServerProcess } from '../processes/server-process.js';
import { isAborted } from '../processes/waiting.js';
import { cutShortWords, restartedWords, restartLimitWords } from '../explain/peer-words.js';

/** What the watch keeps of one server under test. */
export interface ServerWatchState {
  process: ServerProcess | null;
  sut: { restart: boolean; startTimeout: number };
  target: { host: string; port: number };
  signal: AbortSignal | undefined;
  out: NodeJS.WritableStream;
  /** Why the remaining cases cannot run (the server died and is not restarted), or null. */
  gone: ServerGone | null;
  /** Each case's time against the server (the deaths are charged from them). */
  windows: CaseWindow[];
  /** The deaths of the server's starts, by start number, once worked out. */
  deaths: Map<number, Promise<PeerDeath>>;
  /** A restart in progress: the cases that found the server dead wait for it. */
  restarting: Promise<void> | null;
  /** What cut the run short (the restart limit), in one line each. */
  incidents: string[];
}

/** One case's time against one start of the server: from its connection to its end. */
export interface CaseWindow {
  readonly id: string;
  /** Its place in the run (catalogue order). */
  readonly at: number;
  readonly start: number;
  end: number | null;
  /** Which start of the server it was played against. */
  readonly startNo: number;
  /** The server answered its opening handshake: it was the server's case, not a connection its dying kernel took (known at its end). */
  answered: boolean;
  /** The server's answer to its upgrade has come (told as it comes, over HTTP/1.1): the server was alive then. */
  heard: boolean;
  /** Settles once the case has ended (`end` and `answered` are known). */
  readonly settled: Promise<void>;
}

/**
 * How long after a case's end the server's death is still that case's when nothing tells otherwise:
 * a process that died of the case closes its connection first, and its exit is told a moment later.
 * Waited for beside the next cases, so it costs the run nothing but at its end.
 */
const CHARGE_GRACE_MS = 1000;

/**
 * How long the wait goes on past CHARGE_GRACE_MS while cases are still played on the same start and
 * none of those that began after this one's end has been answered: a dying server starved of CPU
 * (--jobs 4 on a busy machine) sent its close and took seconds more to exit, and no case it answered
 * since says it lived on. A case it answered after this one's end, or no case open beside it (the
 * run's end), ends the wait at once.
 */
const CHARGE_LIMIT_MS = 10_000;

/** How often the longer wait looks again. */
const CHARGE_POLL_MS = 100;

/** One promise per signal, false once it aborts: the cases' waits share it (no listener per case). */
const aborts = new WeakMap<AbortSignal, Promise<false>>();
function abortOf(signal: AbortSignal): Promise<false> {
  let p = aborts.get(signal);
  if (p === undefined) {
    p = new Promise<false>((resolve) => {
      if (signal.aborted) resolve(false);
      else signal.addEventListener('abort', () => resolve(false), { once: true });
    });
    aborts.set(signal, p);
  }
  return p;
}

/** The death of the server during `window`, charged to it (with the other cases open then), or null. */
export async function diedDuring(state: ServerWatchState, proc: ServerProcess, window: CaseWindow): Promise<PeerDeath | null> {
  const no = window.startNo;
  const end = window.end ?? 0;
  for (let until = end + CHARGE_GRACE_MS; ; until = performance.now() + CHARGE_POLL_MS) {
    // A signal ends the wait at once: an interrupted run stops without waiting for the grace.
    const wait = proc.startExitsWithin(no, Math.max(0, until - performance.now()));
    const exited = await (state.signal === undefined ? wait : Promise.race([wait, abortOf(state.signal)]));
    if (exited) break;
    if (isAborted(state.signal) || performance.now() - end >= CHARGE_LIMIT_MS || livedOn(state, window)) return null;
  }
  if (proc.stopping && proc.starts === no) return null;
  const death = await deathOf(state, proc, no);
  return death.during.includes(window.id) ? death : null;
}

/**
 * Whether the start `window` was played on is known to have outlived it: it answered a case that
 * began after this one ended (its upgrade answered, or the case ended answered), or no case is open beside it and none began since (nothing left to
 * play on it: the run's end, or a pause, where the grace is all there is to wait).
 */
function livedOn(state: ServerWatchState, window: CaseWindow): boolean {
  const end = window.end ?? 0;
  const later = state.windows.filter((w) => w !== window && w.startNo === window.startNo && (w.end === null || w.start > end));
  return later.length === 0 || later.some((w) => w.start > end && (w.heard || (w.end !== null && w.answered)));
}

/**
 * The death of start `no` of the server as facts (worked out once): how it ended, its error line, the
 * cases it is charged to. Those whose connection was open when it died; if none was (its exit is
 * told after its connections closed), the last cases to end before it, within CHARGE_LIMIT_MS (no
 * case it answered can have begun after them: they would have ended later), and those that ended
 * with them.
 */
function deathOf(state: ServerWatchState, proc: ServerProcess, no: number): Promise<PeerDeath> {
  const known = state.deaths.get(no);
  if (known !== undefined) return known;
  const death = chargeDeath(state, proc, no);
  state.deaths.set(no, death);
  return death;
}

async function chargeDeath(state: ServerWatchState, proc: ServerProcess, no: number): Promise<PeerDeath> {
  const at = proc.exitedAtOf(no) ?? performance.now();
  // The cases open when it died end with it: what each saw of the server is known once they have.
  await Promise.all(state.windows.filter((w) => w.startNo === no && w.start <= at && w.end === null).map((w) => w.settled));
  const mine = state.windows.filter((w) => w.startNo === no && w.answered && w.start <= at);
  // Its connections end when it dies, together: the last case to end (within CHARGE_LIMIT_MS of the
  // exit, else it died between cases) and those open beside it then. The moment is the exit, or that
  // case's end when the exit was told after the connections closed.
  const last = mine.reduce<CaseWindow | null>((a, w) => (a === null || (w.end as number) > (a.end as number) ? w : a), null);
  const during =
    last === null || at - (last.end as number) > CHARGE_LIMIT_MS
      ? []
      : mine.filter((w) => {
          const moment = Math.min(at, last.end as number);
          return w.start <= moment && (w.end as number) >= moment - ENDED_TOGETHER_MS && (w.end as number) >= last.start;
        });
  const ids = during.sort((a, b) => a.at - b.at).map((w) => w.id);
  return { role: 'server', ...(await proc.endOf(no)), during: ids, outputFile: proc.outputFile };
}

/** Connections a dying process closes end within this of each other. */
const ENDED_TOGETHER_MS = 20;

/** How many starts a case whose connection is refused each time (its server dead) is tried on. */
export const REFUSED_TRIES = 3;

/** How often a server wsgate started is started again after it died, at most. */
export const RESTART_LIMIT = 200;

/**
 * Null while the server can take the next case; else why the case is not run (a fact). A server wsgate
 * started that died is started again (once for the cases waiting on it) when --restart-server says
 * so, up to RESTART_LIMIT times, and waited for until it accepts connections.
 */
export async function serverUp(state: ServerWatchState): Promise<ServerGone | null> {
  for (;;) {
    if (state.gone !== null) return state.gone;
    const proc = state.process;
    if (proc === null || proc.exitedAt === null) return null;
    if (state.restarting !== null) {
      await state.restarting;
      continue;
    }
    let settled!: () => void;
    state.restarting = new Promise<void>((resolve) => (settled = resolve));
    try {
      await restartAfterDeath(state, proc, await deathOf(state, proc, proc.starts));
    } finally {
      state.restarting = null;
      settled();
    }
  }
}

/** Restarts a server that died, or says why the remaining cases are not run (state.gone). */
async function restartAfterDeath(state: ServerWatchState, proc: ServerProcess, death: PeerDeath): Promise<void> {
  if (isAborted(state.signal)) {
    state.gone = { kind: 'died', death, next: 'not restarted' };
    return;
  }
  if (!state.sut.restart) {
    state.gone = { kind: 'died', death, next: 'not restarted' };
    state.incidents.push(cutShortWords(death, 'not restarted'));
    return;
  }
  if (proc.starts > RESTART_LIMIT) {
    state.gone = { kind: 'died', death, next: 'restart limit', starts: proc.starts };
    state.incidents.push(restartLimitWords(RESTART_LIMIT));
    state.out.write(`wsgate: ${restartLimitWords(RESTART_LIMIT)}\n`);
    return;
  }
  try {
    await proc.restart(state.target.host, state.target.port, state.sut.startTimeout * 1000, state.signal);
    state.out.write(`${restartedWords(death, proc.starts)}\n`);
  } catch (err) {
    state.gone = { kind: 'died', death, next: 'restart failed', error: err instanceof Error ? err.message : String(err) };
    state.incidents.push(cutShortWords(death, 'restart failed'));
  }
}
