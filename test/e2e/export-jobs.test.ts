import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';

// An export's answer is read as a stream (it may be the CSV itself); when it is JSON (a job) it must
// obey the same limits as every JSON answer: at most 64 MiB, and within --timeout (docs/security.md).
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

const FORM = { id: 7, slug: 'f-7', title: 'F', workspace_id: 1, visibility: 'public', properties: [{ id: 'a', name: 'A', type: 'text' }] };

/** A service whose form is fine and whose export answer is JSON sent by `exportAnswer`. */
async function serve(exportAnswer: (res: ServerResponse, every: (ms: number, f: () => void) => void) => void): Promise<{ url: string }> {
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST' && /\/submissions\/export$/.test(req.url ?? '')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        exportAnswer(res, (ms, f) => {
          const t = setInterval(f, ms);
          timers.add(t);
          res.on('close', () => clearInterval(t));
        });
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.url?.startsWith('/open/forms/7') ? { data: FORM } : { data: [] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  close = () =>
    new Promise((r) => {
      for (const t of timers) clearInterval(t);
      server.closeAllConnections();
      server.close(() => r());
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function env(url: string): NodeJS.ProcessEnv {
  return { ...home.env, FORMCTL_BASE_URL: url, FORMCTL_TOKEN: 'fsk_t' };
}

describe('an export answered with JSON obeys the JSON limits', () => {
  it('a job answer trickling one byte a second ends after --timeout (exit 11), not never', async () => {
    const s = await serve((res, every) => {
      res.write('{"job_id":"j1"');
      every(1000, () => res.write(' '));
    });
    const out = join(home.dir, 'trickle.csv');
    const r = await runFormctl(['--timeout', '2', 'submission', 'export', '7', '-o', out], { env: env(s.url), timeoutMs: 20_000 });
    expect(r.stderr.split('\n')[0]).toBe('error: The service did not answer within 2 s (--timeout) (POST /open/forms/7/submissions/export).');
    expect(r.code).toBe(11);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.part`)).toBe(false);
  });

  it('an endless job answer is cut at 64 MiB (bounded memory), exit 1', async () => {
    const chunk = Buffer.from('x'.repeat(256 * 1024));
    let written = 0;
    const s = await serve((res) => {
      res.write('{"job_id":"');
      const pump = (): void => {
        while (!res.destroyed && written < 2 * 1024 ** 3) {
          written += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
    const out = join(home.dir, 'endless.csv');
    // A V8 heap of 160 MB: reading the whole answer dies of it.
    const r = await runFormctl(['submission', 'export', '7', '-o', out], {
      env: { ...env(s.url), NODE_OPTIONS: '--max-old-space-size=160' },
      timeoutMs: 60_000,
    });
    expect(r.stderr.split('\n')[0]).toBe(
      "error: The service's answer is larger than 64 MiB, the most formctl reads of a JSON answer (HTTP 200, POST /open/forms/7/submissions/export).",
    );
    expect(r.code).toBe(1);
    expect(written).toBeLessThan(96 * 1024 * 1024);
    expect(existsSync(`${out}.part`)).toBe(false);
  });
});
