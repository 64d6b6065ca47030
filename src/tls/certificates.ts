/**
 * A throwaway certificate authority for one run: a fresh CA and one server certificate it signs,
 * for the host names and addresses a run listens under. ECDSA P-256 keys are made and used by
 * Node's own WebCrypto; @peculiar/x509 writes the certificates (X.509 is ASN.1, which we do not
 * hand-write). The CA's private key never leaves this function: it signs the server certificate
 * and is dropped, so nothing can sign another certificate with it after the run.
 */
import { isIP } from 'node:net';
import { webcrypto } from 'node:crypto';

/** PEM text of a generated CA certificate, and of the server certificate and key it vouches for. */
export interface GeneratedPki {
  caCert: string;
  cert: string;
  key: string;
}

/** The names every generated server certificate carries, beside the run's own host. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'] as const;

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const HOUR_MS = 3600_000;

/** A new CA and a server certificate for `hosts` (plus localhost, 127.0.0.1 and ::1 unless told not to), valid for a week. */
export async function generatePki(hosts: readonly string[], options: { loopback?: boolean } = {}): Promise<GeneratedPki> {
  // reflect-metadata first: @peculiar/x509's dependency injection needs it, and it is loaded only when
  // a run generates certificates (plain runs never import either).
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  // Node's WebCrypto is the standard one; the DOM type names it expects are not in Node's typings.
  x509.cryptoProvider.set(webcrypto as never);
  const subtle = webcrypto.subtle;
  // An hour back: a client whose clock is a little behind still accepts the certificates.
  const notBefore = new Date(Date.now() - HOUR_MS);
  const notAfter = new Date(Date.now() + 7 * 24 * HOUR_MS);
  const stamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');

  const caKeys = (await subtle.generateKey(ALGORITHM, false, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=wsgate throwaway CA ${stamp}, O=wsgate`,
    notBefore,
    notAfter,
    keys: caKeys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const names = [...new Set([...hosts.filter((h) => h !== '' && h !== '0.0.0.0' && h !== '::'), ...(options.loopback === false ? [] : LOOPBACK_NAMES)])];
  const serverKeys = (await subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${names[0] ?? 'localhost'}, O=wsgate`,
    issuer: ca.subject,
    notBefore,
    notAfter,
    publicKey: serverKeys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth], false),
      new x509.SubjectAlternativeNameExtension(
        names.map((n) => (isIP(n) === 0 ? { type: 'dns' as const, value: n } : { type: 'ip' as const, value: n })),
        false,
      ),
      await x509.AuthorityKeyIdentifierExtension.create(ca, false),
      await x509.SubjectKeyIdentifierExtension.create(serverKeys.publicKey),
    ],
  });
  const pkcs8 = Buffer.from(await subtle.exportKey('pkcs8', serverKeys.privateKey));
  return { caCert: ca.toString('pem'), cert: leaf.toString('pem'), key: pem('PRIVATE KEY', pkcs8) };
}

/** A positive 16-byte serial number (RFC 5280 §4.1.2.2: unique per CA, at most 20 octets). */
function serial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x01;
  return Buffer.from(bytes).toString('hex');
}

function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
