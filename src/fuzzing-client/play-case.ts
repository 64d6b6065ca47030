/**
 * The fuzzing client's part of one case (Autobahn's FuzzingClientFactory.buildProtocol and its
 * connection): one TCP connection to the server under test, the client's opening handshake with the
 * case's permessage-deflate offers, the case played from the client's side, and the case report when
 * the connection is gone. A server that cannot be reached gives no report but the reason.
 */
import net from 'node:net';
import tls from 'node:tls';
import type { ScriptedCase } from '../cases/types.js';
import type { Connection } from '../core/connection.js';
import type { CaseResult } from '../model/report.js';
import { CaseRunner, utcNow } from '../play/case-runner.js';
import { newClientKey, type UpgradeRequestSpec, type UpgradeResponse } from '../protocol/client-handshake.js';
import { clientAgreement, isDeflateExtension, offerExtensionString, parseDeflateResponse, type DeflateClientOffer } from '../protocol/deflate/params.js';
import { PerMessageDeflate } from '../protocol/deflate/codec.js';
import { parseExtensionsHeader } from '../protocol/handshake.js';
import { ClientUpgrade, type ResponseDecision } from './upgrade.js';
import { openSession, openStream } from './h2-upgrade.js';
import { playSessionCase } from './h2-session-case.js';
import type { PlaySettings, ServerTarget } from './play-types.js';

export type { ClientTls, PlaySettings, ServerTarget } from './play-types.js';
import { describeServerTlsError, tlsInfo } from '../tls/describe.js';
import { hostPort } from '../util/host-port.js';

/**
 * A TCP (ws://) or TLS (wss://) connection to the server; `ready` once it can carry the opening
 * handshake, `failed` with a one-line reason (naming TLS for a TLS failure) if it cannot.
 */
/** The local address to connect from, when the target names one. */
function from(target: ServerTarget): { localAddress?: string } {
  return target.localAddress === undefined ? {} : { localAddress: target.localAddress };
}

export function connectTo(target: ServerTarget, ready: (socket: net.Socket) => void, failed: (reason: string) => void): net.Socket {
  const secure = target.tls ?? null;
  if (secure === null) {
    const socket = net.connect({ host: target.host, port: target.port, ...from(target) });
    const onError = (err: NodeJS.ErrnoException): void => failed(`could not connect to ${targetHostPort(target)}: ${err.code ?? err.message}`);
    socket.once('error', onError);
    socket.once('connect', () => {
      socket.off('error', onError);
      ready(socket);
    });
    return socket;
  }
  let tcpUp = false;
  const socket = tls.connect({
    host: target.host,
    port: target.port,
    ...from(target),
    // SNI carries names only (RFC 6066 §3); an address is checked against the certificate's IP names.
    ...(net.isIP(target.host) === 0 ? { servername: target.host } : {}),
    ...(secure.ca !== null ? { ca: secure.ca } : {}),
    ...(target.http2 === true ? { ALPNProtocols: ['h2'] } : {}),
    rejectUnauthorized: !secure.insecure,
  });
  socket.once('connect', () => (tcpUp = true));
  const onError = (err: NodeJS.ErrnoException): void => {
    socket.on('error', () => undefined);
    socket.destroy();
    failed(tcpUp ? describeServerTlsError(err) : `could not connect to ${targetHostPort(target)}: ${err.code ?? err.message}`);
  };
  socket.once('error', onError);
  socket.once('secureConnect', () => {
    socket.off('error', onError);
    ready(socket);
  });
  return socket;
}

/** What one case came to. */
export interface PlayOutcome {
  /** The case report, or null when no TCP connection was made. */
  result: CaseResult | null;
  /** Why there is no report (the connection failed), or null. */
  error: string | null;
  /** The server's Server response header, when it answered. */
  serverHeader: string | null;
  /** wsgate ended the case at its time limit (the connection was still up). */
  timedOut: boolean;
}

/** Plays one case against the server; never rejects. */
export function playCase(target: ServerTarget, def: ScriptedCase, info: CaseInfo, settings: PlaySettings): Promise<PlayOutcome> {
  if (target.http2 === true && def.h2?.session !== undefined) {
    const where = {
      target,
      authority: targetHostPort(target),
      connect: (ready: (s: net.Socket) => void, failed: (reason: string) => void) => connectTo(target, ready, failed),
    };
    return playSessionCase(where, def, info, settings).then(({ result, error }) => ({ result, error, serverHeader: null, timedOut: false }));
  }
  return new Promise((resolve) => {
    connectTo(
      target,
      (socket) =>
        target.http2 === true ? playOverH2(socket, target, def, info, settings, resolve) : playOnSocket(socket, target, def, info, settings, resolve),
      (reason) => resolve({ result: null, error: reason, serverHeader: null, timedOut: false }),
    );
  });
}

/** Who plays the case, within what time; `onAnswer` is told when the server's answer to the upgrade (HTTP/1.1) has come. */
type CaseInfo = { agent: string; index: number; limitMs: number; signal?: AbortSignal; onAnswer?: () => void };

/** The case on a connected socket: the opening handshake, the case, its time limit, the result. */
function playOnSocket(
  socket: net.Socket,
  target: ServerTarget,
  def: ScriptedCase,
  info: CaseInfo,
  settings: PlaySettings,
  resolve: (outcome: PlayOutcome) => void,
): void {
  let serverHeader: string | null = null;
  const offers = def.deflateOffers ?? [];
  const request = upgradeRequest(target, offers, settings);
  const watch = caseWatch(socket, def, info, settings, () => serverHeader, resolve);
  const upgrade = new ClientUpgrade(
    socket,
    settings.protocolOptions,
    request,
    settings.newMask,
    watch.runner,
    (response) => {
      info.onAnswer?.();
      serverHeader = response.headers.get('server')?.[0] ?? null;
      return deflateDecision(response, offers.length > 0 || def.upgradeRequest !== undefined, def, settings);
    },
    def.upgradeRequest?.(request) ?? null,
  );
  watch.started(upgrade.connection);
}

/** The case over HTTP/2: a session whose server allows extended CONNECT, one stream, the case on it. */
function playOverH2(
  socket: net.Socket,
  target: ServerTarget,
  def: ScriptedCase,
  info: CaseInfo,
  settings: PlaySettings,
  resolve: (outcome: PlayOutcome) => void,
): void {
  const secure = target.tls != null;
  void openSession(socket, targetHostPort(target), secure, settings.protocolOptions.openHandshakeTimeoutMs, def.h2?.settings).then((opened) => {
    if ('error' in opened) return resolve({ result: null, error: opened.error, serverHeader: null, timedOut: false });
    const offers = def.deflateOffers ?? [];
    let serverHeader = (): string | null => null;
    const watch = caseWatch(socket, def, info, settings, () => serverHeader(), resolve);
    const spec = {
      scheme: secure ? 'https' : 'http',
      authority: targetHostPort(target),
      path: target.resource,
      extensions: offers.length === 0 ? null : offers.map(offerExtensionString).join(', '),
      headers: upgradeHeaders(settings),
    } as const;
    const opened2 = openStream(opened.session, socket, spec, settings.protocolOptions, settings.newMask, watch.runner, (response) =>
      deflateDecision(response, offers.length > 0, def, settings),
    );
    serverHeader = opened2.serverHeader;
    watch.started(opened2.connection);
  });
}

/**
 * What both transports do around a case's connection: the case runner that resolves the outcome,
 * the case's time limit, and the run's abort signal.
 */
function caseWatch(
  socket: net.Socket,
  def: ScriptedCase,
  info: CaseInfo,
  settings: PlaySettings,
  serverHeader: () => string | null,
  resolve: (outcome: PlayOutcome) => void,
): { runner: (connection: Connection) => CaseRunner; started: (connection: Connection) => void } {
  let timedOut = false;
  let limit: NodeJS.Timeout | null = null;
  let stopListening = (): void => undefined;
  // Read now: a closed TLS socket no longer tells its cipher.
  const secure = tlsInfo(socket);
  const started = utcNow();
  return {
    runner: (connection) =>
      new CaseRunner(connection, def, {
        agent: info.agent,
        index: info.index,
        started,
        keepRecording: settings.keepRecording === true,
        ...(settings.budgets === undefined ? {} : { budgets: settings.budgets }),
        onResult: (result) => {
          if (limit !== null) clearTimeout(limit);
          stopListening();
          if (secure !== null) result.tls = secure;
          resolve({ result, error: null, serverHeader: serverHeader(), timedOut });
        },
      }),
    started: (connection) => {
      // An interrupted run ends its cases at once (their results are dropped as cut short).
      const onAbort = (): void => connection.dropConnection('abort');
      info.signal?.addEventListener('abort', onAbort, { once: true });
      stopListening = () => info.signal?.removeEventListener('abort', onAbort);
      limit = setTimeout(() => {
        if (connection.isClosed()) return;
        timedOut = true;
        connection.dropConnection('abort', `wsgate dropped the connection: the case did not end within ${info.limitMs / 1000} s`);
      }, info.limitMs);
    },
  };
}

/** The upgrade request of a case (autobahn-python's client headers, wsgate's User-Agent). */
function upgradeRequest(target: ServerTarget, offers: readonly DeflateClientOffer[], settings: PlaySettings): UpgradeRequestSpec {
  return {
    host: targetHostPort(target),
    target: target.resource,
    key: newClientKey(settings.randomBytes),
    extensions: offers.length === 0 ? null : offers.map(offerExtensionString).join(', '),
    headers: upgradeHeaders(settings),
  };
}

/** The request's other header fields, both transports. */
function upgradeHeaders(settings: PlaySettings): Array<[string, string]> {
  return [
    ['User-Agent', settings.userAgent],
    ['Pragma', 'no-cache'],
    ['Cache-Control', 'no-cache'],
  ];
}

/**
 * What the client makes of the server's Sec-WebSocket-Extensions (autobahn-python 0.10.9's
 * processHandshake): permessage-deflate on the server's terms when offered, and the handshake failed
 * with Autobahn's reason for anything else.
 */
function deflateDecision(
  response: Pick<Extract<UpgradeResponse, { ok: true }>, 'extensions'>,
  offered: boolean,
  def: ScriptedCase,
  settings: PlaySettings,
): ResponseDecision {
  if (response.extensions === null) return { deflate: null };
  let deflate: PerMessageDeflate | null = null;
  const refuse = (reason: string): ResponseDecision => {
    deflate?.close();
    return { refuse: reason };
  };
  for (const { name, params } of parseExtensionsHeader(response.extensions)) {
    if (!isDeflateExtension(name)) return refuse(`server wants to use extension '${name}' we did not request, haven't implemented or did not enable`);
    if (deflate !== null) return refuse('multiple occurrence of a permessage-compress extension');
    const parsed = parseDeflateResponse(params);
    if (typeof parsed === 'string') return refuse(parsed);
    if (!offered) return refuse('WebSocket permessage-compress extension response from server denied by client');
    deflate = new PerMessageDeflate(clientAgreement(parsed), {
      level: settings.deflateLevel,
      maxMessageSize: settings.protocolOptions.maxMessagePayload,
      literalsOnly: def.deflateLiteralsOnly === true,
    });
  }
  return { deflate };
}

/** host:port as the Host header and messages give it (an IPv6 address in brackets). */
export function targetHostPort(target: Pick<ServerTarget, 'host' | 'port'>): string {
  return hostPort(target.host, target.port);
}
