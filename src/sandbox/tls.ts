// `formctl sandbox --tls`: a private certificate authority made at start, and a server certificate
// it signs for the loopback names, so that the sandbox serves https:// the way many self-hosted
// servers do (a certificate no public CA vouches for). Node makes the keys (Web Crypto, ECDSA P-256);
// @peculiar/x509 writes the certificates, since Node has no certificate generator. Both packages are
// loaded only when --tls is given (docs/sandbox.md, "https").
import { isIP } from 'node:net';
import { randomBytes } from 'node:crypto';

/** What the https server needs, and the CA certificate a client must trust (PEM). */
export interface SandboxCertificates {
  /** The server certificate (PEM), valid for `names`, signed by the CA. */
  cert: string;
  /** Its private key (PKCS#8 PEM); kept in memory only. */
  key: string;
  /** The CA's certificate (PEM): the file NODE_EXTRA_CA_CERTS points at. */
  ca: string;
}

/** The names every sandbox certificate covers, whatever --host says. */
export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** A positive 128-bit serial number in hex: unique per certificate and at most 20 bytes, as RFC 5280 asks. */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString('hex');
}

/**
 * A fresh CA and a server certificate signed by it for `names` (host names and IP addresses). The
 * CA's private key is dropped once the server certificate is signed: it never reaches the disk, so
 * trusting the CA file trusts this sandbox run and nothing else. Validity starts an hour back (a
 * client clock slightly behind still accepts it) and lasts 30 days: a run that long is rare.
 */
export async function makeCertificates(names: string[], now = Date.now()): Promise<SandboxCertificates> {
  // @peculiar/x509 resolves its parts through tsyringe, which needs the Reflect metadata API.
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  const { subtle } = globalThis.crypto;
  const notBefore = new Date(now - HOUR);
  const notAfter = new Date(now + 30 * DAY);

  const caKeys = await subtle.generateKey(ALGORITHM, false, ['sign', 'verify']);
  const caCert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: `CN=formctl sandbox CA ${new Date(now).toISOString()}`,
    notBefore,
    notAfter,
    keys: caKeys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      // A CA that may sign server certificates only (path length 0: no intermediate below it).
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const serverKeys = await subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const unique = [...new Set(names)];
  const serverCert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: `CN=${unique[0] ?? 'localhost'}`,
    issuer: caCert.subject,
    notBefore,
    notAfter,
    publicKey: serverKeys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      // Clients match the host against these alone (the subject's CN is not consulted).
      new x509.SubjectAlternativeNameExtension(unique.map((name) => ({ type: isIP(name) ? 'ip' : 'dns', value: name }))),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
      await x509.SubjectKeyIdentifierExtension.create(serverKeys.publicKey),
    ],
  });

  const pkcs8 = await subtle.exportKey('pkcs8', serverKeys.privateKey);
  return {
    cert: serverCert.toString('pem'),
    key: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY'),
    ca: caCert.toString('pem'),
  };
}

/** The names the server certificate covers: the loopback names, plus the --host the sandbox listens on when it names one interface. */
export function certificateNames(host: string): string[] {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const wildcard = bare === '0.0.0.0' || bare === '::' || bare === '';
  return wildcard ? LOOPBACK_NAMES : [...new Set([...LOOPBACK_NAMES, bare])];
}
