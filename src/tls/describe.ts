/**
 * TLS in one line: what a case's connection agreed on, and why a handshake failed, told from
 * either side (wsgate as the server a client would not trust, or as the client of a server whose
 * certificate does not verify).
 */
import tls from 'node:tls';
import type net from 'node:net';

/** The version and cipher suite (IANA name) of a TLS socket (read while it is open), or null for plain TCP. */
export function tlsInfo(socket: net.Socket): { version: string; cipher: string } | null {
  if (!(socket instanceof tls.TLSSocket)) return null;
  // getCipher() is null once the socket is closed, whatever its type says.
  const cipher = socket.getCipher() as tls.CipherNameAndProtocol | null;
  return { version: socket.getProtocol() ?? 'unknown', cipher: cipher === null ? 'unknown' : (cipher.standardName ?? cipher.name) };
}

/** OpenSSL's alert or reason in an error, lower case ("tlsv1 alert unknown ca", "wrong version number"). */
function opensslReason(err: NodeJS.ErrnoException & { reason?: string }): string {
  if (typeof err.reason === 'string' && err.reason !== '') return err.reason.toLowerCase();
  const m = /:([a-z0-9 _]+):[^:]*$/i.exec(err.message.split('\n')[0] ?? '');
  return (m?.[1] ?? err.message).toLowerCase();
}

/**
 * Why a client's TLS handshake with wsgate's fuzzing server failed (the server's tlsClientError),
 * in words that name TLS.
 */
export function describeClientTlsError(err: Error): string {
  const e = err as NodeJS.ErrnoException & { reason?: string };
  const reason = opensslReason(e);
  if (/unknown ca|bad certificate|certificate unknown|unsupported certificate|certificate expired/.test(reason)) {
    return `TLS handshake failed: the client does not trust wsgate's certificate (${reason}); give it the CA (NODE_EXTRA_CA_CERTS, SSL_CERT_FILE, WSGATE_CA_FILE or {ca})`;
  }
  if (/http request|wrong version number|unknown protocol|packet length too long/.test(reason)) {
    return `TLS handshake failed: the client spoke plain TCP to a wss:// server (${reason}); connect with wss://`;
  }
  if (e.code === 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION' || /protocol version|no shared cipher|no protocols available|handshake failure/.test(reason)) {
    return `TLS handshake failed: no TLS version or cipher suite in common with the client (${reason})`;
  }
  if (e.code === 'ECONNRESET' || /socket hang up|disconnected before/i.test(e.message)) {
    return "TLS handshake failed: the client closed the connection during the TLS handshake (does it trust wsgate's certificate? give it the CA: NODE_EXTRA_CA_CERTS, SSL_CERT_FILE, WSGATE_CA_FILE or {ca})";
  }
  if (e.code === 'ERR_TLS_HANDSHAKE_TIMEOUT') return 'TLS handshake failed: the client did not finish the TLS handshake in time';
  return `TLS handshake failed: ${reason}`;
}

// Node's certificate verification codes that mean "not signed by anyone trusted".
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_UNTRUSTED',
]);

/** Why wsgate's TLS handshake with a server under test failed, in one line that names TLS and the way out. */
export function describeServerTlsError(err: Error): string {
  const e = err as NodeJS.ErrnoException;
  const code = e.code ?? '';
  if (UNTRUSTED.has(code))
    return `TLS: the server's certificate is not trusted (${code}: ${e.message}); give its CA with --ca FILE, or skip the check with --insecure`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `TLS: the server's certificate is for another host (${e.message}); --insecure skips the check`;
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
    return `TLS: the server's certificate is not valid now (${code}); --insecure skips the check`;
  if (code === 'ECONNRESET' || /socket disconnected before secure TLS connection/i.test(e.message)) {
    return 'TLS: the server closed the connection during the TLS handshake (does it serve wss:// on this port?)';
  }
  if (code.startsWith('ERR_SSL_')) {
    const reason = opensslReason(e as NodeJS.ErrnoException & { reason?: string });
    if (/wrong version number|packet length too long|http request/.test(reason))
      return `TLS: the server does not speak TLS on this port (${reason}); is it ws://?`;
    return `TLS: the handshake was refused (${reason})`;
  }
  return `TLS: the handshake failed (${code === '' ? e.message : `${code}: ${e.message}`})`;
}
