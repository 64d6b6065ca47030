/**
 * Autobahn's fuzzingserver.json spec file (`--spec FILE`): read, validated strictly (an unknown key or a
 * wrong type is one line naming the key and the file, exit 2), and turned into wsgate options.
 * The keys are the ones Autobahn's fuzzing server reads (autobahntestsuite/fuzzing.py, wstest.py);
 * `options` holds autobahn-python 0.10.9's server protocol options (`setProtocolOptions`).
 */
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { catalogueFor } from '../cases/registry.js';
import type { CatalogueCase } from '../cases/types.js';
import { selectCases, SelectionError } from '../cases/select.js';
import { UsageError } from '../errors.js';
import { parseListenUrl, parseServerUrl } from './url.js';
import type { ServerProtocolOptions } from '../server/upgrade.js';
import { wildcard } from '../util/patterns.js';
import { readJsonFile } from './json-file.js';

/** One `options` key: its JSON type, Autobahn's value in the fuzzing server, and how wsgate honours it. */
interface OptionSpec {
  schema: z.ZodType;
  /** What the type error says the value must be. */
  phrase: string;
  /** The value the fuzzing server runs with when the key is absent. */
  autobahnDefault: unknown;
  /** Sets the protocol option when wsgate honours the key; absent: a value other than the default is warned about. */
  apply?: (value: never, options: Partial<ServerProtocolOptions>) => void;
}

const bool = { schema: z.boolean(), phrase: 'a boolean' } as const;
const seconds = { schema: z.number().nonnegative(), phrase: 'a number of seconds (>= 0)' } as const;
const count = { schema: z.number().int().nonnegative(), phrase: 'a whole number (>= 0)' } as const;

/**
 * autobahn-python 0.10.9 `WebSocketServerFactory.setProtocolOptions` parameters; any other key makes
 * Autobahn raise a TypeError at startup, so it is an error here too. Defaults as the fuzzing server
 * has them (it forces failByDrop=False before applying the spec's options).
 */
export const AUTOBAHN_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  versions: { schema: z.array(z.number().int()), phrase: 'an array of whole numbers', autobahnDefault: [0, 8, 13] },
  allowHixie76: { ...bool, autobahnDefault: false },
  webStatus: { ...bool, autobahnDefault: true },
  utf8validateIncoming: { ...bool, autobahnDefault: true },
  maskServerFrames: { ...bool, autobahnDefault: false },
  requireMaskedClientFrames: { ...bool, autobahnDefault: true },
  applyMask: { ...bool, autobahnDefault: true },
  maxFramePayloadSize: { ...count, autobahnDefault: 0 },
  maxMessagePayloadSize: { ...count, autobahnDefault: 0 },
  autoFragmentSize: { ...count, autobahnDefault: 0 },
  failByDrop: {
    ...bool,
    autobahnDefault: false,
    apply: (v: boolean, s) => {
      s.failByDrop = v;
    },
  },
  echoCloseCodeReason: { ...bool, autobahnDefault: false },
  openHandshakeTimeout: {
    ...seconds,
    autobahnDefault: 5,
    apply: (v: number, s) => {
      s.openHandshakeTimeoutMs = Math.round(v * 1000);
    },
  },
  closeHandshakeTimeout: {
    ...seconds,
    autobahnDefault: 1,
    apply: (v: number, s) => {
      s.closeHandshakeTimeoutMs = Math.round(v * 1000);
    },
  },
  tcpNoDelay: { ...bool, autobahnDefault: true },
  // A Python callable in Autobahn: JSON cannot express one, so any value is only warned about.
  perMessageCompressionAccept: { schema: z.unknown(), phrase: 'anything', autobahnDefault: undefined },
  autoPingInterval: { ...seconds, autobahnDefault: 0 },
  autoPingTimeout: { ...seconds, autobahnDefault: 0 },
  autoPingSize: { schema: z.number().int().min(4).max(125), phrase: 'a whole number from 4 to 125', autobahnDefault: 4 },
  serveFlashSocketPolicy: { ...bool, autobahnDefault: false },
  flashSocketPolicy: { schema: z.string(), phrase: 'a string', autobahnDefault: undefined },
  allowedOrigins: { schema: z.array(z.string()), phrase: 'an array of strings', autobahnDefault: ['*'] },
  maxConnections: { ...count, autobahnDefault: 0 },
};

const stringArray = z.array(z.string());

/**
 * The top-level keys with their schema and the phrase of their type error. Extend it here (a new key,
 * its schema and its phrase) and the file validation, error messages and docs follow.
 */
export const SPEC_KEYS = {
  url: { schema: z.string(), phrase: 'a string (ws://HOST:PORT)' },
  outdir: { schema: z.string().min(1), phrase: 'a non-empty string (a directory)' },
  cases: { schema: stringArray, phrase: 'an array of strings' },
  'exclude-cases': { schema: stringArray, phrase: 'an array of strings' },
  'exclude-agent-cases': {
    schema: z.record(z.string(), stringArray),
    phrase: 'an object mapping agent patterns to arrays of case patterns',
  },
  options: {
    schema: z.strictObject(Object.fromEntries(Object.entries(AUTOBAHN_OPTIONS).map(([k, o]) => [k, o.schema.optional()]))),
    phrase: 'an object of Autobahn protocol options',
  },
  // Autobahn stores `protocols` but its fuzzing server never selects a subprotocol; wsgate behaves the same.
  protocols: { schema: stringArray, phrase: 'an array of strings' },
  // Autobahn's example files carry "webport", which its fuzzing server ignores (only the -w flag counts).
  webport: { schema: z.number().int(), phrase: 'a whole number' },
  key: { schema: z.string(), phrase: 'a string (a file)' },
  cert: { schema: z.string(), phrase: 'a string (a file)' },
  // wsgate's own key: its group 14 after Autobahn's cases (as --extended).
  extended: { schema: z.boolean(), phrase: 'true or false' },
  // fuzzingclient.json: the servers under test (wsgate is then the fuzzing client).
  servers: {
    schema: z
      .array(
        z.strictObject({
          agent: z.string().min(1).optional(),
          url: z.string(),
          options: z.record(z.string(), z.unknown()).optional(),
          hostname: z.string().optional(),
          origin: z.string().optional(),
          protocols: stringArray.optional(),
        }),
      )
      .min(1),
    phrase: 'a non-empty array of {"agent", "url", "options"} objects',
  },
} as const satisfies Record<string, { schema: z.ZodType; phrase: string }>;

type SpecKey = keyof typeof SPEC_KEYS;

const specSchema = z.strictObject(
  Object.fromEntries(Object.entries(SPEC_KEYS).map(([k, v]) => [k, v.schema.optional()])) as {
    [K in SpecKey]: z.ZodOptional<(typeof SPEC_KEYS)[K]['schema']>;
  },
);

/** The validated content of a spec file. */
export type SpecFile = z.infer<typeof specSchema>;

/** What a spec file contributes to a run or a server, plus the warnings to print. */
export interface SpecSettings {
  /** The file as the user named it (for messages). */
  file: string;
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
  servers?: Array<{ url: string; agent: string | null }>;
  /** Protocol options the file's `options` set (the ones wsgate honours). */
  protocolOptions: Partial<ServerProtocolOptions>;
  warnings: string[];
}

/** The phrase of the key a zod issue is about (the longest known prefix of its path), and that key. */
function describe(path: readonly PropertyKey[]): { key: string; phrase: string } {
  const [top, sub] = path.map(String);
  if (top === 'options' && sub !== undefined && sub in AUTOBAHN_OPTIONS) {
    return { key: `options.${sub}`, phrase: AUTOBAHN_OPTIONS[sub]?.phrase ?? '' };
  }
  if (top !== undefined && top in SPEC_KEYS) return { key: top, phrase: SPEC_KEYS[top as SpecKey].phrase };
  return { key: path.map(String).join('.'), phrase: 'valid' };
}

function specError(file: string, message: string): UsageError {
  return new UsageError(`${file}: ${message}`);
}

/** Checks a parsed JSON value against the spec format; throws one UsageError naming the key. */
export function validateSpec(file: string, value: unknown): SpecFile {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw specError(file, 'a spec file must hold a JSON object (Autobahn fuzzingserver.json format)');
  }
  const parsed = specSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue === undefined) throw specError(file, 'invalid spec');
  if (issue.code === 'unrecognized_keys') {
    const key = [...issue.path.map(String), issue.keys[0] ?? ''].join('.');
    const known = issue.path.length === 0 ? Object.keys(SPEC_KEYS) : Object.keys(AUTOBAHN_OPTIONS);
    const what = issue.path.length === 0 ? 'a fuzzingserver.json key' : 'an Autobahn protocol option';
    throw specError(file, `unknown key "${key}": not ${what} (known: ${known.join(', ')})`);
  }
  const { key, phrase } = describe(issue.path);
  throw specError(file, `"${key}" must be ${phrase}`);
}

/** Checks case patterns the way the selection will use them, naming the file and key on error. */
function checkPatterns(file: string, key: string, patterns: readonly string[], cases: readonly CatalogueCase[]): void {
  try {
    selectCases(cases, patterns);
  } catch (err) {
    if (err instanceof SelectionError) throw specError(file, `"${key}": ${err.message}`);
    throw err;
  }
}

/** Reads, parses and validates a spec file; throws UsageError (exit 2) with one line on any problem. */
export function loadSpec(file: string): SpecSettings {
  return specSettings(file, readJsonFile(file, 'the spec file', (json) => validateSpec(file, json)));
}

/** Turns a validated spec into settings: checks patterns, applies honoured options, collects warnings. */
export function specSettings(file: string, spec: SpecFile): SpecSettings {
  const warnings: string[] = [];
  if (spec.url !== undefined) {
    try {
      parseListenUrl(spec.url);
    } catch (err) {
      if (err instanceof UsageError) throw specError(file, `"url": ${err.message.replace(/^--url:? /, '')}`);
      throw err;
    }
  }
  const cases = catalogueFor(spec.extended === true);
  if (spec.cases) checkPatterns(file, 'cases', spec.cases, cases);
  if (spec['exclude-cases']) checkPatterns(file, 'exclude-cases', spec['exclude-cases'], cases);
  const excludeAgentCases = spec['exclude-agent-cases'] ?? {};
  for (const [agent, patterns] of Object.entries(excludeAgentCases)) {
    for (const p of patterns) {
      if (!/^[0-9.*]+$/.test(p)) throw specError(file, `"exclude-agent-cases": bad case pattern ${JSON.stringify(p)} for agent ${JSON.stringify(agent)}`);
    }
  }
  const protocolOptions: Partial<ServerProtocolOptions> = {};
  for (const [key, value] of Object.entries(spec.options ?? {})) {
    const option = AUTOBAHN_OPTIONS[key];
    if (option === undefined || value === undefined) continue;
    if (option.apply !== undefined) option.apply(value as never, protocolOptions);
    else if (!isDeepStrictEqual(value, option.autobahnDefault)) {
      warnings.push(`options.${key} = ${JSON.stringify(value)} is not honoured: wsgate runs as Autobahn's fuzzing server does by default`);
    }
  }
  if (spec.servers !== undefined) {
    if (spec.url !== undefined) throw specError(file, '"servers" (fuzzingclient.json) and "url" (fuzzingserver.json) do not go together');
    for (const [i, server] of spec.servers.entries()) {
      try {
        parseServerUrl(server.url);
      } catch (err) {
        if (err instanceof UsageError) throw specError(file, `"servers[${i}].url": ${err.message.replace(/^--server-url:? /, '')}`);
        throw err;
      }
      for (const key of ['hostname', 'origin', 'protocols', 'options'] as const) {
        if (server[key] !== undefined) warnings.push(`servers[${i}].${key} is not honoured: wsgate's fuzzing client runs with Autobahn's defaults`);
      }
    }
  }
  if ((spec.key === undefined) !== (spec.cert === undefined)) throw specError(file, '"key" and "cert" go together (the server certificate and its private key)');
  return {
    file,
    ...(spec.url !== undefined ? { url: spec.url } : {}),
    ...(spec.outdir !== undefined ? { outdir: spec.outdir } : {}),
    ...(spec.cases !== undefined ? { cases: spec.cases } : {}),
    ...(spec['exclude-cases'] !== undefined ? { excludeCases: spec['exclude-cases'] } : {}),
    ...(spec.extended !== undefined ? { extended: spec.extended } : {}),
    ...(spec.cert !== undefined ? { cert: spec.cert } : {}),
    ...(spec.key !== undefined ? { key: spec.key } : {}),
    ...(spec.servers?.[0] !== undefined ? { server: { url: spec.servers[0].url, agent: spec.servers[0].agent ?? null } } : {}),
    ...(spec.servers !== undefined ? { servers: spec.servers.map((s) => ({ url: s.url, agent: s.agent ?? null })) } : {}),
    excludeAgentCases,
    protocolOptions,
    warnings,
  };
}

/**
 * How the patterns of a spec file read: wsgate's (`*` any run, everything else literal) or, through
 * `wstest`, the original's (`.` literal, `*` any run, any other regular-expression syntax as written).
 */
export type PatternSyntax = 'wsgate' | 'autobahn';

/** The original's pattern as a regular expression, anchored at both ends (caseset.py's exclude-agent-cases). */
export function autobahnAnchored(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/\./g, '\\.').replace(/\*/g, '.*')}$`);
}

/**
 * A predicate telling whether `exclude-agent-cases` leaves case `id` out for `agent` (Autobahn's
 * patterns: anchored at both ends, `*` any run; everything else literal, or regular-expression syntax
 * under the original's reading).
 */
export function agentCaseExcluder(rules: Readonly<Record<string, readonly string[]>>, syntax: PatternSyntax = 'wsgate'): (agent: string, id: string) => boolean {
  const compile = syntax === 'autobahn' ? autobahnAnchored : (p: string) => wildcard(p);
  const compiled = Object.entries(rules).map(([agent, cases]) => ({ agent: compile(agent), cases: cases.map((c) => compile(c)) }));
  if (compiled.length === 0) return () => false;
  return (agent, id) => compiled.some((r) => r.agent.test(agent) && r.cases.some((c) => c.test(id)));
}
