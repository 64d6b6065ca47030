/**
 * What a run keeps for `wsgate repro`: as each case is settled, the recording of a case that is not
 * OK on both axes goes to `<outdir>/repro-data/` (and, with `run --repro`, its script to
 * `<outdir>/repro/`); a passing case's recording is dropped there and then.
 */
import path from 'node:path';
import type { GateCase } from '../model/report.js';
import { takeRecording } from '../play/recording.js';
import { makeDirectory, resolveInside, writeFileAtomic } from '../report/files.js';
import { reproData, writeRecording } from './recording-file.js';
import { reproScript } from './script.js';

/** The folder of a report directory that `run --repro` writes the scripts to. */
export const REPRO_SCRIPT_DIR = 'repro';

/** True when a case report is OK on both axes (nothing to reproduce). */
export function passedBothAxes(r: { behavior: string; behaviorClose: string }): boolean {
  return r.behavior === 'OK' && r.behaviorClose === 'OK';
}

/** Keeps the recordings (and scripts) of one run's non-passing cases. */
export class ReproKeeper {
  private readonly writing: Array<Promise<void>> = [];
  private readonly problems: string[] = [];

  constructor(
    private readonly outdir: string,
    private readonly scripts: boolean,
  ) {}

  /** A case was settled: its recording is written if it did not pass, else dropped. */
  settled(gc: GateCase): void {
    const result = gc.result;
    const recording = result === null ? null : takeRecording(result);
    if (result === null || recording === null || gc.reportBase === null || passedBothAxes(result)) return;
    const base = gc.reportBase;
    const data = reproData(recording);
    this.writing.push(
      (async () => {
        await writeRecording(this.outdir, base, data);
        if (!this.scripts) return;
        const dir = path.join(this.outdir, REPRO_SCRIPT_DIR);
        await makeDirectory(dir);
        await writeFileAtomic(resolveInside(dir, `${base}.mjs`), reproScript(data, result));
      })().catch((err: unknown) => void this.problems.push(`case ${gc.id}: could not keep its recording: ${(err as Error).message}`)),
    );
  }

  /** Waits for every write; the problems met, one line each. */
  async finish(): Promise<string[]> {
    await Promise.all(this.writing);
    return this.problems;
  }
}
