import { type Retention, describeRetention, retentionCutoff, retentionOf } from '../service/retention.js';
import type { ExpiredCount } from '../submissions/expired.js';

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
