/**
 * What a test run left behind: processes that carry the suite's token (every process the suite
 * starts inherits it, in whatever process group or session it ends up) or name its temporary
 * directory on their command line (a browser's profile), and whatever is left in that directory.
 * test/suite.ts checks it when node:test ends; test/ci/leftovers.test.ts plants a leak to show it fails.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { environHas, isLive, procPids, procStat } from '../../src/processes/proc.js';

/** The variable test/suite.ts gives every process of the suite. */
export const SUITE_TOKEN_VARIABLE = 'WSGATE_TEST_SUITE_TOKEN';

/** Files of the runner's own in the directory (the timings it reads after node:test ends). */
const RUNNER_FILES = new Set(['.timings.jsonl']);

/** A process's command line, its arguments joined by spaces; '' when it cannot be read. */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

/** Live processes other than this one that carry `token` or name `dir` on their command line. */
export function suiteProcesses(token: string, dir: string): number[] {
  const entry = `${SUITE_TOKEN_VARIABLE}=${token}`;
  return (procPids() ?? []).filter((pid) => pid !== process.pid && isLive(procStat(pid)) && (environHas(pid, entry) || commandLine(pid).includes(dir)));
}

/** Entries left in `dir` (the runner's own files aside), each with how many files it holds. */
function leftEntries(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => !RUNNER_FILES.has(n))
    .sort()
    .map((n) => {
      const full = path.join(dir, n);
      let entries: number | null = null;
      try {
        if (statSync(full).isDirectory()) entries = readdirSync(full, { recursive: true }).length;
      } catch {
        // Removed while we looked.
      }
      return entries === null ? `temporary file ${full}` : `temporary directory ${full} (${entries} ${entries === 1 ? 'entry' : 'entries'})`;
    });
}

/**
 * What the suite left: its processes still running after `graceMs` (each then killed with SIGKILL)
 * and its temporary directory's entries. One line each; empty when nothing was left.
 */
export async function leftovers(token: string, dir: string, graceMs = 5000): Promise<string[]> {
  const deadline = performance.now() + graceMs;
  let pids = suiteProcesses(token, dir);
  while (pids.length > 0 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    pids = suiteProcesses(token, dir);
  }
  const found = pids.map((pid) => {
    const stat = procStat(pid);
    return `process ${pid} (${stat?.name ?? '?'}, parent ${stat?.ppid ?? '?'}): ${commandLine(pid).slice(0, 200)}`;
  });
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // It ended meanwhile.
    }
  }
  return [...found, ...leftEntries(dir)];
}
