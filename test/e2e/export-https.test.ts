import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { HAS_OPENSSL, selfSignedCert } from '../helpers/tls.js';

// The hosted service is https: a download streamed to disk must deliver every byte over TLS too,
// while the file write holds the socket back (backpressure).

/** A CSV of about `mib` MiB whose every row is different, so a lost or repeated piece shows. */
function bigCsv(mib: number): Buffer {
  const rows = ['\ufeffid,Name,Email,created_at'];
  let size = 0;
  for (let i = 0; size < mib << 20; i++) {
    const row = `${i},"Person ${i}",person${i}@example.com,2026-01-01 10:${String(i % 60).padStart(2, '0')}`;
    rows.push(row);
    size += row.length + 1;
  }
  return Buffer.from(`${rows.join('\n')}\n`);
}

describe.skipIf(!HAS_OPENSSL)('submission export over https (e2e, built binary)', () => {
  const home = tempHome();
  let work: string;
  let server: Server;
  let url: string;
  let caFile: string;
  const csv = bigCsv(24);
  const form = (id: number) => ({
    id,
    slug: `f${id}`,
    title: `Form ${id}`,
    visibility: 'public',
    properties: [
      { id: 'name', type: 'text', name: 'Name' },
      { id: 'email', type: 'email', name: 'Email' },
    ],
  });

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'formctl-https-e2e-'));
    const { cert, key, certFile } = selfSignedCert(work);
    caFile = certFile;
    server = createServer({ key, cert }, (req, res) => {
      const path = req.url ?? '';
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== 'Bearer tok_https' && !path.startsWith('/files/')) return send(401, { message: 'Unauthenticated.' });
      const m = /^\/open\/forms\/(\d+)$/.exec(path);
      if (req.method === 'GET' && m) return send(200, form(Number(m[1])));
      req.resume();
      if (req.method === 'POST' && path === '/open/forms/1/submissions/export') {
        // Chunked (no length), written in pieces of many TLS records.
        res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename=f1-submission-data.csv' });
        for (let i = 0; i < csv.length; i += 1 << 20) res.write(csv.subarray(i, i + (1 << 20)));
        return res.end();
      }
      if (req.method === 'POST' && path === '/open/forms/2/submissions/export') return send(202, { message: 'queued', job_id: 'job-1', is_async: true });
      if (req.method === 'GET' && path === '/open/forms/2/submissions/export/job-1/status')
        return send(200, { status: 'completed', progress: 100, file_url: `${url}/files/job-1.csv?signature=s3cr3t` });
      if (req.method === 'GET' && path === '/files/job-1.csv?signature=s3cr3t') {
        res.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(csv.length) });
        return res.end(csv);
      }
      send(404, { message: 'Not found.' });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    home.cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  const env = () => ({ ...home.env, FORMCTL_BASE_URL: url, FORMCTL_TOKEN: 'tok_https', NODE_EXTRA_CA_CERTS: caFile });

  it('a chunked sync CSV of 24 MiB arrives byte for byte under the final name, with no .part left', async () => {
    const out = join(work, 'sync.csv');
    const r = await runFormctl(['submission', 'export', '1', '-o', out], { env: env(), timeoutMs: 60_000 });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(readFileSync(out).equals(csv)).toBe(true);
    expect(readdirSync(work).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('an async job: the file_url download (Content-Length) arrives byte for byte, and stdout streaming matches too', async () => {
    const out = join(work, 'job.csv');
    const r = await runFormctl(['submission', 'export', '2', '-o', out, '--poll-interval', '0.1'], { env: env(), timeoutMs: 60_000 });
    expect([r.code, r.stderr]).toEqual([0, 'Exporting: completed ▕██████████▏ 100%\n']);
    expect(readFileSync(out).equals(csv)).toBe(true);
    const piped = await runFormctl(['submission', 'export', '1', '-o', '-'], { env: env(), timeoutMs: 60_000 });
    expect(piped.code).toBe(0);
    expect(Buffer.from(piped.stdout, 'utf8').equals(csv)).toBe(true);
  });

  it('a certificate the machine does not trust is a clear TLS error (exit 11), and no file', async () => {
    const out = join(work, 'untrusted.csv');
    const r = await runFormctl(['submission', 'export', '1', '-o', out], { env: { ...env(), NODE_EXTRA_CA_CERTS: '' }, timeoutMs: 30_000 });
    // Not retried: waiting does not make a certificate trusted.
    expect(r.code).toBe(11);
    // One line naming NODE_EXTRA_CA_CERTS, and --use-system-ca where this Node has it; no stack trace.
    const systemCa = process.allowedNodeEnvironmentFlags.has('--use-system-ca');
    const [error, hint, rest] = r.stderr.split('\n');
    expect(error).toMatch(
      /^error: 127\.0\.0\.1:\d+ presented a self-signed certificate \(DEPTH_ZERO_SELF_SIGNED_CERT\), so formctl did not send anything \(GET \/open\/forms\/1\)\.$/,
    );
    expect(hint).toBe(
      systemCa
        ? "hint: If the service uses a private CA, set NODE_EXTRA_CA_CERTS to its CA file (PEM), or, if the CA is in the system's store, NODE_OPTIONS=--use-system-ca."
        : 'hint: If the service uses a private CA, set NODE_EXTRA_CA_CERTS to its CA file (PEM).',
    );
    expect(rest).toBe('');
    expect(readdirSync(work).filter((f) => f.startsWith('untrusted'))).toEqual([]);
  });
});
