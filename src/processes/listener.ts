/**
 * Which process listens on a TCP port of this machine, from Linux's /proc: the listening socket's
 * inode in /proc/net/tcp and tcp6 (state 0A), then the processes holding that inode among their
 * file descriptors (/proc/PID/fd/N -> "socket:[INODE]"). A server under test is found so wherever it
 * runs here: started by the command, detached from it by a launcher (setsid, a daemon's double
 * fork), in a container whose runtime is not the command's descendant, or at --server-url. Nothing
 * here throws: without /proc, or without the right to read another user's descriptors, nothing is
 * found.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { tcpTableRows } from '../util/kernel-queues.js';
import { procPids, procStat } from './proc.js';

/** The inodes of the sockets listening on `port` (any address, IPv4 or IPv6). */
function listeningInodes(port: number): Set<string> {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  // State 0A is LISTEN; the local address's port, then the inode in field 10.
  const listening = tcpTableRows().filter((f) => f.length >= 10 && f[3] === '0A' && (f[1] ?? '').split(':')[1] === hex);
  return new Set(listening.map((f) => f[9] as string));
}

/** The live processes holding a socket that listens on `port`, in pid order (none: not found here). */
export function listeningPids(port: number): number[] {
  return holders(listeningInodes(port));
}

/** The live processes holding a socket whose inode is one of `inodes`, in pid order. */
function holders(inodes: ReadonlySet<string>): number[] {
  if (inodes.size === 0) return [];
  const links = new Set([...inodes].map((i) => `socket:[${i}]`));
  const out: number[] = [];
  for (const pid of procPids() ?? []) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      if (links.has(target)) {
        out.push(pid);
        break;
      }
    }
  }
  return out.filter((pid) => procStat(pid) !== null);
}

/** The root of the processes holding the connection from local port `from` to port `to` on this machine (a client's end of a case), or null. */
export function connectionRoot(from: number, to: number): number | null {
  const hex = (p: number): string => p.toString(16).toUpperCase().padStart(4, '0');
  const rows = tcpTableRows().filter((f) => f.length >= 10 && (f[1] ?? '').split(':')[1] === hex(from) && (f[2] ?? '').split(':')[1] === hex(to));
  return rootOf(holders(new Set(rows.map((f) => f[9] as string))));
}

/** Of processes sharing a socket, the one whose parent does not hold it too. */
function rootOf(pids: readonly number[]): number | null {
  const owners = new Set(pids);
  return pids.find((pid) => !owners.has(procStat(pid)?.ppid ?? -1)) ?? null;
}

/**
 * The root of the processes listening on `port`: the one whose parent does not listen too (a
 * pre-fork server's master, whose workers share its socket), or null when none is found.
 */
export function listenerRoot(port: number): number | null {
  return rootOf(listeningPids(port));
}

/** Whether `pid` is `root` or one of its descendants (by the ppid chain in /proc). */
export function descendsFrom(pid: number, root: number): boolean {
  for (let at = pid, hops = 0; at > 1 && hops < 64; hops++) {
    if (at === root) return true;
    at = procStat(at)?.ppid ?? 0;
  }
  return false;
}
