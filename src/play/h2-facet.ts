/** The HTTP/2 facet of a case's context (cases/h2-types.ts), from the connection's Http2Stream. */
import type { Http2Stream } from 'node:http2';
import type { TLSSocket } from 'node:tls';
import type { H2CaseContext } from '../cases/h2-types.js';
import type { Connection } from '../core/connection.js';

/** The facet over HTTP/2, null over HTTP/1.1. */
export function h2Facet(connection: Connection): H2CaseContext | null {
  if (connection.transport.h2 === undefined) return null;
  const stream = connection.stream as Http2Stream;
  return {
    get peerFields() {
      return connection.transport.peerFields ?? {};
    },
    secure: (connection.socket as Partial<TLSSocket>).encrypted === true,
    ping(payload, ms) {
      const session = stream.session;
      if (session === undefined || session.destroyed) return Promise.resolve(false);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        const sent = session.ping(payload, (err, _duration, echoed) => {
          clearTimeout(timer);
          resolve(err === null && Buffer.compare(echoed, payload) === 0);
        });
        if (!sent) {
          clearTimeout(timer);
          resolve(false);
        }
      });
    },
  };
}
