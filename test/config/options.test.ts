/**
 * The one table of options (src/config/options/table.ts) and the front doors that restate it: the schema's
 * keys and types, action.yml's inputs and their defaults, the API's keys and docs/commands.md. The
 * command line's flags and the Action's input map are built from the table, so they cannot drift;
 * these can, and `drift` names every place they do. Its own test feeds it drifted copies.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { z } from 'zod';
import { ACTION_INPUTS } from '../../src/action.js';
import { run, startServer, UsageError, type RunOptions, type ServerOptions } from '../../src/api.js';
import {
  OPTION_GROUPS,
  optionKey,
  RUN_OPTIONS,
  SERVE_OPTIONS,
  type OptionKey,
  type OptionSpec,
  type RunFlag,
  type ServeFlag,
} from '../../src/config/options/table.js';
import { runSchema, serverSchema } from '../../src/config/schema.js';
import { readAction } from '../support/action-runner.js';
import { runMain } from '../support/cli-env.js';
import { DOCS_FILE, generatedPart, optionsReference } from './options-reference.js';

/** The Action's inputs that are no option of run: judging reports instead of running, the working directory. */
const ACTION_ONLY = ['judge-reports', 'working-directory'];

/** What the front doors say, as the drift check reads them. */
interface FrontDoors {
  /** The zod schemas' keys and each one's base type (string, number, boolean, array, enum). */
  runSchema: Record<string, string>;
  serveSchema: Record<string, string>;
  /** action.yml's inputs and their defaults. */
  actionInputs: Record<string, { default: string }>;
  docs: string;
}

/** A zod schema's keys and base types, defaults, nullables and optionals unwrapped. */
function schemaTypes(schema: z.ZodObject): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    let s = field as z.ZodType;
    while (['default', 'nullable', 'optional'].includes(s.def.type)) s = (s.def as unknown as { innerType: z.ZodType }).innerType;
    out[key] = s.def.type;
  }
  return out;
}

/** The zod base types an option's flag type goes with (a free string may be narrowed to a list, as --log-level is). */
function schemaTypesFor(o: OptionSpec): string[] {
  if (o.array === true) return ['array'];
  if (o.choices !== undefined) return ['enum'];
  return o.type === 'string' ? ['string', 'enum'] : [o.type];
}

function schemaDrift(table: readonly OptionSpec[], schema: Record<string, string>, name: string): string[] {
  const problems: string[] = [];
  const settings = table.filter((o) => o.source !== true);
  for (const o of settings) {
    const type = schema[optionKey(o.flag)];
    if (type === undefined) problems.push(`${name} has no key ${optionKey(o.flag)} (--${o.flag})`);
    else if (!schemaTypesFor(o).includes(type)) problems.push(`${name}.${optionKey(o.flag)} is ${type}, --${o.flag} is ${o.type}${o.array ? '[]' : ''}`);
  }
  for (const key of Object.keys(schema)) if (!settings.some((o) => optionKey(o.flag) === key)) problems.push(`${name}.${key} is in no row of the table`);
  return problems;
}

/** Every disagreement between the table and the front doors, one line each. */
export function drift(table: readonly OptionSpec[], doors: FrontDoors): string[] {
  const problems = [
    ...schemaDrift(table, doors.runSchema, 'runSchema'),
    ...schemaDrift(
      table.filter((o) => o.serve === true),
      doors.serveSchema,
      'serverSchema',
    ),
  ];
  const inputs = new Map<string, OptionSpec>();
  for (const o of table) if ('input' in o.action) inputs.set(o.action.input, o);
  for (const [input, o] of inputs) {
    const declared = doors.actionInputs[input];
    const expected = o.type === 'boolean' ? 'false' : '';
    if (declared === undefined) problems.push(`action.yml has no input ${input} (--${o.flag})`);
    else if (declared.default !== expected)
      problems.push(`action.yml input ${input} defaults to ${JSON.stringify(declared.default)}, not ${JSON.stringify(expected)}`);
  }
  for (const input of Object.keys(doors.actionInputs))
    if (!inputs.has(input) && !ACTION_ONLY.includes(input)) problems.push(`action.yml input ${input} is in no row of the table`);
  if (generatedPart(doors.docs) !== optionsReference(table))
    problems.push('docs/commands.md: the options part is not what the table renders (node dist/test/config/options-reference.js --write)');
  return problems;
}

const doors: FrontDoors = {
  runSchema: schemaTypes(runSchema),
  serveSchema: schemaTypes(serverSchema),
  actionInputs: readAction().inputs,
  docs: readFileSync(DOCS_FILE, 'utf8'),
};

describe('the table of options', () => {
  test('each row is whole: a kebab-case flag once, a group, a description; an Action input or why there is none', () => {
    const flags = RUN_OPTIONS.map((o) => o.flag);
    assert.deepEqual(flags, [...new Set(flags)]);
    for (const o of RUN_OPTIONS as readonly OptionSpec[]) {
      assert.match(o.flag, /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
      assert.ok(o.group in OPTION_GROUPS, o.flag);
      assert.ok(o.describe.length > 10, o.flag);
      if ('input' in o.action) assert.match(o.action.input, /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
      else assert.ok(o.action.none.length > 10, `--${o.flag}: say why the Action has no input`);
    }
  });

  test('the schema, action.yml and docs/commands.md agree with it', () => {
    assert.deepEqual(drift(RUN_OPTIONS, doors), []);
  });

  test('a CI user of run has every input a sharding matrix needs', () => {
    for (const input of ['shard', 'jobs', 'extended', 'repro', 'seed', 'cases', 'reports-directory', 'server-command', 'browser'])
      assert.ok(input in ACTION_INPUTS && input in doors.actionInputs, input);
    assert.deepEqual(ACTION_INPUTS.shard, { flag: '--shard', kind: 'string', judge: false });
    assert.deepEqual(ACTION_INPUTS['fail-on'], { flag: '--fail-on', kind: 'verdicts', judge: true });
  });

  test('drift is caught: an input missing from action.yml, a key the schema adds or retypes, a row the page lacks', () => {
    const { jobs: _jobs, ...withoutJobs } = doors.actionInputs;
    assert.deepEqual(drift(RUN_OPTIONS, { ...doors, actionInputs: withoutJobs }), ['action.yml has no input jobs (--jobs)']);
    assert.deepEqual(drift(RUN_OPTIONS, { ...doors, actionInputs: { ...doors.actionInputs, seed: { default: '0' } } }), [
      'action.yml input seed defaults to "0", not ""',
    ]);
    assert.deepEqual(drift(RUN_OPTIONS, { ...doors, runSchema: { ...doors.runSchema, jobs: 'string', colour: 'boolean' } }), [
      'runSchema.jobs is string, --jobs is number',
      'runSchema.colour is in no row of the table',
    ]);
    // A row added to the table alone: no schema key, no input, not on the page.
    const added: OptionSpec = { flag: 'colour', group: 'reports', type: 'boolean', describe: 'Colours on the console', action: { input: 'colour' } };
    assert.deepEqual(drift([...RUN_OPTIONS, added], doors), [
      'runSchema has no key colour (--colour)',
      'action.yml has no input colour (--colour)',
      'docs/commands.md: the options part is not what the table renders (node dist/test/config/options-reference.js --write)',
    ]);
  });
});

// The API's option interfaces hold exactly the table's keys, camelCase, and what only a caller gives:
// a key added to one and not the other fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const runKeysMatch: Same<keyof RunOptions, OptionKey<RunFlag> | 'signal' | 'output' | 'env'> = true;
const serveKeysMatch: Same<keyof ServerOptions, OptionKey<ServeFlag> | 'output' | 'env'> = true;

describe('the API takes the table', () => {
  test('run and startServer accept every key of the table (and still refuse one outside it)', async () => {
    assert.ok(runKeysMatch && serveKeysMatch);
    const unset = (options: readonly OptionSpec[]) => Object.fromEntries(options.map((o) => [optionKey(o.flag), undefined]));
    await assert.rejects(
      run({ ...unset(RUN_OPTIONS), colour: true } as RunOptions),
      (e) => e instanceof UsageError && e.message === 'run: unknown option colour',
    );
    await assert.rejects(
      startServer({ ...unset(SERVE_OPTIONS), colour: true } as ServerOptions),
      (e) => e instanceof UsageError && e.message === 'startServer: unknown option colour',
    );
  });
});

/** The options a command's --help lists (the lines that start with one: six spaces, or a short alias), --help and --version aside. */
async function helpFlags(command: string): Promise<string[]> {
  const res = await runMain([command, '--help']);
  assert.equal(res.code, 0, res.stderr);
  const flags = [...res.stdout.matchAll(/^(?: {6}| {2}-\w, )--([a-z0-9-]+)/gm)].map((m) => m[1] ?? '');
  return flags.filter((f) => f !== 'help' && f !== 'version').sort();
}

describe('every command and every option is on the reference page', () => {
  test("run and serve list exactly the table's options", async () => {
    assert.deepEqual(await helpFlags('run'), RUN_OPTIONS.map((o) => o.flag).sort());
    assert.deepEqual(await helpFlags('serve'), SERVE_OPTIONS.map((o) => o.flag).sort());
  });

  test('judge, merge, list and repro: the flags of their section of docs/commands.md are the ones --help lists', async () => {
    for (const command of ['judge', 'merge', 'list', 'repro']) {
      const section = doors.docs.split(`\n## \`wsgate ${command}\`\n`)[1]?.split('\n## ')[0];
      assert.ok(section !== undefined, `docs/commands.md has no section for ${command}`);
      const documented = [...new Set([...section.matchAll(/`--([a-z0-9-]+)/g)].map((m) => m[1] ?? ''))].sort();
      assert.deepEqual(documented, await helpFlags(command), command);
      assert.match(doors.docs, new RegExp(`^\\| \`wsgate ${command}`, 'm'), `${command} is in the table of commands`);
    }
  });
});
