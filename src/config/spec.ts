/**
 * The one reader of Autobahn's spec files (fuzzingserver.json, fuzzingclient.json), in two readings:
 * - `wsgate` (`wsgate --spec`, the API's `spec`): strict, an unknown key or a wrong type is one line
 *   naming the key and the file (exit 2); case patterns are wsgate's (`*` any run, the rest literal).
 * - `wstest` (`wstest -s`, its scripts' contract: ../../docs/wstest.md): keys wstest does not use are
 *   ignored (`webport`, comments), unknown options only warned about, and patterns are the original's
 *   (an entry with `*` a regular expression matched at the start, `.` literal; one naming nothing
 *   matches nothing). What the original would crash on (a key of the wrong type, an invalid regular
 *   expression) is one line and exit 2 too.
 * The keys are the ones Autobahn reads (autobahntestsuite/fuzzing.py, wstest.py).
 */
import { z } from 'zod';
import { catalogueFor } from '../catalogue/registry.js';
import { selectCases, SelectionError } from '../cases/select.js';
import { UsageError } from '../errors.js';
import type { ServerProtocolOptions } from '../server/upgrade.js';
import { caseIdMatcher, wildcard, type PatternSyntax } from '../util/patterns.js';
import { readJsonFile } from './json-file.js';
import { protocolOptionsOf, type SpecReading } from './spec-options.js';
import { parseListenUrl, parseServerUrl } from './url.js';

export type { SpecReading } from './spec-options.js';

/** A key of the file: its schema, the phrase of its type error, and whether `wstest` reads it. */
interface KeySpec {
  schema: z.ZodType;
  phrase: string;
  wstest?: true;
  required?: true;
}

const stringArray = z.array(z.string());
const optionsObject = { schema: z.record(z.string(), z.unknown()), phrase: 'an object of Autobahn protocol options', wstest: true } as const;

/** The keys of a fuzzingclient.json server. */
const SERVER_KEYS: Readonly<Record<string, KeySpec>> = {
  agent: { schema: z.string().min(1), phrase: 'a non-empty string', wstest: true },
  url: { schema: z.string(), phrase: 'a string (ws://HOST:PORT/PATH)', wstest: true, required: true },
  options: optionsObject,
  hostname: { schema: z.string(), phrase: 'a string' },
  origin: { schema: z.string(), phrase: 'a string' },
  protocols: { schema: stringArray, phrase: 'an array of strings' },
};

/**
 * The top-level keys. Extend it here (a new key, its schema and its phrase) and the validation and
 * error messages follow.
 */
export const SPEC_KEYS: Readonly<Record<string, KeySpec>> = {
  url: { schema: z.string(), phrase: 'a string (ws://HOST:PORT)', wstest: true },
  outdir: { schema: z.string().min(1), phrase: 'a non-empty string (a directory)', wstest: true },
  cases: { schema: stringArray, phrase: 'an array of strings', wstest: true },
  'exclude-cases': { schema: stringArray, phrase: 'an array of strings', wstest: true },
  'exclude-agent-cases': {
    schema: z.record(z.string(), stringArray),
    phrase: 'an object mapping agent patterns to arrays of case patterns',
    wstest: true,
  },
  options: optionsObject,
  // Autobahn stores `protocols` but its fuzzing server never selects a subprotocol; wsgate behaves the same.
  protocols: { schema: stringArray, phrase: 'an array of strings' },
  // Autobahn's example files carry "webport", which its fuzzing server ignores (only the -w flag counts).
  webport: { schema: z.number().int(), phrase: 'a whole number' },
  key: { schema: z.string(), phrase: 'a string (a file)', wstest: true },
  cert: { schema: z.string(), phrase: 'a string (a file)', wstest: true },
  // wsgate's own key: its group 14 after Autobahn's cases (as --extended).
  extended: { schema: z.boolean(), phrase: 'true or false' },
  // fuzzingclient.json: the servers under test (wsgate is then the fuzzing client); its schema is serverList's.
  servers: { schema: z.array(z.unknown()), phrase: 'an array of {"agent", "url", "options"} objects', wstest: true },
};

/** A fuzzingclient.json server as the file has it. */
interface ServerEntry {
  agent?: string;
  url: string;
  options?: Record<string, unknown>;
  hostname?: string;
  origin?: string;
  protocols?: string[];
}

/** The validated content of a spec file (under `wstest`, without the keys it does not read). */
export interface SpecFile {
  url?: string;
  outdir?: string;
  cases?: string[];
  'exclude-cases'?: string[];
  'exclude-agent-cases'?: Record<string, string[]>;
  options?: Record<string, unknown>;
  protocols?: string[];
  webport?: number;
  key?: string;
  cert?: string;
  extended?: boolean;
  servers?: ServerEntry[];
}

/** A zod object of a key table: every key under `wsgate` (others refused), the ones wstest reads under `wstest` (others dropped). */
function objectOf(table: Readonly<Record<string, KeySpec>>, reading: SpecReading, replace: Record<string, z.ZodType> = {}): z.ZodType {
  const keys = Object.entries(table).filter(([, k]) => reading === 'wsgate' || k.wstest === true);
  const shape = Object.fromEntries(
    keys.map(([key, k]) => {
      const schema = replace[key] ?? k.schema;
      return [key, k.required === true ? schema : schema.optional()];
    }),
  );
  return reading === 'wsgate' ? z.strictObject(shape) : z.object(shape);
}

const SCHEMAS: Readonly<Record<SpecReading, z.ZodType>> = {
  wsgate: objectOf(SPEC_KEYS, 'wsgate', { servers: z.array(objectOf(SERVER_KEYS, 'wsgate')) }),
  wstest: objectOf(SPEC_KEYS, 'wstest', { servers: z.array(objectOf(SERVER_KEYS, 'wstest')) }),
};

/** A fuzzingclient.json server as a run uses it. */
export interface SpecServer {
  url: string;
  agent: string | null;
  /** The protocol options its own `options` set (read as `wstest` does; wsgate runs every server alike). */
  protocolOptions: Partial<ServerProtocolOptions>;
}

/** What a spec file contributes to a run or a server, plus the warnings to print. */
export interface SpecSettings {
  /** The file as the user named it (for messages). */
  file: string;
  /** How the file was read; its patterns are in this reading's syntax. */
  patternSyntax: PatternSyntax;
  url?: string;
  outdir?: string;
  cases?: string[];
  excludeCases?: string[];
  extended?: boolean;
  /** fuzzingserver.json's server certificate and key files (wss://). */
  cert?: string;
  key?: string;
  excludeAgentCases: Record<string, string[]>;
  /** fuzzingclient.json's first server under test (wsgate tests servers), or absent. */
  server?: { url: string; agent: string | null };
  /** fuzzingclient.json's servers, in order (absent without `servers`). */
  servers?: SpecServer[];
  /** Protocol options the file's `options` set (the ones wsgate honours). */
  protocolOptions: Partial<ServerProtocolOptions>;
  warnings: string[];
}

function specError(file: string, message: string): UsageError {
  return new UsageError(`${file}: ${message}`);
}

/** The key a zod issue is about (the longest known prefix of its path), and the phrase of its type. */
function describe(path: readonly PropertyKey[]): { key: string; phrase: string } {
  const [top, index, field] = path.map(String);
  if (top === 'servers' && index !== undefined && field !== undefined && field in SERVER_KEYS) {
    return { key: `servers.${index}.${field}`, phrase: SERVER_KEYS[field]?.phrase ?? '' };
  }
  if (top !== undefined && top in SPEC_KEYS) return { key: top, phrase: SPEC_KEYS[top]?.phrase ?? '' };
  return { key: path.map(String).join('.'), phrase: 'valid' };
}

/** Checks a parsed JSON value against the spec format as `reading` reads it; throws one UsageError naming the key. */
function validateSpec(file: string, value: unknown, reading: SpecReading = 'wsgate'): SpecFile {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw specError(file, 'a spec file must hold a JSON object (Autobahn fuzzingserver.json format)');
  }
  const parsed = SCHEMAS[reading].safeParse(value);
  if (parsed.success) return parsed.data as SpecFile;
  const issue = parsed.error.issues[0];
  if (issue === undefined) throw specError(file, 'invalid spec');
  if (issue.code === 'unrecognized_keys') {
    const key = [...issue.path.map(String), issue.keys[0] ?? ''].join('.');
    const [known, what] = issue.path.length === 0 ? [SPEC_KEYS, 'a fuzzingserver.json key'] : [SERVER_KEYS, 'a fuzzingclient.json server key'];
    throw specError(file, `unknown key "${key}": not ${what} (known: ${Object.keys(known).join(', ')})`);
  }
  const { key, phrase } = describe(issue.path);
  throw specError(file, `"${key}" must be ${phrase}`);
}

/** Reads, parses and validates a spec file; throws UsageError (exit 2) with one line on any problem. */
export function readSpec(file: string, reading: SpecReading = 'wsgate'): SpecSettings {
  return readJsonFile(file, 'the spec file', (json) => specFromJson(file, json, reading));
}

/** A spec file's settings from its parsed JSON (read from `file`, or a mode's defaults). */
export function specFromJson(file: string, json: unknown, reading: SpecReading): SpecSettings {
  return specSettings(file, validateSpec(file, json, reading), reading);
}

/** A url of the file checked as its command line's flag would be, naming the key instead of the flag. */
function checkUrl(file: string, key: string, url: string, parse: (url: string) => unknown, flag: RegExp): void {
  try {
    parse(url);
  } catch (err) {
    if (err instanceof UsageError) throw specError(file, `"${key}": ${err.message.replace(flag, '')}`);
    throw err;
  }
}

/** Checks wsgate's case patterns the way the selection will use them, naming the file and key on error. */
function checkWsgatePatterns(file: string, spec: SpecFile): void {
  const cases = catalogueFor(spec.extended === true);
  for (const key of ['cases', 'exclude-cases'] as const) {
    try {
      selectCases(cases, spec[key] ?? []);
    } catch (err) {
      if (err instanceof SelectionError) throw specError(file, `"${key}": ${err.message}`);
      throw err;
    }
  }
  for (const [agent, patterns] of Object.entries(spec['exclude-agent-cases'] ?? {})) {
    for (const p of patterns) {
      if (!/^[0-9.*]+$/.test(p)) throw specError(file, `"exclude-agent-cases": bad case pattern ${JSON.stringify(p)} for agent ${JSON.stringify(agent)}`);
    }
  }
}

/** Checks the original's patterns: every one compiles as the original compiles it. */
function checkAutobahnPatterns(file: string, spec: SpecFile): void {
  const compile = (key: string, pattern: string, prefix: boolean): void => {
    try {
      wildcard(pattern, { prefix, syntax: 'autobahn' });
    } catch {
      throw specError(file, `"${key}": ${JSON.stringify(pattern)} is not a valid pattern (a regular expression once "." and "*" are read)`);
    }
  };
  // `cases` and `exclude-cases`: only an entry with `*` is a regular expression, matched at the start.
  for (const key of ['cases', 'exclude-cases'] as const) for (const p of spec[key] ?? []) if (p.includes('*')) compile(key, p, true);
  for (const [agent, cases] of Object.entries(spec['exclude-agent-cases'] ?? {})) {
    for (const p of [agent, ...cases]) compile('exclude-agent-cases', p, false);
  }
}

/** Checks only `wsgate --spec` makes (the original reads these keys per mode, or not at all). */
function checkStrict(file: string, spec: SpecFile): void {
  if (spec.servers !== undefined) {
    if (spec.servers.length === 0) throw specError(file, `"servers" must be a non-empty array of {"agent", "url", "options"} objects`);
    if (spec.url !== undefined) throw specError(file, '"servers" (fuzzingclient.json) and "url" (fuzzingserver.json) do not go together');
  }
  if ((spec.key === undefined) !== (spec.cert === undefined))
    throw specError(file, '"key" and "cert" go together (the server certificate and its private key)');
  checkWsgatePatterns(file, spec);
}

/** The file's servers: each url checked; their own options read as `wstest` does, or warned about by wsgate. */
function serversOf(file: string, spec: SpecFile, reading: SpecReading, warnings: string[]): SpecServer[] | undefined {
  return spec.servers?.map((server, i) => {
    checkUrl(file, `servers.${i}.url`, server.url, parseServerUrl, /^--server-url:? /);
    let protocolOptions: Partial<ServerProtocolOptions> = {};
    if (reading === 'wstest') {
      const own = protocolOptionsOf(file, `servers.${i}.options`, server.options, reading);
      warnings.push(...own.warnings);
      protocolOptions = own.options;
    } else {
      for (const key of ['hostname', 'origin', 'protocols', 'options'] as const) {
        if (server[key] !== undefined) warnings.push(`servers.${i}.${key} is not honoured: wsgate's fuzzing client runs with Autobahn's defaults`);
      }
    }
    return { url: server.url, agent: server.agent ?? null, protocolOptions };
  });
}

/** Turns a validated spec into settings: checks urls and patterns, applies honoured options, collects warnings. */
export function specSettings(file: string, spec: SpecFile, reading: SpecReading = 'wsgate'): SpecSettings {
  if (spec.url !== undefined) checkUrl(file, 'url', spec.url, parseListenUrl, /^--url:? /);
  if (reading === 'wsgate') checkStrict(file, spec);
  else checkAutobahnPatterns(file, spec);
  const { options: protocolOptions, warnings } = protocolOptionsOf(file, 'options', spec.options, reading);
  const servers = serversOf(file, spec, reading, warnings);
  const first = servers?.[0];
  return {
    file,
    patternSyntax: reading === 'wsgate' ? 'wsgate' : 'autobahn',
    ...(spec.url !== undefined ? { url: spec.url } : {}),
    ...(spec.outdir !== undefined ? { outdir: spec.outdir } : {}),
    ...(spec.cases !== undefined ? { cases: spec.cases } : {}),
    ...(spec['exclude-cases'] !== undefined ? { excludeCases: spec['exclude-cases'] } : {}),
    ...(spec.extended !== undefined ? { extended: spec.extended } : {}),
    ...(spec.cert !== undefined ? { cert: spec.cert } : {}),
    ...(spec.key !== undefined ? { key: spec.key } : {}),
    ...(first !== undefined ? { server: { url: first.url, agent: first.agent } } : {}),
    ...(servers !== undefined ? { servers } : {}),
    excludeAgentCases: spec['exclude-agent-cases'] ?? {},
    protocolOptions,
    warnings,
  };
}

/**
 * The ids the original selects, in catalogue order: `cases` (default every case) minus `exclude-cases`,
 * each entry by the original's rule, a literal naming no case matching nothing (`wstest`'s selection;
 * wsgate's own is `selectCases`, where such a literal is an error).
 */
export function autobahnSelection(spec: Pick<SpecSettings, 'cases' | 'excludeCases'>): string[] {
  const ids = catalogueFor(false).map((c) => c.id);
  const matchers = (patterns: readonly string[]) => patterns.map((p) => caseIdMatcher(p, 'autobahn'));
  const include = matchers(spec.cases ?? ['*']);
  const exclude = matchers(spec.excludeCases ?? []);
  return ids.filter((id) => include.some((m) => m(id)) && !exclude.some((m) => m(id)));
}

/** The case ids a wstest spec file plays for `agent`: its selection, less what exclude-agent-cases leaves out for it. */
export function autobahnSelectionFor(spec: Pick<SpecSettings, 'cases' | 'excludeCases' | 'excludeAgentCases'>, agent: string): string[] {
  const excluded = agentCaseExcluder(spec.excludeAgentCases, 'autobahn');
  return autobahnSelection(spec).filter((id) => !excluded(agent, id));
}

/**
 * A predicate telling whether `exclude-agent-cases` leaves case `id` out for `agent` (Autobahn's
 * patterns: anchored at both ends, `*` any run; everything else literal, or regular-expression syntax
 * under the original's reading).
 */
export function agentCaseExcluder(
  rules: Readonly<Record<string, readonly string[]>>,
  syntax: PatternSyntax = 'wsgate',
): (agent: string, id: string) => boolean {
  const compile = (p: string): RegExp => wildcard(p, { syntax });
  const compiled = Object.entries(rules).map(([agent, cases]) => ({ agent: compile(agent), cases: cases.map(compile) }));
  if (compiled.length === 0) return () => false;
  return (agent, id) => compiled.some((r) => r.agent.test(agent) && r.cases.some((c) => c.test(id)));
}
