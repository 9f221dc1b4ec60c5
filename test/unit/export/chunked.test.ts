import { describe, expect, it } from 'vitest';
import { CsvJoiner, type IdColumn, WindowBudget, judgeRows } from '../../../src/export/chunked.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (parts: Uint8Array[]) => Buffer.concat(parts.map((p) => Buffer.from(p))).toString('utf8');

/** Feeds each chunk to the joiner in pieces of `size` bytes. */
function join(chunks: string[], size: number): string {
  const j = new CsvJoiner();
  const out: Uint8Array[] = [];
  for (const c of chunks) {
    j.next();
    const b = enc(c);
    for (let i = 0; i < b.length; i += size) out.push(j.take(b.subarray(i, i + size)));
  }
  return dec(out);
}

describe('CsvJoiner', () => {
  const a = '\ufeff"id","Name"\n"1","Ada"\n';
  const b = '\ufeff"id","Name"\n"2","Bob"\n';
  const c = '"id","Na\nme"\n"3","Cy"\n';
  it('keeps one BOM and one header, whatever the piece size, and a quoted line break inside a header', () => {
    for (const size of [1, 2, 3, 5, 1000]) {
      expect(join([a, b, c], size)).toBe('\ufeff"id","Name"\n"1","Ada"\n"2","Bob"\n"3","Cy"\n');
    }
  });
  it('a chunk that is only a header adds nothing', () => {
    expect(join([a, '\ufeff"id","Name"\n'], 4)).toBe(a);
  });
});

describe('WindowBudget (fixed 60 s window)', () => {
  it('lets what the shared budget admits through at once (8 of 10), then waits 60 s after the last; the headers keep the count true', async () => {
    let t = 0;
    const waits: number[] = [];
    const budget = new WindowBudget(
      10,
      () => t,
      async (ms) => {
        waits.push(ms);
        t += ms;
      },
      500,
    );
    for (let i = 0; i < 8; i++) {
      await budget.take();
      t += 100;
    }
    expect(waits).toEqual([]);
    // The 8th went at 700: no 60 s span may hold it and the next window's first.
    await budget.take();
    expect(waits).toEqual([700 + 60_500 - 800]);
    // Another client used 8 of this window (1 left of 10): the next one waits for the next window.
    budget.observe({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '1' });
    await budget.take();
    expect(waits.length).toBe(2);
  });
});

describe("export beyond the token wall (a fake with the deployed service's export rules)", async () => {
  const { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } = await import('node:fs');
  const { tmpdir, hostname } = await import('node:os');
  // eslint-disable-next-line @typescript-eslint/unbound-method -- node:path's functions do not use `this`
  const { join } = await import('node:path');
  const { afterEach, beforeEach } = await import('vitest');
  const { submissionExportRun } = await import('../../../src/commands/submission/export.js');
  const { submissionExportStatusRun } = await import('../../../src/commands/submission/export-status.js');
  const { makeSubmissions, startSubmissionFake } = await import('../../helpers/submission-fake.js');
  const { parse: parseCsv } = await import('csv-parse/sync');
  const { fakeIO } = await import('../../helpers/io.js');
  const { clientFor } = await import('../submission/util.js');
  const FORM = { id: 42, slug: 'contact-us', title: 'Contact us', visibility: 'public', properties: [{ id: 'p_name', type: 'text', name: 'Name' }] };
  let dir: string;
  let fake: Awaited<ReturnType<typeof startSubmissionFake>> | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'formctl-chunks-'));
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
  const run = (o: Record<string, unknown> = {}) => {
    const fio = fakeIO();
    let t = 0;
    const sleeps: number[] = [];
    const p = submissionExportRun({
      io: fio.io,
      api: async () => clientFor(fake!.url),
      now: () => t,
      sleep: async (ms) => {
        sleeps.push(ms);
        t += ms;
      },
      form: '42',
      wait: true,
      pollInterval: 1_000,
      waitTimeout: 60_000,
      ...o,
    });
    return { fio, p, sleeps };
  };

  it("a 1,200-row form: the job's status is closed, so the rows come in chunks of at most 1,000 ids, joined with one BOM and one header", async () => {
    // Answers with a comma, a quote and a line break: the joined file must still parse, row for row.
    const name = (i: number) => `N${i}, "said"\nline ${i}`;
    fake = await startSubmissionFake({ flavor: 'deployed', form: FORM, submissions: makeSubmissions(1200, (i) => ({ p_name: name(i) })) });
    const out = join(dir, 'all.csv');
    const { fio, p } = run({ output: out });
    await p;
    const csv = readFileSync(out, 'utf8');
    expect(csv.startsWith('\ufeff"id","p_name","created_at"\n')).toBe(true);
    expect(csv.split('\ufeff').length).toBe(2);
    const [header, ...rows] = parseCsv(csv, { bom: true }) as string[][];
    expect(header).toEqual(['id', 'p_name', 'created_at']);
    expect(rows.length).toBe(1200);
    expect(rows.filter((r) => r.length !== 3 || r[1] !== name(Number(r[0])))).toEqual([]);
    expect(new Set(rows.map((r) => r[0])).size).toBe(1200);
    const posts = fake.exportRequests().map((r) => JSON.parse(r.body) as { submissionIds?: number[] });
    expect(posts.map((b) => b.submissionIds?.length)).toEqual([undefined, 1000, 200]);
    expect(fio.err()).toContain('note: this service does not let API tokens read the status of export job');
    expect(fio.err()).not.toMatch(/expire/);
    expect(fio.err()).toContain('Exporting in chunks ▕██████████▏ 2/2 chunks · 1,200/1,200 rows');
    expect(readdirSync(dir)).toEqual(['all.csv']);
  });

  it('export-status on such a job says the status is closed to tokens, not that the job expired', async () => {
    fake = await startSubmissionFake({ flavor: 'deployed', form: FORM, submissions: makeSubmissions(3, (i) => ({ p_name: `N${i}` })) });
    const fio = fakeIO();
    const err = await submissionExportStatusRun({
      io: fio.io,
      api: async () => clientFor(fake!.url),
      now: () => 0,
      sleep: async () => undefined,
      form: '42',
      jobId: 'abc',
      pollInterval: 1000,
      waitTimeout: 1000,
    }).then(
      () => undefined,
      (e: Error & { hint?: string }) => e,
    );
    expect(err?.message).toMatch(/does not let API tokens read the status of export job abc/);
    expect(`${err?.message} ${err?.hint}`).not.toMatch(/expire/);
  });

  it('--no-wait where the job status is closed to tokens: refused before any export is sent (exit 2), no job id printed', async () => {
    fake = await startSubmissionFake({ flavor: 'deployed', form: FORM, submissions: makeSubmissions(1001, (i) => ({ p_name: `N${i}` })) });
    const out = join(dir, 'later.csv');
    const { fio, p } = run({ wait: false, output: out });
    const err = (await p.then(
      () => undefined,
      (e: unknown) => e,
    )) as (Error & { exitCode?: number; hint?: string }) | undefined;
    expect(err?.exitCode).toBe(2);
    expect(err?.message).toBe(
      '--no-wait cannot work on this service: it does not let API tokens read the status of an export job (the deployed OpnForm service answers 404 with an empty message), so a job id could never be fetched. Nothing was exported.',
    );
    expect(err?.hint).toBe(
      `Run \`formctl submission export 42 -o ${out}\` without --no-wait: a small export is saved at once, a larger one is exported in chunks of 1,000 rows.`,
    );
    expect(fio.out()).toBe('');
    expect(fake.exportRequests()).toEqual([]);
    // The form, then the code's status path: 404 with an empty message, closed to tokens.
    expect(fake.requests.filter((r) => /\/submissions\/export\//.test(r.url)).map((r) => r.url)).toEqual([
      '/open/forms/42/submissions/export/status/00000000-0000-0000-0000-000000000000',
    ]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("the export limit paces the chunks: 8 exports in a window (formctl's share of 10), then a wait for the next one", async () => {
    fake = await startSubmissionFake({
      flavor: 'deployed',
      form: FORM,
      submissions: makeSubmissions(10_500, (i) => ({ p_name: `N${i}` })),
      listRateLimit: 60_000,
    });
    const out = join(dir, 'big.csv');
    const { p, sleeps } = run({ output: out });
    await p;
    expect(readFileSync(out, 'utf8').trimEnd().split('\n').length).toBe(10_501);
    // 1 export that made the job + 11 chunks: the 8th export waits for the second window.
    expect(fake.exportRequests().length).toBe(12);
    expect(sleeps.filter((ms) => ms > 30_000).length).toBe(1);
  });

  it('a .part left by a killed export is taken over; one a running process holds is refused before any request', async () => {
    fake = await startSubmissionFake({ flavor: 'deployed', form: FORM, submissions: makeSubmissions(5, (i) => ({ p_name: `N${i}` })) });
    const out = join(dir, 'a.csv');
    // A pid that is not running: the highest pids are free on any test machine.
    writeFileSync(`${out}.part`, 'half a csv');
    writeFileSync(`${out}.part.owner`, JSON.stringify({ pid: 2 ** 22 - 7, host: hostname(), started: '2026-01-01T00:00:00.000Z' }));
    await run({ output: out }).p;
    expect(readFileSync(out, 'utf8').trimEnd().split('\n').length).toBe(6);
    expect(readdirSync(dir)).toEqual(['a.csv']);
    const out2 = join(dir, 'b.csv');
    writeFileSync(`${out2}.part`, 'being written');
    writeFileSync(`${out2}.part.owner`, JSON.stringify({ pid: process.ppid, host: hostname(), started: '2026-01-01T00:00:00.000Z' }));
    const before = fake.requests.length;
    const err = await run({ output: out2 }).p.then(
      () => undefined,
      (e: Error & { exitCode: number }) => e,
    );
    expect(err?.exitCode).toBe(2);
    expect(err?.message).toBe(
      `${out2}.part exists: another export to ${out2} is running (process ${process.ppid} on this machine, started 2026-01-01T00:00:00.000Z).`,
    );
    expect(fake.requests.length).toBe(before);
    expect(existsSync(`${out2}.part`)).toBe(true);
  });
});

describe('judgeRows (how a chunk reads the id column)', () => {
  it('every id asked for under its own number: plain ids; exact refuses a row not asked for, chosen leaves it out', () => {
    const col: IdColumn = {};
    expect(judgeRows(['3', '2', '1'], 0, [3, 2, 1], 'exact', col)).toEqual([true, true, true]);
    expect(col.plain).toBe(true);
    expect(() => judgeRows(['3', '2', '9'], 0, [3, 2], 'exact', {})).toThrow('1 row is of a submission not asked for (e.g. id 9)');
    expect(judgeRows(['3', '2', '9'], 0, [3, 2], 'chosen', {})).toEqual([true, true, false]);
    expect(() => judgeRows(['3', '2', '3'], 0, [3, 2], 'chosen', {})).toThrow('1 row came back twice');
  });

  it('once an export showed plain ids, a chunk without its ids is refused, even with the right count', () => {
    const col: IdColumn = { plain: true };
    expect(() => judgeRows(['5', '4'], 0, [2, 1], 'exact', col)).toThrow('2 rows are of submissions not asked for (e.g. id 5)');
    expect(() => judgeRows(['2'], 0, [2, 1], 'chosen', col)).toThrow('1 of 2 rows came back');
  });

  it('coded ids (the deployed service): the count, each code once, none from an earlier chunk; digits alone prove nothing', () => {
    const col: IdColumn = {};
    expect(judgeRows(['jR', '7656'], 0, [1001, 1002], 'exact', col)).toEqual([true, true]);
    expect(col.plain).toBeUndefined();
    expect(judgeRows(['82'], 0, [1003], 'exact', col)).toEqual([true]);
    expect(() => judgeRows(['jR'], 0, [1004], 'exact', col)).toThrow('1 row came back in an earlier chunk too (e.g. id jR)');
    expect(() => judgeRows(['a1', 'a1'], 0, [1, 2], 'exact', {})).toThrow('1 row came back twice');
    expect(() => judgeRows(['a1'], 0, [1, 2], 'chosen', {})).toThrow('1 of 2 rows came back');
    expect(() => judgeRows(['a1', 'a2'], 5, [1, 2], 'chosen', {})).toThrow('7 rows came back for the 2 asked');
  });
});
