/**
 * A node:test reporter that writes one JSON line per finished test: its file, name, nesting, whether
 * it is a leaf (no subtests), and its duration. test/suite.ts prints the slowest from it.
 */
import type { TestEvent } from 'node:test/reporters';

/** One line of the timings file. */
export interface TestTiming {
  readonly file: string;
  readonly name: string;
  readonly depth: number;
  readonly leaf: boolean;
  readonly ms: number;
  readonly passed: boolean;
}

export default async function* timings(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  // Per file, how many tests finished at each depth since their parent last did: a parent's event comes after its children's.
  const finished = new Map<string, number[]>();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const data = event.data as { file?: string; name: string; nesting: number; details: { duration_ms?: number } };
    const file = data.file ?? '';
    const counts = finished.get(file) ?? [];
    finished.set(file, counts);
    const leaf = (counts[data.nesting + 1] ?? 0) === 0;
    counts[data.nesting + 1] = 0;
    counts[data.nesting] = (counts[data.nesting] ?? 0) + 1;
    const line: TestTiming = { file, name: data.name, depth: data.nesting, leaf, ms: data.details.duration_ms ?? 0, passed: event.type === 'test:pass' };
    yield `${JSON.stringify(line)}\n`;
  }
}
