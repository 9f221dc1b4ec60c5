import type { ApiClient, RequestOptions } from './client.js';
import { type PageInfo, unwrapList } from './normalize.js';

export interface PaginateOptions {
  /** First page to fetch (1-based). */
  page?: number;
  /** Page size to ask for (`per_page`); omitted when undefined. */
  perPage?: number;
  /** Stop after this many items. */
  limit?: number;
  /** Follow every page; false = only the first page fetched. */
  all?: boolean;
}

export interface Page<T> {
  items: T[];
  info?: PageInfo;
  /** True when the server has more pages than were fetched (or --limit cut the list). */
  truncated: boolean;
}

/** Async iterator over page envelopes; works with bare arrays (one page) and Laravel/spec envelopes. */
export async function* paginate<T>(client: ApiClient, req: RequestOptions, o: PaginateOptions = {}): AsyncGenerator<Page<T>> {
  let page = o.page ?? 1;
  let seen = 0;
  let lastReported: number | undefined;
  for (;;) {
    const query = { ...req.query, page, per_page: o.perPage };
    const res = await client.request<unknown>({ ...req, query });
    const { items: raw, page: info } = unwrapList<T>(res.data, res);
    let items = raw;
    let cut = false;
    if (o.limit !== undefined && seen + items.length > o.limit) {
      items = items.slice(0, o.limit - seen);
      cut = true;
    }
    seen += items.length;
    // A server that ignores `page` would repeat itself forever: stop when current_page does not advance.
    const stuck = info?.currentPage !== undefined && lastReported !== undefined && info.currentPage <= lastReported;
    lastReported = info?.currentPage;
    const more = hasMorePages(info, raw.length);
    const stop = cut || stuck || !more || o.all === false || (o.limit !== undefined && seen >= o.limit);
    yield { items: stuck ? [] : items, info, truncated: cut || (stop && more) };
    if (stop) return;
    page = (info?.currentPage ?? page) + 1;
  }
}

/** Flattens pages into items. */
export async function* items<T>(pages: AsyncIterable<Page<T>>, onPage?: (p: Page<T>) => void): AsyncGenerator<T> {
  for await (const p of pages) {
    onPage?.(p);
    yield* p.items;
  }
}

/** The number of the last page: `meta.last_page`, else `total` over `per_page`; undefined when the answer says neither. */
export function lastPageOf(info: PageInfo): number | undefined {
  return info.lastPage ?? (info.total !== undefined && info.perPage ? Math.ceil(info.total / info.perPage) : undefined);
}

/**
 * Whether the service has pages after one that held `count` items: `meta.last_page`, else
 * `links.next`, else `total` against `per_page`; an empty page is the end.
 */
export function hasMorePages(info: PageInfo | undefined, count: number): boolean {
  if (!info || count === 0) return false;
  if (info.currentPage !== undefined && info.lastPage !== undefined) return info.currentPage < info.lastPage;
  if (info.nextUrl !== undefined) return info.nextUrl !== null;
  if (info.currentPage !== undefined && info.perPage !== undefined && info.total !== undefined) {
    return info.currentPage * info.perPage < info.total;
  }
  return false;
}
