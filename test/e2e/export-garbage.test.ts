import { readFileSync, readdirSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { sandboxForTest, useSandboxFixture } from '../helpers/fixture.js';
import { type Tamper, startCountingProxy } from '../helpers/counting-proxy.js';

// A 200 that is not the export's CSV (a proxy's HTML error page, a header-only CSV, an empty body)
// must never become a file under the name asked for, and a chunked export never saves a file missing
// rows. The faults are injected by a proxy in front of the sandbox.

const HTML = '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body>upstream error</body></html>\n';
const htmlPage = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(HTML);
};
/** An HTML page sent as text/csv: only its first bytes tell. */
const htmlAsCsv = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/csv' });
  res.end(HTML);
};
const headerOnly = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename=x.csv' });
  res.end('\ufeffid,Name,Email,Message,created_at\n');
};

const isExport = (formId: number) => (path: string) => path === `/open/forms/${formId}/submissions/export`;

function rowsOf(file: string): string[][] {
  return parse(readFileSync(file), { bom: true, relax_column_count: true }) as string[][];
}

describe('a chunked export whose chunk 2 is garbage (deployed flavour, 3,000 rows, e2e)', () => {
  const fx = useSandboxFixture({ flavor: 'deployed', seed: 3000 });

  // The export POSTs: 0 is the whole form (answered with a job), 1 is chunk 1, 2 chunk 2, and so on.
  async function exportThrough(tamper: Tamper, name: string) {
    const proxy = await startCountingProxy(fx.sb.url, tamper);
    try {
      const out = join(fx.work, name);
      const r = await runFormctl(['submission', 'export', String(fx.sb.formId), '-o', out], {
        env: { ...fx.home.env, FORMCTL_BASE_URL: proxy.url, FORMCTL_TOKEN: fx.sb.tokens.all },
        timeoutMs: 60_000,
      });
      return { r, out, exports: proxy.passed.filter((p) => p.method === 'POST' && isExport(fx.sb.formId!)(p.path)).length };
    } finally {
      await proxy.close();
    }
  }

  for (const [label, answer] of [
    ['an HTML page (text/html)', htmlPage],
    ['an HTML page sent as text/csv', htmlAsCsv],
    ['a header-only CSV', headerOnly],
  ] as const) {
    it(`fails with exit 1 and saves no file when every answer to chunk 2 is ${label}`, async () => {
      const tamper: Tamper = (req, nth) => (req.method === 'POST' && isExport(fx.sb.formId!)(req.path) && nth >= 2 ? answer : undefined);
      const { r, out, exports } = await exportThrough(tamper, `all-${label.replace(/\W+/g, '-')}.csv`);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/error: Chunk 2 of the export of form \d+/);
      if (answer === headerOnly) expect(r.stderr).toContain('0 of 1,000 rows came back');
      else expect(r.stderr).toContain('the service sent an HTML page');
      expect(r.stderr).toContain('asked 3 times');
      expect(r.stderr).toMatch(/hint: Check the base URL/);
      // The first POST (a job), chunk 1, and chunk 2 three times: never chunk 3.
      expect(exports).toBe(5);
      expect(readdirSync(fx.work).filter((f) => f.startsWith(out.split('/').pop()!))).toEqual([]);
    });
  }

  // A full chunk of the wrong rows (a caching proxy that answers every chunk with the first one's CSV),
  // or with rows that come twice: the right count, but not the submissions asked for.
  for (const [label, wrong, reason] of [
    // The deployed service writes a code in the id column, not the id: chunk 1's codes coming back in chunk 2 give it away.
    ["chunk 1's rows", (csv: string) => csv, /1,000 rows came back in an earlier chunk too \(e\.g\. id [a-zA-Z0-9]+\)/],
    [
      "chunk 1's first 500 rows twice",
      (csv: string) => {
        const lines = csv.trimEnd().split('\n');
        return [lines[0], ...lines.slice(1, 501), ...lines.slice(1, 501)].join('\n') + '\n';
      },
      /500 rows came back twice/,
    ],
  ] as const) {
    it(`fails with exit 1 and saves no file when every answer to chunk 2 is ${label}`, async () => {
      let first = '';
      const tamper: Tamper = (req, nth) => {
        if (req.method !== 'POST' || !isExport(fx.sb.formId!)(req.path) || nth < 1) return undefined;
        return async (res, body) => {
          if (nth === 1) {
            const headers = { authorization: `Bearer ${fx.sb.tokens.all}`, 'content-type': 'application/json', accept: 'application/json' };
            first = await (await fetch(`${fx.sb.url}${req.path}`, { method: 'POST', headers, body })).text();
          }
          res.writeHead(200, { 'content-type': 'text/csv' });
          res.end(nth === 1 ? first : wrong(first));
        };
      };
      const { r, out, exports } = await exportThrough(tamper, `wrong-${label.replace(/\W+/g, '-')}.csv`);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/error: Chunk 2 of the export of form \d+ did not hold its 1,000 rows: /);
      expect(r.stderr).toMatch(reason);
      expect(exports).toBe(5);
      expect(readdirSync(fx.work).filter((f) => f.startsWith(out.split('/').pop()!))).toEqual([]);
    });
  }

  it('asks for a refused chunk again, and saves every row when the next answer is good', async () => {
    const tamper: Tamper = (req, nth) => (req.method === 'POST' && isExport(fx.sb.formId!)(req.path) && nth === 2 ? headerOnly : undefined);
    const { r, out, exports } = await exportThrough(tamper, 'retried.csv');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('chunk 2 of the export of form');
    expect(r.stderr).toContain('asking for it again (attempt 2 of 3)');
    expect(exports).toBe(5);
    const rows = rowsOf(out);
    expect(rows[0]![0]).toBe('id');
    const ids = rows.slice(1).map((row) => row[0]);
    expect(ids).toHaveLength(3000);
    expect(new Set(ids).size).toBe(3000);
  });
});

describe('a garbage 200 where a CSV is expected (e2e)', () => {
  const fx = useSandboxFixture({ seed: 5 });

  async function run(tamper: Tamper, args: string[]) {
    const proxy = await startCountingProxy(fx.sb.url, tamper);
    try {
      return await runFormctl(args, { env: { ...fx.home.env, FORMCTL_BASE_URL: proxy.url, FORMCTL_TOKEN: fx.sb.tokens.all } });
    } finally {
      await proxy.close();
    }
  }

  for (const [label, answer] of [
    ['text/html', htmlPage],
    ['an HTML page sent as text/csv', htmlAsCsv],
  ] as const) {
    it(`submission export: ${label} is exit 1, no file, nothing on stdout`, async () => {
      const out = join(fx.work, `sync-${label.replace(/\W+/g, '-')}.csv`);
      const tamper: Tamper = (req) => (req.method === 'POST' && isExport(fx.sb.formId!)(req.path) ? answer : undefined);
      const r = await run(tamper, ['submission', 'export', String(fx.sb.formId), '-o', out]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(`error: The export of form ${fx.sb.formId}: the service sent an HTML page`);
      expect(r.stderr).toMatch(/hint: Check the base URL/);
      expect(readdirSync(fx.work).filter((f) => f.startsWith(out.split('/').pop()!))).toEqual([]);
      const toStdout = await run(tamper, ['submission', 'export', String(fx.sb.formId), '-o', '-']);
      expect(toStdout.code).toBe(1);
      expect(toStdout.stdout).toBe('');
    });
  }

  it("submission export: a first line without the id column is refused, the service's CSV is saved", async () => {
    const out = join(fx.work, 'not-export.csv');
    const tamper: Tamper = (req) =>
      req.method === 'POST' && isExport(fx.sb.formId!)(req.path)
        ? (res) => {
            res.writeHead(200, { 'content-type': 'text/csv' });
            res.end('name,price\nwidget,3\n');
          }
        : undefined;
    const r = await run(tamper, ['submission', 'export', String(fx.sb.formId), '-o', out]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('does not start with the id column');
    expect(readdirSync(fx.work).filter((f) => f.startsWith('not-export'))).toEqual([]);
    const good = await run(() => undefined, ['submission', 'export', String(fx.sb.formId), '-o', join(fx.work, 'good.csv')]);
    expect(good.code, good.stderr).toBe(0);
    expect(rowsOf(join(fx.work, 'good.csv'))).toHaveLength(6);
  });

  it("an export job's file_url answering HTML is exit 1 and saves nothing", async () => {
    const { sb: job } = await sandboxForTest({ seed: 30, exportAsyncThreshold: 10 });
    const out = join(fx.work, 'job.csv');
    // The job's status is answered by the proxy with a file_url on the proxy itself, whose answer is an HTML page.
    let proxyUrl = '';
    const tamper: Tamper = (req) => {
      if (req.method === 'GET' && /\/submissions\/export\/.*status/.test(req.path)) {
        return (res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ job_id: 'j1', status: 'completed', progress: 100, file_url: `${proxyUrl}/exports/j1?token=t` }));
        };
      }
      return req.method === 'GET' && req.path.startsWith('/exports/') ? htmlAsCsv : undefined;
    };
    const proxy = await startCountingProxy(job.url, tamper);
    proxyUrl = proxy.url;
    try {
      const r = await runFormctl(['submission', 'export', String(job.formId), '-o', out], {
        env: { ...fx.home.env, FORMCTL_BASE_URL: proxy.url, FORMCTL_TOKEN: job.tokens.all },
      });
      const paths = proxy.passed.map((p) => p.path);
      expect(r.code, `${r.stderr}\n${paths.join('\n')}`).toBe(1);
      expect(r.stderr).toMatch(/error: The file of export job \S+: the service sent an HTML page/);
      expect(readdirSync(fx.work).filter((f) => f.startsWith('job.csv'))).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});
