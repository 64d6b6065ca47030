/** What a run knows of its peer's process, as facts (the drivers tell them; report/peer-words.ts words them). */

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
