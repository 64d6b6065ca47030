/**
 * Reading a JSON file a user gave (a spec file, a baseline, a report index, a run's summary): any
 * failure, from reading to validating, is one UsageError line that names the file.
 */
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { UsageError } from '../errors.js';

/** Why a file could not be read, in a few words. */
function readFailure(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'EACCES') return 'permission denied';
  return (err as Error).message;
}

/**
 * The file's JSON value, checked by `validate` (which throws UsageError, or returns the value it
 * accepts). `what` names the file in the message: "cannot read the baseline: no such file".
 */
export function readJsonFile<T>(file: string, what: string, validate: (value: unknown) => T): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${file}: cannot read ${what}: ${readFailure(err)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${file}: not valid JSON: ${(err as Error).message.split('\n')[0] ?? ''}`);
  }
  return validate(value);
}

/** A validator from a zod schema: the first issue, with its key path, as the message. */
export function zodValidator<T extends z.ZodType>(file: string, schema: T): (value: unknown) => z.infer<T> {
  return (value) => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const at = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
    throw new UsageError(`${file}: ${at}${issue?.message ?? 'invalid content'}`);
  };
}
