// `--since` and `--until`: an ISO date or time, or a duration back from now. The flag's parser checks
// the text when argv is parsed; the run function turns it into an instant with the factory's clock.
import { UsageError } from '../errors.js';

/** A parsed `--since`/`--until` value: an instant, or a duration before "now". */
export type TimeFlag = { kind: 'instant'; ms: number; dateOnly: boolean; text: string } | { kind: 'ago'; ms: number; text: string };

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
const DURATION = /^(\d+)([smhdw])$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
// A date and a time (seconds and fraction optional), with an optional zone: Z or ±hh:mm.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** The hint every bad `--since`/`--until` gets. */
export const TIME_HINT =
  'Use an ISO date or time in UTC unless it names a zone (2026-11-01, 2026-11-01T09:30:00Z) or a duration back from now (30m, 24h, 7d, 2w).';

/** The option parser of `--since`/`--until`: refuses what is neither an ISO date/time nor a duration (exit 2). */
export function parseTimeFlag(flag: string): (v: string) => TimeFlag {
  return (raw: string) => {
    const v = raw.trim();
    const d = DURATION.exec(v);
    if (d) return { kind: 'ago', ms: Number(d[1]) * UNITS[d[2]!]!, text: v };
    if (DATE_ONLY.test(v) || DATE_TIME.test(v)) {
      // No zone: UTC, the zone both services write their times in (docs/service.md, Submissions).
      const iso = DATE_ONLY.test(v) ? `${v}T00:00:00Z` : /(Z|[+-]\d{2}:?\d{2})$/i.test(v) ? v.replace(' ', 'T') : `${v.replace(' ', 'T')}Z`;
      const ms = Date.parse(iso);
      // Date.parse rolls 2026-02-30 over to March: the date must read back as written.
      const day = Date.parse(`${v.slice(0, 10)}T00:00:00Z`);
      if (Number.isFinite(ms) && Number.isFinite(day) && new Date(day).toISOString().slice(0, 10) === v.slice(0, 10)) {
        return { kind: 'instant', ms, dateOnly: DATE_ONLY.test(v), text: v };
      }
    }
    throw new UsageError(`${flag}: "${raw}" is not a date, a time or a duration.`, TIME_HINT);
  };
}

/** A time range in ms since the epoch: `since` inclusive, `until` exclusive; either may be open. */
export interface TimeRange {
  since?: number;
  until?: number;
}

/**
 * The instants of `--since` and `--until` at `now`. A date alone in `--until` includes that whole day
 * (the range ends at the next midnight, UTC). A range that ends before it starts is refused (exit 2).
 */
export function resolveRange(o: { since?: TimeFlag; until?: TimeFlag }, now: Date): TimeRange {
  const at = (t: TimeFlag | undefined, end: boolean): number | undefined => {
    if (t === undefined) return undefined;
    if (t.kind === 'ago') return now.getTime() - t.ms;
    return end && t.dateOnly ? t.ms + UNITS.d! : t.ms;
  };
  const range: TimeRange = { since: at(o.since, false), until: at(o.until, true) };
  if (range.since !== undefined && range.until !== undefined && range.since >= range.until) {
    throw new UsageError(
      `--since ${o.since!.text} is not before --until ${o.until!.text}: the range is empty.`,
      '--since is where the range starts (inclusive), --until where it ends (exclusive; a date alone includes that day).',
    );
  }
  return range;
}

/** True when `ms` lies in the range. */
export function inRange(range: TimeRange, ms: number): boolean {
  return (range.since === undefined || ms >= range.since) && (range.until === undefined || ms < range.until);
}
