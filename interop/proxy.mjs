#!/usr/bin/env node
/**
 * Starts HAProxy or nghttpx as an RFC 8441 proxy (test/support/proxies.ts, built to dist/) and keeps
 * it running until SIGTERM/SIGINT; prints its port on the first line of stdout, its logs to stderr
 * when it stops.
 *
 *   node interop/proxy.mjs haproxy|nghttpx h2-to-h1|h1-to-h2 BACKEND-PORT
 */
import { startProxy } from '../dist/test/support/proxies.js';

const [kind, direction, backendPort] = process.argv.slice(2);
const port = Number(backendPort);
if ((kind !== 'haproxy' && kind !== 'nghttpx') || (direction !== 'h2-to-h1' && direction !== 'h1-to-h2') || !Number.isInteger(port)) {
  process.stderr.write('usage: node interop/proxy.mjs haproxy|nghttpx h2-to-h1|h1-to-h2 BACKEND-PORT\n');
  process.exit(2);
}
const proxy = await startProxy(kind, direction, { host: '127.0.0.1', port });
process.stdout.write(`${proxy.port}\n`);
const stop = async () => {
  await proxy.stop();
  process.stderr.write(proxy.logs());
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
// Keep the event loop alive until a signal.
setInterval(() => {}, 1 << 30);
