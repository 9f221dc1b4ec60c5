import { afterEach, describe, expect, it } from 'vitest';
import { type WholeListState, readWholeList } from '../../../src/submissions/whole-list.js';
import { findSubmission } from '../../../src/submissions/lookup.js';
import { numericIdOf } from '../../../src/submissions/ref.js';
import { type StubServer, json, startStubServer } from '../../helpers/http.js';
import { clientFor } from './util.js';

let stub: StubServer | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const row = (id: number) => ({
  id,
  submission_id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  // Two a second, as the deployed list shows them.
  data: { created_at: `2026-01-01 10:00:${String(Math.floor(id / 2) % 60).padStart(2, '0')}` },
});

/**
 * A list of ids n..1 (newest first) paged by offset; `order(offset, perPage)` may rearrange it for
 * one request, as a database does with ties a LIMIT/OFFSET query leaves unordered.
 */
async function serveList(n: number, order: (ids: number[], offset: number, perPage: number) => number[] = (ids) => ids, total = () => n) {
  stub = await startStubServer((req, res) => {
    const q = new URL(req.url, 'http://x').searchParams;
    const page = Number(q.get('page'));
    const perPage = Number(q.get('per_page'));
    const ids = order(
      Array.from({ length: n }, (_, i) => n - i),
      (page - 1) * perPage,
      perPage,
    );
    const slice = ids.slice((page - 1) * perPage, page * perPage);
    const t = total();
    json(res, 200, { data: slice.map(row), meta: { current_page: page, last_page: Math.max(1, Math.ceil(t / perPage)), per_page: perPage, total: t } });
  });
  return clientFor(stub.url);
}

async function readAll(c: ReturnType<typeof clientFor>, state: WholeListState, perPage = 10): Promise<number[]> {
  const ids: number[] = [];
  for await (const p of readWholeList(c, 42, { state, perPage })) ids.push(...p.items.map((s) => numericIdOf(s)!));
  return ids;
}

describe('readWholeList', () => {
  it('a stable list: read once, each id once, no request more', async () => {
    const c = await serveList(25);
    const state: WholeListState = { pages: 0, distinct: 0, rereads: 0 };
    const ids = await readAll(c, state);
    expect(ids).toEqual(Array.from({ length: 25 }, (_, i) => 25 - i));
    expect(state).toMatchObject({ pages: 3, distinct: 25, rereads: 0, complete: true, total: 25 });
  });

  it('ties a query at a given offset always orders the same way: read again in pages of another size', async () => {
    // Ids 11 and 10 share a second; the query at offset 10 (LIMIT 10) always puts 11 first, the one
    // at offset 0 always keeps 11 on its own page: 11 twice, 10 never, however often those pages are read.
    const c = await serveList(20, (ids, offset, perPage) => (offset === perPage && perPage === 10 ? swap(ids, 9, 10) : ids));
    const state: WholeListState = { pages: 0, distinct: 0, rereads: 0 };
    const ids = await readAll(c, state);
    expect(new Set(ids).size).toBe(20);
    expect(ids.length).toBe(20);
    expect(ids.at(-1)).toBe(10);
    expect(state).toMatchObject({ rereads: 1, complete: true });
    expect(stub!.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('per_page'))).toEqual(['10', '10', '9', '9']);
  });

  it('a count that is never reached: at most two readings again, then complete is false', async () => {
    const c = await serveList(5, undefined, () => 6);
    const state: WholeListState = { pages: 0, distinct: 0, rereads: 0 };
    const ids = await readAll(c, state);
    expect(ids).toEqual([5, 4, 3, 2, 1]);
    expect(state).toMatchObject({ rereads: 2, complete: false, distinct: 5, total: 6 });
    expect(state.pages).toBe(3);
  });

  it('a deletion does not let the deleted ids make up for one a tie skipped: the list is read again', async () => {
    // Ids 30..1, pages of 10. The second request puts 21 (a tie with 20) at offset 10: 21 twice, 20
    // skipped. Then 25, read on page 1, is deleted: the total drops to 29, the distinct ids read
    // reach 29 with 25 among them, and 20 (which exists) was still never given.
    let list = Array.from({ length: 30 }, (_, i) => 30 - i);
    let n = 0;
    stub = await startStubServer((req, res) => {
      const q = new URL(req.url, 'http://x').searchParams;
      const page = Number(q.get('page'));
      const perPage = Number(q.get('per_page'));
      n++;
      if (n === 3) list = list.filter((id) => id !== 25);
      const ids = n === 2 ? swap(list, 9, 10) : list;
      const slice = ids.slice((page - 1) * perPage, page * perPage);
      json(res, 200, {
        data: slice.map(row),
        meta: { current_page: page, last_page: Math.ceil(list.length / perPage), per_page: perPage, total: list.length },
      });
    });
    const state: WholeListState = { pages: 0, distinct: 0, rereads: 0 };
    const ids = await readAll(clientFor(stub.url), state);
    expect(ids).toContain(20);
    expect(new Set(ids).size).toBe(ids.length);
    expect(state).toMatchObject({ rereads: 1, complete: true, total: 29 });
  });

  it.each([
    // Deleted from page 1, already read (so it was given): the ids read less the drop still reach the total.
    [25, 0],
    // Deleted from page 3 before it is read: the ids read since the drop are counted, in a reading again.
    [3, 1],
  ])('a deletion while it is read (id %i), with nothing skipped, still ends complete (%i readings again)', async (gone, rereads) => {
    let list = Array.from({ length: 30 }, (_, i) => 30 - i);
    let n = 0;
    stub = await startStubServer((req, res) => {
      const q = new URL(req.url, 'http://x').searchParams;
      const page = Number(q.get('page'));
      const perPage = Number(q.get('per_page'));
      if (++n === 3) list = list.filter((id) => id !== gone);
      const slice = list.slice((page - 1) * perPage, page * perPage);
      json(res, 200, {
        data: slice.map(row),
        meta: { current_page: page, last_page: Math.ceil(list.length / perPage), per_page: perPage, total: list.length },
      });
    });
    const state: WholeListState = { pages: 0, distinct: 0, rereads: 0 };
    const ids = await readAll(clientFor(stub.url), state);
    const expected = Array.from({ length: 30 }, (_, i) => 30 - i).filter((id) => gone >= 21 || id !== gone);
    expect([...ids].sort((a, b) => b - a)).toEqual(expected);
    expect(state).toMatchObject({ complete: true, total: 29, rereads });
  });

  it('a page already read (firstPage) is not asked again', async () => {
    const c = await serveList(15);
    const first = {
      status: 200,
      method: 'GET',
      path: '/open/forms/42/submissions',
      data: { data: [15, 14, 13, 12, 11, 10, 9, 8, 7, 6].map(row), meta: { current_page: 1, last_page: 2, per_page: 10, total: 15 } },
    };
    const ids: number[] = [];
    for await (const p of readWholeList(c, 42, { perPage: 10, firstPage: first })) ids.push(...p.items.map((s) => numericIdOf(s)!));
    expect(ids).toEqual(Array.from({ length: 15 }, (_, i) => 15 - i));
    expect(stub!.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('page'))).toEqual(['2']);
  });
});

describe('findSubmission when a same-second pair trades places across a page boundary', () => {
  it('finds the id by reading the pages around again in pages of another size (not exit 6)', async () => {
    // 200 ids; the query at offset 100 always starts with 101 (the last of page 1) in place of 100.
    const c = await serveList(200, (ids, offset, perPage) => (offset === 100 && perPage === 100 ? swap(ids, 99, 100) : ids));
    const found = await findSubmission(c, 42, { kind: 'id', id: 100 });
    expect(found.id).toBe(100);
    expect(stub!.requests.some((r) => new URL(r.url, 'http://x').searchParams.get('per_page') === '99')).toBe(true);
  });

  it('an id that does not exist is still exit 6, at the cost of a few pages', async () => {
    const c = await serveList(200);
    await expect(findSubmission(c, 42, { kind: 'id', id: 500 })).rejects.toMatchObject({ exitCode: 6 });
    expect(stub!.requests.length).toBeLessThanOrEqual(4);
  });
});

function swap(ids: number[], i: number, j: number): number[] {
  const out = [...ids];
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
}

describe('readWholeList against a total that keeps swinging', () => {
  it('ends (a bounded number of requests) and says the list was not read whole', async () => {
    let n = 0;
    // 30 ids, but every other answer counts 5 fewer: a "deletion" on every page, forever.
    const c = await serveList(30, undefined, () => (n++ % 2 === 0 ? 40 : 35));
    const state: WholeListState = { pages: 0, distinct: 0, rereads: 0 };
    const ids = await readAll(c, state);
    expect(new Set(ids).size).toBe(30);
    expect(state.complete).toBe(false);
    expect(state.pages).toBeLessThan(400);
  });
});
