// When a listed submission was made, as an instant, whichever service answered.
import { type NormalizedSubmission, isoTime } from '../api/normalize.js';

/**
 * The submission's creation time in ms since the epoch, or undefined when it has none that parses.
 * The spec's `submitted_at` is ISO 8601; the deployed server's `data.created_at` is `Y-m-d H:i:s` in
 * the application's zone, UTC (OpnForm `FormSubmissionResource.php:60`, `config/app.php:106`).
 */
export function submittedAtMs(s: NormalizedSubmission): number | undefined {
  const v = s.submitted_at;
  return typeof v === 'string' && v !== '' ? serviceDateMs(v) : undefined;
}

/** A time as either service writes it: ISO 8601, or the deployed server's `Y-m-d H:i:s`, which is UTC (read by `isoTime`). */
export function serviceDateMs(v: string): number | undefined {
  const ms = Date.parse(isoTime(v));
  return Number.isFinite(ms) ? ms : undefined;
}

/** True when the service marks the submission partial (deployed: `data.status`; the spec's are all complete). */
export function isPartial(s: NormalizedSubmission): boolean {
  return s.status === 'partial' || s.data.status === 'partial';
}
