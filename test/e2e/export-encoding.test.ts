import { readFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';

// A server (or a proxy in front of it) may compress a download nobody asked it to. The file saved
// must hold the CSV bytes, never the compressed ones under a .csv name: the CSV answer of the export
// POST and the job's file_url alike, for gzip, deflate and br.
let home: ReturnType<typeof tempHome>;
beforeAll(() => {
  home = tempHome();
});
afterAll(() => home.cleanup());

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const CSV = Buffer.from(`\ufeffid,A,created_at\n${Array.from({ length: 2000 }, (_, i) => `${i},"answer ${i}",2026-01-01 10:00`).join('\n')}\n`);
const FORM = { id: 7, slug: 'f-7', title: 'F', workspace_id: 1, visibility: 'public', properties: [{ id: 'a', name: 'A', type: 'text' }] };
const ENCODE: Record<string, (b: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };

/** A service that answers the export with `mode` (the CSV itself, or a job whose file is the CSV), compressed with `encoding`, unasked. */
async function serve(mode: 'csv' | 'job', encoding: string): Promise<string> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const url = req.url ?? '';
      const json = (body: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const csv = () => {
        const body = ENCODE[encoding]!(CSV);
        res.writeHead(200, { 'content-type': 'text/csv', 'content-encoding': encoding, 'content-length': String(body.length) });
        res.end(body);
      };
      if (req.method === 'POST' && url.endsWith('/submissions/export')) return mode === 'csv' ? csv() : json({ job_id: 'j1', status: 'pending' });
      if (url.includes('/submissions/export/'))
        return json({ job_id: 'j1', status: 'completed', progress: 100, file_url: `http://${req.headers.host}/files/export.csv` });
      if (url.startsWith('/files/')) return csv();
      json(url.startsWith('/open/forms/7') ? FORM : { data: [] });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  close = () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('a download compressed unasked is saved as the CSV (e2e, built binary)', () => {
  it.each([
    ['csv', 'gzip'],
    ['csv', 'deflate'],
    ['csv', 'br'],
    ['job', 'gzip'],
    ['job', 'deflate'],
    ['job', 'br'],
  ] as const)('%s answer, Content-Encoding: %s', async (mode, encoding) => {
    const url = await serve(mode, encoding);
    const out = join(home.dir, `${mode}-${encoding}.csv`);
    const r = await runFormctl(['submission', 'export', '7', '-o', out], {
      env: { ...home.env, FORMCTL_BASE_URL: url, FORMCTL_TOKEN: 'fsk_t' },
      timeoutMs: 60_000,
    });
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([0, expect.not.stringMatching(/^error/)]);
    expect(readFileSync(out).equals(CSV)).toBe(true);
  });
});
