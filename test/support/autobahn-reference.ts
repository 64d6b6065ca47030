/**
 * The original Autobahn|Testsuite's recorded facts (test/fixtures/autobahn/, README there): its case
 * list in order, two of its per-case reports, and its verdicts for the ws client. Every test and the
 * bench read them through here, from inside the repository.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Compiled to dist/test/support/; the data stays in the source tree.
const DIR = new URL('../../../test/fixtures/autobahn/', import.meta.url);

/** A reference file's path on disk. */
export function referencePath(file: string): string {
  return fileURLToPath(new URL(file, DIR));
}

export interface ReferenceCaseRow {
  /** 1-based /runCase?case=N index with every case selected. */
  index: number;
  id: string;
  category: string;
  subcategory: string;
}

/** Autobahn's 517 case ids in its own order, with category and subcategory. */
export function referenceCaseRows(): ReferenceCaseRow[] {
  return readFileSync(referencePath('autobahn-case-ids.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [index, id, category, subcategory] = line.split('\t');
      return { index: Number(index), id: id ?? '', category: category ?? '', subcategory: subcategory ?? '' };
    });
}

export interface ReferenceVerdict {
  behavior: string;
  behaviorClose: string;
  remoteCloseCode: number | null;
  /** Milliseconds, on the original's CPython server. */
  duration: number;
}

/** The verdicts the original gave ws 8.23.0, by case id. */
export function referenceVerdictsWs(): Record<string, ReferenceVerdict> {
  return (JSON.parse(readFileSync(referencePath('autobahn-verdicts-ws.json'), 'utf8')) as { cases: Record<string, ReferenceVerdict> }).cases;
}

/** The cases where the bundled client (maxFragments 0) differs from ws's defaults on purpose. */
export const WS_REFERENCE_EXCEPTIONS: ReadonlySet<string> = new Set(['9.3.1', '9.3.2', '9.4.1', '9.4.2']);

/** The original's per-case JSON report, exactly as it wrote it. */
export function referenceReportText(id: '6.9.2' | '6.12.7'): string {
  return readFileSync(referencePath(`autobahn-report-${id}.json`), 'utf8');
}
