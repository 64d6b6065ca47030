/**
 * A repro script's text: a comment block that says what the case shows, then the case as data and
 * the runtime that plays it: wsgate's own frame reader, message assembly, close checks and verdict
 * (src/repro/runtime/entry.ts and what it imports), bundled at build time by
 * .ci/build-repro-runtime.mjs. Plain Node >= 20 ESM, `node:` modules only.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { CaseResult } from '../model/report.js';
import { VERSION } from '../version.js';
import type { ReproData } from './recording-file.js';
import { explainResult } from '../explain/explain.js';
import { requirementFor } from '../explain/requirements.js';
import type { RuntimeData } from './runtime/data.js';

/**
 * Set by the action's bundler (.ci/action-bundle.mjs, esbuild's `define`) to the runtime's text;
 * undeclared everywhere else, where the text is the file the build wrote beside this module.
 */
declare const WSGATE_REPRO_RUNTIME: string | undefined;
let runtimeText: string | null = null;

/** The runtime's text; a build that skipped .ci/build-repro-runtime.mjs is a fault of wsgate's own. */
function runtime(): string {
  if (typeof WSGATE_REPRO_RUNTIME === 'string') return WSGATE_REPRO_RUNTIME;
  try {
    // The file `npm run build` writes beside this module.
    runtimeText ??= readFileSync(new URL('./runtime-bundle.js', import.meta.url), 'utf8');
  } catch (err) {
    throw new Error(`the repro runtime is missing (${(err as Error).message.split('\n')[0] ?? ''}): build wsgate with npm run build`);
  }
  return runtimeText;
}

/** Embedded bytes up to this size stay plain base64; past it they are gzip'd first. */
const PLAIN_BLOB = 2048;
/** Width of the comment block and of the base64 lines. */
const WIDTH = 100;

/** What the header says of the run (the case's per-case report). */
export type RunReport = Pick<CaseResult, 'agent' | 'behavior' | 'behaviorClose' | 'result' | 'resultClose' | 'received' | 'remoteCloseCode'> &
  Partial<CaseResult>;

/** Text of a report (Autobahn's descriptions hold `<br>` and a few tags) as plain words. */
function plain(text: string): string {
  return text
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** Wraps text into `// ` comment lines. */
function comment(text: string, indent = ''): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter((w) => w !== '')) {
      if (line !== '' && line.length + word.length + 1 > WIDTH - 3 - indent.length) {
        out.push(`// ${indent}${line}`);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    out.push(`// ${indent}${line}`.trimEnd());
  }
  return out;
}

/** The server's URL as the recorded upgrade request names it (Host and target). */
function recordedUrl(data: ReproData, blob: Buffer): string | null {
  const first = data.writes[0];
  if (data.role !== 'server' || first === undefined) return null;
  const head = blob.subarray(first[3], first[3] + first[4]).toString('latin1');
  const target = /^GET (\S+)/.exec(head)?.[1];
  const host = /^Host:[ \t]*(\S+)/im.exec(head)?.[1];
  return target === undefined || host === undefined ? null : `ws://${host}${target}`;
}

/** Whether a report holds every field an explanation reads (a per-case report, or a run's result). */
function isWholeReport(run: RunReport): run is CaseResult {
  return run.expectedClose !== undefined && run.wirelog !== undefined && run.expected !== undefined && run.description !== undefined;
}

/** The comment block at the top of a script: what it shows, the requirement, the run's verdict, how to run it. */
function headerLines(data: ReproData, run: RunReport, url: string | null, embedded: string): string[] {
  const requirement = requirementFor(data.id, run.expectedClose);
  // wsgate's explanation of the run's verdict, where the report is whole (a per-case report always is).
  const why = isWholeReport(run) ? explainResult(run) : null;
  const file = `repro-${data.id}.mjs`;
  const peer = data.role === 'client' ? 'a WebSocket client' : 'a WebSocket server';
  const verdict = `${run.behavior} / ${run.behaviorClose}`;
  return [
    `// wsgate repro: Autobahn|Testsuite case ${data.id} against ${JSON.stringify(run.agent)} (${peer}).`,
    '//',
    '// What wsgate does in this case:',
    ...comment(plain(data.description), '  '),
    '// What the peer must do:',
    ...comment(plain(data.expectation), '  '),
    `// Requirement (${requirement.rfc}):`,
    ...comment(plain(requirement.text), '  '),
    '//',
    `// In the run: ${verdict} (behavior / behaviorClose).`,
    ...(why === null ? [] : comment(`Why: ${why.cause.title}: the peer ${why.peerDid}. Ending: ${why.ending}.`, '  ')),
    ...comment(`behavior: ${run.result}`, '  '),
    ...comment(`closing: ${run.resultClose}`, '  '),
    ...comment(
      `observed events: ${JSON.stringify(run.received).replaceAll('],[', '], [')}; peer close code: ${run.remoteCloseCode === null ? 'none' : String(run.remoteCloseCode)}`,
      '  ',
    ),
    '//',
    ...(data.role === 'client'
      ? [
          `// Run it: node ${file} [PORT]   (default 9001), then point the client at ws://127.0.0.1:PORT/`,
          '// (any path; an Autobahn-style driver gets 1 from /getCaseCount and a plain close from /updateReports).',
        ]
      : [`// Run it: node ${file} ws://HOST:PORT/PATH   (default: ${url ?? 'ws://127.0.0.1:9001/'}, the server of the run)`]),
    ...comment(
      "It plays wsgate's side of the case byte for byte with the run's timing (each write no earlier than it was made, and not before the peer had sent as many bytes as then, waiting at most 2 s more), " +
        "prints what the peer does, and ends with the verdict by Autobahn|Testsuite's rules: exit 0 for OK / OK, 1 otherwise. Plain Node >= 20, no packages.",
    ),
    ...(data.adjust === 'other'
      ? comment(
          "This case adjusts its verdict on facts the repro does not see (the frames wsgate sent, a scripted handshake): only Autobahn's common rules are applied here.",
        )
      : []),
    ...(data.overflowed ? comment('The run wrote more than the recording keeps: the replay stops where the recording did.') : []),
    `// Written by wsgate ${VERSION}. Embedded bytes: ${embedded}.`,
  ];
}

/** The script for one case. */
export function reproScript(data: ReproData, run: RunReport): string {
  const blob = Buffer.from(data.blob, 'base64');
  const gzip = blob.length > PLAIN_BLOB;
  const embedded = (gzip ? gzipSync(blob, { level: 9 }) : blob).toString('base64');
  const runtimeData: Omit<RuntimeData, 'blob'> = {
    id: data.id,
    role: data.role,
    expect: data.expect,
    close: data.close,
    echo: data.echo,
    needsDeflate: data.needsDeflate,
    adjust: data.adjust,
    blobGzip: gzip,
    writes: data.writes,
    marks: data.marks,
    end: data.end,
    url: recordedUrl(data, blob),
  };
  const header = headerLines(data, run, runtimeData.url, `${blob.length}${gzip ? ` (${embedded.length} characters of base64 of gzip)` : ''}`);
  const lines: string[] = [];
  for (let i = 0; i < embedded.length; i += WIDTH) lines.push(`  '${embedded.slice(i, i + WIDTH)}',`);
  return [
    ...header,
    '',
    `const DATA = ${JSON.stringify(runtimeData, null, 1).replace(/\n\s*/g, ' ')};`,
    `DATA.blob = [\n${lines.join('\n')}\n].join('');`,
    '',
    `// The runtime: wsgate ${VERSION}'s own code (src/repro/runtime/entry.ts and what it imports), bundled and minified.`,
    runtime().trimEnd(),
    '',
  ].join('\n');
}
