/**
 * A group 16 case that is a whole HTTP/2 session, not one WebSocket (the server role): the case gets
 * fresh connections to the server (raw probes, or Node's http2 with several WebSockets) through an
 * H2SessionContext, decides its verdicts, and gets a case report without a frame log.
 */
import type http2 from 'node:http2';
import type net from 'node:net';
import type { H2SessionContext, H2StreamFacts, H2WebSocket } from '../cases/h2-types.js';
import type { ScriptedCase, Judgement } from '../cases/types.js';
import type { Connection, ConnectionHandler } from '../core/connection.js';
import { ConnectionState } from '../core/state.js';
import { Behavior, CloseBehavior } from '../model/verdicts.js';
import type { CaseResult } from '../model/report.js';
import { bareResult } from '../play/bare-result.js';
import { utcNow } from '../play/case-runner.js';
import { openSession, openStream } from './h2-upgrade.js';
import { probeFields, probeOnSocket } from './h2-probe.js';
import type { PlaySettings, ServerTarget } from './play-types.js';
import { resetStream } from '../core/transport.js';

/** Where the server is: its target, host:port as requests name it, and how to open a connection to it. */
export interface SessionWhere {
  target: ServerTarget;
  authority: string;
  connect(ready: (socket: net.Socket) => void, failed: (reason: string) => void): net.Socket;
}

/** Plays a session case; resolves with its report, or the reason there is none (the server cannot be reached). */
export async function playSessionCase(
  where: SessionWhere,
  def: ScriptedCase,
  info: { agent: string; index: number; limitMs: number },
  settings: PlaySettings,
): Promise<{ result: CaseResult | null; error: string | null }> {
  const run = def.h2?.session;
  if (run === undefined) throw new Error(`case ${def.id} is not a session case`);
  const started = utcNow();
  const t0 = performance.now();
  const log = { sent: [] as string[], got: [] as string[] };
  const sockets = new Set<net.Socket>();
  let unreachable: string | null = null;
  const connect = (): Promise<net.Socket | null> =>
    new Promise((resolve) => {
      const s = where.connect(resolve, (reason) => {
        unreachable = reason;
        resolve(null);
      });
      sockets.add(s);
    });
  const ctx = sessionContext(where, settings, connect, log);
  const limit = new Promise<Judgement>((resolve) => setTimeout(() => resolve(timedOut(info.limitMs)), info.limitMs).unref());
  const verdict = await Promise.race([run(ctx), limit]);
  for (const s of sockets) s.destroy();
  if (unreachable !== null) return { result: null, error: unreachable };
  const text = (lines: string[]): string => (lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n\r\n`);
  const facts = {
    agent: info.agent,
    index: info.index,
    started,
    durationMs: performance.now() - t0,
    httpRequest: text(log.sent),
    httpResponse: text(log.got),
    isServer: false,
  };
  return { result: bareResult(def, verdict, facts), error: null };
}

function timedOut(ms: number): Judgement {
  const why = `The case did not end within ${ms / 1000} s.`;
  return { behavior: Behavior.Failed, result: why, behaviorClose: CloseBehavior.Failed, resultClose: why };
}

/** The context a session case sees: probes and HTTP/2 sessions, each on a connection of its own. */
function sessionContext(
  where: SessionWhere,
  settings: PlaySettings,
  connect: () => Promise<net.Socket | null>,
  log: { sent: string[]; got: string[] },
): H2SessionContext {
  const { target, authority } = where;
  const secure = target.tls != null;
  const timeoutMs = settings.protocolOptions.openHandshakeTimeoutMs;
  return {
    async probe(request) {
      const socket = await connect();
      if (socket === null) return { settings: null, status: null, reset: null, goaway: null, closed: true };
      return probeOnSocket(socket, probeFields(secure ? 'https' : 'http', authority, target.resource), request, timeoutMs, log);
    },
    async connect() {
      const socket = await connect();
      if (socket === null) return 'the server could not be reached';
      const opened = await openSession(socket, authority, secure, timeoutMs);
      if ('error' in opened) return opened.error;
      const session = opened.session;
      return { open: () => openWebSocket(session, socket, where, settings), close: () => session.close() };
    },
  };
}

/** One WebSocket on the session: resolves once it is open, or with the reason it is not. */
function openWebSocket(session: http2.ClientHttp2Session, socket: net.Socket, where: SessionWhere, settings: PlaySettings): Promise<H2WebSocket | string> {
  return new Promise((resolve) => {
    const texts: string[] = [];
    let waiting: ((text: string | null) => void) | null = null;
    let lost: (() => void) | null = null;
    let connection: Connection | null = null;
    const handler: ConnectionHandler = {
      onOpen: () => resolve(webSocket(connection as Connection)),
      onMessage: (data) => {
        const text = data.toString('utf8');
        if (waiting !== null) waiting(text);
        else texts.push(text);
      },
      onPong: () => undefined,
      onConnectionLost: () => {
        waiting?.(null);
        lost?.();
        const c = connection as Connection;
        if (!c.record.connectionWasOpen) resolve(c.record.wasNotCleanReason ?? 'the stream closed before the answer');
      },
    };
    const webSocket = (c: Connection): H2WebSocket => ({
      sendText: (text) => c.sender.sendMessage(Buffer.from(text, 'utf8'), false, 0, false),
      nextText: (ms) =>
        new Promise((done) => {
          const queued = texts.shift();
          if (queued !== undefined || c.isClosed()) return done(queued ?? null);
          const timer = setTimeout(() => {
            waiting = null;
            done(null);
          }, ms);
          waiting = (text) => {
            clearTimeout(timer);
            waiting = null;
            done(text);
          };
        }),
      reset: (code) => resetStream(c.stream as http2.ClientHttp2Stream, c.transport.h2 as H2StreamFacts, code),
      close: () =>
        new Promise<H2StreamFacts>((done) => {
          const facts = (): H2StreamFacts => ({ ...(c.transport.h2 as H2StreamFacts) });
          if (c.isClosed()) return done(facts());
          lost = () => done(facts());
          if (c.state === ConnectionState.Open) c.sendClose(1000);
        }),
    });
    const spec = { scheme: where.target.tls != null ? 'https' : 'http', authority: where.authority, path: where.target.resource, extensions: null } as const;
    const opened = openStream(
      session,
      socket,
      spec,
      settings.protocolOptions,
      settings.newMask,
      () => handler,
      () => ({ deflate: null }),
      false,
    );
    connection = opened.connection;
  });
}
