import { afterEach, describe, expect, it } from 'vitest';
import { type ByIdsResult, csvForIds } from '../../../src/export/by-ids.js';
import { CHUNK_ATTEMPTS, WindowBudget } from '../../../src/export/chunked.js';
import { type StubServer, startStubServer } from '../../helpers/http.js';
import { clientFor } from '../submission/util.js';

let stub: StubServer | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

/** An answer: a CSV body (text/csv), or a status line and body of its own. */
type Answer = string | { type: string; body: string };

/** A service answering the n-th export (0-based) with `csv(asked, n)`. */
async function serve(csv: (asked: number[], n: number) => Answer) {
  stub = await startStubServer(async (req, res, n) => {
    const asked = (JSON.parse(req.body || '{}') as { submissionIds?: number[] }).submissionIds ?? [];
    const a = csv(asked, n);
    res.writeHead(200, { 'content-type': typeof a === 'string' ? 'text/csv' : a.type });
    res.end(typeof a === 'string' ? a : a.body);
  });
  return clientFor(stub.url);
}

async function run(csv: (asked: number[], n: number) => Answer, ids: number[]) {
  const client = await serve(csv);
  const result: ByIdsResult = { exported: [], gone: [], requests: 0 };
  const retries: string[] = [];
  const budget = new WindowBudget(
    1000,
    () => 0,
    async () => undefined,
  );
  const out: Buffer[] = [];
  try {
    for await (const b of csvForIds({ client, formId: 7, columns: { name: true }, ids, budget, result, onRetry: (t) => retries.push(t) })) out.push(b);
  } catch (err) {
    return { text: Buffer.concat(out).toString('utf8'), result, retries, err: err as Error };
  }
  return { text: Buffer.concat(out).toString('utf8'), result, retries, err: undefined };
}

const HEAD = '\uFEFFid,Name\n';
const rowsOf = (asked: number[], code: (id: number) => string = String) => HEAD + asked.map((id) => `${code(id)},N${id}\n`).join('');
const HTML = { type: 'text/html; charset=utf-8', body: '<!DOCTYPE html><html><body>502 Bad Gateway</body></html>\n' };

describe('csvForIds', () => {
  it('a service that ignores submissionIds sends every row: only the chosen ones are kept, bytes untouched', async () => {
    const all = `${HEAD}5,"E, e"\n4,"D\nd"\n3,C\n2,B\n1,A\n`;
    const r = await run(() => all, [4, 2]);
    expect(r.err).toBeUndefined();
    expect(r.text).toBe(`${HEAD}4,"D\nd"\n2,B\n`);
    expect(r.result).toMatchObject({ exported: [4, 2], requests: 1 });
  });

  it("the deployed service's Hashids ids are taken as the ids asked for when the row count says so, and a short chunk is asked for again, then refused", async () => {
    const coded = (asked: number[]) => rowsOf(asked, (id) => `h${id}x`);
    const r = await run(coded, [9, 8]);
    expect(r.text).toBe(`${HEAD}h9x,N9\nh8x,N8\n`);
    expect(r.result.exported).toEqual([9, 8]);
    await stub!.close();
    stub = undefined;
    const short = await run(() => `${HEAD}h9x,N9\n`, [9, 8]);
    expect(short.err?.message).toBe(
      'Chunk 1 of the export of form 7 did not hold its 2 rows: 1 of 2 rows came back (asked 3 times); the export was stopped, and no file is saved without every row.',
    );
    expect(short.result.requests).toBe(CHUNK_ATTEMPTS);
    expect(short.text).toBe('');
  });

  it('a Hashids code may be all digits: a one-row chunk whose code is not its id is taken by its count', async () => {
    const r = await run((asked) => rowsOf(asked, () => '82'), [1001]);
    expect(r.err).toBeUndefined();
    expect(r.text).toBe(`${HEAD}82,N1001\n`);
    expect(r.result).toMatchObject({ exported: [1001], requests: 1 });
  });

  // The same faults a whole export in chunks refuses (docs/security.md): asked for again, 3 times in all.
  for (const [label, bad] of [
    ['an HTML page (200, text/html)', () => HTML],
    ['an HTML page sent as text/csv', () => HTML.body],
    ['a truncated chunk (a row missing)', (asked: number[]) => rowsOf(asked.slice(1))],
    ['a header-only chunk', () => HEAD],
    ['a duplicated row', (asked: number[]) => rowsOf([...asked, asked[0]!])],
    ['a CSV cut inside a quoted cell', (asked: number[]) => `${rowsOf(asked)}${asked[0]},"unterminated`],
  ] as const) {
    it(`${label}: asked for again up to 3 times, then refused with nothing yielded`, async () => {
      const r = await run(bad as (asked: number[]) => Answer, [3, 2, 1]);
      expect(r.err?.message).toMatch(/^Chunk 1 of the export of form 7[ :].*\(asked 3 times\); the export was stopped/);
      expect(r.result.requests).toBe(3);
      expect(r.retries).toHaveLength(2);
      expect(r.retries[0]).toMatch(/^chunk 1 of the export of form 7 was refused \(.*\); asking for it again \(attempt 2 of 3\)\.$/);
      expect(r.text).toBe('');
      expect(r.result.exported).toEqual([]);
    });

    it(`${label} once: the chunk asked for again is taken`, async () => {
      const r = await run((asked, n) => (n === 0 ? (bad as (a: number[]) => Answer)(asked) : rowsOf(asked)), [3, 2, 1]);
      expect(r.err).toBeUndefined();
      expect(r.text).toBe(rowsOf([3, 2, 1]));
      expect(r.result).toMatchObject({ exported: [3, 2, 1], requests: 2 });
    });
  }

  it('chunk 2 of a range is refused after 3 asks: what chunk 1 gave is not the end of the story (the caller saves nothing)', async () => {
    const ids = Array.from({ length: 1500 }, (_, i) => 1500 - i);
    const r = await run((asked) => (asked.length === 500 ? HEAD : rowsOf(asked)), ids);
    expect(r.err?.message).toContain('Chunk 2 of the export of form 7 did not hold its 500 rows: 0 of 500 rows came back (asked 3 times)');
    expect(r.result.requests).toBe(4);
  });

  it("coded ids: a chunk answered with an earlier chunk's rows (a caching proxy) is refused", async () => {
    const ids = Array.from({ length: 2000 }, (_, i) => 2000 - i);
    let first = '';
    const r = await run((asked, n) => {
      if (n === 0) first = rowsOf(asked, (id) => `c${id}`);
      return first;
    }, ids);
    expect(r.err?.message).toMatch(
      /Chunk 2 of the export of form 7 did not hold its 1,000 rows: 1,000 rows came back in an earlier chunk too \(e\.g\. id c\d+\)/,
    );
  });
});
