import { afterEach, describe, expect, it } from 'vitest';
import type { WholeListState } from '../../../src/submissions/whole-list.js';
import { type RangeReading, readListInRange } from '../../../src/submissions/range.js';
import { type StubServer, json, startStubServer } from '../../helpers/http.js';
import { clientFor } from './util.js';

let stub: StubServer | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const T0 = Date.parse('2026-01-01T00:00:00Z');
const sql = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** Ids n..1 whose creation time is `at(id)`, listed in the order given, paged by offset (the deployed shape). */
async function serve(ids: number[], at: (id: number) => number) {
  stub = await startStubServer((req, res) => {
    const q = new URL(req.url, 'http://x').searchParams;
    const page = Number(q.get('page'));
    const perPage = Number(q.get('per_page'));
    const slice = ids.slice((page - 1) * perPage, page * perPage);
    json(res, 200, {
      data: slice.map((id) => ({ id, submission_id: `u-${id}`, data: { created_at: sql(at(id)) } })),
      meta: { current_page: page, last_page: Math.max(1, Math.ceil(ids.length / perPage)), per_page: perPage, total: ids.length },
    });
  });
  return clientFor(stub.url);
}

async function read(ids: number[], since: number, until?: number) {
  const c = await serve(ids, (id) => T0 + id * 60_000);
  const state: WholeListState = { pages: 0, distinct: 0, rereads: 0 };
  const info: RangeReading = { stoppedEarly: false, outOfOrder: false, undated: 0 };
  const got: number[] = [];
  for await (const p of readListInRange(c, 1, { since, until }, { perPage: 10, state }, info)) got.push(...p.items.map((s) => Number(s.id)));
  return { got, pages: state.pages, info };
}

describe('readListInRange', () => {
  const newestFirst = Array.from({ length: 50 }, (_, i) => 50 - i);

  it('stops after the page holding the first submission older than --since', async () => {
    const r = await read(newestFirst, T0 + 35 * 60_000);
    expect(r.got).toEqual([50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35]);
    expect(r.pages).toBe(2);
    expect(r.info).toEqual({ stoppedEarly: true, outOfOrder: false, undated: 0, anyId: 50 });
  });

  it('leaves out what is at or after --until, and reads on to its start', async () => {
    const r = await read(newestFirst, T0 + 5 * 60_000, T0 + 8 * 60_000);
    expect(r.got).toEqual([7, 6, 5]);
    expect(r.pages).toBe(5);
  });

  it('a list out of order is read to its end, so nothing in the range is missed', async () => {
    const shuffled = [...newestFirst];
    // An old submission among the newest, and a new one at the end.
    [shuffled[2], shuffled[45]] = [shuffled[45]!, shuffled[2]!];
    const r = await read(shuffled, T0 + 35 * 60_000);
    expect(r.got.sort((a, b) => b - a)).toEqual([50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35]);
    expect(r.pages).toBe(5);
    expect(r.info.outOfOrder).toBe(true);
  });
});
