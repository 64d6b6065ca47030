/** What a run knows of its peer and of the cases it could not play, as facts (the drivers tell them; explain/peer-words.ts words them). */

/** A peer's process that ended on its own while cases ran: facts, worded by report/peer-words.ts. */
export interface PeerDeath {
  readonly role: 'server' | 'client';
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** The line of its output that names the error (an uncaught exception's message, not its stack's tail), or null. */
  readonly errorLine: string | null;
  /** The cases open when it died (ids, in catalogue order); empty when it died between cases. */
  readonly during: readonly string[];
  /** The file of the report directory that keeps its whole output, or null. */
  readonly outputFile: string | null;
}

/** How a process ended: its status or the signal that killed it, or why it could not start at all. */
export interface ProcessExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly spawnError: string | null;
}

/**
 * How a client process ended on its own: its status or signal, and the line of its output that names
 * the error (processes/crash.ts; null when it has none, or for a browser, whose output tells nothing).
 */
export interface ProcessCrash {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly errorLine: string | null;
}

/** How a client failed around an attack case: its process died, or (a browser) its page stopped asking for cases. */
export type ClientEnd = ({ readonly kind: 'died' } & ProcessCrash) | { readonly kind: 'hung'; readonly stop: BrowserStop };

/**
 * A client that did not survive an attack case: how it ended, and when (before or after its close
 * frame, for a client process per case; during the case, for a client that plays many).
 */
export interface ClientCrash {
  readonly end: ClientEnd;
  readonly when: 'before its close' | 'after its close' | 'during the case';
}

/**
 * A peer under test found for measuring by a socket (processes/listener.ts), not as the command's
 * process tree: a server by the socket listening on its port, a client by its case connection's
 * socket. `detached`, a launcher wsgate started put it outside its tree (setsid, a container
 * runtime); `not-started`, wsgate started nothing (--server-url).
 */
export interface PeerFound {
  readonly pid: number;
  readonly name: string;
  readonly port: number;
  readonly why: 'detached' | 'not-started';
  /** The socket it was found by: the one listening on `port` (a server), or its connection from `port` (a client). */
  readonly by?: 'listening' | 'connection';
}

/** What a server under test did instead of passing the liveness check after a robustness case. */
export type LivenessDown =
  /** Its process (wsgate started it) exited: how, and its last output on one line. */
  | { readonly kind: 'exited'; readonly exit: ProcessExit; readonly lastOutput: string }
  /** A normal case on a fresh connection got no result (`error`: the connection's error, or null). */
  | { readonly kind: 'no-server'; readonly error: string | null }
  /** A normal case on a fresh connection failed: its result text. */
  | { readonly kind: 'case-failed'; readonly result: string };

/** What happens to a server that failed the liveness check: restarted for the next case, or the remaining cases not run. */
export type LivenessNext = 'restarted' | 'not-started-by-wsgate' | 'not-restarted';

/** Why a server under test takes no more cases. */
export type ServerGone =
  /** It died (the watch's facts) and is not restarted: not asked to, the restart limit (after `starts` starts), or a restart that failed (`error`). */
  | { readonly kind: 'died'; readonly death: PeerDeath; readonly next: 'not restarted' }
  | { readonly kind: 'died'; readonly death: PeerDeath; readonly next: 'restart limit'; readonly starts: number }
  | { readonly kind: 'died'; readonly death: PeerDeath; readonly next: 'restart failed'; readonly error: string }
  /** It failed the liveness check after an attack case and is not restarted. */
  | { readonly kind: 'failed-liveness'; readonly down: LivenessDown }
  /** Before an attack case: it had exited, or stopped serving, and is not restarted (`error`: the restart that failed, else null: not asked to). */
  | { readonly kind: 'down'; readonly how: ServerDownHow; readonly restartError: string | null };

/** How a server under test was found down before an attack case. */
export type ServerDownHow =
  | { readonly kind: 'exited'; readonly exit: ProcessExit; readonly lastOutput: string }
  | { readonly kind: 'stopped-serving'; readonly down: LivenessDown };

/** What a browser's page stalled on: a case past its time limit, or no request for a while (`after`: the case it followed, or null: after the page loaded). */
export type PageStall =
  | { readonly kind: 'case-overrun'; readonly limitS: number }
  | { readonly kind: 'silent'; readonly timeoutS: number; readonly after: string | null };

/** Why the watchdog ended a browser's launch (or the browser ended itself). */
export type BrowserStop =
  | { readonly kind: 'exited'; readonly exit: ProcessExit }
  | { readonly kind: 'not-loaded'; readonly loadS: number }
  | { readonly kind: 'stalled'; readonly stall: PageStall }
  /** The page asked for the reports, but a case still open ran past its limit. */
  | { readonly kind: 'drain-overrun'; readonly limitS: number };

/**
 * Why a case could not be played at all: the run reports it as not run (explain/peer-words.ts words
 * it after "not run: "). `interrupted` is the skeleton's: the run's signal kept the case from running.
 */
export type NotRunFact =
  | { readonly kind: 'unreachable'; readonly url: string; readonly waitedS: number }
  | { readonly kind: 'server-gone'; readonly gone: ServerGone }
  /** An attack case found the server down after an earlier case. */
  | { readonly kind: 'server-down'; readonly gone: ServerGone }
  /** A looping client (--client-loops) died during an attack case `during`: it is not restarted. */
  | { readonly kind: 'looping-client-died'; readonly during: string; readonly end: ClientEnd }
  /** The browser's launch ended (`during`: the case it was in, or null). */
  | { readonly kind: 'browser-stopped'; readonly stop: BrowserStop; readonly during: string | null }
  | { readonly kind: 'page-skipped' }
  | { readonly kind: 'interrupted'; readonly signal: string }
  /** Read back from a run's summary.json (wsgate merge), which keeps only the reason it was worded as. */
  | { readonly kind: 'recorded'; readonly reason: string };

/** Why a case has no result, told instead of what the client process did. */
export type MissingFact =
  /** A looping client ran, but not this case. */
  | { readonly kind: 'client-skipped'; readonly agent: string }
  | { readonly kind: 'no-result' }
  /** The fuzzing client's connection got no result (`error`: why, or null). */
  | { readonly kind: 'no-answer'; readonly error: string | null }
  /** An attack case got no result, and the server failed the liveness check. */
  | { readonly kind: 'liveness-down'; readonly down: LivenessDown };

/** The peer under test failed during or after a case (the robustness profile): the case fails whatever its verdicts say. */
export type PeerFailureFact =
  /** A client process died of an attack case (`advisory`: the attack's, or null). */
  | { readonly kind: 'client-crash'; readonly advisory: string | null; readonly crash: ClientCrash }
  /** The server failed the liveness check after the case, and what happens next. */
  | { readonly kind: 'liveness'; readonly down: LivenessDown; readonly next: LivenessNext };

/** A client's connection that failed below WebSocket (TLS, HTTP/2): the fuzzing server's one line for it. */
export interface TransportFact {
  readonly kind: 'transport';
  readonly line: string;
}

/** Every fact a driver tells the run skeleton about a case, besides its result: worded once, by explain/peer-words.ts. */
export type CaseFact = NotRunFact | MissingFact | PeerFailureFact | TransportFact;

/**
 * What went amiss around a case that played (its verdict stands): the case overran its limit and
 * wsgate dropped the connection, or the client had to be stopped (explain/peer-words.ts words it).
 */
export type CaseWarningFact =
  /** The case did not end within its limit (s); wsgate dropped the connection (a server under test). */
  | { readonly kind: 'case-overran'; readonly limitS: number }
  /** The client outlived its case's limit, was sent SIGTERM, ignored it for `graceS` and was killed. */
  | { readonly kind: 'ignored-sigterm'; readonly graceS: number }
  /** The client was still running `graceS` after its case ended; stopped with SIGTERM, or killed after ignoring it. */
  | { readonly kind: 'lingered'; readonly graceS: number; readonly how: 'terminated' | 'killed' }
  /** The client exited with a status other than 0 after its case. */
  | { readonly kind: 'client-status'; readonly exitCode: number };
