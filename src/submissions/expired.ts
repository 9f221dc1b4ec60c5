// How many submissions a form's retention would delete today, counted from the submission list
// (docs/forms.md, "Retention"); src/forms/retention.ts words the warning around the count.
import type { ApiClient } from '../api/client.js';
import { normalizeSubmission, unwrapList } from '../api/normalize.js';
import { listSubmissionsPage } from '../api/submissions.js';
import { InterruptedError } from '../errors.js';
import { MAX_PER_PAGE } from '../service/limits.js';
import { serviceDateMs } from './dates.js';

type Obj = Record<string, unknown>;

/** How many submissions a retention deletes at once, and how they were counted. */
export interface ExpiredCount {
  count: number;
  /** True when counted by each submission's last update (what the service deletes by); false: by its submission date, an upper bound. */
  byUpdate: boolean;
}

/** A list item's last update, else its submission date (ms), and which one it was; undefined when it carries neither. */
function itemTime(raw: Obj): { ms: number; byUpdate: boolean } | undefined {
  const data = raw.data && typeof raw.data === 'object' ? (raw.data as Obj) : {};
  const updated = raw.updated_at ?? data.updated_at;
  if (typeof updated === 'string') {
    const ms = serviceDateMs(updated);
    if (ms !== undefined) return { ms, byUpdate: true };
  }
  const submitted = normalizeSubmission(raw).submitted_at;
  const ms = typeof submitted === 'string' ? serviceDateMs(submitted) : undefined;
  return ms === undefined ? undefined : { ms, byUpdate: false };
}

/**
 * Counts the submissions at or before `cutoff` from the submission list, which is newest first: a
 * binary search over its pages of 100 for where the old ones start, so a form of 10,000
 * submissions costs about 8 requests. Neither service's list carries `updated_at` today (the
 * deployed one has `data.created_at`, the spec `submitted_at`), so the count is by submission date
 * and is an upper bound: a submission updated since is kept. undefined when the list cannot be read.
 */
export async function countExpired(client: ApiClient, formId: number, cutoff: number, signal?: AbortSignal): Promise<ExpiredCount | undefined> {
  const pages = new Map<number, Obj[]>();
  let total: number | undefined;
  let last = 1;
  let byUpdate = true;
  const read = async (page: number): Promise<Obj[]> => {
    const cached = pages.get(page);
    if (cached) return cached;
    const res = await listSubmissionsPage(client, formId, page, MAX_PER_PAGE, { signal });
    const { items, page: info } = unwrapList<Obj>(res.data, res);
    if (page === 1) {
      total = info?.total ?? items.length;
      last = info?.lastPage ?? (info ? Math.max(1, Math.ceil((info.total ?? items.length) / MAX_PER_PAGE)) : 1);
    }
    pages.set(page, items);
    return items;
  };
  const isOld = (item: Obj): boolean => {
    const t = itemTime(item);
    if (!t) return false;
    if (!t.byUpdate) byUpdate = false;
    return t.ms <= cutoff;
  };
  try {
    await read(1);
    if (!total) return { count: 0, byUpdate: true };
    // Pages before `lo` hold only newer submissions, pages after `hi` only older ones.
    let lo = 1;
    let hi = last;
    let newer: number | undefined;
    while (lo <= hi) {
      const mid = Math.floor((lo + hi) / 2);
      const items = await read(mid);
      const fresh = items.filter((i) => !isOld(i)).length;
      const start = (mid - 1) * MAX_PER_PAGE;
      if (items.length > 0 && fresh === items.length) lo = mid + 1;
      else if (fresh === 0) hi = mid - 1;
      else {
        newer = start + fresh;
        break;
      }
    }
    newer ??= Math.min(total, (lo - 1) * MAX_PER_PAGE);
    return { count: Math.max(0, total - newer), byUpdate };
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
    return undefined;
  }
}
