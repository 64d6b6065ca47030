/**
 * The quick profile (`wsgate run --quick`), for a pre-push hook: every group is played, the slow ones
 * by a fixed sample. Of groups 9, 12 and 13, whose cases send megabytes or 1000 round trips each
 * (12 and 13: 216 of 517 cases and most of a whole run's time), each subgroup keeps the case numbers
 * below; every other group is played whole (301 cases in 5.5 s of wall time, BENCHMARKS.md,
 * 2026-11-26, 2x AMD EPYC). The sample is data, not chance: the same cases on every machine and run.
 */
import type { CatalogueCase } from './types.js';

/**
 * Per sampled group, and per subgroup where it differs, the case numbers (the third part of the id)
 * kept of each of its subgroups.
 */
export const QUICK_SAMPLE: Readonly<Record<string, readonly number[]>> = {
  // 9.1.1-9.8.1: each way of moving a large message once: 64 KiB in one frame, 4 MiB in 64-byte
  // frames, 1 MiB written in 64-byte chops, 1000 round trips of empty messages.
  '9': [1],
  // 12.1.1-12.5.1: each document (JSON, bitmap, prose, HTML, PDF), 1000 compressed messages of 16 units.
  '12': [1],
  // 12.1.11: 8192 code points compressed into frames of at most 256 bytes, a compressed message across
  // continuation frames; once, since 1000 such messages are the costliest case kept (13.x.11, one per
  // negotiation rule, took as much CPU as the rest of the sample together).
  '12.1': [1, 11],
  // 13.1.1-13.7.1: each negotiation rule (context takeover, window bits), 16 code points in one frame.
  '13': [1],
};

/** Whether the quick profile plays a case: every case outside QUICK_SAMPLE's groups, and its sample inside them. */
export function inQuickSample(id: string): boolean {
  const [group, subgroup, number] = id.split('.');
  const kept = QUICK_SAMPLE[`${group ?? ''}.${subgroup ?? ''}`] ?? QUICK_SAMPLE[group ?? ''];
  return kept === undefined || kept.includes(Number(number));
}

/** The cases of a selection the quick profile plays, in the selection's order. */
export function quickSample<T extends Pick<CatalogueCase, 'id'>>(cases: readonly T[]): T[] {
  return cases.filter((c) => inQuickSample(c.id));
}
