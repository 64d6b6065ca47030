/**
 * Which spec file `wstest` reads, as the original decides it: -s's file, else `<mode>.json` in the
 * working directory, written with the original's defaults when missing. The file is read by the one
 * reader of spec files (../config/spec.ts) in its `wstest` reading.
 */
import { writeFileSync } from 'node:fs';
import { readSpec, specFromJson, type SpecSettings } from '../config/spec.js';

/** The modes that read a spec file. */
export type SpecMode = 'fuzzingserver' | 'fuzzingclient';

/** The original's defaults, written as `<mode>.json` when no --spec is given and the file is missing. */
export const DEFAULT_SPECS: Readonly<Record<SpecMode, object>> = {
  fuzzingserver: { url: 'ws://127.0.0.1:9001', outdir: './reports/clients', cases: ['*'], 'exclude-cases': [], 'exclude-agent-cases': {} },
  fuzzingclient: { outdir: './reports/servers', servers: [{ url: 'ws://127.0.0.1:9001' }], cases: ['*'], 'exclude-cases': [], 'exclude-agent-cases': {} },
};

/** Where the spec came from, and what to tell about it (the original's "Using implicit spec file" lines). */
export interface LoadedSpec {
  spec: SpecSettings;
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
  if (given !== undefined) return { spec: readSpec(given, 'wstest'), notes: [`Using explicit spec file '${given}'`], written: null };
  const file = `${mode}.json`;
  const defaults = mode === 'fuzzingclient' && wsuri !== undefined ? { ...DEFAULT_SPECS.fuzzingclient, servers: [{ url: wsuri }] } : DEFAULT_SPECS[mode];
  try {
    writeFileSync(file, `${JSON.stringify(defaults, null, 3)}\n`, { flag: 'wx' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return { spec: readSpec(file, 'wstest'), notes: [`Using implicit spec file '${file}'`], written: null };
    const note = `Using the default spec: cannot write '${file}' (${code ?? (err as Error).message})`;
    return { spec: specFromJson(file, defaults, 'wstest'), notes: [note], written: null };
  }
  return { spec: readSpec(file, 'wstest'), notes: [`Auto-generating spec file '${file}'`], written: file };
}
