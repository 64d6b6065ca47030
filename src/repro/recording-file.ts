/**
 * A case's recording as a file: what `wsgate repro` needs to play wsgate's side of the case again and
 * judge it as the run did, as gzip'd JSON under `<outdir>/repro-data/<report base>.json.gz`. The
 * bytes wsgate wrote are one blob (base64); each write names its slice, a streamed repeated payload
 * its pattern and length.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { wrongCodeFails } from '../cases/define.js';
import { ownFiguresOnly } from '../robustness/own-figures.js';
import type { PeerEvent, ScriptedCase } from '../cases/types.js';
import type { CaseRecording } from '../play/recording.js';
import { makeDirectory, resolveInside, writeFileAtomic } from '../report/files.js';

/** The folder of a report directory that holds the recordings. */
export const REPRO_DATA_DIR = 'repro-data';
/** The recording format this wsgate writes and reads. */
export const REPRO_FORMAT = 'wsgate-repro/1';

const eventSchema = z.union([
  z.tuple([z.literal('message'), z.string(), z.boolean()]),
  z.tuple([z.literal('pong'), z.string()]),
  z.tuple([z.literal('timeout'), z.string()]),
]);

/**
 * One write: [ms since start, peer frame octets received by then, flags (1 handshake, 2 sync), blob
 * offset, length, repeat pattern (base64) or null, repeat length, chop size (pieces written one by one) or 0].
 */
const writeSchema = z.tuple([z.number(), z.number(), z.number(), z.number(), z.number(), z.string().nullable(), z.number(), z.number()]);

export const reproDataSchema = z.object({
  format: z.literal(REPRO_FORMAT),
  id: z.string(),
  description: z.string(),
  expectation: z.string(),
  /** The side under test: a client (wsgate was the server) or a server. */
  role: z.enum(['client', 'server']),
  deflate: z.boolean(),
  /** Expected event lists with full payloads (base64), as the verdict compares them. */
  expect: z.object({ OK: z.array(eventSchema).optional(), 'NON-STRICT': z.array(eventSchema).optional() }),
  close: z.object({ closedByMe: z.boolean(), closeCode: z.array(z.number()), requireClean: z.boolean(), closedByWrongEndpointIsFatal: z.boolean().optional() }),
  /** How the case judges the peer's messages itself: echoes of what it sent, by type and length or whole. */
  echo: z.enum(['length', 'content']).nullable(),
  /** A permessage-deflate case: UNIMPLEMENTED when the extension was not negotiated. */
  needsDeflate: z.boolean(),
  /** The case's own adjustment of the verdicts (Autobahn's overrides), as a kind the script knows. */
  adjust: z.enum(['wrong-code-fails', 'informational', 'other']).nullable(),
  blob: z.string(),
  writes: z.array(writeSchema),
  marks: z.array(z.tuple([z.number(), z.number(), z.string()])),
  end: z.tuple([z.number(), z.number(), z.enum(['abort', 'after-flush']), z.string().nullable()]).nullable(),
  /** The tape stopped keeping bytes (too many): the replay is incomplete. */
  overflowed: z.boolean(),
});

export type ReproData = z.infer<typeof reproDataSchema>;
type WireEvent = z.infer<typeof eventSchema>;

function wireEvent(e: PeerEvent): WireEvent {
  switch (e.kind) {
    case 'message':
      return ['message', e.data.toString('base64'), e.binary];
    case 'pong':
      return ['pong', e.data.toString('base64')];
    case 'timeout':
      return ['timeout', e.tag];
  }
}

/** Which of Autobahn's verdict overrides the case has (the script knows these two). */
function adjustKind(def: ScriptedCase): ReproData['adjust'] {
  // Figures alone change no verdict (cases/own-figures.ts).
  if (def.adjust === undefined || def.adjust === ownFiguresOnly) return null;
  if (def.adjust === wrongCodeFails) return 'wrong-code-fails';
  const probe = def.adjust({ behavior: 'OK', result: '', behaviorClose: 'OK', resultClose: '' }, { connectionWasOpen: true, txFrameStats: {} });
  return probe.behavior === 'INFORMATIONAL' && probe.behaviorClose === 'INFORMATIONAL' ? 'informational' : 'other';
}

/** The recording as data. */
export function reproData(rec: CaseRecording): ReproData {
  const { def, tape } = rec;
  const chunks: Buffer[] = [];
  let offset = 0;
  const writes: ReproData['writes'] = tape.writes.map((w) => {
    const start = offset;
    for (const p of w.segments) {
      chunks.push(p);
      offset += p.length;
    }
    return [
      w.t,
      w.rx,
      (w.handshake ? 1 : 0) | (w.sync ? 2 : 0),
      start,
      offset - start,
      w.repeat === null ? null : w.repeat.pattern.toString('base64'),
      w.repeat?.length ?? 0,
      w.chop,
    ];
  });
  const expect: ReproData['expect'] = {};
  for (const key of ['OK', 'NON-STRICT'] as const) {
    const list = def.expect[key];
    if (list !== undefined) expect[key] = list.map(wireEvent);
  }
  return {
    format: REPRO_FORMAT,
    id: def.id,
    description: def.description,
    expectation: def.expectation,
    role: rec.isServer ? 'client' : 'server',
    deflate: rec.deflate,
    expect,
    close: { ...def.close },
    echo: def.onMessage === undefined ? null : def.messageLengthOnly === true ? 'length' : 'content',
    needsDeflate: def.deflate !== undefined || def.deflateOffers !== undefined,
    adjust: adjustKind(def),
    blob: Buffer.concat(chunks).toString('base64'),
    writes,
    marks: tape.marks.map((m) => [m.t, m.rx, m.tag]),
    end: tape.end === null ? null : [tape.end.t, tape.end.rx, tape.end.how, tape.end.unclean],
    overflowed: tape.overflowed,
  };
}

/** Where the recording of a report base (`<agent>_case_6_4_3`) lives in a report directory. */
export function recordingPath(outdir: string, reportBase: string): string {
  return resolveInside(path.join(outdir, REPRO_DATA_DIR), `${reportBase}.json.gz`);
}

/** Writes a recording atomically. */
export async function writeRecording(outdir: string, reportBase: string, data: ReproData): Promise<string> {
  const file = recordingPath(outdir, reportBase);
  await makeDirectory(path.dirname(file));
  await writeFileAtomic(file, gzipSync(JSON.stringify(data)));
  return file;
}

/** Reads a recording; throws with a one-line message naming the file. */
export async function readRecording(file: string): Promise<ReproData> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(gunzipSync(await readFile(file)).toString('utf8'));
  } catch (err) {
    throw new Error(`${file}: not a wsgate recording (${(err as Error).message})`);
  }
  const result = reproDataSchema.safeParse(parsed);
  if (!result.success) throw new Error(`${file}: not a ${REPRO_FORMAT} recording`);
  return result.data;
}
