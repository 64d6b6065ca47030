/**
 * The `options` of an Autobahn spec file (and of each fuzzingclient.json server): autobahn-python
 * 0.10.9's protocol options (`setProtocolOptions`). wsgate honours a few; any other value than
 * Autobahn's default is warned about. Read strictly (`wsgate --spec`) an unknown key or a value of the
 * wrong type is an error; read as `wstest` does, an unknown key is only warned about and only the
 * values wsgate reads are type-checked.
 */
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { UsageError } from '../errors.js';
import type { ServerProtocolOptions } from '../server/upgrade.js';

/** How a spec file is read: strictly (`wsgate --spec`) or as the original `wstest` reads it. */
export type SpecReading = 'wsgate' | 'wstest';

/** One `options` key: its JSON type, Autobahn's value when absent, and how wsgate honours it. */
interface OptionSpec {
  schema: z.ZodType;
  /** What the type error says the value must be. */
  phrase: string;
  /** The value Autobahn runs with when the key is absent. */
  autobahnDefault: unknown;
  /** Sets the protocol option when wsgate honours the key. */
  apply?: (value: never, options: Partial<ServerProtocolOptions>) => void;
  /** Why a value is not honoured (null: it is), for keys wsgate reads without setting anything. */
  unhonoured?: (value: never) => string | null;
  /** A key of the original's fuzzing client only (its server factory refuses it): read as `wstest` only. */
  clientOnly?: true;
}

const bool = { schema: z.boolean(), phrase: 'true or false' } as const;
const seconds = { schema: z.number().nonnegative(), phrase: 'a number of seconds (>= 0)' } as const;
const count = { schema: z.number().int().nonnegative(), phrase: 'a whole number (>= 0)' } as const;

/**
 * autobahn-python 0.10.9 `WebSocketServerFactory.setProtocolOptions` parameters; any other key makes
 * Autobahn raise a TypeError at startup, so it is an error under `wsgate --spec`. Defaults as the fuzzing
 * server has them (it forces failByDrop=False before applying the spec's options). `version` is the
 * client factory's draft number: 13 to 18 are RFC 6455's wire protocol (18 is its final draft).
 */
export const AUTOBAHN_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  versions: { schema: z.array(z.number().int()), phrase: 'an array of whole numbers', autobahnDefault: [0, 8, 13] },
  version: {
    schema: z.number().int(),
    phrase: 'a whole number',
    autobahnDefault: 18,
    clientOnly: true,
    unhonoured: (v: number) => (v >= 13 && v <= 18 ? null : 'wsgate speaks RFC 6455 (versions 13 to 18)'),
  },
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

/** The protocol options an `options` object sets, and a warning for each value wsgate does not honour. */
export interface OptionsRead {
  options: Partial<ServerProtocolOptions>;
  warnings: string[];
}

const notHonoured = (where: string, key: string, value: unknown, why: string): string => `${where}.${key} = ${JSON.stringify(value)} is not honoured: ${why}`;
const DEFAULT_WHY = "wsgate runs with Autobahn's default";

/**
 * Reads an `options` object (`where` names it in messages: "options", "servers.0.options"). Throws a
 * UsageError naming the file and key for an option that is an error under `reading`.
 */
export function protocolOptionsOf(file: string, where: string, given: Readonly<Record<string, unknown>> | undefined, reading: SpecReading): OptionsRead {
  const read: OptionsRead = { options: {}, warnings: [] };
  for (const [key, value] of Object.entries(given ?? {})) {
    const option = AUTOBAHN_OPTIONS[key];
    if (option === undefined || (reading === 'wsgate' && option.clientOnly === true)) {
      if (reading === 'wsgate') {
        const known = Object.entries(AUTOBAHN_OPTIONS)
          .filter(([, o]) => o.clientOnly !== true)
          .map(([k]) => k);
        throw new UsageError(`${file}: unknown key "${where}.${key}": not an Autobahn protocol option (known: ${known.join(', ')})`);
      }
      read.warnings.push(notHonoured(where, key, value, DEFAULT_WHY));
      continue;
    }
    const readsValue = option.apply !== undefined || option.unhonoured !== undefined;
    if (!option.schema.safeParse(value).success) {
      if (reading === 'wsgate' || readsValue) throw new UsageError(`${file}: "${where}.${key}" must be ${option.phrase}`);
      read.warnings.push(notHonoured(where, key, value, DEFAULT_WHY));
      continue;
    }
    if (option.apply !== undefined) option.apply(value as never, read.options);
    const why =
      option.unhonoured !== undefined
        ? option.unhonoured(value as never)
        : isDeepStrictEqual(value, option.autobahnDefault) || option.apply !== undefined
          ? null
          : DEFAULT_WHY;
    if (why !== null) read.warnings.push(notHonoured(where, key, value, why));
  }
  return read;
}
