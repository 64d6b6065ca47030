/**
 * What a repro script embeds of its case, and the shapes its runtime passes around. The runtime
 * (entry.ts and what it imports: this folder's glue, and wsgate's own protocol/, core/ receive path
 * and play/verdict.ts) is bundled at build time into one text that every script carries
 * (.ci/build-repro-runtime.mjs).
 */

/** An expected event: ['message', base64, binary], ['pong', base64] or ['timeout', tag]. */
export type RuntimeEvent = readonly ['message', string, boolean] | readonly ['pong', string] | readonly ['timeout', string];

/** The case as a script embeds it. */
export interface RuntimeData {
  id: string;
  /** The side under test: `client` (the script listens) or `server` (it connects). */
  role: 'client' | 'server';
  expect: { OK?: readonly RuntimeEvent[] | undefined; 'NON-STRICT'?: readonly RuntimeEvent[] | undefined };
  close: { closedByMe: boolean; closeCode: number[]; requireClean: boolean; closedByWrongEndpointIsFatal?: boolean | undefined };
  /** The case judges echoes of what it sent itself: by type and length, or whole. */
  echo: 'length' | 'content' | null;
  /** A permessage-deflate case: UNIMPLEMENTED when the extension was not negotiated. */
  needsDeflate: boolean;
  adjust: 'wrong-code-fails' | 'informational' | 'other' | null;
  /** wsgate's bytes, base64 (of gzip when blobGzip). */
  blob: string;
  blobGzip: boolean;
  /** [ms, peer frame octets, flags (1 handshake, 2 sync), blob offset, length, repeat pattern base64 | null, repeat length, chop size | 0]. */
  writes: ReadonlyArray<readonly [number, number, number, number, number, string | null, number, number]>;
  marks: ReadonlyArray<readonly [number, number, string]>;
  end: readonly [number, number, 'abort' | 'after-flush', string | null] | null;
  /** The server under test's URL in the run (its upgrade request's Host and target). */
  url: string | null;
}

/** One of wsgate's writes, ready to send. */
export interface ReproWrite {
  t: number;
  rx: number;
  handshake: boolean;
  sync: boolean;
  data: Buffer;
  /** Written in pieces of this size, each a write of its own (a chopped frame); 0: whole. */
  chop: number;
}

/** A whole data message; `length` is its size (data is empty when only the length is kept). */
export interface ReproMessage {
  binary: boolean;
  data: Buffer;
  length: number;
}

/** What the session asks of the replay (runtime/replay.ts): play what is due, stop waiting. */
export interface ReproPlayer {
  pump(): void;
  stop(): void;
}
