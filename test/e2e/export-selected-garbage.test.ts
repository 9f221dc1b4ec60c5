import { readFileSync, readdirSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { type Tamper, startCountingProxy } from '../helpers/counting-proxy.js';
import { FLAVORS, csvRowIds } from '../helpers/sandbox.js';

// A range (--since/--until) or incremental export goes through the same checked chunk path as a whole
// export in chunks (src/export/chunked.ts, checkedChunk): a chunk answered by an HTML 200, or with a row
// missing or twice, is asked for again, 3 times in all, then the run fails with exit 1, no file, and
// an incremental state as it was. The faults are injected by a proxy in front of the sandbox.

const HTML = '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body>upstream error</body></html>\n';

type Fault = (csv: string) => string | undefined;
const FAULTS: [string, Fault][] = [
  ['an HTML 200', () => undefined],
  [
    'a truncated chunk (its last row missing)',
    (csv) => {
      const lines = csv.trimEnd().split('\n');
      return lines.slice(0, -1).join('\n') + '\n';
    },
  ],
  [
    'a duplicated row',
    (csv) => {
      const lines = csv.trimEnd().split('\n');
      return [...lines, lines[1]].join('\n') + '\n';
    },
  ],
];

describe.each(FLAVORS)('a faulty chunk in a range or incremental export (%s sandbox, e2e)', (flavor) => {
  const fx = useSandboxFixture({ flavor, seed: 5 });

  const isExport = (path: string) => path === `/open/forms/${fx.sb.formId}/submissions/export`;

  /** Every export POST answered with `fault` applied to the sandbox's real answer (an HTML page when it gives none). */
  const faulty =
    (fault: Fault): Tamper =>
    (req) =>
      req.method === 'POST' && isExport(req.path)
        ? async (res: ServerResponse, body: Buffer) => {
            const headers = { authorization: `Bearer ${fx.sb.tokens.all}`, 'content-type': 'application/json', accept: 'application/json' };
            const real = await (await fetch(`${fx.sb.url}${req.path}`, { method: 'POST', headers, body })).text();
            const bad = fault(real);
            res.writeHead(200, { 'content-type': bad === undefined ? 'text/html; charset=utf-8' : 'text/csv' });
            res.end(bad ?? HTML);
          }
        : undefined;

  /** The proxy every run goes through (an incremental state names the service it was made with): `fault` set or not. */
  let fault: Fault | undefined;
  let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
  beforeAll(async () => {
    proxy = await startCountingProxy(fx.sb.url, (req, nth) => (fault ? faulty(fault)(req, nth) : undefined));
  });
  afterAll(async () => {
    await proxy?.close();
  });

  async function through(f: Fault | undefined, args: string[]) {
    fault = f;
    const before = proxy.passed.length;
    const r = await runFormctl(['submission', 'export', String(fx.sb.formId), ...args], {
      env: { ...fx.home.env, FORMCTL_BASE_URL: proxy.url, FORMCTL_TOKEN: fx.sb.tokens.all },
      timeoutMs: 60_000,
    });
    return { r, exports: proxy.passed.slice(before).filter((p) => p.method === 'POST' && isExport(p.path)).length };
  }

  for (const [label, bad] of FAULTS) {
    const slug = label.replace(/\W+/g, '-');
    it(`--since: ${label} is asked for 3 times, then exit 1 and no file`, async () => {
      const out = join(fx.work, `range-${slug}.csv`);
      const { r, exports } = await through(bad, ['--since', '30d', '-o', out]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/error: Chunk 1 of the export of form \d+[ :].*\(asked 3 times\); the export was stopped/);
      expect(r.stderr.match(/^warning: chunk 1 of the export of form \d+ was refused/gm)).toHaveLength(2);
      expect(exports).toBe(3);
      expect(readdirSync(fx.work).filter((f) => f.startsWith(`range-${slug}`))).toEqual([]);
    });

    it(`--incremental: ${label} is asked for 3 times, then exit 1, no file, and the state file as it was`, async () => {
      const state = join(fx.work, `state-${slug}.json`);
      const first = await through(undefined, ['--incremental', state, '-o', join(fx.work, `inc1-${slug}.csv`)]);
      expect(first.r.code, first.r.stderr).toBe(0);
      const before = readFileSync(state, 'utf8');
      const res = await fetch(`${fx.sb.url}/forms/${fx.sb.formSlug}/answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'New', email: 'new@example.com' }),
      });
      expect(res.status).toBe(200);
      const out = join(fx.work, `inc2-${slug}.csv`);
      const { r, exports } = await through(bad, ['--incremental', state, '-o', out]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/error: Chunk 1 of the export of form \d+[ :].*\(asked 3 times\); the export was stopped/);
      expect(exports).toBe(3);
      expect(readdirSync(fx.work).filter((f) => f.startsWith(`inc2-${slug}`))).toEqual([]);
      expect(readFileSync(state, 'utf8')).toBe(before);
      // The next good run exports the new row.
      const again = await through(undefined, ['--incremental', state, '-o', out, '--json']);
      expect(again.r.code, again.r.stderr).toBe(0);
      expect(JSON.parse(again.r.stdout)).toMatchObject({ rows: 1, first_run: false });
    });
  }
});

// A Hashids code may be all digits (the deployed flavour's stand-in for submission 584 is `7656`): a
// client that took an all-digit cell for the id itself dropped that row from a one-row chunk, wrote a
// header-only file with exit 0, and never exported the row on later runs either.
describe('an incremental run whose one new row has an all-digit code (deployed sandbox, e2e)', () => {
  const fx = useSandboxFixture({ flavor: 'deployed', seed: 583 });

  it('exports that row', async () => {
    const state = join(fx.home.dir, 'state.json');
    const first = await runFormctl(['submission', 'export', String(fx.sb.formId), '--incremental', state, '-o', join(fx.home.dir, 'one.csv')], { env: fx.env });
    expect(first.code, first.stderr).toBe(0);
    const res = await fetch(`${fx.sb.url}/forms/${fx.sb.formSlug}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'New', email: 'new@example.com' }),
    });
    expect(res.status).toBe(200);
    const out = join(fx.home.dir, 'two.csv');
    const r = await runFormctl(['submission', 'export', String(fx.sb.formId), '--incremental', state, '-o', out, '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 1 });
    const text = readFileSync(out, 'utf8');
    expect(text.split('\n')[1]).toMatch(/^7656,/);
    expect(csvRowIds(text, 'deployed')).toEqual([584]);
  });
});
