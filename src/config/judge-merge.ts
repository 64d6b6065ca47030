/**
 * The settings of `wsgate judge` and `wsgate merge`, resolved from the command's flags or the API's
 * options: absolute paths, the verdicts that fail, the defaults.
 */
import path from 'node:path';
import { failingVerdicts } from '../model/verdicts.js';
import { splitList } from '../util/patterns.js';

/** What `wsgate judge` needs. */
export interface JudgeConfig {
  /** The report directory holding index.json. */
  outdir: string;
  /** The agent to judge; null: the only agent in index.json. */
  agent: string | null;
  /**
   * Case patterns that must have results; empty: the spec file's selection (`spec`), else the
   * selection in the summary.json of the wsgate run that wrote the reports, else the whole catalogue.
   */
  cases: string[];
  /** The spec file `wstest` ran from (fuzzingclient.json, fuzzingserver.json): its cases and exclusions are what must be there. */
  spec: string | null;
  /** Patterns may name wsgate's own group 14 (as --extended does for run, serve and list). */
  extended: boolean;
  excludeCases: string[];
  failOn: string[];
  strict: boolean;
  baseline: string | null;
  writeBaseline: string | null;
  github: boolean | null;
  /** --quiet: the summary only, no line per failing case. */
  quiet: boolean;
  junit: string;
  json: string;
}

/** What `judge` is given (the command's flags, the API's options): paths relative to the working directory. */
export interface JudgeInput {
  /** Default: ./reports/clients. */
  outdir?: string | undefined;
  agent?: string | undefined;
  cases?: readonly string[] | undefined;
  excludeCases?: readonly string[] | undefined;
  spec?: string | undefined;
  extended?: boolean | undefined;
  strict?: boolean | undefined;
  failOn?: readonly string[] | undefined;
  baseline?: string | undefined;
  writeBaseline?: string | undefined;
  github?: boolean | null | undefined;
  quiet?: boolean | undefined;
  junit?: string | undefined;
  json?: string | undefined;
}

/** The judge's settings from its input: absolute paths, the verdicts that fail, the defaults. */
export function judgeConfig(input: JudgeInput): JudgeConfig {
  const outdir = path.resolve(input.outdir ?? './reports/clients');
  const strict = input.strict ?? false;
  return {
    outdir,
    agent: input.agent ?? null,
    cases: splitList(input.cases ?? []),
    excludeCases: splitList(input.excludeCases ?? []),
    spec: input.spec === undefined ? null : path.resolve(input.spec),
    extended: input.extended === true,
    failOn: [...failingVerdicts(input.failOn === undefined ? null : splitList(input.failOn), strict)],
    strict,
    baseline: input.baseline === undefined ? null : path.resolve(input.baseline),
    writeBaseline: input.writeBaseline === undefined ? null : path.resolve(input.writeBaseline),
    github: input.github ?? null,
    quiet: input.quiet === true,
    junit: path.resolve(input.junit ?? path.join(outdir, 'junit.xml')),
    json: path.resolve(input.json ?? path.join(outdir, 'summary.json')),
  };
}

/** What `merge` is given (the command's flags, the API's options): paths relative to the working directory. */
export interface MergeInput {
  /** The run directories to join, each with summary.json. */
  inputs: readonly string[];
  outdir: string;
  junit?: string | undefined;
  json?: string | undefined;
  github?: boolean | null | undefined;
}

/** The merge's settings from its input: absolute paths and the default JUnit and summary files. */
export function mergeConfig(input: MergeInput, env: NodeJS.ProcessEnv): MergeOptions {
  const outdir = path.resolve(input.outdir);
  return {
    inputs: input.inputs.map((d) => path.resolve(d)),
    outdir,
    junit: path.resolve(input.junit ?? path.join(outdir, 'junit.xml')),
    json: path.resolve(input.json ?? path.join(outdir, 'summary.json')),
    github: input.github ?? null,
    env,
  };
}

/** What to merge and where to write it. */
export interface MergeOptions {
  inputs: string[];
  outdir: string;
  junit: string;
  json: string;
  /** --github, or null: inside GitHub Actions only. */
  github: boolean | null;
  env: NodeJS.ProcessEnv;
}
