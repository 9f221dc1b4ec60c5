import type { ApiClient } from '../api/client.js';
import { normalizeSubmission, unwrapList } from '../api/normalize.js';
import { listSubmissionsPage } from '../api/submissions.js';
import { InterruptedError } from '../errors.js';
import { MAX_PER_PAGE } from '../service/limits.js';
import { type Retention, describeRetention, retentionCutoff, retentionOf } from '../service/retention.js';

type Obj = Record<string, unknown>;

/** A change of retention that can delete submissions: one set where there was none, or a shorter one. */
export interface RetentionChange {
  before: Retention | null;
  after: Retention;
}

/**
 * What a change does to a form's submission retention (docs/forms.md, "Retention"): undefined when
 * it keeps or lengthens it, or removes it; else the retention before and after. "Shorter" is decided
 * by the cutoffs the service would compute now (`SubmissionRetentionService.php:16-33`).
 */
export function retentionChange(before: Obj, after: Obj, now: number): RetentionChange | undefined {
  const a = retentionOf(after);
  if (!a) return undefined;
  const b = retentionOf(before);
  if (b && retentionCutoff(now, a) <= retentionCutoff(now, b)) return undefined;
  return { before: b, after: a };
}

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
    const ms = parseServiceDate(updated);
    if (ms !== undefined) return { ms, byUpdate: true };
  }
  const submitted = normalizeSubmission(raw).submitted_at;
  const ms = typeof submitted === 'string' ? parseServiceDate(submitted) : undefined;
  return ms === undefined ? undefined : { ms, byUpdate: false };
}

/** ISO 8601, or the deployed list's `Y-m-d H:i:s`, which is UTC (the server's time zone). */
export function parseServiceDate(s: string): number | undefined {
  const text = /^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?$/.test(s) ? `${s.replace(' ', 'T')}Z` : s;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
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

/**
 * The warning a retention change gets before anything is sent: what it will delete and when, e.g.
 * `form 12 ("Contact") will keep submissions for 1 day (until now: for ever): the service deletes
 * submissions older than 1 day for good, up to 37 of them today, within the hour.`
 */
export function retentionWarning(form: { id?: number; title?: unknown }, change: RetentionChange, count: ExpiredCount | undefined): string {
  const name = typeof form.title === 'string' && form.title ? ` (${JSON.stringify(form.title)})` : '';
  const which = form.id === undefined ? `the new form${name}` : `form ${form.id}${name}`;
  const span = describeRetention(change.after);
  const was = change.before ? describeRetention(change.before) : 'for ever';
  const many =
    count === undefined
      ? 'how many of them today could not be counted'
      : count.count === 0
        ? 'none of them today'
        : `${count.byUpdate ? '' : 'up to '}${count.count.toLocaleString('en-US')} of them today${count.byUpdate ? '' : ' (counted by submission date; one updated since is kept)'}`;
  return `${which} will keep submissions for ${span} (until now: ${was}): the service deletes submissions older than ${span} (by their last update) for good, with their files, ${many}, within the hour`;
}
