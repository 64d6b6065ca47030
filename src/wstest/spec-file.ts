/**
 * A spec file read as the original `wstest` reads it (its scripts' contract: ../../README.md, "Coming
 * from Autobahn|Testsuite"): keys it does not use are ignored (`webport`, comments), `cases` and
 * `exclude-cases` are the original's patterns (an entry with `*` is a regular expression matched at the
 * start, with `.` literal and `*` any run; an entry without `*` is an id, taken literally), and a
 * pattern matching nothing matches nothing. What the original would crash on (a key of the wrong type,
 * an invalid regular expression) is one line and exit 2, as through wsgate's own commands.
 */
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { catalogueFor } from '../cases/registry.js';
import { readJsonFile } from '../config/json-file.js';
import { UsageError } from '../errors.js';
import type { ServerProtocolOptions } from '../server/upgrade.js';

/** The modes that read a spec file. */
export type SpecMode = 'fuzzingserver' | 'fuzzingclient';

/** The original's defaults, written as `<mode>.json` when no --spec is given and the file is missing. */
export const DEFAULT_SPECS: Readonly<Record<SpecMode, object>> = {
  fuzzingserver: { url: 'ws://127.0.0.1:9001', outdir: './reports/clients', cases: ['*'], 'exclude-cases': [], 'exclude-agent-cases': {} },
  fuzzingclient: { outdir: './reports/servers', servers: [{ url: 'ws://127.0.0.1:9001' }], cases: ['*'], 'exclude-cases': [], 'exclude-agent-cases': {} },
};

const patternList = z.array(z.string(), { error: 'must be an array of strings' });
const options = z.record(z.string(), z.unknown(), { error: 'must be an object of Autobahn protocol options' });

/** The keys wstest uses, loosely: anything else in the file is ignored, as the original does. */
const specSchema = z.looseObject({
  url: z.string({ error: 'must be a string (ws://HOST:PORT)' }).optional(),
  outdir: z.string({ error: 'must be a string (a directory)' }).min(1, 'must not be empty').optional(),
  cases: patternList.optional(),
  'exclude-cases': patternList.optional(),
  'exclude-agent-cases': z.record(z.string(), patternList, { error: 'must map agent patterns to arrays of case patterns' }).optional(),
  options: options.optional(),
  key: z.string({ error: 'must be a string (a file)' }).optional(),
  cert: z.string({ error: 'must be a string (a file)' }).optional(),
  servers: z
    .array(
      z.looseObject({
        url: z.string({ error: 'must be a string (ws://HOST:PORT/PATH)' }),
        agent: z.string({ error: 'must be a string' }).optional(),
        options: options.optional(),
      }),
      { error: 'must be an array of {"url", "agent", "options"} objects' },
    )
    .optional(),
});

/** A spec file as wstest uses it. */
export type WstestSpec = z.infer<typeof specSchema>;

/** Where the spec came from, and what to tell about it (the original's "Using implicit spec file" lines). */
export interface LoadedSpec {
  file: string;
  spec: WstestSpec;
  notes: string[];
  /** The file when this run wrote it (the defaults), else null. */
  written: string | null;
}

/**
 * The spec of a mode: --spec's file; else `<mode>.json` in the working directory, written with the
 * original's defaults when missing (as the original does; a directory that cannot be written leaves
 * the defaults in force, with a note). One difference: a fuzzingclient given `-w URL` writes URL as
 * the server to test, where the original wrote ws://127.0.0.1:9001 and ignored -w (it tested the
 * server -w named only when that was the default's).
 */
export function loadWstestSpec(mode: SpecMode, given: string | undefined, wsuri?: string): LoadedSpec {
  const notes: string[] = [];
  let written: string | null = null;
  let file = given;
  if (file === undefined) {
    file = `${mode}.json`;
    const defaults = mode === 'fuzzingclient' && wsuri !== undefined ? { ...DEFAULT_SPECS.fuzzingclient, servers: [{ url: wsuri }] } : DEFAULT_SPECS[mode];
    try {
      writeFileSync(file, `${JSON.stringify(defaults, null, 3)}\n`, { flag: 'wx' });
      notes.push(`Auto-generating spec file '${file}'`);
      written = file;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        notes.push(`Using the default spec: cannot write '${file}' (${code ?? (err as Error).message})`);
        return { file, spec: specSchema.parse(defaults), notes, written };
      }
      notes.push(`Using implicit spec file '${file}'`);
    }
  } else notes.push(`Using explicit spec file '${file}'`);
  const spec = readJsonFile(file, 'the spec file', (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`${file}: a spec file must hold a JSON object`);
    const parsed = specSchema.safeParse(value);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    throw new UsageError(`${file}: "${issue?.path.join('.') ?? ''}" ${issue?.message ?? 'is invalid'}`);
  });
  return { file, spec, notes, written };
}

/** A pattern's regular expression as the original compiles it (`.` literal, `*` any run, the rest as written). */
function autobahnRegExp(file: string, key: string, pattern: string, anchorEnd: boolean): RegExp {
  const source = pattern.replace(/\./g, '\\.').replace(/\*/g, '.*');
  try {
    return new RegExp(`^${source}${anchorEnd ? '$' : ''}`);
  } catch {
    throw new UsageError(`${file}: "${key}": ${JSON.stringify(pattern)} is not a valid pattern (a regular expression once "." and "*" are read)`);
  }
}

/** The ids a pattern list names, in catalogue order: `*` patterns matched at the start, others literally. */
function resolvePatterns(file: string, key: string, patterns: readonly string[], ids: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const pattern of patterns) {
    if (!pattern.includes('*')) {
      // The original keeps a literal as written; one that names no case matches nothing here.
      if (ids.includes(pattern)) out.add(pattern);
      continue;
    }
    const re = autobahnRegExp(file, key, pattern, false);
    for (const id of ids) if (re.test(id)) out.add(id);
  }
  return out;
}

/** The selected case ids in Autobahn's order: `cases` (default every case) minus `exclude-cases`. */
export function selectedIds(file: string, spec: WstestSpec): string[] {
  const ids = catalogueFor(false).map((c) => c.id);
  const include = resolvePatterns(file, 'cases', spec.cases ?? ['*'], ids);
  const exclude = resolvePatterns(file, 'exclude-cases', spec['exclude-cases'] ?? [], ids);
  return ids.filter((id) => include.has(id) && !exclude.has(id));
}

/** exclude-agent-cases, checked: every agent and case pattern compiles as the original compiles it. */
export function agentExclusions(file: string, spec: WstestSpec): Record<string, string[]> {
  const rules = spec['exclude-agent-cases'] ?? {};
  for (const [agent, cases] of Object.entries(rules)) {
    autobahnRegExp(file, 'exclude-agent-cases', agent, true);
    for (const c of cases) autobahnRegExp(file, 'exclude-agent-cases', c, true);
  }
  return rules;
}

/**
 * The protocol options wsgate honours from an `options` object (the spec's, or a server's), and a
 * warning for each it does not. `version` is the original's draft number: 13 to 18 are RFC 6455's wire
 * protocol (18 is its final draft), which is what wsgate speaks.
 */
export function protocolOptionsOf(file: string, where: string, given: Record<string, unknown> | undefined): { options: Partial<ServerProtocolOptions>; warnings: string[] } {
  const options: Partial<ServerProtocolOptions> = {};
  const warnings: string[] = [];
  const seconds = (key: string, value: unknown): number => {
    if (typeof value !== 'number' || !(value >= 0)) throw new UsageError(`${file}: "${where}.${key}" must be a number of seconds (>= 0)`);
    return Math.round(value * 1000);
  };
  for (const [key, value] of Object.entries(given ?? {})) {
    if (key === 'failByDrop') {
      if (typeof value !== 'boolean') throw new UsageError(`${file}: "${where}.failByDrop" must be true or false`);
      options.failByDrop = value;
    } else if (key === 'openHandshakeTimeout') options.openHandshakeTimeoutMs = seconds(key, value);
    else if (key === 'closeHandshakeTimeout') options.closeHandshakeTimeoutMs = seconds(key, value);
    else if (key === 'version') {
      if (typeof value !== 'number' || !Number.isInteger(value)) throw new UsageError(`${file}: "${where}.version" must be a whole number`);
      if (value < 13 || value > 18) warnings.push(`${where}.version = ${value} is not honoured: wsgate speaks RFC 6455 (versions 13 to 18)`);
    } else warnings.push(`${where}.${key} = ${JSON.stringify(value)} is not honoured: wsgate runs with Autobahn's default`);
  }
  return { options, warnings };
}
