/**
 * What the kernel holds of one TCP connection, at both ends, from Linux's /proc/net/tcp and tcp6:
 * the bytes wsgate wrote that the peer has not acknowledged (tx_queue of wsgate's socket) and the
 * bytes that reached the peer's socket and its process has not read (rx_queue of the peer's socket).
 * Only when the peer's end is on this machine (loopback, the same network namespace) is its socket
 * in the table; elsewhere the answer is null and a figure counts kernel buffers in.
 *
 * A robustness figure about what a peer *took* (the header bytes it read before refusing, the
 * messages it read while its echo could not leave) is wsgate's flushed bytes minus these two: the
 * kernel's buffers, which tcp_rmem lets grow to tens of MiB on a busy machine, no longer count as the
 * peer's. Never throws.
 */
import { readFileSync } from 'node:fs';

/** One end of a TCP connection, as a Node socket names it. */
export interface SocketEnds {
  readonly localAddress?: string | undefined;
  readonly localPort?: number | undefined;
  readonly remoteAddress?: string | undefined;
  readonly remotePort?: number | undefined;
}

/** The kernel's queues of one connection. */
export interface ConnectionQueues {
  /** Bytes wsgate's socket holds that the peer has not acknowledged (sent or not). */
  readonly ourUnacked: number;
  /** Bytes in the peer's receive queue that its process has not read. */
  readonly peerUnread: number;
  /** The other way: bytes the peer's socket holds that wsgate has not acknowledged, and bytes in wsgate's receive queue it has not read. */
  readonly peerUnacked: number;
  readonly ourUnread: number;
}

interface Row {
  local: string;
  remote: string;
  tx: number;
  rx: number;
}

/** "0100007F:1F90" (IPv4, little-endian words) or 32 hex digits (IPv6) with a port, as "addr:port", v4-mapped IPv6 as IPv4. */
function endpoint(hex: string): string {
  const [addr = '', port = ''] = hex.split(':');
  const words = addr.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((w) => [6, 4, 2, 0].map((i) => Number.parseInt(w.slice(i, i + 2), 16)));
  const v4 = (b: number[]): string => b.join('.');
  let text: string;
  if (bytes.length === 4) text = v4(bytes);
  else if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) text = v4(bytes.slice(12));
  else text = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${text}:${Number.parseInt(port, 16)}`;
}

/** Node's address text as endpoint() writes it ("::ffff:127.0.0.1" as "127.0.0.1", "::1" as 32 hex digits). */
function canonical(address: string, port: number): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return `${mapped[1]}:${port}`;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(address)) return `${address}:${port}`;
  // IPv6: expand "::" and write the 16 bytes as hex.
  const [head = '', tail = ''] = address.split('::');
  const groups = (s: string): string[] => (s === '' ? [] : s.split(':'));
  const h = groups(head);
  const t = address.includes('::') ? groups(tail) : [];
  const all = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return `${all.map((g) => g.padStart(4, '0')).join('')}:${port}`;
}

/**
 * The fields of every row of Linux's TCP tables, IPv4 then IPv6 (sl, local_address, rem_address, st,
 * tx_queue:rx_queue, tr:tm->when, retrnsmt, uid, timeout, inode, …); none where they cannot be read.
 */
export function tcpTableRows(): string[][] {
  const out: string[][] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'latin1');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length >= 5) out.push(f);
    }
  }
  return out;
}

function rows(): Row[] {
  return tcpTableRows().map((f) => {
    const [tx = '0', rx = '0'] = (f[4] ?? '').split(':');
    return { local: endpoint(f[1] ?? ''), remote: endpoint(f[2] ?? ''), tx: Number.parseInt(tx, 16), rx: Number.parseInt(rx, 16) };
  });
}

/**
 * The kernel's queues of the connection `socket` is wsgate's end of; null when the table cannot be
 * read or the peer's end is not in it (the peer is on another machine or in another namespace).
 */
export function connectionQueues(socket: SocketEnds): ConnectionQueues | null {
  const { localAddress, localPort, remoteAddress, remotePort } = socket;
  if (localAddress === undefined || localPort === undefined || remoteAddress === undefined || remotePort === undefined) return null;
  const ours = canonical(localAddress, localPort);
  const theirs = canonical(remoteAddress, remotePort);
  let mine: Row | undefined;
  let peer: Row | undefined;
  for (const row of rows()) {
    if (row.local === ours && row.remote === theirs) mine = row;
    else if (row.local === theirs && row.remote === ours) peer = row;
  }
  if (mine === undefined || peer === undefined) return null;
  return { ourUnacked: mine.tx, peerUnread: peer.rx, peerUnacked: peer.tx, ourUnread: mine.rx };
}
