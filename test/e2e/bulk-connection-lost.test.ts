import { readFileSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { sandboxForTest } from '../helpers/fixture.js';

/**
 * The service as the client sees it: a front that passes each request on to the sandbox and, once
 * `stopAfterPuts` PUTs were answered, goes away (every later connection is refused), as a service
 * that dies mid-run does.
 */
async function front(target: string, port: number, stopAfterPuts = Number.POSITIVE_INFINITY): Promise<{ port: number; close(): Promise<void> }> {
  let puts = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const up = request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('end', () => {
        if (req.method === 'PUT' && ++puts >= stopAfterPuts) void close();
      });
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { port: (server.address() as AddressInfo).port, close };
}

it('a bulk update stops when the service goes away (exit 11, the rest not marked failed), and --resume completes it once it is back', async () => {
  const fx = await sandboxForTest({ seed: 20 });
  const fronts: { close(): Promise<void> }[] = [];
  try {
    const first = await front(fx.sb.url, 0, 5);
    fronts.push(first);
    const env = { ...fx.home.env, FORMCTL_TOKEN: fx.sb.env.FORMCTL_TOKEN, FORMCTL_BASE_URL: `http://127.0.0.1:${first.port}` };
    const from = join(fx.work, 'in.ndjson');
    const results = join(fx.work, 'results.ndjson');
    writeFileSync(from, Array.from({ length: 20 }, (_, i) => JSON.stringify({ submission_id: String(i + 1), Comments: `lost ${i + 1}` })).join('\n') + '\n');
    const args = ['submission', 'update', String(fx.sb.formId), '--from', from, '--results', results, '--concurrency', '1'];
    const r = await runFormctl(args, { env, timeoutMs: 120_000 });
    expect(r.stderr).toMatch(/Interrupted after \d+\/20 lines; rerun with --resume to continue\./);
    expect(r.stderr).toMatch(/^error: .*(refused|reach)/im);
    expect(r.code).toBe(11);
    const records = readFileSync(results, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; status: string; error?: string });
    expect(records.filter((l) => l.status === 'ok').length).toBe(5);
    expect(records.filter((l) => l.status === 'failed')).toEqual([]);
    // The line the failure hit is recorded interrupted, with why; no line after it was started.
    expect(records.filter((l) => l.status === 'interrupted').map((l) => l.line)).toEqual([6]);
    expect(records.find((l) => l.status === 'interrupted')?.error).toBeTruthy();

    // The service is back on the same address: --resume sends the rest.
    const second = await front(fx.sb.url, first.port);
    fronts.push(second);
    const r2 = await runFormctl([...args, '--resume'], { env, timeoutMs: 120_000 });
    expect(r2.stderr).toContain('20/20 lines · 15 ok · 0 failed · 5 skipped');
    expect(r2.code).toBe(0);
    const check = await runFormctl(['submission', 'list', String(fx.sb.formId), '--search', 'lost ', '--json', 'id'], { env });
    expect((JSON.parse(check.stdout) as { id: number }[]).length).toBe(20);
  } finally {
    for (const f of fronts) await f.close();
  }
}, 300_000);
