import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** TLS tests need openssl to make their certificate; without it they are skipped, visibly. */
export const HAS_OPENSSL = spawnSync('openssl', ['version']).status === 0;

/** Writes a one-day self-signed certificate for 127.0.0.1 (and its key) into `dir`, for tests only. */
export function selfSignedCert(dir: string): { cert: Buffer; key: Buffer; certFile: string } {
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  const made = spawnSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    keyFile,
    '-out',
    certFile,
  ]);
  if (made.status !== 0) throw new Error(`openssl failed: ${String(made.stderr)}`);
  return { cert: readFileSync(certFile), key: readFileSync(keyFile), certFile };
}
