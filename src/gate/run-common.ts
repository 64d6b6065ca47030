/**
 * What both roles' runs share before and after their cases: the report paths checked up front, and
 * the resources a run used (its own CPU and memory, its children's CPU).
 */
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { RunConfig } from '../config/schema.js';
import { UsageError } from '../errors.js';
import type { RunResources } from '../model/report.js';
import type { Logger } from 'pino';
import { checkDirectories } from './finish-run.js';

/** Where the gate writes its human output, and how it is stopped early. */
export interface GateIo {
  out: NodeJS.WritableStream;
  logger: Logger;
  /** Aborted on SIGINT/SIGTERM: no new case starts, the running client is killed. */
  signal?: AbortSignal;
  isTty: boolean;
  /** The environment (GitHub Actions variables); process.env when absent. */
  env?: NodeJS.ProcessEnv;
}

/** Every place a report goes is checked before any case runs: a run must not end in an unwritable path. */
export async function checkOutputs(config: RunConfig): Promise<void> {
  await checkDirectories([['the report directory', config.outdir], ['the --junit directory', path.dirname(config.junit)], ['the --json directory', path.dirname(config.json)]]);
  for (const [flag, file] of [['--junit', config.junit], ['--json', config.json]] as const) {
    const isDir = await stat(file).then((s) => s.isDirectory(), () => false);
    if (isDir) throw new UsageError(`${flag} ${file} is a directory; give a file name`);
  }
}

/**
 * CPU time of the terminated, waited-for children of this process (Linux: cutime + cstime of
 * /proc/self/stat, in ms; a client's own children count once the client reaped them), or null.
 */
export function childrenCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, cutime 16, cstime 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[13]) + Number(fields[14]);
    return Number.isFinite(ticks) ? ticks * 10 : null; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/** CPU time since `start`, the peak RSS of this process, and its clients' CPU time since `clientStart`. */
export function resourcesSince(start: NodeJS.CpuUsage, clientStart: number | null): RunResources {
  const cpu = process.cpuUsage(start);
  const clients = childrenCpuMs();
  return {
    cpuUserMs: Math.round(cpu.user / 1000),
    cpuSystemMs: Math.round(cpu.system / 1000),
    maxRssKiB: process.resourceUsage().maxRSS,
    clientCpuMs: clients === null || clientStart === null ? null : clients - clientStart,
  };
}

