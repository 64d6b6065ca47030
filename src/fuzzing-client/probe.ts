/**
 * Asks the server under test its name before the cases run: one opening handshake, whose response's
 * Server header names the agent in the reports (as Autobahn's fuzzing client names a server that
 * has no `agent` in the spec file). The connection is dropped as soon as the response head is in.
 */
import { randomBytes } from 'node:crypto';
import type net from 'node:net';
import { buildUpgradeRequest, newClientKey } from '../protocol/client-handshake.js';
import { HeadReader, parseHeaders } from '../protocol/handshake.js';
import type { ServerTarget } from './play-case.js';
import { connectTo, targetHostPort } from './play-case.js';

/** The server's Server header (trimmed, at most 100 characters), or null (none, no answer within timeoutMs). */
export function probeServerHeader(target: ServerTarget, timeoutMs = 5000): Promise<string | null> {
  return new Promise((resolve) => {
    const reader = new HeadReader(16 * 1024);
    let socket: net.Socket | null = null;
    const done = (name: string | null): void => {
      clearTimeout(timer);
      socket?.destroy();
      resolve(name);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    const onData = (chunk: Buffer): void => {
      const read = reader.push(chunk);
      if (read === 'more') return;
      if (read === 'too-big') return done(null);
      const lines = read.head
        .toString('latin1')
        .split('\r\n')
        .slice(1)
        .filter((l) => l !== '');
      const headers = parseHeaders(lines);
      const server = headers instanceof Map ? headers.get('server')?.[0]?.trim() : undefined;
      done(server === undefined || server === '' ? null : server.slice(0, 100));
    };
    socket = connectTo(
      target,
      (ready) => {
        ready.on('close', () => done(null));
        ready.on('data', onData);
        ready.write(buildUpgradeRequest({ host: targetHostPort(target), target: target.resource, key: newClientKey(randomBytes) }), 'latin1');
      },
      () => done(null),
    );
    // After a failure was told: later errors of the dropped socket are nobody's concern.
    socket.on('error', () => undefined);
  });
}
