/**
 * The certificates of a run over TLS, ready before the first case: the user's files read and checked,
 * or a throwaway CA and server certificate made for the run. The report directory gets the CA's
 * certificate (`ca.pem`) and nothing else; a server certificate's key that a server command must read
 * is written to a private temporary directory (0700), removed when the run ends (at exit too).
 */
import { readFileSync, rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { UsageError } from '../errors.js';
import type { RunTls } from '../model/report.js';
import { makeDirectory, writeFileAtomic } from '../report/files.js';
import { generatePki } from './certificates.js';

/** A run over TLS: whose certificate, which CA, whether to verify. */
export interface TlsConfig {
  /** The user's certificate (chain) and key files (absolute), or null: wsgate makes a throwaway CA and certificate. */
  cert: string | null;
  key: string | null;
  /**
   * A CA certificate file (absolute), or null. Client role: handed to the client command (it signed
   * --cert). Server role: trusted when verifying the server under test (else Node's roots).
   */
  ca: string | null;
  /** Server role: the server's certificate is not verified. */
  insecure: boolean;
}

/** The file name of a generated CA's certificate in the report directory. */
export const CA_FILE_NAME = 'ca.pem';

/** A run's TLS material. */
export interface TlsSetup {
  /** The server certificate (chain) and key, PEM: what wsgate serves (client role). */
  cert: string;
  key: string;
  /** Files of the certificate and key for a server command (server role), or null. */
  certFile: string | null;
  keyFile: string | null;
  /** The CA certificate file to hand over or trust, or null (none given, none made). */
  caFile: string | null;
  /** Its PEM text (what the fuzzing client trusts), or null: Node's roots. */
  caPem: string | null;
  /** What the reports say of it. */
  summary: RunTls;
  /** Removes the temporary directory (if any); safe to call twice. */
  dispose(): void;
}

/** A PEM file's text; a file that cannot be read is a UsageError naming the flag and the file. */
export function readPem(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${flag} ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

/** The certificate and key must make a TLS context (a wrong file is a usage error now, not every case failing later). */
function checkPair(cert: string, key: string, config: TlsConfig): void {
  try {
    tls.createSecureContext({ cert, key });
  } catch (err) {
    throw new UsageError(`--cert ${config.cert} / --key ${config.key}: not a usable certificate and private key (${(err as Error).message.split('\n')[0]})`);
  }
}

/**
 * Prepares the TLS of a run. `hosts`: the names the server is reached under (a generated certificate
 * covers them and localhost, 127.0.0.1, ::1). `serverFiles`: a server command needs the certificate
 * and key as files. `outdir`: where a generated CA's certificate goes.
 */
export async function prepareTls(
  config: TlsConfig,
  options: { hosts: string[]; outdir: string; serverFiles: boolean; needCertificate: boolean },
): Promise<TlsSetup> {
  const caPem = config.ca === null ? null : readPem('--ca', config.ca);
  if (caPem !== null && !caPem.includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`--ca ${config.ca}: no PEM certificate in it`);
  const summary: RunTls = { caFile: config.ca, generated: false, insecure: config.insecure };
  const none = (): void => undefined;
  if (config.cert !== null && config.key !== null) {
    const cert = readPem('--cert', config.cert);
    const key = readPem('--key', config.key);
    checkPair(cert, key, config);
    return { cert, key, certFile: config.cert, keyFile: config.key, caFile: config.ca, caPem, summary, dispose: none };
  }
  // A server under test elsewhere brings its own certificate; wsgate only verifies it.
  if (!options.needCertificate) return { cert: '', key: '', certFile: null, keyFile: null, caFile: config.ca, caPem, summary, dispose: none };
  const pki = await generatePki(options.hosts);
  await makeDirectory(options.outdir);
  const caFile = path.join(options.outdir, CA_FILE_NAME);
  await writeFileAtomic(caFile, pki.caCert);
  const generated: RunTls = { caFile, generated: true, insecure: config.insecure };
  if (!options.serverFiles)
    return { cert: pki.cert, key: pki.key, certFile: null, keyFile: null, caFile, caPem: pki.caCert, summary: generated, dispose: none };
  // mkdtemp makes the directory 0700: the key is readable by this user only, and only until the run ends.
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wsgate-tls-'));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  const certFile = path.join(dir, 'server-cert.pem');
  const keyFile = path.join(dir, 'server-key.pem');
  await writeFile(certFile, pki.cert, { mode: 0o600 });
  await writeFile(keyFile, pki.key, { mode: 0o600 });
  return {
    cert: pki.cert,
    key: pki.key,
    certFile,
    keyFile,
    caFile,
    caPem: pki.caCert,
    summary: generated,
    dispose: () => {
      process.off('exit', remove);
      remove();
    },
  };
}

/**
 * The environment that hands a CA to a client command: Node (NODE_EXTRA_CA_CERTS, added to its
 * roots), OpenSSL-based stacks (SSL_CERT_FILE: Python, Ruby, curl; it replaces their default roots)
 * and drivers that load it themselves (WSGATE_CA_FILE).
 */
export function caEnvironment(caFile: string | null): Record<string, string> {
  if (caFile === null) return {};
  return { NODE_EXTRA_CA_CERTS: caFile, SSL_CERT_FILE: caFile, WSGATE_CA_FILE: caFile };
}
