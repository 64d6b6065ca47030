/**
 * Autobahn's verdicts: the two axes' strings as types, and which of them fail a case. Everything
 * that names a verdict (the judge, the gate rule, --fail-on, baselines, renderers) takes them from here.
 */
import { UsageError } from '../errors.js';

/** Autobahn's outcome strings for `behavior` (what the peer did). */
export const Behavior = {
  Ok: 'OK',
  NonStrict: 'NON-STRICT',
  Failed: 'FAILED',
  Informational: 'INFORMATIONAL',
  Unimplemented: 'UNIMPLEMENTED',
} as const;

/** Autobahn's outcome strings for `behaviorClose` (how the connection ended). */
export const CloseBehavior = {
  Ok: 'OK',
  Failed: 'FAILED',
  Unclean: 'UNCLEAN',
  WrongCode: 'WRONG CODE',
  FailedByClient: 'FAILED BY CLIENT',
  Informational: 'INFORMATIONAL',
} as const;

/** A verdict of the outcome axis (`behavior`). */
export type OutcomeVerdict = (typeof Behavior)[keyof typeof Behavior];

/** A verdict of the closing axis (`behaviorClose`). */
export type CloseVerdict = (typeof CloseBehavior)[keyof typeof CloseBehavior];

/** Any of the eight verdict strings (both axes together). */
export type Verdict = OutcomeVerdict | CloseVerdict;

/** Autobahn's eight verdict strings (both axes), in the order `--help` lists them. */
export const VERDICTS: readonly Verdict[] = ['OK', 'NON-STRICT', 'FAILED', 'WRONG CODE', 'UNCLEAN', 'FAILED BY CLIENT', 'INFORMATIONAL', 'UNIMPLEMENTED'];

/** Verdict strings that fail a case on either axis by default (the de-facto rule of projects' CI scripts). */
export const FAILING_VERDICTS: ReadonlySet<string> = new Set<Verdict>(['FAILED', 'WRONG CODE', 'UNCLEAN', 'FAILED BY CLIENT']);

/**
 * The verdicts that fail the build: `failOn` (default FAILING_VERDICTS), plus NON-STRICT with `strict`.
 * INFORMATIONAL is never added by `strict`: Autobahn gives it to cases with no right answer (e.g. 7.1.6),
 * so only an explicit `--fail-on INFORMATIONAL` fails on it. Throws UsageError naming an unknown verdict.
 * Names are matched case-insensitively, and `_`/`-` may stand for the space ("wrong_code").
 */
export function failingVerdicts(failOn: readonly string[] | null, strict: boolean): ReadonlySet<string> {
  const out = new Set<string>(failOn === null || failOn.length === 0 ? FAILING_VERDICTS : []);
  for (const raw of failOn ?? []) {
    const name = raw.trim().toUpperCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ');
    if (!(VERDICTS as readonly string[]).includes(name)) {
      throw new UsageError(`--fail-on: unknown verdict ${JSON.stringify(raw)} (one of: ${VERDICTS.join(', ')})`);
    }
    if (name === 'OK') throw new UsageError('--fail-on: OK cannot fail the build');
    out.add(name);
  }
  if (strict) out.add('NON-STRICT');
  return out;
}
