// Reading the part of a submission list that falls in a time range. The services have no date
// filter, but both list newest first (OpnForm `FormSubmissionController.php:67`, orderByDesc
// created_at; docs/service.md, Submissions): the reading stops at the first submission older than
// the range's start instead of reading the whole list.
import type { ApiClient } from '../api/client.js';
import type { NormalizedSubmission } from '../api/normalize.js';
import { numericIdOf } from './ref.js';
import { type WholeListOptions, type WholeListPage, readWholeList } from './whole-list.js';
import { type TimeRange, inRange } from '../io/time-range.js';
import { submittedAtMs } from './dates.js';

/** How a range reading ended. */
export interface RangeReading {
  /** True when it stopped at the range's start, before the end of the list. */
  stoppedEarly: boolean;
  /** True when the list was found out of order (newer after older): it was then read to its end. */
  outOfOrder: boolean;
  /** Submissions without a readable time (left out of any range). */
  undated: number;
  /** The numeric id of the first submission listed, in the range or not (an export of it gives the CSV's header). */
  anyId?: number;
  /** Each listed submission's creation time (ms) by numeric id, for those in the range. */
  times?: Map<number, number>;
}

/**
 * The list's pages with only the submissions inside `range` (a page may come out empty). The
 * reading stops after the page holding the first submission older than `range.since`, as long as
 * every time seen so far has come newest first; submissions of one second may come in any order,
 * which does not matter here (none older than `since` precedes one inside it). Without a range, this
 * is readWholeList.
 */
export async function* readListInRange(
  c: ApiClient,
  formId: number,
  range: TimeRange,
  o: WholeListOptions = {},
  info: RangeReading = { stoppedEarly: false, outOfOrder: false, undated: 0 },
): AsyncGenerator<WholeListPage & { items: NormalizedSubmission[] }> {
  let last = Number.POSITIVE_INFINITY;
  const ranged = range.since !== undefined || range.until !== undefined;
  for await (const page of readWholeList(c, formId, o)) {
    let past = false;
    const items: NormalizedSubmission[] = [];
    for (const s of page.items) {
      info.anyId ??= numericIdOf(s);
      const t = submittedAtMs(s);
      if (t === undefined) {
        info.undated++;
        if (!ranged) items.push(s);
        continue;
      }
      // A reading again (pass > 0) starts over from the newest: only the first pass is an ordered sequence.
      if (page.pass === 0) {
        if (t > last) info.outOfOrder = true;
        last = t;
      }
      if (range.since !== undefined && t < range.since) past = true;
      if (inRange(range, t)) {
        items.push(s);
        const id = numericIdOf(s);
        if (id !== undefined) info.times?.set(id, t);
      }
    }
    yield { ...page, items };
    if (past && page.pass === 0 && !info.outOfOrder) {
      info.stoppedEarly = true;
      return;
    }
  }
}
