/**
 * Ports for tests, held rather than believed free.
 *
 * - `unansweredAddress()`: a port on 127.0.0.1 that nobody answers, for as long as the test holds it.
 *   It is the local end of a connection the test keeps open: bound, never listening, so a connect
 *   to it is refused (ECONNREFUSED) and no other process can listen on it meanwhile.
 * - `reservedPort()`: a port a program the test starts will listen on. It comes from below the
 *   kernel's ephemeral range (/proc/sys/net/ipv4/ip_local_port_range), which neither a listen on
 *   port 0 nor an outgoing connection ever picks, so the suite's thousands of loopback connections
 *   cannot take it; and it is claimed across the suite's processes by a UDP socket bound to the same
 *   number, kept for the life of the test file's process (the kernel lets one process bind it), so
 *   two test files running at once never get the same one.
 * A port handed to a program that binds it itself cannot be kept open for it; these two are the
 * closest a test gets to that.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import { canListen, ephemeralLow } from '../../src/processes/server-process.js';

/** How far below the ephemeral range reserved ports are taken from. */
const SPAN = 12_000;

/** The UDP claims of this process, kept until it exits. */
const claims: dgram.Socket[] = [];

function claimUdp(port: number): Promise<dgram.Socket | null> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket({ type: 'udp4', reuseAddr: false });
    socket.once('error', () => {
      socket.close();
      resolve(null);
    });
    socket.bind(port, '127.0.0.1', () => {
      socket.unref();
      resolve(socket);
    });
  });
}

/**
 * A port below the ephemeral range that nothing listens on now on `host`, claimed for this process:
 * start the program that listens on it soon after.
 */
export async function reservedPort(host = '127.0.0.1'): Promise<number> {
  const top = ephemeralLow() - 1;
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = top - Math.floor(Math.random() * SPAN);
    const claim = await claimUdp(port);
    if (claim === null) continue;
    if (await canListen(host, port)) {
      claims.push(claim);
      return port;
    }
    claim.close();
  }
  throw new Error(`no free port below ${top + 1} after 200 tries`);
}

/** An address that refuses connections until `close()`: see the file's comment. */
export interface UnansweredAddress {
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/** A port on 127.0.0.1 that refuses every connection while it is held. */
export async function unansweredAddress(): Promise<UnansweredAddress> {
  const server = net.createServer((socket) => socket.on('error', () => {}));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: serverPort } = server.address() as net.AddressInfo;
  const holder = net.connect(serverPort, '127.0.0.1');
  holder.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    holder.once('connect', resolve);
    holder.once('error', reject);
  });
  // Only the held end's port is handed out; the listening server stays private to this helper.
  server.unref();
  holder.unref();
  const port = holder.localPort;
  if (port === undefined) throw new Error('the held connection has no local port');
  return {
    host: '127.0.0.1',
    port,
    close: async () => {
      holder.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
