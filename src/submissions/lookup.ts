import type { ApiClient } from '../api/client.js';
import { type Answered, type NormalizedSubmission, normalizeSubmission, unwrapList } from '../api/normalize.js';
import { hasMorePages, lastPageOf } from '../api/paginate.js';
import { listSubmissionsPage } from '../api/submissions.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { MAX_PER_PAGE } from '../service/limits.js';
import { type SubmissionRef, numericIdOf, uuidOf } from './ref.js';
import { type WholeListState, readWholeList } from './whole-list.js';

/** How many list requests a lookup or scan cost (for the request-economy bench and tests). */
export interface ListCost {
  pages: number;
}

interface ListPage {
  items: NormalizedSubmission[];
  /** The answer as it came. */
  answer: Answered & { data: unknown };
  /** Undefined when the envelope says only whether a next page exists (see `more`). */
  lastPage?: number;
  more: boolean;
}

async function listPage(c: ApiClient, formId: number, page: number, cost?: ListCost, signal?: AbortSignal, perPage = MAX_PER_PAGE): Promise<ListPage> {
  // No `status`: both services then list partial submissions too.
  const res = await listSubmissionsPage(c, formId, page, perPage, { signal });
  if (cost) cost.pages++;
  const { items, page: info } = unwrapList<Record<string, unknown>>(res.data, res);
  // The page asked for is the one compared with the last: a page answered without its number is still that page.
  const more = hasMorePages(info && { ...info, currentPage: page }, items.length);
  return { items: items.map(normalizeSubmission), answer: res, lastPage: info ? lastPageOf(info) : 1, more };
}

/**
 * A submission the list does not hold. No request answered 404 (nothing was asked about this id), so
 * the message says what was done: the list was read, and how much of it.
 */
function notFound(formId: number, label: string, pagesRead: number): CliError {
  return new CliError(
    `Form ${formId} has no submission ${label}: it is not in the form's submission list (looked up in GET /open/forms/${formId}/submissions, ${pagesRead} page${pagesRead === 1 ? '' : 's'} read).`,
    ExitCode.notFound,
    `Check the submission id: formctl submission list ${formId}`,
  );
}

/**
 * A submission the list could not show, though it was read whole as far as it could be: its total
 * was never reached (see readWholeList), so "not found" would not be sure.
 */
function notSure(formId: number, label: string, state: WholeListState): CliError {
  return new CliError(
    `Submission ${label} was not found in the submission list of form ${formId}, but the list could not be read whole (the service counts ${state.total} submissions, ${state.distinct} distinct ones were read, the list read ${state.rereads + 1} times), so it may exist.`,
    ExitCode.error,
    'Submissions created in the same second come in no set order on the service; run the command again.',
  );
}

/**
 * Finds one submission through the list (the single-submission route is closed to tokens on the
 * deployed service). The list is newest first and ids grow with time, so a numeric id is found by a
 * binary search over pages: about log2(pages) + 1 requests. A UUID has no order, so the list is read
 * until it turns up. Exit 6 (not found) when the form has no such submission.
 *
 * The deployed list orders by creation time to the second alone, so submissions of the same second
 * may trade places across a page boundary from one request to the next (docs/service.md,
 * "Submissions"). A "not found" is therefore made sure before it is given: where the binary search
 * places the id, the pages around are read again with a page size one smaller (so they end
 * elsewhere); a list whose ids are out of order, and a UUID, are read whole by readWholeList, which
 * reads the list again when it holds fewer distinct ids than its total. When even that cannot reach
 * the total, the answer is exit 1 with a message saying so, never exit 6.
 */
export async function findSubmission(
  c: ApiClient,
  formId: number,
  ref: SubmissionRef,
  o: { cost?: ListCost; signal?: AbortSignal } = {},
): Promise<NormalizedSubmission> {
  const lookup = new Lookup(c, formId, ref, o);
  // No order to search by: the list is read until the UUID turns up.
  return ref.kind === 'uuid' ? lookup.readAll() : lookup.byId(ref.id);
}

/** The newest and oldest numeric ids of a page, and whether its ids are in order (newest first). */
function bounds(items: NormalizedSubmission[]) {
  const ids = items.map(numericIdOf).filter((n): n is number => n !== undefined);
  const ordered = ids.every((n, i) => i === 0 || n < ids[i - 1]!);
  return { max: ids[0], min: ids[ids.length - 1], ordered };
}

/** One lookup of findSubmission: what it looks for, and how many pages it read (for its messages). */
class Lookup {
  private read = 0;
  private readonly label: string;
  /** Whether the list orders by creation time to the second alone, so that same-second submissions may trade places. */
  private tiesPossible = false;

  constructor(
    private readonly c: ApiClient,
    private readonly formId: number,
    private readonly ref: SubmissionRef,
    private readonly o: { cost?: ListCost; signal?: AbortSignal },
  ) {
    this.label = ref.kind === 'id' ? String(ref.id) : ref.uuid;
  }

  private match = (s: NormalizedSubmission): boolean => (this.ref.kind === 'id' ? numericIdOf(s) === this.ref.id : uuidOf(s) === this.ref.uuid);

  private pageOf(p: number, size = MAX_PER_PAGE): Promise<ListPage> {
    this.read++;
    return listPage(this.c, this.formId, p, this.o.cost, this.o.signal, size);
  }

  /** The whole list, each id once, until the submission turns up. */
  async readAll(firstPage?: Answered & { data: unknown }): Promise<NormalizedSubmission> {
    const state: WholeListState = { pages: 0, distinct: 0, rereads: 0 };
    for await (const page of readWholeList(this.c, this.formId, { signal: this.o.signal, state, firstPage })) {
      const hit = page.items.find(this.match);
      if (hit) {
        if (this.o.cost) this.o.cost.pages += state.pages;
        return hit;
      }
    }
    if (this.o.cost) this.o.cost.pages += state.pages;
    this.read += state.pages;
    if (state.complete === false) throw notSure(this.formId, this.label, state);
    throw notFound(this.formId, this.label, this.read);
  }

  /** A numeric id: page 1, then a binary search over the pages left. */
  async byId(id: number): Promise<NormalizedSubmission> {
    const first = await this.pageOf(1);
    const hit = first.items.find(this.match);
    if (hit) return hit;
    // No page count to halve: page after page.
    if (first.lastPage === undefined) return this.readAll(first.answer);
    // Only a list that shows creation times (the deployed one) orders by them alone.
    this.tiesPossible = first.items.some((s) => typeof s.data?.created_at === 'string');
    const b1 = bounds(first.items);
    if (first.lastPage <= 1) throw notFound(this.formId, this.label, this.read);
    // Ids out of order (same-second answers in another order, an import, a clock change): no binary search.
    if (!b1.ordered) return this.readAll();
    // Not on page 1 though newer than its oldest: it does not exist.
    if (b1.min === undefined || id > b1.min) return this.aroundOnce(1);
    return this.halve(id, 2, first.lastPage);
  }

  /** The binary search over pages lo..hi, the id being older than every id of the pages before lo. */
  private async halve(id: number, lo: number, hi: number): Promise<NormalizedSubmission> {
    while (lo <= hi) {
      const mid = Math.floor((lo + hi) / 2);
      const page = await this.pageOf(mid);
      const hit = page.items.find(this.match);
      if (hit) return hit;
      const b = bounds(page.items);
      if (!b.ordered) return this.readAll();
      if (b.max === undefined || id > b.max) hi = mid - 1;
      else if (id < b.min!) lo = mid + 1;
      else return this.aroundOnce(mid);
    }
    return this.aroundOnce(lo);
  }

  /** Not where the binary search placed it (page q): the pages around q, read again in pages of another size. */
  private async aroundOnce(q: number): Promise<NormalizedSubmission> {
    if (this.tiesPossible) {
      const size = MAX_PER_PAGE - 1;
      const from = Math.max(0, (q - 2) * MAX_PER_PAGE);
      const to = (q + 1) * MAX_PER_PAGE;
      for (let k = Math.floor(from / size) + 1; (k - 1) * size < to; k++) {
        const page = await this.pageOf(k, size);
        const found = page.items.find(this.match);
        if (found) return found;
        if (!page.more) break;
      }
    }
    throw notFound(this.formId, this.label, this.read);
  }
}

/** The submissions a bulk run needs, found by one pass over the list. */
export interface SubmissionIndex {
  byId: Map<number, NormalizedSubmission>;
  /** UUID → numeric id. */
  byUuid: Map<string, number>;
  /** The list page each submission was read from, and when (ms, the caller's clock). */
  pageOf: Map<number, number>;
  readAt: Map<number, number>;
  /** The list was read to its end but could not be read whole (see readWholeList): a submission not in the index may exist. */
  incomplete?: boolean;
}

/**
 * Reads the list once, keeping only the wanted submissions (memory stays bounded by the input), and
 * stops as soon as every wanted one was seen.
 */
export async function scanSubmissions(
  c: ApiClient,
  formId: number,
  wanted: { ids: Set<number>; uuids: Set<string> },
  o: {
    cost?: ListCost;
    signal?: AbortSignal;
    /** Called before each page request (a pacer's take) and after it (its observe). */
    pace?: () => Promise<void>;
    observe?: () => void;
    onPage?: (pagesRead: number, lastPage: number | undefined) => void;
    now?: () => number;
  } = {},
): Promise<SubmissionIndex> {
  const index: SubmissionIndex = { byId: new Map(), byUuid: new Map(), pageOf: new Map(), readAt: new Map() };
  const now = o.now ?? Date.now;
  let left = wanted.ids.size + wanted.uuids.size;
  if (left === 0) return index;
  // The whole list, each id once (readWholeList): a submission that same-second ties or a deletion
  // moved past a page boundary is not missed.
  const state: WholeListState = { pages: 0, distinct: 0, rereads: 0 };
  try {
    for await (const page of readWholeList(c, formId, { signal: o.signal, state, pace: o.pace, observe: () => o.observe?.() })) {
      o.onPage?.(state.pages, page.lastPage);
      for (const s of page.items) {
        const id = numericIdOf(s);
        const uuid = uuidOf(s);
        const byId = id !== undefined && wanted.ids.has(id) && !index.byId.has(id);
        const byUuid = uuid !== undefined && wanted.uuids.has(uuid) && !index.byUuid.has(uuid);
        if (id === undefined || (!byId && !byUuid)) continue;
        index.byId.set(id, s);
        // refreshSubmission reads this page again, in pages of the usual size.
        if (page.perPage === MAX_PER_PAGE) index.pageOf.set(id, page.page);
        index.readAt.set(id, now());
        if (byId) left--;
        if (byUuid) {
          index.byUuid.set(uuid!, id);
          left--;
        }
      }
      if (left <= 0) break;
    }
    if (state.complete === false) index.incomplete = true;
  } finally {
    if (o.cost) o.cost.pages += state.pages;
  }
  return index;
}

/**
 * Reads one submission of a bulk run again (docs/submission-update.md, "Finding the submission"):
 * from the list page it was read from, refreshing the other indexed submissions on that page that
 * `reusable` allows; through findSubmission when it has moved off that page. Exit 6 when it is gone.
 */
export async function refreshSubmission(
  c: ApiClient,
  formId: number,
  index: SubmissionIndex,
  id: number,
  o: { now: () => number; reusable: (id: number) => boolean; pace?: () => Promise<void>; observe?: () => void; signal?: AbortSignal },
): Promise<NormalizedSubmission> {
  const page = index.pageOf.get(id);
  if (page !== undefined) {
    await o.pace?.();
    const got = await listPage(c, formId, page, undefined, o.signal);
    o.observe?.();
    const t = o.now();
    let hit: NormalizedSubmission | undefined;
    for (const s of got.items) {
      const sid = numericIdOf(s);
      if (sid === undefined || !index.byId.has(sid) || (sid !== id && !o.reusable(sid))) continue;
      index.byId.set(sid, s);
      index.readAt.set(sid, t);
      if (sid === id) hit = s;
    }
    if (hit) return hit;
  }
  await o.pace?.();
  const found = await findSubmission(c, formId, { kind: 'id', id }, { signal: o.signal });
  o.observe?.();
  index.byId.set(id, found);
  index.readAt.set(id, o.now());
  return found;
}

/** A UUID given by the user, turned into the numeric id the paths need, through the list. */
export async function resolveSubmissionRef(
  c: ApiClient,
  formId: number,
  ref: SubmissionRef,
  o: { cost?: ListCost; signal?: AbortSignal } = {},
): Promise<number> {
  if (ref.kind === 'id') return ref.id;
  const found = await findSubmission(c, formId, ref, o);
  const id = numericIdOf(found);
  if (id === undefined) {
    throw new UsageError(`The service lists submission ${ref.uuid} without a numeric id, so it cannot be addressed safely.`, 'Pass the numeric id instead.');
  }
  return id;
}
