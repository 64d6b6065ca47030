/**
 * What a command's handler sets up before it works: the logger and the spec file. Kept apart from
 * the options (shared.ts) so that main() loads pino and the spec reader only for a command that
 * runs, never for --help, a usage error or `list`.
 */
import { pino, type Logger } from 'pino';
import { readSpec, type SpecSettings } from '../config/spec.js';

/** pino on stderr (stdout carries the human progress lines). */
export function makeLogger(level: string): Logger {
  return pino({ level, base: null }, pino.destination({ dest: 2, sync: true }));
}

/**
 * The spec file of `--spec FILE` (the API's `spec`), read strictly, or null without one; its warnings
 * (values wsgate does not honour) go to `warnings` (stderr for the command line).
 */
export function specOption(file: string | undefined, warnings: NodeJS.WritableStream | undefined): SpecSettings | null {
  if (file === undefined) return null;
  const spec = readSpec(file, 'wsgate');
  for (const w of spec.warnings) warnings?.write(`wsgate: warning: ${file}: ${w}\n`);
  return spec;
}
