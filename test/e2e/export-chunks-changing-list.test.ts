import { type IncomingMessage, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

/**
 * A pass-through proxy that runs `before` (once) ahead of forwarding the first request whose path
 * matches `when`: a change made by someone else while formctl is between two requests.
 */
async function startMeddlingProxy(target: string, when: RegExp | ((req: IncomingMessage) => boolean), before: () => Promise<void>) {
  const to = new URL(target);
  let done = false;
  const server = createServer((req: IncomingMessage, res) => {
    const forward = () => {
      const out = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      out.on('error', () => res.destroy());
      req.pipe(out);
    };
    if (!done && (typeof when === 'function' ? when(req) : when.test(req.url ?? ''))) {
      done = true;
      void before().then(forward, () => res.destroy());
    } else forward();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

// The deployed service exports more than 1,000 rows only in chunks of ids read from the list
// (docs/submission-update.md, "Exports above 1,000 rows"). The list is paged by offset: a submission
// deleted from a page already read moves every later one a place up, and the first of the next page
// would be skipped, missing from the file without a word.
describe('a chunked export while a submission is deleted (deployed flavour, e2e)', () => {
  const fx = useSandboxFixture({ flavor: 'deployed', seed: 1200, exportJobStepMs: 5 });

  it('still holds every submission that exists', async () => {
    const auth = { authorization: `Bearer ${fx.sb.tokens.all}`, accept: 'application/json' };
    let deleted: number | undefined;
    const proxy = await startMeddlingProxy(fx.sb.url, /\/submissions\?(.*&)?page=2(&|$)/, async () => {
      const page1 = (await (await fetch(`${fx.sb.url}/open/forms/${fx.sb.formId}/submissions?page=1&per_page=100`, { headers: auth })).json()) as {
        data: Array<{ id: number }>;
      };
      deleted = page1.data[10]!.id;
      const r = await fetch(`${fx.sb.url}/open/forms/${fx.sb.formId}/submissions/${deleted}`, { method: 'DELETE', headers: auth });
      expect(r.status).toBe(200);
    });
    try {
      const out = join(fx.work, 'big.csv');
      const r = await runFormctl(['submission', 'export', String(fx.sb.formId), '-o', out], {
        env: { ...fx.home.env, FORMCTL_BASE_URL: proxy.url, FORMCTL_TOKEN: fx.sb.tokens.all },
        timeoutMs: 60_000,
      });
      expect(r.code).toBe(0);
      expect(deleted).toBeDefined();
      const ids: number[] = [];
      for (let page = 1; ; page++) {
        const body = (await (await fetch(`${fx.sb.url}/open/forms/${fx.sb.formId}/submissions?page=${page}&per_page=100`, { headers: auth })).json()) as {
          data: Array<{ id: number }>;
          meta: { last_page: number };
        };
        ids.push(...body.data.map((s) => s.id));
        if (page >= body.meta.last_page) break;
      }
      expect(ids.length).toBe(1199);
      const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
      expect(lines.length).toBe(1 + 1199);
      // The CSV's first column is the service's hashed id: compare the count of distinct rows.
      expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(1199);
    } finally {
      await proxy.close();
    }
  });
});

// The deployed service checks that every one of `submissionIds` is a submission of the form (its
// `exists` rule): a chunk naming one deleted after the list was read is refused with 422
// `submissionIds.<i>`. formctl drops those ids and asks for the chunk again.
describe('a chunked export whose next chunk names a submission deleted meanwhile (deployed flavour, e2e)', () => {
  const fx = useSandboxFixture({ flavor: 'deployed', seed: 1200, exportJobStepMs: 5 });

  it('exports the chunk without it instead of failing', async () => {
    const auth = { authorization: `Bearer ${fx.sb.tokens.all}`, accept: 'application/json' };
    let posts = 0;
    const proxy = await startMeddlingProxy(
      fx.sb.url,
      (req) => req.method === 'POST' && /\/submissions\/export$/.test(req.url ?? '') && ++posts === 3,
      async () => {
        // The third export is the second chunk (the first answered with a job): the oldest ids.
        const r = await fetch(`${fx.sb.url}/open/forms/${fx.sb.formId}/submissions/5`, { method: 'DELETE', headers: auth });
        expect(r.status).toBe(200);
      },
    );
    try {
      const out = join(fx.work, 'big.csv');
      const r = await runFormctl(['--debug', 'submission', 'export', String(fx.sb.formId), '-o', out], {
        env: { ...fx.home.env, FORMCTL_BASE_URL: proxy.url, FORMCTL_TOKEN: fx.sb.tokens.all },
        timeoutMs: 60_000,
      });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^\[debug\] < 422 POST .*\/submissions\/export /m);
      const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
      expect(lines.length).toBe(1 + 1199);
      expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(1199);
    } finally {
      await proxy.close();
    }
  });
});

// The deployed list is ordered by created_at alone: answers created in the same second may come back
// in another order from one page request to the next (SQL leaves ties unordered), so a page can
// repeat an id of the page before and skip another. Imitated by a proxy that answers page 2 once
// with page 1's last submission in place of its own first one.
describe('a chunked export when the list repeats one submission and skips another (deployed flavour, e2e)', () => {
  const fx = useSandboxFixture({ flavor: 'deployed', seed: 1200, exportJobStepMs: 5 });

  it('reads the list again for the missing one', async () => {
    const to = new URL(fx.sb.url);
    let lastOfPage1: unknown;
    let rewritten = false;
    const server = createServer((req, res) => {
      const out = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (up) => {
        const page = /\/submissions\?(?:.*&)?page=(\d+)(?:&|$)/.exec(req.url ?? '')?.[1];
        if (req.method !== 'GET' || (page !== '1' && page !== '2')) {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
          return;
        }
        const parts: Buffer[] = [];
        up.on('data', (b: Buffer) => parts.push(b));
        up.on('end', () => {
          const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as { data: unknown[] };
          if (page === '1') lastOfPage1 = body.data.at(-1);
          else if (!rewritten && lastOfPage1 !== undefined) {
            rewritten = true;
            body.data[0] = lastOfPage1;
          }
          const text = JSON.stringify(body);
          res.writeHead(up.statusCode ?? 502, { ...up.headers, 'content-length': String(Buffer.byteLength(text)) });
          res.end(text);
        });
      });
      out.on('error', () => res.destroy());
      req.pipe(out);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const out = join(fx.work, 'big.csv');
      const r = await runFormctl(['submission', 'export', String(fx.sb.formId), '-o', out], {
        env: { ...fx.home.env, FORMCTL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, FORMCTL_TOKEN: fx.sb.tokens.all },
        timeoutMs: 60_000,
      });
      expect(r.code).toBe(0);
      expect(rewritten).toBe(true);
      const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
      expect(lines.length).toBe(1 + 1200);
      expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(1200);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
