/**
 * Linux's /proc, read in one place: the live processes, each one's stat line (state, parent, group,
 * CPU ticks, start time), its environment and its resident memory. Every reader of a peer's process
 * tree (its CPU, its memory, whether it is gone, which processes carry a client's token) goes
 * through these. Nothing here throws: a process that ended while we looked reads as gone, a system
 * without /proc as nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** /proc's clock ticks per second (USER_HZ, 100 on every Linux ABI). */
export const TICKS_PER_S = 100;

/** The fields of /proc/PID/stat wsgate reads. */
export interface ProcStat {
  /** The command name (comm), without its parentheses. */
  readonly name: string;
  /** R, S, D, Z (a zombie: exited, not yet reaped), T ... */
  readonly state: string;
  readonly ppid: number;
  readonly pgrp: number;
  /** CPU ticks in user and kernel mode, its own and its waited-for children's. */
  readonly utime: number;
  readonly stime: number;
  readonly cutime: number;
  readonly cstime: number;
  /** When it started, in ticks after boot: with the pid, it tells a reused pid apart. */
  readonly startTicks: number;
}

/** The pids /proc lists (this process among them); null where there is no /proc. */
export function procPids(): number[] | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  return entries.filter((e) => /^\d+$/.test(e)).map(Number);
}

/** A process's stat line, parsed; null when it is gone (or /proc is not there). */
export function procStat(pid: number | 'self'): ProcStat | null {
  let line: string;
  try {
    line = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const close = line.lastIndexOf(')');
  // After "(comm) " (comm may hold spaces and parentheses): state is field 3 of the whole line.
  const f = line.slice(close + 2).split(' ');
  const n = (i: number): number => Number(f[i]);
  return {
    name: line.slice(line.indexOf('(') + 1, close),
    state: f[0] ?? '',
    ppid: n(1),
    pgrp: n(2),
    utime: n(11),
    stime: n(12),
    cutime: n(13),
    cstime: n(14),
    startTicks: n(19),
  };
}

/** A process that is running (present, and not a zombie). */
export function isLive(stat: ProcStat | null): stat is ProcStat {
  return stat !== null && stat.state !== 'Z';
}

/** Whether a process's environment holds `entry` (a whole NAME=VALUE, NUL-terminated); false when it cannot be read. */
export function environHas(pid: number, entry: string): boolean {
  try {
    const environ = readFileSync(`/proc/${pid}/environ`);
    const needle = Buffer.from(`${entry}\0`);
    const at = environ.indexOf(needle);
    return at === 0 || (at > 0 && environ[at - 1] === 0);
  } catch {
    return false;
  }
}

/** Whether a process's command line (its arguments, NUL-separated) contains `text`; false when it cannot be read. */
export function commandLineHas(pid: number, text: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`).includes(Buffer.from(text));
  } catch {
    return false;
  }
}

/** A process's resident set (VmRSS) in bytes; null when it is gone, a kernel thread, or not ours to read. */
export function residentBytes(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}
