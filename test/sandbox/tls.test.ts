import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { certificateNames, makeCertificates } from '../../src/sandbox/tls.js';

/** GET over https with only `ca` trusted; resolves with the status, or the TLS error's code. */
function get(url: string, ca: string | undefined): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(url, { ca }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end();
  });
}

describe('sandbox certificates (--tls)', () => {
  it('the server certificate is for the loopback names, signed by a CA that may sign server certificates only', async () => {
    const made = await makeCertificates(certificateNames('127.0.0.1'));
    const ca = new X509Certificate(made.ca);
    const leaf = new X509Certificate(made.cert);
    expect(ca.ca).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.checkHost('localhost')).toBe('localhost');
    expect(leaf.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(leaf.checkIP('::1')).toBe('::1');
    expect(leaf.checkHost('example.com')).toBeUndefined();
    expect(leaf.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect(made.key).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
  });

  it('certificateNames adds a --host that names one interface, not a wildcard', () => {
    expect(certificateNames('0.0.0.0')).toEqual(['localhost', '127.0.0.1', '::1']);
    expect(certificateNames('::')).toEqual(['localhost', '127.0.0.1', '::1']);
    expect(certificateNames('127.0.0.1')).toEqual(['localhost', '127.0.0.1', '::1']);
    expect(certificateNames('192.168.1.20')).toEqual(['localhost', '127.0.0.1', '::1', '192.168.1.20']);
    expect(certificateNames('sandbox.test')).toEqual(['localhost', '127.0.0.1', '::1', 'sandbox.test']);
  });

  it('serves https: trusted with the CA file it wrote (0644), refused without; close removes its temporary directory', async () => {
    const sb = await startSandbox({ port: 0, rateLimit: 0, tls: true });
    try {
      expect(sb.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const ca = readFileSync(sb.caFile!, 'utf8');
      expect(statSync(sb.caFile!).mode & 0o777).toBe(0o644);
      expect(statSync(dirname(sb.caFile!)).mode & 0o777).toBe(0o755);
      expect(await get(`${sb.url}/open/workspaces`, ca)).toBe(401);
      expect(await get(`${sb.url}/open/workspaces`, undefined)).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    } finally {
      await sb.close();
    }
    expect(existsSync(dirname(sb.caFile!))).toBe(false);
  });

  it('caFile: written there and kept after close; a path that cannot be written stops the start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'formctl-sandbox-ca-test-'));
    try {
      const file = join(dir, 'ca.pem');
      const sb = await startSandbox({ port: 0, rateLimit: 0, tls: true, caFile: file });
      expect(sb.caFile).toBe(file);
      await sb.close();
      expect(readFileSync(file, 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/);
      await expect(startSandbox({ port: 0, tls: true, caFile: join(dir, 'missing', 'ca.pem') })).rejects.toThrow(
        new RegExp(`^Cannot write the CA certificate to ${join(dir, 'missing', 'ca.pem')}: no such directory\\.$`),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without tls: plain http and no CA file', async () => {
    const sb = await startSandbox({ port: 0, rateLimit: 0 });
    await sb.close();
    expect(sb.url).toMatch(/^http:\/\//);
    expect(sb.caFile).toBeUndefined();
  });
});
