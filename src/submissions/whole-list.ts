import type { ApiClient } from '../api/client.js';
import { type Answered, type NormalizedSubmission, normalizeSubmission, unwrapList } from '../api/normalize.js';
import { hasMorePages, lastPageOf } from '../api/paginate.js';
import { listSubmissionsPage } from '../api/submissions.js';
import { MAX_PER_PAGE } from '../service/limits.js';
import { numericIdOf } from './ref.js';

const MAX_STEPS_BACK = 50;

/** One page of the list, as the whole-list reading gives it. */
export interface WholeListPage {
  /** The page's submissions that were not given before (by numeric id), in list order. */
  items: NormalizedSubmission[];
  /** The page number and size asked for. */
  page: number;
  perPage: number;
  /** The page count the answer reported, when it did. */
  lastPage?: number;
  /** 0 for the first reading of the list; 1 and up for a reading again, for ids the readings before missed. */
  pass: number;
}

/** What a whole-list reading found; the caller passes it in and reads it as the reading goes. */
export interface WholeListState {
  /** The list's total, as the latest page reported it (undefined when the service sent none). */
  total?: number;
  /** List requests made. */
  pages: number;
  /** Distinct submissions given. */
  distinct: number;
  /** Readings again made (0 when the first reading was complete). */
  rereads: number;
  /** Set when the reading ends: false when it ended with fewer distinct submissions than the total. */
  complete?: boolean;
  /** Set when the reading ends incomplete: how many submissions of the total it could not show. */
  missing?: number;
}

export interface WholeListOptions {
  /** Filters passed through (`status`, `search`). */
  query?: Record<string, string | undefined>;
  /** Page size of the first reading; default (and at most) 100. */
  perPage?: number;
  signal?: AbortSignal;
  /** Called before each page request (a pacer's take). */
  pace?: () => Promise<void>;
  /** Called after each page request with its answer's headers (a pacer's observe). */
  observe?: (headers: Record<string, string | string[] | undefined>) => void;
  state?: WholeListState;
  /** The answer to page 1 (of `perPage`), when the caller read it already: it is not asked again. */
  firstPage?: Answered & { data: unknown };
  /** How many times the list may be read again for missing submissions; default 2. */
  rereads?: number;
}

/**
 * A form's submission list, each submission given once (docs/service.md, "Submissions"; the reading
 * is described in docs/submission-update.md, "Reading the whole list"). The list is paged by offset
 * and ordered by creation time to the second alone, so it is not a stable sequence:
 *
 * - an answer arriving while it is read moves every entry a place down: an id seen before is skipped;
 * - a submission deleted from a page already read moves every later one a place up, past the next
 *   page's start: when a page reports a smaller total than the page before, the pages the shift may
 *   have moved unread ids onto are read again;
 * - submissions created in the same second come in no set order, and two page requests may disagree
 *   about them (a page repeats one of the page before and skips another): when the reading ends with
 *   fewer distinct ids than the total, the list is read again from page 1 (each time with a page size
 *   one smaller, so the pages end elsewhere), up to `rereads` times, stopping as soon as the count is
 *   reached. `state.complete` says whether it was.
 *
 * Yields each page's new submissions (a page with none is not yielded). Stopping early (a `break`)
 * is fine: nothing more is read.
 */
export async function* readWholeList(c: ApiClient, formId: number, o: WholeListOptions = {}): AsyncGenerator<WholeListPage> {
  const state = o.state ?? { pages: 0, distinct: 0, rereads: 0 };
  const first = Math.min(Math.max(o.perPage ?? MAX_PER_PAGE, 1), MAX_PER_PAGE);
  const rereads = o.rereads ?? 2;
  const ids = new DistinctIds();
  let size = first;
  let page = 0;
  let pass = 0;
  let lastTotal: number | undefined;
  // Steps back for a shrinking total, at most this many per reading: a total that keeps swinging
  // (a broken service) cannot hold the reading forever; the count against the total still tells.
  let stepsBack = 0;
  for (;;) {
    page++;
    const { items: raw, page: info } = await readPage(c, formId, page, size, pass === 0, o, state);
    const shrunk = info?.total !== undefined && lastTotal !== undefined ? lastTotal - info.total : 0;
    if (shrunk > 0) ids.shrank(shrunk);
    const fresh = raw.map(normalizeSubmission).filter((s) => ids.add(s));
    state.distinct += fresh.length;
    if (!info) {
      // A bare array is the whole list at once.
      state.total = raw.length;
      if (fresh.length > 0) yield { items: fresh, page, perPage: size, lastPage: 1, pass };
      break;
    }
    const lastPage = lastPageOf(info);
    // A service that ignores `page` (it reports another page than the one asked) would repeat itself forever.
    const stuck = info.currentPage !== undefined && info.currentPage !== page;
    const more = !stuck && hasMorePages({ ...info, currentPage: page }, raw.length);
    if (info.total !== undefined) state.total = lastTotal = info.total;
    if (fresh.length > 0) yield { items: fresh, page, perPage: size, lastPage, pass };
    if (shrunk > 0 && page > 1 && stepsBack++ < MAX_STEPS_BACK) {
      // Ids up to `shrunk` places past the pages read may now sit on them: read those pages again.
      page = Math.max(0, page - 1 - Math.ceil(shrunk / (info.perPage || size)));
      continue;
    }
    if (pass > 0 && state.total !== undefined && ids.counted >= state.total) break;
    if (!more) {
      if (pass < rereads && state.total !== undefined && ids.counted < state.total) {
        pass++;
        state.rereads = pass;
        size = Math.max(1, first - pass);
        page = 0;
        stepsBack = 0;
        continue;
      }
      break;
    }
  }
  state.complete = state.total === undefined || ids.counted >= state.total;
  if (!state.complete) state.missing = state.total! - ids.counted;
}

/** Page `page` of the list: the answer the caller passed for page 1 of the first reading, else a paced request. */
async function readPage(c: ApiClient, formId: number, page: number, size: number, firstReading: boolean, o: WholeListOptions, state: WholeListState) {
  if (page === 1 && firstReading && o.firstPage !== undefined) {
    const { data, ...from } = o.firstPage;
    return unwrapList<Record<string, unknown>>(data, from);
  }
  await o.pace?.();
  const res = await listSubmissionsPage(c, formId, page, size, o);
  state.pages++;
  o.observe?.(res.headers);
  return unwrapList<Record<string, unknown>>(res.data, res);
}

/** The submissions a reading gave, by numeric id, and how many of them count against the list's total. */
class DistinctIds {
  private readonly seen = new Set<number>();
  // The ids read since the total last shrank are known to exist, while any read before may be among
  // the deleted ones: deleted ids read earlier must not make up for ids the reading missed. So the
  // ids that count against the total are those read since, or all ids read less the drops of the
  // total (enough when every deleted one had been read and nothing was missed), whichever is more.
  private readonly since = new Set<number>();
  private unnumbered = 0;
  private dropped = 0;

  /** The total shrank by `n` (submissions were deleted). */
  shrank(n: number): void {
    this.since.clear();
    this.dropped += n;
  }

  /** Whether `s` was not given before (a submission without a numeric id always is); remembers it. */
  add(s: NormalizedSubmission): boolean {
    const id = numericIdOf(s);
    if (id === undefined) {
      this.unnumbered++;
      return true;
    }
    this.since.add(id);
    if (this.seen.has(id)) return false;
    this.seen.add(id);
    return true;
  }

  get counted(): number {
    return Math.max(this.since.size, this.seen.size - this.dropped) + this.unnumbered;
  }
}
