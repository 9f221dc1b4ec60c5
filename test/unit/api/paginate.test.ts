import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { type Page, items, paginate } from '../../../src/api/paginate.js';
import { type StubServer, json, startStubServer } from '../../helpers/http.js';

let server: StubServer | undefined;
let api: ApiClient | undefined;
afterEach(async () => {
  await api?.close();
  await server?.close();
  server = api = undefined;
});

/** A server holding `total` numbered items that answers each page with `envelope`. */
async function setup(
  total: number,
  envelope: (pageItems: number[], page: number, perPage: number, lastPage: number, base: string) => unknown,
  defaultPerPage = 2,
): Promise<{ c: ApiClient; urls: () => string[] }> {
  const all = Array.from({ length: total }, (_, i) => i + 1);
  server = await startStubServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    const page = Number(u.searchParams.get('page') ?? 1);
    const perPage = Number(u.searchParams.get('per_page') ?? defaultPerPage);
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    json(res, 200, envelope(all.slice((page - 1) * perPage, page * perPage), page, perPage, lastPage, server!.url));
  });
  api = new ApiClient({ baseUrl: server.url, token: 't', userAgent: 'test', timeoutMs: 5000, maxWaitMs: 0 });
  return { c: api, urls: () => server!.requests.map((r) => r.url) };
}

async function collect<T>(gen: AsyncIterable<Page<T>>): Promise<Page<T>[]> {
  const pages: Page<T>[] = [];
  for await (const p of gen) pages.push(p);
  return pages;
}

const spec = (data: number[], page: number, perPage: number, _last: number, _b: string, total = 5) => ({
  data,
  meta: { current_page: page, per_page: perPage, total },
});
const laravel = (data: number[], page: number, perPage: number, last: number, base: string) => ({
  data,
  links: {
    first: `${base}/x?page=1`,
    last: `${base}/x?page=${last}`,
    prev: page > 1 ? `${base}/x?page=${page - 1}` : null,
    next: page < last ? `${base}/x?page=${page + 1}` : null,
  },
  meta: { current_page: page, from: (page - 1) * perPage + 1, last_page: last, path: `${base}/x`, per_page: perPage, to: page * perPage, total: 5 },
});

describe('paginate', () => {
  it('treats a bare array as the one and only page', async () => {
    const { c, urls } = await setup(3, (data) => data, 100);
    const pages = await collect(paginate<number>(c, { path: '/open/workspaces' }));
    expect(pages).toEqual([{ items: [1, 2, 3], info: undefined, truncated: false }]);
    expect(urls()).toEqual(['/open/workspaces?page=1']);
  });

  it('follows the spec envelope {data, meta{current_page, per_page, total}}', async () => {
    const { c, urls } = await setup(5, spec);
    const pages = await collect(paginate<number>(c, { path: '/open/workspaces/1/forms' }));
    expect(pages.map((p) => p.items)).toEqual([[1, 2], [3, 4], [5]]);
    expect(pages.map((p) => p.truncated)).toEqual([false, false, false]);
    expect(urls()).toEqual(['/open/workspaces/1/forms?page=1', '/open/workspaces/1/forms?page=2', '/open/workspaces/1/forms?page=3']);
  });

  it('follows the Laravel envelope {data, links, meta{last_page}} and passes per_page and the query', async () => {
    const { c, urls } = await setup(5, laravel);
    const got: number[] = [];
    for await (const n of items(paginate<number>(c, { path: '/x', query: { status: 'open' } }, { perPage: 3 }))) got.push(n);
    expect(got).toEqual([1, 2, 3, 4, 5]);
    expect(urls()).toEqual(['/x?status=open&page=1&per_page=3', '/x?status=open&page=2&per_page=3']);
  });

  it('cuts off at --limit mid-page and flags the result as truncated', async () => {
    const { c, urls } = await setup(5, laravel);
    const pages = await collect(paginate<number>(c, { path: '/x' }, { limit: 3 }));
    expect(pages.map((p) => p.items)).toEqual([[1, 2], [3]]);
    expect(pages.at(-1)!.truncated).toBe(true);
    expect(urls()).toHaveLength(2);
  });

  it('a --limit that ends on a page boundary with more pages left is truncated', async () => {
    const { c, urls } = await setup(5, spec);
    const pages = await collect(paginate<number>(c, { path: '/x' }, { limit: 4 }));
    expect(pages.map((p) => p.items)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(pages.at(-1)!.truncated).toBe(true);
    expect(urls()).toHaveLength(2);
  });

  it('a --limit at or above the total is not truncated', async () => {
    const { c } = await setup(5, laravel);
    const pages = await collect(paginate<number>(c, { path: '/x' }, { limit: 5 }));
    expect(pages.flatMap((p) => p.items)).toEqual([1, 2, 3, 4, 5]);
    expect(pages.at(-1)!.truncated).toBe(false);
  });

  it('all: false fetches one page and says whether there is more', async () => {
    const { c, urls } = await setup(5, laravel);
    const pages = await collect(paginate<number>(c, { path: '/x' }, { all: false, page: 2 }));
    expect(pages).toHaveLength(1);
    expect(pages[0]!.items).toEqual([3, 4]);
    expect(pages[0]!.truncated).toBe(true);
    expect(urls()).toEqual(['/x?page=2']);
  });

  it('stops when a server ignores `page` and repeats itself', async () => {
    const { c, urls } = await setup(5, (data, _page, perPage) => ({
      data: data.length ? [1, 2] : [1, 2],
      meta: { current_page: 1, last_page: 3, per_page: perPage },
    }));
    const pages = await collect(paginate<number>(c, { path: '/x' }));
    expect(pages.flatMap((p) => p.items)).toEqual([1, 2]);
    expect(pages.at(-1)!.truncated).toBe(true);
    expect(urls()).toHaveLength(2);
  });

  it('stops on an empty page even if meta claims more', async () => {
    const { c, urls } = await setup(0, (data, page) => ({ data, meta: { current_page: page, last_page: 9 } }));
    const pages = await collect(paginate<number>(c, { path: '/x' }));
    expect(pages.flatMap((p) => p.items)).toEqual([]);
    expect(urls()).toHaveLength(1);
  });
});
