// Submission retention (docs/service.md, "Retention"): a form may keep its submissions for a set
// time, after which the deployed service deletes them for good. Both sides use these facts: the
// client to say what a change will delete, the sandbox to validate and to purge.

/** The units the service accepts (OpnForm `Form::SUBMISSION_RETENTION_UNITS`, `UserFormRequest.php:170-174`). */
export const RETENTION_UNITS = ['day', 'week', 'month', 'year'] as const;
export type RetentionUnit = (typeof RETENTION_UNITS)[number];

/** The value's range (`UserFormRequest.php:163-169`: integer, min 1, max 3650). */
export const RETENTION_MIN = 1;
export const RETENTION_MAX = 3650;

export interface Retention {
  value: number;
  unit: RetentionUnit;
}

/** A form's retention from its attributes, or null when it keeps submissions for ever (either attribute empty). */
export function retentionOf(form: Record<string, unknown>): Retention | null {
  const raw = form.submission_retention_value;
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : undefined;
  const unit = form.submission_retention_unit;
  if (!value || !(RETENTION_UNITS as readonly unknown[]).includes(unit)) return null;
  return { value, unit: unit as RetentionUnit };
}

const blank = (v: unknown) => v === undefined || v === null || v === '';

/**
 * The service's rules for the two attributes (`UserFormRequest.php:163-174`: the value an integer
 * from 1 to 3650, the unit one of RETENTION_UNITS, both nullable, each required with the other), as
 * "field: problem" lines for the client's local checks; none when they hold.
 */
export function retentionProblems(attrs: Record<string, unknown>): string[] {
  const value = attrs.submission_retention_value;
  const unit = attrs.submission_retention_unit;
  const problems: string[] = [];
  if (!blank(value)) {
    const n = typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < RETENTION_MIN || n > RETENTION_MAX)
      problems.push(`submission_retention_value: ${JSON.stringify(value)} is not a whole number from ${RETENTION_MIN} to ${RETENTION_MAX}`);
    if (blank(unit)) problems.push(`submission_retention_unit: is required with submission_retention_value (one of ${RETENTION_UNITS.join(', ')})`);
  }
  if (!blank(unit)) {
    if (!(RETENTION_UNITS as readonly unknown[]).includes(unit))
      problems.push(`submission_retention_unit: ${JSON.stringify(unit)} is not one of ${RETENTION_UNITS.join(', ')}`);
    if (blank(value))
      problems.push(`submission_retention_value: is required with submission_retention_unit (a whole number from ${RETENTION_MIN} to ${RETENTION_MAX})`);
  }
  return problems;
}

/** "1 day", "3 weeks". */
export function describeRetention(r: Retention): string {
  return `${r.value} ${r.unit}${r.value === 1 ? '' : 's'}`;
}

/**
 * The moment before which submissions (by their last update) are deleted, as the service computes
 * it (`SubmissionRetentionService.php:16-33`): days and weeks subtracted, months and years
 * subtracted without overflow (31 March less one month is 28 or 29 February), in UTC.
 */
export function retentionCutoff(now: number, r: Retention): number {
  const d = new Date(now);
  switch (r.unit) {
    case 'day':
      return now - r.value * 86_400_000;
    case 'week':
      return now - r.value * 7 * 86_400_000;
    case 'month':
    case 'year': {
      const months = r.unit === 'month' ? r.value : r.value * 12;
      const y = d.getUTCFullYear();
      const m = d.getUTCMonth() - months;
      const targetYear = y + Math.floor(m / 12);
      const targetMonth = ((m % 12) + 12) % 12;
      const lastDay = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();
      return Date.UTC(
        targetYear,
        targetMonth,
        Math.min(d.getUTCDate(), lastDay),
        d.getUTCHours(),
        d.getUTCMinutes(),
        d.getUTCSeconds(),
        d.getUTCMilliseconds(),
      );
    }
  }
}
