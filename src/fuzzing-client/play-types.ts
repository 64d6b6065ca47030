/** What the fuzzing client's case players share: where the server is, and the run's settings. */
import type { RobustnessBudgets } from '../cases/data/budgets.js';
import type { ClientProtocolOptions } from './upgrade.js';

/** Where the server under test listens, and what the upgrade request names. */
export interface ServerTarget {
  host: string;
  port: number;
  /** The request target: path and query. */
  resource: string;
  /** wss://: how the server's certificate is checked; null for ws://. */
  tls?: ClientTls | null;
  /** WebSockets over HTTP/2 (RFC 8441): h2c with prior knowledge, or TLS with ALPN "h2". */
  http2?: boolean;
  /** The address wsgate connects from (another loopback address than the others: a client apart), or absent: the system's choice. */
  localAddress?: string;
}

/** How the fuzzing client checks a wss:// server's certificate. */
export interface ClientTls {
  /** CA certificates to trust (PEM), or null for Node's roots. */
  ca: string | null;
  /** Do not verify the certificate at all (--insecure). */
  insecure: boolean;
}

/** The fuzzing client's settings (shared by every case of a run). */
export interface PlaySettings {
  protocolOptions: ClientProtocolOptions;
  /** zlib level of wsgate's compressed messages. */
  deflateLevel: number;
  /** A fresh 4-byte masking key per frame. */
  newMask: () => Uint8Array;
  /** n random bytes (the Sec-WebSocket-Key). */
  randomBytes: (n: number) => Buffer;
  userAgent: string;
  /** Each result carries its connection's tape, for `wsgate repro`. */
  keepRecording?: boolean;
  /** The run's robustness budgets (`--budget`); the defaults when absent. */
  budgets?: RobustnessBudgets;
}
