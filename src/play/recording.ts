/**
 * Where a case's tape (core/tape.ts) goes with its result: from the connection that played the case
 * to the run that settles it (and keeps it for `wsgate repro` when the case did not pass), beside the
 * report and never in it (Autobahn's per-case JSON stays as it is).
 */
import type { ScriptedCase } from '../cases/types.js';
import type { Tape } from '../core/tape.js';
import type { CaseResult } from '../model/report.js';

/** A case's tape and what replaying it needs besides. */
export interface CaseRecording {
  readonly tape: Tape;
  readonly def: ScriptedCase;
  /** wsgate was the server (a client under test). */
  readonly isServer: boolean;
  /** permessage-deflate was negotiated on the connection. */
  readonly deflate: boolean;
}

const recordings = new WeakMap<CaseResult, CaseRecording>();

/** Attaches a recording to the result it belongs to. */
export function attachRecording(result: CaseResult, recording: CaseRecording): void {
  recordings.set(result, recording);
}

/** A result made from another (a robustness case's one verdict: run/conclude.ts) takes over its recording. */
export function passRecording(from: CaseResult, to: CaseResult): void {
  const r = takeRecording(from);
  if (r !== null) recordings.set(to, r);
}

/** The recording of a result, once: taken, it is forgotten (its bytes go with the last reference). */
export function takeRecording(result: CaseResult): CaseRecording | null {
  const r = recordings.get(result) ?? null;
  recordings.delete(result);
  return r;
}
